/* stop.h: reading a caller's stop flag, which another thread sets while a game, a batch
 * or an exact part runs (pywar.simulate and pywar.exact set it from Python's thread on
 * Ctrl-C).  The read is an atomic load, relaxed, since the flag orders nothing else:
 * a plain read of a flag that another thread writes is a data race in C11, and
 * ThreadSanitizer reports it (tests/threads_driver.c).  Writers in C store to it
 * atomically too; cffi's flag[0] = 1 is an aligned 4-byte store, which the machines
 * pywar builds for make whole. */
#ifndef PYWAR_STOP_H
#define PYWAR_STOP_H

#include <stddef.h>
#include <stdint.h>

static inline int Stop_IsSet(const volatile int32_t *stop)
{
    if (stop == NULL) {
        return 0;
    }
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(stop, __ATOMIC_RELAXED) != 0;
#else
    return *stop != 0;
#endif
}

#endif
