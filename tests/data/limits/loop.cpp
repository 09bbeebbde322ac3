// Breaks the CPU limit: a battle that never ends.
int main() {
    volatile unsigned long rounds = 0;
    for (;;) rounds++;
}
