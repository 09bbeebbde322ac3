/* tabletop.h: the reference's TableTop (its "GameBoard"), which main owns: TableTop_Init
 * and TableTop_Destroy are its constructor and destructor, in place. */
#ifndef PYWAR_PORT_TABLETOP_H
#define PYWAR_PORT_TABLETOP_H

#include <stdbool.h>
#include "../common/observer.h"
#include "player.h"

typedef struct TableTop {
    Player playerA;
    Player playerB;
    Pile currentlyInPlay;
    Card *deck[MAXCARDS];
    Rng rng;                 /* rand()'s state: the table's own, not global */
    PywarText *text;         /* cout: the transcript; NULL prints nothing */
    Observer observer;       /* counts, digest and trace: the port's addition */
} TableTop;

int TableTop_Init(TableTop *tableTop, uint32_t seed, int stack, PywarText *text,
                  PywarText *trace);
void TableTop_Destroy(TableTop *tableTop);
bool TableTop_DoBattle(TableTop *tableTop);
#endif
