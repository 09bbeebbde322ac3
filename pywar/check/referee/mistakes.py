"""Every student mistake pywar knows: one table, read by the referee, the grader, the
reports, docs/grading.md and the tests alike.  A row is a mistake's name, the rubric item
it costs (None: what a transcript cannot show, never charged), who finds it and the
sentence that says what the program did.

    >>> MISTAKE["refill_lazy"].item
    'refill'
    >>> [m.name for m in DEVIATIONS if m.item == "ties"]
    ['tie_decided', 'face_down_war']
    >>> dict(ROW.ace_low.effects)
    {'ace': 'low'}
    >>> Policy.of(["ace_low", "pot_to_loser"]).pot_to, Policy().pot_to
    ('loser', 'winner')

**Deviations** are the rows the referee can play by (found by "rules"): each declares
its effects, the fields of a Policy it changes from the rules.  The referee explains a
battle by the rules plus the fewest deviations: where the rules alone do not give what the
file printed, it tries the deviations adopted with some left out, then each deviation
more, then each pair more, in the order of SEARCH_ORDER (the likelier first), and adopts
the first set whose Policy makes the whole battle agree.  A row that refines another
(refines=: every battle it explains, the other explains too) is tried before it, or it
would never be chosen; check_table holds it.  A deviation's item is charged once
a seed, and the game is played by its Policy from then on, so its consequences are never
charged again.  Two rows that set one field to different values do not combine.

The search's cost, from a measurement (`python -m pywar.check.referee.mistakes`): with
nothing adopted a battle that no set explains is tried under 244 sets (plus the rules
alone: 245 tries; 120 with the 15 deviations of issue 32); a battle the rules explain
costs one try.  After SEARCHES battles that nothing explains the referee stops searching
(pywar.check.referee.explain), so a 16 MiB transcript is refereed in seconds: seed
1553's 18,375 lines in 0.16 s, 0.25 s with every count wrong (0.12 and 0.17 s with the
15; best of 3, one core).

The other rows are found by the format reader ("layout"), the deal's check ("deal"), the
end's ("end"), the runner ("runner", a run's ending), the build ("build") and valgrind
("memcheck"); "none" rows are what a transcript cannot show, listed so that the docs and
the tests name them too.

No mistake's name is written as a string outside this module: the code asks a row by
attribute (ROW.top_first, which fails loudly if misspelt), and a Policy whether it
follows a row (policy.follows(ROW.ace_low)), never a field by its phrase.
"""

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import combinations
from types import MappingProxyType


@dataclass(frozen=True)
class Policy:
    """The rules of the reference, as the referee's steps ask them, with the fields a
    deviation may change: each default is the reference's rule."""
    ace: str = "high"                       # or "low"
    winner_named: str = "the winner"        # or "anyone" (the pot still to the higher card)
    tie_verdict: str = "battle again"       # or "a winner named"
    tied_cards: str = "kept in the pot"     # or "returned" when the tie is broken, or "on
                                            # the winner's 'to play'" (its top, as played)
    face_down: str = "none"                 # or "some": each puts cards face down in a war
    pot_to: str = "winner"                  # or "loser"
    pot_pile: str = "played"                # or "to play" (a plain battle's pot)
    war_pot_pile: str = "played"            # or "to play" (a tie's pot, once won)
    pot_kept: str = "whole"                 # or "part" (some cards lost)
    stranded_pot: str = "stranded"          # or "to the survivor" (a player out in a tie)
    refill_time: str = "after the battle"   # or "when needed" or "never"
    refill_lines: str = "printed"           # or "silent"
    counts_printed: str = "after the refill"    # or "before the refill"
    empty_refill: str = "never printed"     # or "printed" (a refill from an empty pile)
    after_run_out: str = "the end"          # or "play goes on"
    counts_shown: str = "as they are"       # or "less one", "swapped", "the total" or
                                            # "the other player's"

    @cached_property
    def values(self):
        """Its fields' values, as (field, value) pairs: what follows() holds a row to."""
        return frozenset((f.name, getattr(self, f.name)) for f in fields(self))

    def follows(self, row):
        """Whether the game goes on by a deviation's row: the policy has each of its
        effects (the referee's steps ask by the row, ROW.ace_low, never by a phrase)."""
        return row.changes <= self.values

    @classmethod
    def of(cls, names, strict=True):
        """The Policy of the rules plus the deviations named; where two of them set one
        field to different values, None (strict) or the first's in SEARCH_ORDER."""
        effects = {}
        for name in in_search_order(names):
            for key, value in MISTAKE[name].effects.items():
                if effects.setdefault(key, value) != value and strict:
                    return None
        return replace(cls(), **effects)


@dataclass(frozen=True)
class Mistake:
    """One mistake: its name, the rubric item it costs (None: never charged), who finds
    it (rules, layout, deal, end, runner, build, memcheck or none), what the program did,
    the step of a battle a deviation changes and its effects on the Policy."""
    name: str
    item: object
    found_by: str
    sentence: str
    step: str = None                    # deviations: plays, verdict, pickup, refill or end
    effects: dict = field(default_factory=dict)
    loops: bool = False                 # it can make a game repeat itself forever
    refines: str = None                 # a deviation: the row it is a narrower case of

    @cached_property
    def changes(self):
        """Its effects, as (field, value) pairs (Policy.follows holds a Policy to them)."""
        return frozenset(self.effects.items())


def deviation(name, step, item, sentence, loops=False, refines=None, **effects):
    """A row the referee plays by (refines: the name of the row it is a narrower case of)."""
    return Mistake(name, item, "rules", sentence, step, MappingProxyType(effects), loops,
                   refines)


MISTAKES = (
    # ---- Deviations (the search tries them in the order of SEARCH_ORDER, below)
    deviation("ace_low", "verdict", "ranks", "the ace ranked low, below the two", ace="low"),
    deviation("winner_misnamed", "verdict", "ranks", "the wrong winner named: the pot went "
              "to the player with the higher card", winner_named="anyone"),
    deviation("tie_decided", "verdict", "ties", "a tie decided: a winner named where both "
              "cards share a rank", tie_verdict="a winner named"),
    deviation("tie_returned", "pickup", "pickup", "the tied cards given back to their "
              "players' 'played' piles when the tie was broken, the winner taking only the "
              "last battle's cards", tied_cards="returned"),
    deviation("war_pot_to_play", "pickup", "pickup", "a tie's pot put on the winner's 'to "
              "play' pile (a plain battle's on its 'played' pile)", war_pot_pile="to play",
              loops=True),
    deviation("war_pot_split", "pickup", "pickup", "a tie's tied cards put on top of the "
              "winner's 'to play' pile, in the order played, and only the last battle's "
              "cards on its 'played' pile", tied_cards="on the winner's 'to play'", loops=True),
    deviation("pot_to_play", "pickup", "pickup", "the pot put on the winner's 'to play' "
              "pile, not its 'played' pile", pot_pile="to play", war_pot_pile="to play",
              loops=True),
    deviation("pot_to_loser", "pickup", "pickup", "the pot given to the loser of the battle",
              pot_to="loser"),
    deviation("pot_to_survivor", "end", "pickup", "the pot of a tie in which a player ran "
              "out given to the other player, where the rules leave it stranded",
              stranded_pot="to the survivor"),
    deviation("pot_lost", "pickup", "pickup", "part of the pot lost or left stranded: the "
              "winner took fewer cards than the pot held", pot_kept="part"),
    deviation("refill_lazy", "refill", "refill", "a silent, lazy refill: the 'played' pile "
              "turned over only when a card is needed, and no refill lines",
              refill_time="when needed", refill_lines="silent"),
    deviation("refill_silent", "refill", "refill", "a refill done at the right time but "
              "without its lines", refill_lines="silent"),
    deviation("counts_before_refill", "refill", "refill", "the counts printed before the "
              "refill", counts_printed="before the refill"),
    deviation("refill_lazy_told", "refill", "refill", "a lazy refill: the 'played' pile "
              "turned over only when a card is needed, its lines printed then",
              refill_time="when needed"),
    deviation("refill_never", "refill", "refill", "no refill: a player whose 'to play' pile "
              "is empty lost while its 'played' pile still held cards", refill_time="never",
              refill_lines="silent"),
    deviation("refill_from_empty", "refill", "refill", "a refill printed from an empty "
              "'played' pile", empty_refill="printed"),
    deviation("play_after_out", "end", "end", "play going on after a player ran out of "
              "cards during a tie", after_run_out="play goes on"),
    deviation("face_down_war", "war", "ties", "the war of other books: after a tie each player "
              "puts cards face down (one to four, fewer from a short pile; from its 'to "
              "play' pile, or the top of its 'played' pile) before the next battle",
              face_down="some"),
    deviation("counts_less_one", "counts", "counts", "each pile's count printed one less "
              "than the cards it holds", counts_shown="less one"),
    deviation("counts_swapped", "counts", "counts", "the two counts printed swapped, the "
              "'played' pile's where the 'to play' pile's goes", counts_shown="swapped"),
    deviation("counts_total", "counts", "counts", "each pile's count printed as the "
              "player's total", counts_shown="the total"),
    deviation("counts_other_player", "counts", "counts", "each player's counts printed on "
              "the other player's line", counts_shown="the other player's"),
    # ---- The format reader: the first of each kind of departure in a file
    Mistake("no_output", "format", "layout", "nothing printed"),
    Mistake("extra_lines", "format", "layout",
            "lines the reference does not print (debug output, say)"),
    Mistake("other_words", "format", "layout", "lines in other words than the reference's"),
    Mistake("two_on_a_line", "format", "layout",
            "two things on one line, where the reference prints each on its own"),
    Mistake("blank_lines", "format", "layout", "a blank line missing or extra"),
    Mistake("rounds_misnumbered", "format", "layout",
            "rounds numbered other than 1, 2, 3, ... (from 0, say)"),
    Mistake("refill_misnamed", "format", "layout",
            "a refill's second line naming the other player"),
    Mistake("ace_one", "format", "layout", "the ace printed as 'one'"),
    Mistake("top_first", "format", "layout", "the piles listed top card first"),
    Mistake("from_zero", "format", "layout", "the cards of a pile numbered from 0"),
    # ---- The deal
    Mistake("deal_not_listed", "deal", "deal", "no listing of the deal"),
    Mistake("deal_short", "deal", "deal", "a pile dealt with other than 26 cards"),
    Mistake("deal_size_wrong", "deal", "deal",
            "a pile's size printed other than the number of cards listed"),
    Mistake("deal_repeats", "deal", "deal", "a card dealt twice"),
    Mistake("deal_unshuffled", "deal", "deal", "the deck dealt in its own order: not "
            "shuffled (built suit by suit or rank by rank, the ace first or last, either way; "
            "dealt alternately, in halves or in blocks; listed top or bottom first)",
            loops=True),
    Mistake("same_deal", "deal", "class", "the same deal on every run: the program does not "
            "seed rand() with srand(), or does not shuffle"),
    Mistake("not_its_game", "deal", "class", "games that do not follow the clock: a seed "
            "dealt another seed's deal, or the same but for its suits, where other seeds "
            "deal their own; or a deal not the reference's for its seed, where two seeds at "
            "least deal the reference's own for theirs (a game recorded, not played)"),
    Mistake("refill_unshuffled", "refill", "refill", "a refill not shuffled: the 'played' "
            "pile's cards came back in the order they were won", loops=True),
    # ---- The end
    Mistake("cut_short", "end", "end",
            "the game stopped before a player ran out (the run itself ended well)"),
    Mistake("after_the_end", "end", "end", "a battle after the game was over"),
    Mistake("game_not_shown", "end", "end", "a game not shown: its end told (a winner, a "
            "loser) and no battle before it, where the reference prints every battle"),
    # ---- A one-card game's (the one-card referee, pywar.check.referee.single)
    Mistake("ace_other_end", "ranks", "one-card", "the ace ranked at the other end from the "
            "rules': high where they rank it low, or low where high"),
    Mistake("dealt_from_end", "plays", "one-card", "the deck dealt from its end: the first "
            "battle plays the last cards listed"),
    Mistake("dealt_swapped", "plays", "one-card", "each battle's cards dealt to the players "
            "the other way round: the first player the second card"),
    Mistake("losses_from_wins", "counts", "one-card", "the losses counted as the battles "
            "less the wins: wrong whenever there are ties"),
    # ---- The runner: how a run ended
    Mistake("not_started", "runs", "runner", "the program could not be started"),
    Mistake("timeout", "runs", "runner", "a run that did not finish in time"),
    Mistake("flood", "runs", "runner", "a run that printed past the output limit"),
    Mistake("cpu_time", "runs", "runner", "a run that ran past its CPU time"),
    Mistake("out_of_memory", "runs", "runner", "a run that ran out of memory"),
    Mistake("crash", "runs", "runner", "a run killed by a signal (a crash)"),
    Mistake("exit_status", "runs", "runner", "a run that exited with a status other than 0"),
    # ---- The build and valgrind
    Mistake("build_fails", "builds", "build", "the build command failed or made no program"),
    Mistake("include_case", "builds", "build", "an #include whose case differs from its "
            "file's: it builds on Windows and macOS, not on Linux"),
    Mistake("leak", "memory", "memcheck", "memory leaked (definitely, indirectly or possibly "
            "lost)"),
    Mistake("memory_error", "memory", "memcheck",
            "an invalid read, write or free, a mismatched delete, or an uninitialised value"),
    Mistake("memcheck_unfinished", "memory", "memcheck", "valgrind's run ended by a "
            "signal or at its time limit (no verdict of valgrind's), its log passed its "
            "size limit or ended without its summary, or the program replaced itself by "
            "exec (not checked)"),
    # ---- What a transcript cannot show: never charged
    Mistake("dealt_in_halves", None, "none", "the deck dealt in halves, not alternately "
            "(the deal as listed is all the referee knows of it)"),
    Mistake("pot_order", None, "none", "the pot joining the winner's cards in another order "
            "(no line shows the order inside a pile that is not played from)"),
)
MISTAKE = MappingProxyType({mistake.name: mistake for mistake in MISTAKES})

# The order the search tries the deviations in (pywar.check.referee.explain), the likelier
# first: the sets of one more deviation in this order, then the pairs, and where two sets
# of as many explain a battle and the battles after it alike, the earlier is adopted.  A
# place here decides marks: a row that refines another comes before it (check_table), and
# a row placed before others may take battles that they explained (tests/test_class_marks.py
# names the programs whose marks move).
SEARCH_ORDER = (
    "ace_low", "winner_misnamed", "tie_decided", "tie_returned", "war_pot_to_play",
    "war_pot_split", "pot_to_play", "pot_to_loser", "pot_to_survivor", "pot_lost",
    "refill_lazy", "refill_silent", "counts_before_refill", "refill_lazy_told",
    "refill_never", "refill_from_empty", "play_after_out", "face_down_war",
    "counts_less_one", "counts_swapped", "counts_total", "counts_other_player",
)
DEVIATIONS = tuple(MISTAKE[name] for name in SEARCH_ORDER)
ROW = type("Rows", (), {"__slots__": (), **MISTAKE})()     # ROW.ace_low: a row by attribute


def check_table():
    """Every deviation's effects name fields of the Policy and change them; every row's
    item is a rubric item (or None); no name twice; SEARCH_ORDER names every deviation
    once, each row that refines another before it."""
    from .rubric import ITEM
    assert len(MISTAKE) == len(MISTAKES)
    rules = [m.name for m in MISTAKES if m.found_by == "rules"]
    assert sorted(SEARCH_ORDER) == sorted(rules) and len(set(SEARCH_ORDER)) == len(rules)
    for row in DEVIATIONS:
        if row.refines is not None:
            assert MISTAKE[row.refines].found_by == "rules", (row.name, row.refines)
            assert SEARCH_ORDER.index(row.name) < SEARCH_ORDER.index(row.refines), \
                f"{row.name} refines {row.refines}: the search must try it first"
    defaults = {f.name: f.default for f in fields(Policy)}
    for mistake in MISTAKES:
        assert mistake.item is None or mistake.item in ITEM, mistake.name
        for key, value in mistake.effects.items():
            assert key in defaults and defaults[key] != value, (mistake.name, key)


def candidates(adopted):
    """The sets of deviations to try after those adopted: the adopted with some left out
    (a program may deviate only sometimes: on a tie, say), then each deviation more, then
    each pair more; each with its Policy (sets whose rows conflict are left out)."""
    names = sorted(adopted)
    fewer = [frozenset(c) for size in range(len(names) - 1, -1, -1)
             for c in combinations(names, size)] if len(names) <= 5 else \
        [adopted - {name} for name in names]
    left = [d.name for d in DEVIATIONS if d.name not in adopted]
    sets = fewer + [base | {name} for base in [adopted] + fewer for name in left] + \
        [adopted | set(pair) for pair in combinations(left, 2)]
    for names_tried in sets:
        policy = Policy.of(names_tried)
        if policy is not None:
            yield frozenset(names_tried), policy


def in_search_order(names):
    """Deviation names in the order of SEARCH_ORDER."""
    return tuple(sorted(names, key=SEARCH_ORDER.index))


if __name__ == "__main__":
    check_table()
    print(f"{len(DEVIATIONS)} deviations: {sum(1 for _ in candidates(frozenset()))} sets "
          "tried for a battle nothing explains, with none adopted")
