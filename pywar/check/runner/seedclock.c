/* pywar's seed clock: a preload library (LD_PRELOAD) that makes a program's wall clock
 * read PYWAR_SEED seconds after the epoch, so that an unchanged srand(time(NULL))
 * becomes srand(seed).  Only the calendar clock is replaced (time, gettimeofday,
 * clock_gettime of CLOCK_REALTIME and its coarse twin); every other clock, sleeps and
 * timers are the real ones.  pywar grade compiles it with the submissions' compiler
 * (pywar/check/runner/sandbox.py, seed_clock) and docs/grading.md says why it is pywar's own
 * rather than libfaketime. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static time_t seed_seconds(void)
{
    const char *text = getenv("PYWAR_SEED");
    return text ? (time_t)strtoull(text, NULL, 10) : 0;
}

time_t time(time_t *out)
{
    time_t now = seed_seconds();
    if (out)
        *out = now;
    return now;
}

int gettimeofday(struct timeval *restrict now, void *restrict zone)
{
    (void)zone;
    now->tv_sec = seed_seconds();
    now->tv_usec = 0;
    return 0;
}

int clock_gettime(clockid_t clock, struct timespec *now)
{
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) {
        now->tv_sec = seed_seconds();
        now->tv_nsec = 0;
        return 0;
    }
    int (*real)(clockid_t, struct timespec *) =
        (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real ? real(clock, now) : -1;
}
