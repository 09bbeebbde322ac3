/* text.h: appending to the caller's transcript buffer; a NULL buffer takes nothing. */
#ifndef PYWAR_TEXT_H
#define PYWAR_TEXT_H

#include "pywar.h"

void Text_Printf(PywarText *text, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
