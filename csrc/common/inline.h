/* inline.h: how the engine's steps are compiled.  A STEP is inlined into the loop that
 * calls it, so that a Spec the loop holds as a constant folds away the branches of the
 * rules it does not use; a COLD function (cycle finding, the cap) is kept out of it. */
#ifndef PYWAR_INLINE_H
#define PYWAR_INLINE_H

#if defined(__GNUC__)
#define STEP static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))
#else
#define STEP static inline
#define COLD static
#endif

#endif
