/* program4.c: the reference's program4.cpp, its main as pywar_port_play (see pywar.h):
 * one game of the seed, and the observer's counts in result. */
#include "pywar.h"
#include "tabletop.h"
#include "../common/text.h"

/* main */
int pywar_port_play(uint32_t seed, int stack, PywarResult *result, PywarText *text,
                    PywarText *trace)
{
    if (result == NULL || (stack != PYWAR_STACK_PILE && stack != PYWAR_STACK_ADT)) {
        return PYWAR_EINVAL;
    }
    TableTop tableTop;
    int status = TableTop_Init(&tableTop, seed, stack, text, trace);
    if (status != PYWAR_OK) {
        return status;
    }
    bool someoneRanOutOfCards = false;
    int round = 1;
    while (!someoneRanOutOfCards) {
        Observer_Round(&tableTop.observer);
        Text_Printf(text, "======== Round %d ========\n", round++);
        someoneRanOutOfCards = TableTop_DoBattle(&tableTop);
    }
    Observer_End(&tableTop.observer);
    *result = tableTop.observer.result;
    TableTop_Destroy(&tableTop);
    Text_Flush(text);
    bool failed = (text != NULL && text->failed) || (trace != NULL && trace->failed);
    return failed ? PYWAR_ENOMEM : PYWAR_OK;    /* the transcript or trace ran out of memory */
}
