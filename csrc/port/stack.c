/* stack.c: the inside of the stack ADT, which the port never sees: only stack.h.
 * It has room for a whole deck from the start, so a push never needs memory: no pile
 * of a game holds more.  Like <stack>, it trusts its caller (no pop when empty). */
#include <stdlib.h>
#include "pywar.h"
#include "stack.h"

struct Stack {
    Card *cards[PYWAR_MAXCARDS];
    int size;
};

Stack *Stack_New(void) { return calloc(1, sizeof(Stack)); }
void Stack_Delete(Stack *stack) { free(stack); }
void Stack_Push(Stack *stack, Card *card) { stack->cards[stack->size++] = card; }
void Stack_Pop(Stack *stack) { stack->size--; }
Card *Stack_Top(const Stack *stack) { return stack->cards[stack->size - 1]; }
int Stack_Size(const Stack *stack) { return stack->size; }
bool Stack_Empty(const Stack *stack) { return stack->size == 0; }
