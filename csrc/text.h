/* text.h: appending to the caller's transcript buffer; a NULL buffer takes nothing. */
#ifndef PYWAR_TEXT_H
#define PYWAR_TEXT_H

#include "pywar.h"

#if defined(__GNUC__)
#define TEXT_PRINTF_FORMAT __attribute__((format(printf, 2, 3)))
#else
#define TEXT_PRINTF_FORMAT
#endif

void Text_Printf(PywarText *text, const char *format, ...) TEXT_PRINTF_FORMAT;
void Text_Flush(PywarText *text);

#endif
