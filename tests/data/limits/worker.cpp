// Keeps no limit: it computes for 0.6 s of CPU time, then ends well, however long a busy
// machine makes that on the clock.
#include <cstdio>
#include <ctime>
int main() {
    volatile unsigned long rounds = 0;
    while (std::clock() < 0.6 * CLOCKS_PER_SEC) rounds++;
    std::puts("done");
}
