/* text.h: appending to a caller's text buffer (a transcript or a trace); a NULL buffer
 * takes nothing.  With a sink, the buffer is handed over in pieces as it fills. */
#ifndef PYWAR_TEXT_H
#define PYWAR_TEXT_H

#include <stddef.h>

#include "pywar.h"

#if defined(__GNUC__)
#define TEXT_PRINTF_FORMAT __attribute__((format(printf, 2, 3)))
#else
#define TEXT_PRINTF_FORMAT
#endif

void Text_Append(PywarText *text, const char *data, size_t length);
void Text_Printf(PywarText *text, const char *format, ...) TEXT_PRINTF_FORMAT;
void Text_Flush(PywarText *text);

#endif
