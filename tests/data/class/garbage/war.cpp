// Program 6: War -- testing my random numbers first.
#include <cstdlib>
#include <ctime>
#include <iostream>

using namespace std;

int main() {
    srand(time(NULL));
    cout << "Hello" << endl;
    for (int i = 0; i < 5; i++)
        cout << rand() % 52 << endl;
    cout << "Player C wins everything" << endl;
    return 0;
}
