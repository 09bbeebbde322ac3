// Breaks the wall-clock limit while using no CPU: it waits for a player who never comes.
#include <unistd.h>
int main() {
    for (;;) sleep(60);
}
