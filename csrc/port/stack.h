/* stack.h: Program 6's stack ADT, as C++'s std::stack<Card *>: opaque, so that push,
 * pop, top, size and empty are the only ways to its cards. */
#ifndef PYWAR_PORT_STACK_H
#define PYWAR_PORT_STACK_H

#include <stdbool.h>
#include "card.h"

typedef struct Stack Stack;

Stack *Stack_New(void);                 /* an empty stack, or NULL if there is no memory */
void Stack_Delete(Stack *stack);
void Stack_Push(Stack *stack, Card *card);
void Stack_Pop(Stack *stack);           /* removes the top card, returning nothing */
Card *Stack_Top(const Stack *stack);
int Stack_Size(const Stack *stack);
bool Stack_Empty(const Stack *stack);
#endif
