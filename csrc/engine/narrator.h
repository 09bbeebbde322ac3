/* narrator.h: the transcript, in the words of each rule set's own program.
 * Every function writes to the table's text buffer and does nothing without one. */
#ifndef PYWAR_NARRATOR_H
#define PYWAR_NARRATOR_H

#include "tabletop.h"

void Narrator_Welcome(const TableTop *table);
void Narrator_Dealt(const TableTop *table);
void Narrator_RoundStart(const TableTop *table);
void Narrator_FaceUp(const TableTop *table);
void Narrator_Win(const TableTop *table, int winner);
void Narrator_Tie(const TableTop *table);
void Narrator_Gets(const TableTop *table, int winner, const Card *card);
void Narrator_Refill(const TableTop *table, int player);
void Narrator_Counts(const TableTop *table);
void Narrator_RoundEnd(const TableTop *table);
void Narrator_GameOver(const TableTop *table);

#endif
