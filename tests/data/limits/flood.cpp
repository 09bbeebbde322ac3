// Breaks the output limit: prints the same round forever.
#include <iostream>
int main() {
    for (;;) std::cout << "======== Round 1 ========\n";
}
