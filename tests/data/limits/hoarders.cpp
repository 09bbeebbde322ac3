// Breaks a run's memory, not a process's: ten children, each asking for 200 MiB of
// address space (under a limit of 256 MiB a process), then waiting; prints how many got
// theirs.  The memory limit is each process's (docs/grading.md): together they have at
// most the process limit times it.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main() {
    int said[2];
    if (pipe(said) != 0) return 1;
    int forked = 0;
    for (int i = 0; i < 10; i++) {
        pid_t child = fork();
        if (child == 0) {
            char *block = static_cast<char *>(std::malloc(200L << 20));
            if (write(said[1], block != nullptr ? "y" : "n", 1) == 1 && block != nullptr)
                pause();                    // holds its 200 MiB until the run ends
            _exit(0);
        }
        forked += child > 0;
    }
    int count = 0;
    char answer;
    for (int i = 0; i < forked && read(said[0], &answer, 1) == 1; i++)
        count += answer == 'y';             // one answer from each child that was started
    std::printf("200 MiB each: %d\n", count);
    return 0;
}
