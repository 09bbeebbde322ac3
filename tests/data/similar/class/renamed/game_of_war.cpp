#include <cstdlib>
#include <ctime>
#include <iostream>
#include "pile.h"
using namespace std;
void mixUp(Pile &stack);
void showHand(char who, const Pile &stack);
int worth(const Card *c);
void reload(char who, Pile &hand, Pile &taken);
void tellSizes(char who, const Pile &hand, const Pile &taken);
bool fight(Pile &handA, Pile &handB, Pile &middle, Pile &gainA, Pile &gainB);
void mixUp(Pile &stack) {
	Card *tmp[Pile::CAPACITY];
	int n = 0;
	while (!stack.isEmpty()) {
		tmp[n] = stack.pop();
		n++;
	}
	for (int k = n - 1; k > 0; k--) {
		int m = rand() % (k + 1);
		Card *t = tmp[k];
		tmp[k] = tmp[m];
		tmp[m] = t;
	}
	for (int k = 0; k < n; k++) {
		stack.push(tmp[k]);
	}
}
void showHand(char who, const Pile &stack) {
	cout << "Player " << who << ":" << endl;
	cout << "There are " << stack.size() << " cards in the pile." << endl;
	for (int k = 0; k < stack.size(); k++) {
		cout << "Card " << k + 1 << ", " << nameOf(stack.at(k)) << endl;
	}
	cout << endl;
}
int worth(const Card *c) {
	return (c->rank + 1) % 13;
}
void reload(char who, Pile &hand, Pile &taken) {
	if (!hand.isEmpty() || taken.isEmpty()) {
		return;
	}
	cout << "Player " << who << " is out of cards to play, so the played ones come back."
		 << endl;
	cout << "Shuffling player " << who << " cards..." << endl << endl;
	mixUp(taken);
	while (!taken.isEmpty()) {
		hand.push(taken.pop());
	}
}
void tellSizes(char who, const Pile &hand, const Pile &taken) {
	cout << "Player " << who << " has " << hand.size() << " in their 'to play' pile and "
		 << taken.size() << " in their 'played' pile." << endl;
}
bool fight(Pile &handA, Pile &handB, Pile &middle, Pile &gainA, Pile &gainB) {
	Card *first = handA.pop();
	Card *second = handB.pop();
	cout << "Player A plays " << nameOf(first) << endl;
	cout << "Player B plays " << nameOf(second) << endl;
	middle.push(first);
	middle.push(second);
	if (worth(first) == worth(second)) {
		cout << "There is a tie... Doing another battle." << endl << endl;
		return true;
	}
	bool leftWins = worth(first) > worth(second);
	Pile &gets = leftWins ? gainA : gainB;
	cout << "Player " << (leftWins ? 'A' : 'B') << " takes the whole pot!" << endl << endl;
	for (int k = 0; k < middle.size(); k++) {
		gets.push(middle.at(k));
	}
	middle.clear();
	return false;
}
int main() {
	srand(time(NULL));
	cout << "Welcome to the Game of War!" << endl << endl;
	cout << "Shuffling initial deck..." << endl << endl;
	Pile all;
	for (int s = 0; s < 4; s++) {
		for (int r = 0; r < 13; r++) {
			all.push(new Card{r, s});
		}
	}
	mixUp(all);
	Pile handA, handB, gainA, gainB, middle;
	for (int k = 0; k < all.size(); k++) {
		if (k % 2 == 0) {
			handA.push(all.at(k));
		} else {
			handB.push(all.at(k));
		}
	}
	cout << "Initial 'to play' piles:" << endl << endl;
	showHand('A', handA);
	showHand('B', handB);
	int turn = 0;
	bool finished = false;
	while (!finished) {
		turn++;
		cout << "======== Round " << turn << " ========" << endl;
		bool again = true;
		while (again && !finished) {
			again = fight(handA, handB, middle, gainA, gainB);
			reload('A', handA, gainA);
			reload('B', handB, gainB);
			tellSizes('A', handA, gainA);
			tellSizes('B', handB, gainB);
			cout << endl;
			if (handA.isEmpty()) {
				cout << "Player A ran out of cards.  Player A has lost." << endl;
				finished = true;
			}
			if (handB.isEmpty()) {
				cout << "Player B ran out of cards.  Player B has lost." << endl;
				finished = true;
			}
		}
	}
	for (int k = 0; k < all.size(); k++) {
		delete all.at(k);
	}
	return 0;
}
