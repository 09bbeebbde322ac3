/* trace.c: the line of one event in the trace (docs/trace.md): JSON with no spaces and
 * the keys in a fixed order, so that every implementation writes the same bytes. */
#include <stdarg.h>
#include <stdio.h>

#include "text.h"
#include "trace.h"

static const char *const KINDS[] = {"deal", "round", "take_back", "face_up", "battle",
                                    "pickup", "refill", "face_down", "run_out", "cap",
                                    "cycle", "end"};
static const char *const OUTCOMES[] = {"win", "both-lose", "cycle", "capped", "draw"};

/* A line under construction: a fixed buffer, ample for 52 cards and 8 players. */
typedef struct Line {
    char data[1024];
    size_t length;
} Line;

static void Line_Add(Line *line, const char *format, ...) TEXT_PRINTF_FORMAT;

static void Line_Add(Line *line, const char *format, ...)
{
    va_list args;
    size_t room = sizeof line->data - line->length;
    va_start(args, format);
    int written = vsnprintf(line->data + line->length, room, format, args);
    va_end(args);
    if (written > 0) {
        line->length += (size_t)written < room ? (size_t)written : room - 1;
    }
}

/* A player number, or null for -1. */
static void Line_AddPlayer(Line *line, const char *key, int player)
{
    if (player < 0) {
        Line_Add(line, ",\"%s\":null", key);
    } else {
        Line_Add(line, ",\"%s\":%d", key, player);
    }
}

/* A list of card ids. */
static void Line_AddCards(Line *line, const uint8_t *cards, int count)
{
    Line_Add(line, "[");
    for (int i = 0; i < count; i++) {
        Line_Add(line, "%s%d", i > 0 ? "," : "", cards[i]);
    }
    Line_Add(line, "]");
}

static void Line_AddOwnKeys(Line *line, const TraceEvent *event)
{
    switch (event->kind) {
    case TRACE_DEAL: {
        const uint8_t *hand = event->cards;
        Line_Add(line, ",\"hands\":[");
        for (int p = 0; p < event->players; p++) {
            Line_Add(line, "%s", p > 0 ? "," : "");
            Line_AddCards(line, hand, event->handCounts[p]);
            hand += event->handCounts[p];
        }
        Line_Add(line, "]");
        break;
    }
    case TRACE_FACE_UP:
    case TRACE_TAKE_BACK:
        Line_Add(line, ",\"player\":%d,\"card\":%d", event->player, event->cards[0]);
        break;
    case TRACE_BATTLE: {
        int first = 1;
        Line_AddPlayer(line, "winner", event->player);
        Line_Add(line, ",\"tied\":[");
        for (int p = 0; p < event->players; p++) {
            if (event->tied & (1 << p)) {
                Line_Add(line, "%s%d", first ? "" : ",", p);
                first = 0;
            }
        }
        Line_Add(line, "]");
        break;
    }
    case TRACE_PICKUP:
    case TRACE_REFILL:
    case TRACE_FACE_DOWN:
        Line_Add(line, ",\"player\":%d,\"cards\":", event->player);
        Line_AddCards(line, event->cards, event->count);
        break;
    case TRACE_RUN_OUT:
        Line_Add(line, ",\"player\":%d", event->player);
        break;
    case TRACE_CYCLE:
        Line_Add(line, ",\"start\":%ld,\"period\":%ld", (long)event->start,
                 (long)event->period);
        break;
    case TRACE_END:
        Line_Add(line, ",\"outcome\":\"%s\"", OUTCOMES[event->outcome]);
        Line_AddPlayer(line, "winner", event->player);
        break;
    default: /* round, cap */
        break;
    }
}

void Trace_Write(PywarText *out, const TraceEvent *event)
{
    Line line;
    if (out == NULL) {
        return;
    }
    if (out->counting) {
        if (++out->lines > out->limit && out->full != NULL) {
            *out->full = 1;
        }
        return;
    }
    line.length = 0;
    Line_Add(&line, "{\"event\":\"%s\",\"round\":%ld,\"battle\":%ld", KINDS[event->kind],
             (long)event->round, (long)event->battle);
    Line_AddOwnKeys(&line, event);
    Line_Add(&line, ",\"piles\":[");
    for (int p = 0; p < event->players; p++) {
        Line_Add(&line, "%s[%ld,%ld]", p > 0 ? "," : "", (long)event->piles[p][0],
                 (long)event->piles[p][1]);
    }
    Line_Add(&line, "],\"pot\":%ld}\n", (long)event->pot);
    Text_Append(out, line.data, line.length);
}
