// Program 6: War.
// TODO: the Card and Player classes, the deal, the battles.  (Handed in so that
// something is in; the game is not written yet.)
#include <cstdlib>
#include <ctime>

int main() {
    srand(time(NULL));
    return 0;
}
