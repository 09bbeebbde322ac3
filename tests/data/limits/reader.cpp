// Reads stdin, as a program that asks "Press Enter to deal" would: with no stdin it
// must get end-of-file at once, not wait.
#include <iostream>
#include <string>
int main() {
    std::string line;
    if (std::getline(std::cin, line))
        std::cout << "read: " << line << std::endl;
    else
        std::cout << "no input" << std::endl;
    return 0;
}
