"""What one line cannot show (issue 35): a deal in the deck's own order, a refill whose
cards come back as they were won, an endless game, the war of other books, counts
printed by a rule of their own, and refill lines in other words.  Each is judged on
transcripts made here, by hand or from the reference's own, against values worked out
independently (the deck's natural orders written out, a chance computed by hand)."""

import random
import re

import pytest

import pywar
from conftest import reference_transcript
from pywar.check.referee import endless, shuffled
from pywar.check.referee.judge import judge
from pywar.check.referee.lines import Reader, Said
from pywar.check.referee.words import OPENING

TWO_TO_ACE = list(range(13))                 # the ranks as words.RANKS numbers them
ACE_TO_KING = [12, *range(12)]               # the ace built first (and counted low)
LEAST_NATURAL = 22                           # docs/grading.md's table: the least of them


def deck_of(build, ranks, suits=(0, 1, 2, 3)):
    """A deck built suit by suit or rank by rank, as a student's loops build it."""
    if build == "suit":
        return [suit * 13 + rank for suit in suits for rank in ranks]
    return [suit * 13 + rank for rank in ranks for suit in suits]


def dealt(deck, how):
    """The two piles of a deck dealt alternately, in halves or in blocks of 2 or 13."""
    if how == "alternately":
        return [deck[0::2], deck[1::2]]
    if how == "in halves":
        return [deck[:26], deck[26:]]
    block = int(how.split()[-1])
    return [[card for at in range(start, 52, 2 * block) for card in deck[at:at + block]]
            for start in (0, block)]


@pytest.mark.parametrize("build", ["suit", "rank"])
@pytest.mark.parametrize("ranks", [TWO_TO_ACE, ACE_TO_KING, TWO_TO_ACE[::-1], ACE_TO_KING[::-1]],
                         ids=["two-to-ace", "ace-to-king", "ace-to-two", "king-to-ace"])
@pytest.mark.parametrize("how", ["alternately", "in halves", "in blocks of 2", "in blocks of 13"])
def test_every_natural_order_of_the_deck_is_not_shuffled(build, ranks, how):
    """Every deck a student builds (suit by suit or rank by rank, the ace first or last,
    either way, the suits in two orders), dealt alternately, in halves or in blocks, from
    the front or the back, either player first, listed top or bottom first (issue 46: an
    ace-first deck dealt alternately, War_UsingStacks's on seeds 14 and 36, had 20 pairs
    of the old measure's 22; blocks of 2, 12)."""
    for suits in ((0, 1, 2, 3), (2, 0, 3, 1)):
        deck = deck_of(build, ranks, suits)
        for end in (deck, deck[::-1]):
            piles = dealt(end, how)
            assert sorted(piles[0] + piles[1]) == list(range(52))
            for pile in piles:
                assert len(pile) == 26
                assert shuffled.natural(pile) and shuffled.natural(pile[::-1]), (suits, pile)
                assert shuffled.order_score(pile) >= LEAST_NATURAL      # docs/grading.md


def test_an_ace_first_deck_dealt_alternately_is_judged_not_shuffled():
    """The whole deal listed, War_UsingStacks's order (clubs first, the ace first, dealt
    alternately): deal_unshuffled, not a deal taken for shuffled."""
    names = {rank: name for rank, name in enumerate(pywar.check.referee.words.RANKS)}
    suits = pywar.check.referee.words.SUITS
    deck = deck_of("suit", ACE_TO_KING, (3, 0, 1, 2))
    lines = [*OPENING]
    for player, pile in zip("AB", dealt(deck, "alternately")):
        lines += [f"Player {player}:", "There are 26 cards in the pile."]
        lines += [f"Card {n}, {names[card % 13]} of {suits[card // 13]}s"
                  for n, card in enumerate(pile, 1)] + [""]
    judged = judge("\n".join(lines) + "\n", complete=False)
    assert "deal_unshuffled" in judged.mistakes


def test_fair_shuffles_are_never_natural():
    """10,000 fair deals: no pile in a natural order (the module's measure: at most 14
    of 25 pairs in order in 2,000,000 piles, where 20 are needed)."""
    rng = random.Random(35)
    deck = list(range(52))
    for _ in range(10_000):
        rng.shuffle(deck)
        assert not shuffled.natural(deck[:26]) and not shuffled.natural(deck[26:])
        assert not shuffled.natural(deck[0::2]) and not shuffled.natural(deck[1::2])


def test_the_measure_counts_pairs_in_one_order_by_hand():
    """order_score by hand (cards as words numbers them: suit * 13 + rank, 12 the ace)."""
    assert shuffled.order_score([0, 2, 4, 25, 14]) == 3     # 2 4 6 of hearts, A 3 of
    #                                  diamonds: by suit, the ace low: three pairs of four
    assert shuffled.order_score([0, 13, 1, 14, 2]) == 4     # 2 2 3 3 4: by rank, all four
    assert shuffled.order_score([12, 1, 3]) == 2            # A 3 5 of hearts, the ace low
    assert shuffled.order_score([3, 1, 12]) == 2            # the same, listed the other way
    assert shuffled.order_score([0, 32, 8, 30]) == 0        # 2h 8s 10h 6s: none in order


def test_a_refill_in_won_order_by_hand():
    """Three pots of two won in that order: back the last first, or the first first, any
    order inside a pot; the chance of either by a fair shuffle is 2 * 2!^3 / 6! = 1/45."""
    blocks = [(3, 17), (40, 2), (9, 30)]
    assert shuffled.in_won_order(blocks, [30, 9, 2, 40, 17, 3]) == "the last won first"
    assert shuffled.in_won_order(blocks, [17, 3, 40, 2, 9, 30]) == "the first won first"
    assert shuffled.in_won_order(blocks, [17, 40, 3, 2, 9, 30]) is None
    assert shuffled.chance(blocks) == pytest.approx(1 / 45)
    assert shuffled.unshuffled(blocks, [30, 9, 2, 40, 17, 3]) is None      # too few to tell
    nine = [(2 * n, 2 * n + 1) for n in range(9)]                           # 18 cards
    assert shuffled.chance(nine) == pytest.approx(2 * 2 ** 9 / 6402373705728000)
    assert shuffled.unshuffled(nine, [card for block in nine[::-1] for card in block])


def test_the_reference_s_games_are_never_charged_a_shuffle():
    """The reference's own shuffle (104 random swaps) on 150 seeds: no deal or refill
    charged (the 1,000 seeds of a faithful program of the class: the slow test below)."""
    for seed in range(1, 151):
        judged = judge(pywar.play(seed, transcript=True).transcript)
        assert judged.broken() == [], (seed, judged.broken())


@pytest.mark.slow                       # about 2 minutes on 2 cores
def test_a_faithful_program_with_a_shuffle_of_its_own_is_never_charged_on_1000_seeds(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path
    from conftest import CLASS
    pywar_command = str(Path(sys.executable).parent / "pywar")
    done = subprocess.run([pywar_command, "grade", str(CLASS / "faithful"), "-n", "1000",
                           "--no-memory", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (sub,) = json.loads(done.stdout)["submissions"]
    assert sub["mistakes"] == {} and sub["items"]["refill"]["of"] > 900
    assert all(item["ok"] for name, item in sub["items"].items() if name != "memory")


def cut_after_last_counts(text):
    """A transcript up to its last counts line: a run stopped within its game."""
    return text[:text.rindex("Player B has")].rstrip("\n").rsplit("\n", 1)[0] + "\n"


def test_a_refill_not_shuffled_costs_refill_and_its_endless_game_says_so():
    """pywar's engine with its refills kept as won (--refill keep, the smu narration):
    where pywar finds a cycle, the game played on three periods past its start with no
    cycle detection, and stopped: refill alone (refill_unshuffled), and the repeat the
    referee finds has the engine's period."""
    found = 0
    for seed in range(1, 40):
        game = pywar.play(seed, refill="keep", max_rounds=2000)
        if game.outcome != "cycle":
            continue
        rounds = game.cycle_start + 3 * game.cycle_period
        text = pywar.play(seed, refill="keep", max_rounds=rounds, detect_cycles=False,
                          transcript=True).transcript
        judged = judge(cut_after_last_counts(text), complete=False)
        assert judged.broken() == ["refill"], (seed, judged.broken())
        assert list(judged.mistakes) == ["refill_unshuffled"]
        assert judged.repeats[1] == game.cycle_period, seed
        found += 1
    assert found >= 3


def test_the_endless_game_s_note_names_its_first_round_and_its_period():
    """The note of a run stopped in an endless game says where its repeat begins and how
    long it is, in that order (issue 51: swapped, "from round 320 every 441 rounds", no
    test read the words): pywar's engine with its refills kept as won finds the cycle
    itself, cycle_start rounds before the repeating part, which then lasts cycle_period
    rounds."""
    from pywar.check.grading.grade import SeedRun, endless_words
    from pywar.check.runner.sandbox import Limits, Outcome
    for seed in (18, 34):
        game = pywar.play(seed, refill="keep", max_rounds=2000)
        assert game.outcome == "cycle" and game.cycle_start != game.cycle_period
        rounds = game.cycle_start + 3 * game.cycle_period
        text = cut_after_last_counts(pywar.play(seed, refill="keep", max_rounds=rounds,
                                                detect_cycles=False, transcript=True).transcript)
        outcome = Outcome(None, text, "", 1.0, Limits(), flooded=True)
        excused, words = endless_words(SeedRun(seed, outcome, text, judge(text, complete=False)))
        assert excused, (seed, words)
        assert words.startswith(f"the game repeats from round {game.cycle_start + 1:,} every "
                                f"{game.cycle_period:,} rounds: a refill not shuffled"), words


def test_repeats_by_hand():
    rounds = [(1, 2), (3, 4)] + [(5, 6), (7, 8), (9, 10)] * 3
    assert endless.repeats(rounds, 6) == (3, 3)
    assert endless.repeats(rounds, 7) is None                # a card in play never seen
    assert endless.repeats(rounds[:-1], 6) == (3, 3)         # cut inside a period
    assert endless.repeats([(1, 2), (3, 4), (5, 6)], 6) is None


def test_the_z_function_by_hand():
    assert endless.z_function("aabxaab") == [7, 1, 0, 0, 3, 1, 0]


def test_the_war_of_other_books_costs_ties_alone():
    """pywar's engine with three cards face down in each war (the smu narration), on
    seeds where a tie is won: ties alone, nothing charged after it."""
    for seed in (1, 2, 3, 5, 8):
        judged = judge(pywar.play(seed, rules="smu", face_down=3, transcript=True).transcript)
        assert judged.broken() == ["ties"], (seed, judged.broken())
        assert list(judged.mistakes) == ["face_down_war"]


@pytest.mark.parametrize("rule, shown", [
    ("counts_less_one", lambda to_play, played: (to_play - 1, played - 1)),
    ("counts_swapped", lambda to_play, played: (played, to_play)),
    ("counts_total", lambda to_play, played: (to_play + played, to_play + played)),
])
def test_counts_of_their_own_cost_counts_alone(rule, shown):
    """The reference's seed 1553 with every counts line rewritten by a rule: counts
    alone, the rule named, every other rule still put to the test and kept."""
    def counted(match):
        to_play, played = shown(int(match.group(2)), int(match.group(3)))
        return f"Player {match.group(1)} has {to_play} in their 'to play' pile and {played} in"
    text = re.sub(r"Player ([AB]) has (\d+) in their 'to play' pile and (\d+) in", counted,
                  reference_transcript(1553))
    judged = judge(text)
    assert judged.broken() == ["counts"] and list(judged.mistakes) == [rule]
    assert judged.tested["pickup"] > 100 and judged.tested["refill"] > 10


@pytest.mark.parametrize("line, said", [
    ("Player A's deck is empty!", Said("refill", 0)),
    ("A picks up the played pile.", Said("refill", 0)),
    ("Shuffling B's cards...", Said("refill", 1)),
    ("Shuffling...", Said("refill")),
    ("They are using their played cards.", Said("refill")),
    ("Player B puts a card face down.", Said("down", 1, number=1)),
    ("Player A puts 3 cards face down", Said("down", 0, number=3)),
    ("Player A has 24 in their 'to play' pile and -1 in their 'played' pile.",
     Said("counts", 0, to_play=24, played=-1)),
])
def test_refills_face_down_cards_and_negative_counts_in_other_words(line, said):
    assert Reader().events(line) == [said]


def test_refill_lines_in_other_words_are_the_refill():
    """The reference's seed 1553 with its refill lines in other words: format alone."""
    text = re.sub(r"Player ([AB]) ran out of cards in their 'to play' pile\.  Getting cards "
                  r"from the 'played' pile\.\nShuffling player [AB] cards\.\.\.",
                  lambda m: f"{m.group(1)} picks up the played pile.\nShuffling "
                            f"{m.group(1)}'s cards...", reference_transcript(1553))
    judged = judge(text)
    assert judged.broken() == ["format"] and judged.tested["refill"] > 10


def test_a_silent_program_is_told_what_the_reference_prints_first():
    judged = judge("Player 1 wins\n")
    assert judged.first("format").required == repr(OPENING[0])
    assert judged.first("end").said == ("'Player 1 wins': its end, and no battle before it: "
                                        "its game is not shown")
    assert sorted(judged.mistakes) == ["deal_not_listed", "game_not_shown", "other_words"]
    assert judged.first("end").line == 1                # the line it quotes, not the next


def test_an_end_not_told_is_charged_once():
    """Seed 1's B runs out in a tie; the file says nothing, plays one more card of A's,
    then names the loser: end alone, not plays too (one event, one item)."""
    text = reference_transcript(1).rstrip("\n").split("\n")
    lost = next(i for i, line in enumerate(text) if line.endswith("has lost."))
    text[lost:lost + 1] = ["Player A plays two of hearts",
                           "Player B is out of cards. Player A wins!"]
    judged = judge("\n".join(text) + "\n")
    assert judged.broken() == ["format", "end"]


# ---- Found by a review: each failed before its mend

def test_cards_face_down_between_the_tie_and_its_counts_are_the_next_battle_s():
    """'Tie', then the face-down lines, then the counts: the face-down lines belong to
    the next battle, not a battle of their own."""
    reader = Reader()
    lines = ["Player A plays five of clubs", "Player B plays five of spades",
             "There is a tie... Doing another battle.", "Player A puts 3 cards face down",
             "Player B puts 3 cards face down",
             "Player A has 22 in their 'to play' pile and 0 in their 'played' pile.",
             "Player B has 22 in their 'to play' pile and 0 in their 'played' pile.",
             "Player A plays ten of clubs", "Player B plays two of spades",
             "Player A wins the 'currently in play' pile."]
    from pywar.check.referee.judge import Judge
    from pywar.check.referee.table import Event
    events = [Event(i, line, said) for i, line in enumerate(lines)
              for said in reader.events(line)]
    first, second = Judge.battles(events)
    assert [e.kind for e in first.events] == ["plays", "plays", "tie", "counts", "counts"]
    assert [e.kind for e in second.events] == ["down", "down", "plays", "plays", "wins"]


@pytest.mark.parametrize("line, number", [("Player 2 puts a card face down", 1),
                                          ("A puts three cards face down", 3),
                                          ("Player 1 puts 2 cards face down.", 2)])
def test_a_player_s_number_is_not_a_count_of_cards_face_down(line, number):
    assert Reader().events(line)[0].number == number


def test_a_negative_count_is_counts_alone():
    """One count printed as -25 for 25: counts alone (no pile holds -25, so it is not
    taken as the state)."""
    lines = reference_transcript(1553).split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("Player A has 25 in"))
    lines[at] = lines[at].replace("has 25 in", "has -25 in")
    assert judge("\n".join(lines)).broken() == ["counts"]


def test_a_stray_refill_after_a_tie_is_refill_alone():
    """A refill printed after a tie's counts with 19 cards still to play: refill, not the
    war of other books, and no counts after it."""
    lines = reference_transcript(1553).split("\n")
    tie = lines.index("There is a tie... Doing another battle.")
    counts = next(i for i in range(tie, len(lines)) if lines[i].startswith("Player B has"))
    lines[counts + 1:counts + 1] = ["", "Player A ran out of cards in their 'to play' pile.  "
                                    "Getting cards from the 'played' pile.",
                                    "Shuffling player A cards..."]
    judged = judge("\n".join(lines))
    assert judged.broken() == ["refill"] and "face_down_war" not in judged.mistakes


def test_a_hang_is_not_excused_by_a_mistake_that_can_loop():
    """A deal in the deck's own order, its run cut at round 12: a flood of such a game is
    its mistake's (runs kept), a timeout is not, as its game does not repeat."""
    from pywar.check.grading.grade import SeedRun, endless_words
    from pywar.check.runner.sandbox import Limits, Outcome
    text = pywar.play(1, deal=(range(0, 52, 2), range(1, 52, 2)), transcript=True).transcript
    cut = text[:text.index("======== Round 13 ========")]
    judged = judge(cut, complete=False)
    assert "deal_unshuffled" in judged.mistakes and judged.repeats is None
    for stop, excused in (({"timed_out": True}, False), ({"flooded": True}, True)):
        outcome = Outcome(None, cut, "", 1.0, Limits(), **stop)
        assert endless_words(SeedRun(1, outcome, cut, judged))[0] is excused


def test_a_flood_of_other_lines_after_a_game_is_not_excused():
    """A deal in the deck's own order, twelve rounds, then a flood of lines that are no
    game: the stop is the flood's (runs), not the game's; the same twelve rounds cut as
    a flood of the game itself are excused."""
    from pywar.check.grading.grade import SeedRun, endless_words
    from pywar.check.runner.sandbox import Limits, Outcome
    text = pywar.play(1, deal=(range(0, 52, 2), range(1, 52, 2)), transcript=True).transcript
    game = text[:text.index("======== Round 13 ========")]
    for printed, excused in ((game + "x\n" * 1000, False), (game, True)):
        judged = judge(printed, complete=False)
        outcome = Outcome(None, printed, "", 1.0, Limits(), flooded=True)
        assert endless_words(SeedRun(1, outcome, printed, judged))[0] is excused
