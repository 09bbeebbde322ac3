/* text.c: appending to a caller's text buffer (a transcript or a trace). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Make room for 'more' bytes and a NUL; on failure mark the buffer failed. */
static int Text_Reserve(PywarText *text, size_t more)
{
    size_t needed = text->length + more + 1;
    if (needed <= text->capacity) {
        return 1;
    }
    size_t capacity = text->capacity < 4096 ? 4096 : text->capacity;
    while (capacity < needed) {
        capacity *= 2;
    }
    char *data = realloc(text->data, capacity);
    if (data == NULL) {
        text->failed = 1;
        return 0;
    }
    text->data = data;
    text->capacity = capacity;
    return 1;
}

void Text_Append(PywarText *text, const char *data, size_t length)
{
    if (text == NULL || text->failed) {
        return;
    }
    if (Text_Reserve(text, length)) {
        memcpy(text->data + text->length, data, length);
        text->length += length;
        text->data[text->length] = '\0';
    }
    if (text->sink != NULL && text->length >= PYWAR_TEXT_PIECE) {
        Text_Flush(text);
    }
}

void Text_Printf(PywarText *text, const char *format, ...)
{
    char line[512];
    va_list args;
    if (text == NULL || text->failed) {
        return;
    }
    va_start(args, format);
    int length = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (length < 0 || (size_t)length >= sizeof line) {
        text->failed = 1;   /* no line of pywar's is that long */
        return;
    }
    Text_Append(text, line, (size_t)length);
}

/* Hand what the buffer holds to the sink, if there is one, and empty it. */
void Text_Flush(PywarText *text)
{
    if (text == NULL || text->sink == NULL || text->length == 0 || text->failed) {
        return;
    }
    text->sink(text->context, text->data, text->length);
    text->length = 0;
}

void pywar_text_free(PywarText *text)
{
    if (text != NULL) {
        free(text->data);
        text->data = NULL;
        text->length = 0;
        text->capacity = 0;
        text->failed = 0;
    }
}
