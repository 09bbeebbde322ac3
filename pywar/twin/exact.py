"""Every deal of a small deck, each played to its end, in Python (docs/rules.md
section 14). C: csrc/engine/exact.c.

The twin takes the C enumerator's steps with the same names, on ranks: a hand is a deque
of ranks, top first, where the C packs it in a word.  It plays every rank sequence of a
part in lexicographic order and counts how each game ends, into a dict that the C's
census becomes too (pywar.exact.enumeration), so the two can be compared field by field.
"""

from collections import deque

from ..common.fields import (OUTCOMES, SEATED_SHORT_WARS, SEATLESS_PICKUPS,
                             SEATLESS_WITHOUT_FACE_DOWN)
from ..rules import parse_deck

A, B = 0, 1


class RankGame:
    """One game on ranks. C: struct RankGame (and struct Quick, its hands in registers)."""

    def __init__(self, rules):
        """The rules as the loop reads them. C: Exact_Spec."""
        self.face_down = rules.face_down
        self.short_war = rules.short_war
        self.pickup = rules.pickup
        self.max_rounds = rules.max_rounds
        self.seatless = seatless(rules)

    def deal(self, ranks):
        """Deal a rank sequence alternately, A first: each hand plays its cards in the
        order received. C: RankGame_Deal."""
        self.hands = (deque(ranks[0::2]), deque(ranks[1::2]))
        self.pot, self.pot_owner = [], []
        self.up = [None, None]
        self.rounds = self.battles = self.ties = self.wars = 0
        self.period = None
        self.over = False
        self.outcome, self.winner = "win", None

    def state(self):
        """Both hands, top first. C: Quick, the hands in registers."""
        return tuple(self.hands[A]), tuple(self.hands[B])

    def put_in_pot(self, player, rank):
        """A card goes on top of the pot. C: RankGame_PutInPot."""
        self.pot.append(rank)
        self.pot_owner.append(player)

    def take_back(self, player):
        """The player's last face-up card leaves the pot, to be played again.
        C: RankGame_TakeBack."""
        position = len(self.pot) - 1
        while self.pot_owner[position] != player:
            position -= 1
        del self.pot_owner[position]
        return self.pot.pop(position)

    def face_up(self, takers=()):
        """A then B put a card face up; takers take back instead. C: RankGame_FaceUp."""
        self.battles += 1
        for p in (A, B):
            rank = self.take_back(p) if p in takers else self.hands[p].popleft()
            self.put_in_pot(p, rank)
            self.up[p] = rank

    def seat_cards(self, seat):
        """One seat's pot cards in the order they were put down. C: RankGame_SeatCards."""
        return [rank for rank, owner in zip(self.pot, self.pot_owner) if owner == seat]

    def order_by_seat(self, first_seat, interleave):
        """One seat's cards then the other's, or one of each in turn.
        C: RankGame_OrderBySeat."""
        first, second = self.seat_cards(first_seat), self.seat_cards(1 - first_seat)
        if not interleave:
            return first + second
        order = []
        for i in range(max(len(first), len(second))):
            order += first[i:i + 1] + second[i:i + 1]
        return order

    def pickup_order(self, winner):
        """The pot in the order the winner takes it (docs/rules.md 7.4).
        C: RankGame_PickupOrder."""
        if self.pickup == "smu":
            return self.pot[::-1]
        if self.pickup == "natural":
            # every battle of a round but the last tied: only the top pair to sort
            return sorted(self.pot[-2:], reverse=True) + self.pot[-3::-1]
        if self.pickup == "sorted":
            return sorted(self.pot, reverse=True)
        if self.pickup == "pot-order":
            return list(self.pot)
        if self.pickup == "winner-first":
            return self.order_by_seat(winner, interleave=False)
        if self.pickup == "loser-first":
            return self.order_by_seat(1 - winner, interleave=False)
        return self.order_by_seat(A, interleave=self.pickup == "seat-interleaved")

    def collect(self, winner):
        """The winner takes the pot to the bottom of its hand. C: RankGame_Collect."""
        self.hands[winner].extend(self.pickup_order(winner))
        self.pot, self.pot_owner = [], []

    def run_out(self, losers):
        """The game ends with these players out of cards (iofall: B wins if both are).
        C: RankGame_RunOut."""
        self.over = True
        if len(losers) == 2 and self.short_war != "iofall":
            self.outcome = "both-lose"
            return
        self.winner = B if A in losers else A

    def plan_war(self, player):
        """(down, loses, takes back) for a player with n cards (docs/rules.md 7.6).
        C: RankGame_PlanWar."""
        n, face_down = len(self.hands[player]), self.face_down
        if n >= face_down + 1:
            return face_down, False, False
        if self.short_war == "lose":
            return 0, True, False
        if self.short_war == "last-card":
            return max(n - 1, 0), n == 0, False
        if self.short_war == "all-but-one":
            return max(n - 1, 0), False, n == 0
        down = 0 if n == 0 else face_down if n >= face_down else max(n - 1, 1)
        return down, n - down == 0, False

    def war(self):
        """After a tie: face-down cards, A's then B's, then a new face-up pair.
        True when a player runs out instead. C: RankGame_War."""
        plans = [self.plan_war(p) for p in (A, B)]
        losers = {p for p in (A, B) if plans[p][1]}
        takers = {p for p in (A, B) if plans[p][2]}
        if len(takers) == 2:
            losers = takers
        if losers and self.short_war != "iofall":
            self.run_out(losers)
            return True
        for p in (A, B):
            for _ in range(plans[p][0]):
                self.put_in_pot(p, self.hands[p].popleft())
        if losers:
            self.run_out(losers)
            return True
        self.wars += 1
        self.face_up(takers)
        return False

    def play_round(self):
        """One round: battles until one is won or a player runs out. True at the end of
        the game. C: RankGame_PlayRound (with RankGame_PlayTie)."""
        self.rounds += 1
        self.face_up()
        while self.up[A] == self.up[B]:
            self.ties += 1
            if self.war():
                return True
        winner = A if self.up[A] > self.up[B] else B
        self.collect(winner)
        if not self.hands[1 - winner]:
            self.run_out({1 - winner})
        return self.over

    def play(self):
        """Rounds until an end, the cap, or a repeat found by Brent's search, as in
        Game_PlayWith. C: RankGame_Play."""
        saved, power, lam = self.state(), 1, 0
        while True:
            if self.rounds >= self.max_rounds:
                counts = len(self.hands[A]), len(self.hands[B])
                self.over, self.outcome = True, "capped"
                self.winner = None if counts[A] == counts[B] else A if counts[A] > counts[B] else B
                return
            if self.play_round():
                return
            lam += 1
            if self.state() == saved:
                self.over, self.outcome, self.period = True, "cycle", lam
                return
            if lam == power:
                saved, power, lam = self.state(), power * 2, 0


def digits(ranks):
    """Ranks as base-16 digits, the first the lowest. C: Quick holds hands so."""
    return sum(rank << 4 * i for i, rank in enumerate(ranks))


def state_key(table, swapped):
    """A state's key, or its player-swapped twin's: (A's count, A's ranks then B's, top
    first, as base-16 digits from the lowest). C: Exact_StateKey."""
    first, second = table.hands[B if swapped else A], table.hands[A if swapped else B]
    return len(first), digits(list(first) + list(second))


def cycle_key(table):
    """The key of the cycle a game has fallen into: the least key of the cycle's states,
    and where the rules treat the seats alike of their twins too, as one int
    (count << 64 | digits). C: Exact_CycleKey."""
    keys = []
    for i in range(table.period):
        if i > 0:
            table.play_round()
        keys.append(state_key(table, False))
        if table.seatless:
            keys.append(state_key(table, True))
    count, value = min(keys)
    return count << 64 | value


def seatless(rules):
    """True when swapping the players maps every game to its mirror image: a pickup by
    who won or by rank, not by seat, and a short war that favours no seat, as the table
    of pywar/common/fields.py says (SEATLESS_PICKUPS). C: Exact_Seatless."""
    by_rank = rules.pickup in SEATLESS_PICKUPS or (
        rules.pickup in SEATLESS_WITHOUT_FACE_DOWN and rules.face_down == 0)
    return by_rank and rules.short_war not in SEATED_SHORT_WARS


def swapped_deal(ranks):
    """The player-swapped deal: each pair of deal positions trades its cards.
    C: Exact_SwappedDeal."""
    swapped = list(ranks)
    swapped[0:len(ranks) - 1:2], swapped[1::2] = ranks[1::2], ranks[0:len(ranks) - 1:2]
    return tuple(swapped)


def add(histogram, key, weight):
    """histogram[key] += weight. C: Exact_Count."""
    histogram[key] = histogram.get(key, 0) + weight


def longest(census, by_battles, table, ranks):
    """A candidate for a record game that ends: the most rounds (or battles, by_battles),
    then the least sequence; kept as (length, ranks, the other length).
    C: Exact_Longest."""
    name = "most_battles" if by_battles else "longest"
    length, other = (table.battles, table.rounds) if by_battles else (table.rounds, table.battles)
    best = census[name]
    if best is None or length > best[0] or (length == best[0] and ranks < best[1]):
        census[name] = (length, ranks, other)


def ended(census, table, ranks, mirrored):
    """A game that ended, and its twin if the part is mirrored: their lengths and
    records. C: Exact_Ended."""
    weight = 1 + mirrored
    add(census["rounds"], table.rounds, weight)
    add(census["battles"], table.battles, weight)
    for by_battles in (False, True):
        longest(census, by_battles, table, ranks)
        if mirrored:
            longest(census, by_battles, table, swapped_deal(ranks))


def record(census, table, ranks, mirrored):
    """Count a game, and for a mirrored part its twin too, whom the other player wins.
    C: Exact_Record."""
    weight = 1 + mirrored
    census["sequences"] += weight
    if table.outcome == "cycle":
        census["cycles"] += weight
        add(census["cycle_lengths"], table.period, weight)
        census["cycle_keys"].add(cycle_key(table))
        return
    if table.outcome == "capped":
        census["capped"] += weight
        return
    if table.outcome == "both-lose":
        census["both_lose"] += weight
    else:
        census["a_wins"] += table.winner == A or mirrored
        census["b_wins"] += table.winner == B or mirrored
    ended(census, table, ranks, mirrored)


def next_sequence(ranks, fixed):
    """The next rank sequence in lexicographic order that keeps ranks[:fixed], or None
    after the last. C: Exact_Next."""
    ranks = list(ranks)
    i = len(ranks) - 2
    while i >= fixed and ranks[i] >= ranks[i + 1]:
        i -= 1
    if i < fixed:
        return None
    j = len(ranks) - 1
    while ranks[j] <= ranks[i]:
        j -= 1
    ranks[i], ranks[j] = ranks[j], ranks[i]
    ranks[i + 1:] = reversed(ranks[i + 1:])
    return tuple(ranks)


def first_sequence(rules, prefix):
    """The part's first sequence: the prefix, then the other ranks in increasing order.
    C: Exact_First."""
    ranks, suits = parse_deck(rules.deck)
    left = [suits] * ranks
    for rank in prefix:
        if not 0 <= rank < ranks or left[rank] == 0:
            raise ValueError(f"prefix {prefix} does not start a deal of deck {rules.deck}")
        left[rank] -= 1
    return tuple(prefix) + tuple(rank for rank in range(ranks) for _ in range(left[rank]))


def can_mirror(rules, prefix):
    """True where a part may stand for its twin part too: seatless pickups, not iofall's
    short war, even hands, an even prefix that is not its own twin. C: Exact_CanMirror."""
    ranks, suits = parse_deck(rules.deck)
    return (seatless(rules) and ranks * suits % 2 == 0 and len(prefix) % 2 == 0
            and swapped_deal(tuple(prefix)) != tuple(prefix))


def empty_census():
    """A census with nothing counted. C: PywarExactCensus, zeroed."""
    return {"sequences": 0, "a_wins": 0, "b_wins": 0, "both_lose": 0, "cycles": 0,
            "capped": 0, "rounds": {}, "battles": {}, "cycle_lengths": {},
            "cycle_keys": set(), "longest": None, "most_battles": None}


def play_part(rules, prefix, mirrored=False, census=None, listing=None):
    """Play every deal of the part that starts with prefix, adding to census (a new one if
    None), and each game's (winner, outcome, rounds, battles, ties, wars, cycle period)
    to listing if given; return the census. C: pywar_exact_part."""
    census = empty_census() if census is None else census
    if mirrored and not can_mirror(rules, prefix):
        raise ValueError(f"part {tuple(prefix)} cannot stand for its twin under {rules.name}")
    table = RankGame(rules)
    ranks = first_sequence(rules, prefix)
    while ranks is not None:
        table.deal(ranks)
        table.play()
        if listing is not None:
            listing.append((table.winner, table.outcome, table.rounds, table.battles,
                            table.ties, table.wars, table.period))
        record(census, table, ranks, bool(mirrored))
        ranks = next_sequence(ranks, len(prefix))
    return census
