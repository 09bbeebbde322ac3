"""The referee of a one-card game (pywar.check.referee.single) under CECS 325's assignment
file: the handout's own sample earns every mark, and each mistake a student makes costs
its one item.  The transcripts are printed here by a plain function from the handout's
layout (CECS 325-02 Fall 2024, "One Card WAR - Prog 1": its sample output), and each
verdict and tally worked out by comparing ranks here, not by pywar."""

import random

import pytest

from pywar.check.assignment.file import AssignmentError, builtin, builtin_text, loads
from pywar.check.referee.mistakes import MISTAKE
from pywar.check.referee.rubric import RUBRIC
from pywar.check.referee.single import judge_single, read_line

CECS = builtin("cecs325")
ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]   # aces low
MADE = [rank + suit for suit in "CSDH" for rank in ORDER]    # the deck as Deck() makes it
SAMPLE_DECK = ("9C 8H 6H KC 8C JH 2S 6D 9H 10D 7D 3D JS 5C 6C 5S QS 5D 9S AD AS QC 4H JC "
               "2C 6S 2H JD 10H 9D QH QD 2D KS 7C 4C KD AH KH 4S 10S 8D 7S 3C 3H 3S 8S "
               "AC 7H 5H 4D 10C").split()       # the handout's shuffled deck
NAMES = ("Aquaman", "Batman")
PROMPTS = ("Enter the name of the first player: Enter the name of the second player: ")
                                        # no newline: the names come from stdin
GAME_ITEMS = ("format", "deal", "plays", "ranks", "ties", "counts", "end")


def rank(card, order=ORDER):
    """A card's rank as a number, in order from the lowest."""
    return order.index(card[:-1])


def rows(deck):
    """A deck's four rows of 13, comma-separated."""
    return [",".join(deck[at:at + 13]) for at in range(0, 52, 13)]


def verdict(first, second, order=ORDER):
    """0 or 1, the winner's number, or None for a tie."""
    a, b = rank(first, order), rank(second, order)
    return None if a == b else 0 if a > b else 1


def transcript(deck, order=ORDER, games=26, deal=None, tie_winner=None, losses=None,
               name_card=str, words=None):
    """A run's output in the handout's layout (or in other words), with what a mistake
    changes: the rank order the verdicts use, the number of games, the cards each game
    takes, who wins a tie, how losses are counted, how a card is named."""
    deal = deal or (lambda game: (deck[2 * game], deck[2 * game + 1]))
    out = [PROMPTS + " Original Deck", *rows([name_card(c) for c in MADE]), " Shuffled Deck",
           *rows([name_card(c) for c in deck])]
    tally = {(p, stat): 0 for p in (0, 1) for stat in ("wins", "losses", "ties")}
    for game in range(games):
        cards = deal(game)
        winner = verdict(*cards, order)
        if winner is None and tie_winner is not None:
            winner = tie_winner
        say = words or {}
        out += [say.get("battle", "Game {n}").format(n=game + 1)] + \
            ([] if words else ["--------"])
        for player, card in enumerate(cards):
            out.append(say.get("plays", "        {p}=>{c}").format(p=NAMES[player],
                                                                   c=name_card(card)))
        if winner is None:
            out.append(say.get("tie", "Tie game"))
            tally[(0, "ties")] += 1
            tally[(1, "ties")] += 1
        else:
            out.append(say.get("wins", "{p}=> Winner").format(p=NAMES[winner]))
            tally[(winner, "wins")] += 1
            tally[(1 - winner, "losses")] += 1
    if losses is not None:
        for player in (0, 1):
            tally[(player, "losses")] = losses(tally, player)
    if words:
        out += [words["stats"].format(p=NAMES[p], w=tally[(p, "wins")],
                                      l=tally[(p, "losses")], t=tally[(p, "ties")])
                for p in (0, 1)]
    else:
        out += ["------Final Stats-------", f"       {NAMES[0]} vs. {NAMES[1]}"] + [
            f"{label:<7}{tally[(0, stat)]:<12}{tally[(1, stat)]}" for label, stat in
            (("Wins", "wins"), ("Losses", "losses"), ("Ties", "ties"))]
    return "\n".join(out) + "\n", tally


def broken(text, complete=True):
    """The items the referee finds broken in a transcript under CECS 325's file."""
    return judge_single(text, CECS.wording, 2, complete).broken()


def shuffled(seed):
    """A deck shuffled by Python's own random (not pywar's)."""
    deck = list(MADE)
    random.Random(seed).shuffle(deck)
    return deck


def test_the_handouts_sample_earns_every_mark():
    """The handout's sample, laid out again from its deck, breaks nothing, and its figures
    are the handout's: Aquaman 14 wins, 10 losses, 2 ties."""
    text, tally = transcript(SAMPLE_DECK)
    assert (tally[(0, "wins")], tally[(0, "losses")], tally[(0, "ties")]) == (14, 10, 2)
    judged = judge_single(text, CECS.wording, 2)
    assert judged.broken() == [] and judged.rounds == 26 and judged.finished
    assert all(judged.checked(item) for item in GAME_ITEMS)
    assert judged.tested[RUBRIC.ties] == 2 and judged.tested[RUBRIC.ranks] == 24
    assert judged.tested[RUBRIC.pickup] == judged.tested[RUBRIC.refill] == 0


ROWS = {"aces high": "ace_other_end", "deals from the end": "dealt_from_end",
        "the first player wins a tie": "tie_decided", "losses are 26 - wins":
        "losses_from_wins", "25 games": "cut_short", "tens printed T": "other_words",
        "cards swapped": "dealt_swapped"}       # each mistake's row of the table


def planted(deck):
    """Each mistake's transcript of a deck, and the one item it must cost."""
    low_first = ["A"] + ORDER[1:]
    high = ORDER[1:] + ["A"]
    return {
        "aces high": (transcript(deck, order=high)[0], "ranks"),
        "deals from the end": (transcript(deck, deal=lambda g: (deck[51 - 2 * g],
                                                                deck[50 - 2 * g]))[0], "plays"),
        "the first player wins a tie": (transcript(deck, tie_winner=0)[0], "ties"),
        "losses are 26 - wins": (transcript(deck, losses=lambda t, p: 26 - t[(p, "wins")])[0],
                                 "counts"),
        "25 games": (transcript(deck, games=25)[0], "end"),
        "tens printed T": (transcript(deck, name_card=lambda c: c.replace("10", "T"))[0],
                           "format"),
        "cards swapped": (transcript(deck, deal=lambda g: (deck[2 * g + 1], deck[2 * g]))[0],
                          "plays"),
        "unused": (transcript(deck, order=low_first)[0], None),
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_mistake_costs_its_one_item(seed):
    """On decks with ties, each planted mistake breaks its item and no other, and names
    its row of the table of mistakes."""
    deck = shuffled(seed)
    for mistake, (text, item) in planted(deck).items():
        judged = judge_single(text, CECS.wording, 2)
        assert judged.broken() == ([item] if item else []), mistake
        assert list(judged.mistakes) == ([ROWS[mistake]] if item else []), mistake
        assert all(MISTAKE[row].item == item for row in judged.mistakes)


def test_a_deck_listed_with_a_card_twice_costs_the_deal():
    """A shuffled listing that holds a card twice is the deal's (plays is then unjudged)."""
    deck = shuffled(4)
    bad = deck[:51] + [deck[0]]
    text = transcript(deck)[0].replace(",".join(deck[39:]), ",".join(bad[39:]), 1)
    judged = judge_single(text, CECS.wording, 2)
    assert judged.broken() == ["deal"] and not judged.checked(RUBRIC.plays)


def test_an_unshuffled_deck_costs_the_deal():
    """A deck never shuffled (its listing the order it was made in) is the deal's alone."""
    assert broken(transcript(MADE)[0]) == ["deal"]


def test_a_program_in_its_own_words_loses_the_format_alone():
    """The right game in other words (a table of its own at the end) is read by what its
    lines carry: format broken, every game item judged and kept."""
    words = {"battle": "Round {n}:", "plays": "{p} plays {c}", "wins": "{p} wins this round!",
             "tie": "It's a tie!", "stats": "{p} won {w} rounds, lost {l} and tied {t}."}
    text = transcript(shuffled(5), words=words)[0]
    judged = judge_single(text, CECS.wording, 2)
    assert judged.broken() == ["format"]
    assert all(judged.checked(item) for item in GAME_ITEMS)
    wrong = transcript(shuffled(5), words=words,
                       losses=lambda t, p: t[(p, "losses")] + 1)[0]
    assert broken(wrong) == ["format", "counts"]


def test_a_table_of_statistics_is_read_by_its_columns():
    """'Player W L T' then a row a player: each number under its column."""
    text, tally = transcript(shuffled(6))
    table = "Player    W    L    T\n" + "".join(
        f"{NAMES[p]}   {tally[(p, 'wins')]}   {tally[(p, 'losses')]}   {tally[(p, 'ties')]}\n"
        for p in (0, 1))
    stats_at = text.index("------Final Stats")
    assert broken(text[:stats_at] + table) == ["format"]
    swapped = text[:stats_at] + table.replace(f"{NAMES[0]}   ", "X", 1).replace(
        f"{NAMES[1]}   ", f"{NAMES[0]}   ", 1).replace("X", f"{NAMES[1]}   ", 1)
    assert "counts" in broken(swapped) or tally[(0, "wins")] == tally[(1, "wins")]


def test_a_run_cut_short_is_judged_on_what_it_printed():
    """A run that crashed after game 10: its battles judged, its end and format not
    charged for what it never printed."""
    text = transcript(shuffled(7))[0]
    cut = "\n".join(text.split("\n")[:10 + 10 * 5]) + "\n"
    judged = judge_single(cut, CECS.wording, 2, complete=False)
    assert judged.broken() == [] and judged.rounds == 10 and not judged.finished
    assert not judged.checked(RUBRIC.end)
    assert judge_single(cut, CECS.wording, 2, complete=True).broken() == ["format", "end"]


def test_lines_read_by_template_and_by_meaning():
    """A line of the handout's is read exactly; other words by what they carry."""
    said = read_line(CECS.wording, "        Batman=>10D")
    assert (said.kind, said.exact, said.values) == ("plays", True, {"player": 1, "card": 34})
    assert CECS.wording.card_name(34) == "10D"
    assert read_line(CECS.wording, "Batman shows the ten of diamonds").plays == [(1, 34)]
    assert read_line(CECS.wording, "Aquaman: 4\u2665").plays == [(0, 41)]
    assert read_line(CECS.wording, "Ties   2           2").exact
    assert not read_line(CECS.wording, "Ties   2          2").exact     # one column short


@pytest.mark.parametrize("change, message", [
    ('deal = "deck"', 'deal = "piles"', ),
    ('between = ","', 'between = "  "'),
    ('"Ties   {ties1:<12}{ties2}"', '"Ties   {ties1:^12}{ties2}"'),
    ('row = "{cards}"', 'row = "Deck"'),
    ('per_row = 13', 'per_row = 60'),
])
def test_bad_one_card_files_are_one_line_each(change, message):
    """A one-card file with a deal of piles, a blank separator, a padding other than
    < or >, a row naming no cards, or rows longer than the deck: one line naming what is
    valid."""
    text = builtin_text("cecs325")
    assert change in text
    with pytest.raises(AssignmentError) as raised:
        loads(text.replace(change, message), "bad.toml")
    said = str(raised.value)
    assert said.startswith("bad.toml: ") and "\n" not in said
    assert any(word in said for word in ("deck", "spaces", "may name", "names no",
                                         "from 1 to 52"))


def test_the_file_s_line_kinds_are_the_kinds_the_referee_hears():
    """One name, one thing: a one-card file's line kinds are the referee's kinds of line
    (but a blank line and anything else)."""
    from pywar.check.assignment.file import ONE_CARD_LINES
    from pywar.check.referee.single import ONE_CARD_KINDS
    assert tuple(ONE_CARD_LINES) == ONE_CARD_KINDS[:-2]


def test_battles_past_the_deck_cost_the_end_and_the_work_stays_linear(monkeypatch):
    """A program that plays on past the deck (400 battles, each one breaking plays and
    ranks) is charged end, not a fault of pywar's; each item's round is looked up once,
    not at every battle that breaks it again (that walk made the referee quadratic:
    2,000, 4,000, 8,000 such battles took 0.53, 1.54, 4.39 s; 0.16, 0.36, 0.51 s once)."""
    from pywar.check.referee.judge import Notes
    deck = shuffled(8)
    text, _ = transcript(deck)
    head = text[:text.index("Game 1\n")]
    body = "".join(f"Game {g}\n--------\n        Aquaman=>2C\n        Batman=>3C\n"
                   "Aquaman=> Winner\n" for g in range(1, 401))
    looked = []
    original = Notes.round_of
    monkeypatch.setattr(Notes, "round_of", lambda self, at: looked.append(at) or
                        original(self, at))
    judged = judge_single(head + body, CECS.wording, 2)
    assert judged.broken() == ["format", "plays", "ranks", "end"] and judged.rounds == 400
    assert judged.findings["plays"][1] >= 374 and len(looked) <= len(GAME_ITEMS)


def test_a_run_that_printed_nothing_has_no_mark_but_a_broken_format():
    """Nothing printed: the format charged (no_output), as the war referee charges it,
    the end too where the run ended well (no battle, no statistics), and every other
    game item not checked, never kept."""
    for complete, broken_ in ((True, ["format", "end"]), (False, ["format"])):
        judged = judge_single("", CECS.wording, 2, complete)
        assert judged.broken() == broken_ and "no_output" in judged.mistakes
        assert not any(judged.checked(item) for item in GAME_ITEMS if item not in broken_)
