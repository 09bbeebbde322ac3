"""Every statistic of a game (docs/rules.md section 15), counted in one place for the
twin and the port's Python observer: tally_round after the deal and after each round,
tally_battle as a battle is decided, tally_pot as a pot is won, tally_refill at a refill
and tally_end when the game is over.  C: csrc/common/tally.h."""


class Lead:
    """Who leads, and how far behind each player has been. C: struct Lead."""

    def __init__(self, players):
        self.leader = None               # the one player with the most cards
        self.changes = 0                 # changes of leader after the first
        self.deficit = [0] * players     # the most cards each has been behind


def tally_round(lead, result, wars, held):
    """After the deal (wars 0) and after each round, given the cards each player holds:
    the round's war depth, a round with a war, the leader (the one player holding the
    most cards, if any), counting each change of leader after the first, and the
    deficit each has faced.
    C: Tally_Round."""
    if wars > 0:
        result.war_depths[wars] = result.war_depths.get(wars, 0) + 1
        result.deepest_war = max(result.deepest_war, wars)
        result.war_rounds += 1
    for p, mine in enumerate(held):
        others = held[:p] + held[p + 1:]
        lead.deficit[p] = max(lead.deficit[p], max(others) - mine)
    most = max(held)
    if held.count(most) > 1:
        return                          # a tie for the most cards: nobody leads
    leader = held.index(most)
    if lead.leader is not None and leader != lead.leader:
        lead.changes += 1
    lead.leader = leader


def new_record(players):
    """Each player's [won, lost, tied] battles before the first (Counts.record)."""
    return [[0, 0, 0] for _ in range(players)]


def tally_battle(result, in_battle, winner, tied):
    """A battle among in_battle is decided: a win for winner and a loss for each other
    player, or, winner None, a tie for the tied players and a loss for the others
    (docs/rules.md 7.10).  With two players only A's wins are counted here, as in C:
    tally_record makes the rest. C: Tally_Battle."""
    if len(result.record) == 2:
        result.record[0][0] += winner == 0
        return
    for p in in_battle:
        result.record[p][0 if p == winner else 2 if p in tied else 1] += 1


def tally_pot(result, cards):
    """A pot of this many cards is won (or, in the port, has been taken so far).
    C: Tally_Pot."""
    result.biggest_pot = max(result.biggest_pot, cards)


def tally_refill(result):
    """A 'played' pile has become a 'to play' pile. C: Tally_Refill."""
    result.refills += 1


def tally_record(result):
    """Each player's record, whole: with two players, B's wins are the battles neither A
    won nor tied, each one's losses the other's wins, and both tied every tie.
    C: Tally_Record."""
    if len(result.record) == 2:
        a, b = result.record
        b[0] = result.battles - result.ties - a[0]
        a[1], b[1] = b[0], a[0]
        a[2] = b[2] = result.ties


def tally_end(lead, result):
    """The game is over, its winner known: the changes of leader, and the largest deficit
    the winner came back from. C: Tally_End."""
    tally_record(result)
    result.lead_changes = lead.changes
    result.comeback = 0 if result.winner is None else lead.deficit[result.winner]
