// Breaks the process limit: tries to start 100 players, each of which waits forever,
// prints how many it started, and leaves them running when it ends.
#include <cstdio>
#include <unistd.h>
int main() {
    int started = 0;
    for (int i = 0; i < 100; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;) pause();
        }
        if (pid > 0) started++;
    }
    printf("started %d\n", started);
    return 0;
}
