// Breaks the memory limit: a deck of a billion cards, 4 GiB, touched page by page.
#include <iostream>
#include <vector>
int main() {
    std::vector<int> deck;
    for (long card = 0; card < 1000000000L; card++) deck.push_back((int)card);
    std::cout << "dealt " << deck.size() << " cards" << std::endl;
    return 0;
}
