"""The class's marks, item by item.  tests/data/class holds student-style War programs
(each a complete program seeded with srand(time(NULL)), shuffling its own way, but those
that never seed), one per
mistake real submissions made, some in pairs, in several wordings, and some that play
no game, print garbage, stop early, crash or never end.  tests/data/class-marks.json
says, for every program, its mistakes (rows of pywar.check.referee.mistakes: exactly
those the grader finds, with those a transcript cannot show), its wording, why, and the
mark it must get on every item of the rubric when the class is graded on seeds 1 to 5:

- "ok": its rule was put to the test on at least one seed and kept on every one;
- "all": broken on every seed on which it was put to the test;
- "not checked": never put to the test (and so it earns no point);
- a predicate's name ("won_war", ...): broken exactly on the seeds where the predicate
  holds of the program's own transcript, kept on the others.  The predicates are plain
  regular expressions over the program's lines, in its own wording (WORDINGS below),
  computed here and not by the referee.

The class is graded once per session (conftest's class_grades, through the command
line); the programs whose marks name a predicate are built again here and run on the
same seeds with pywar's seed clock, to read their transcripts."""

import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import CLASS, CLASS_SEEDS, DATA, needs_tools
from pywar.check.referee.mistakes import MISTAKE
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.check.runner import sandbox

MANIFEST = json.loads((DATA / "class-marks.json").read_text())
FIRST, COUNT = CLASS_SEEDS
SEEDS = range(FIRST, FIRST + COUNT)

pytestmark = needs_tools("g++", "valgrind")

# Each wording's lines, as its programs print them: a battle (the two ranks played, A's
# then B's), a tie, a win and a counts line (a player's 'to play' and 'played' counts).
WORDINGS = {
    "reference": {
        "battle": r"^Player A plays (\w+) of \w+\nPlayer B plays (\w+) of \w+$",
        "tie": r"^There is a tie\.\.\. Doing another battle\.$",
        "win": r"^Player [AB] wins the 'currently in play' pile\.$",
        "counts": r"^Player [AB] has (\d+) in their 'to play' pile and (\d+) in their 'played' pile\.$",
        "listed": r"^Card 1, (\w+) of (\w+)\nCard 2, (\w+) of (\w+)\nCard 3, (\w+) of (\w+)$"},
    "own": {
        "battle": r"^Player A puts down the (\w+) of \w+\.\nPlayer B puts down the (\w+) of \w+\.$",
        "tie": r"^It's a tie\.\.\. battle again!$",
        "win": r"^Player [AB] wins the loot!$",
        "counts": r"^Player [AB]: to play: (\d+), played: (\d+)$"},
    "loot": {
        "battle": r"^Player A flips over the (\w+) of \w+\nPlayer B flips over the (\w+) of \w+$",
        "tie": r"^It's a tie\.\.\. battle again!$",
        "win": r"^Player [AB] wins the loot!$",
        "counts": r"^Player [AB]: (\d+) cards in the to play deck, (\d+) in the played deck$"},
    "round": {
        "battle": r"^Player A draws the (\w+) of \w+\nPlayer B draws the (\w+) of \w+$",
        "tie": r"^WAR! The cards are tied\.$",
        "win": r"^Player [AB] wins the round!$",
        "counts": r"^Player [AB] has (\d+) cards in their deck and (\d+) cards in their played pile$"},
    "oneline": {
        "battle": r"^A shows the (\w+) of \w+, B shows the (\w+) of \w+$",
        "tie": r"^Tie! Another battle\.$",
        "win": r"^[AB] takes the pile\.$",
        "counts": r"^[AB]: (\d+) to play, (\d+) played$"},
}
NO_WORDING = "none"        # a program that prints no game
ACE = ("ace", "one")       # the ace's names (an ace printed "one" is still the ace)


def events(text, wording):
    """The transcript's battles, ties, wins and counts in order: [(kind, values), ...]."""
    patterns = WORDINGS[wording]
    found = []
    for kind, pattern in patterns.items():
        for match in re.finditer(pattern, text, re.M):
            found.append((match.start(), kind, tuple(match.groups())))
    return [(kind, values) for _, kind, values in sorted(found)]


def won_war(seen):
    """A tie that the next verdict breaks with a win."""
    verdicts = [kind for kind, _ in seen if kind in ("tie", "win")]
    return any(pair == ("tie", "win") for pair in zip(verdicts, verdicts[1:]))


def ran_out_in_tie(seen):
    """A player with no card in either pile right after a tie (before the next battle)."""
    after_tie = False
    for kind, values in seen:
        if kind in ("battle", "win"):
            after_tie = False
        elif kind == "tie":
            after_tie = True
        elif kind == "counts" and after_tie and values == ("0", "0"):
            return True
    return False


def tied(seen):
    """A battle of two equal ranks."""
    return any(kind == "battle" and values[0].lower() == values[1].lower()
               for kind, values in seen)


def ace_battle(seen):
    """A battle of an ace against another rank."""
    return any(kind == "battle" and (values[0].lower() in ACE) != (values[1].lower() in ACE)
               for kind, values in seen)


def ace_first_deal(seen):
    """The first pile listed opens with the ace, the three and the five of one suit: the
    deck in its own order, built ace first and dealt alternately (a fair shuffle deals
    that with chance 4 / (52 * 51 * 50))."""
    listed = [values for kind, values in seen if kind == "listed"]
    return bool(listed) and listed[0][0::2] == ("ace", "three", "five") and \
        len(set(listed[0][1::2])) == 1


PREDICATES = {"won_war": won_war, "ran_out_in_tie": ran_out_in_tie, "tied": tied,
              "ace_battle": ace_battle, "ace_first_deal": ace_first_deal}
MARKS = ("ok", "all", "not checked", *PREDICATES)


def predicated(name):
    """Whether a program's marks name a predicate."""
    return any(mark in PREDICATES for mark in MANIFEST[name]["marks"].values())


@pytest.fixture(scope="session")
def class_transcripts():
    """What each program whose marks name a predicate prints on each seed, built with
    the grader's build command and run with pywar's seed clock: {name: {seed: text}}."""
    folder = Path(tempfile.mkdtemp(prefix="pywar-test-class-"))
    os.chmod(folder, 0o755)
    clock = sandbox.seed_clock(str(folder))

    def transcripts(name):
        program = folder / name
        sources = sorted(str(path) for path in (CLASS / name).glob("*.cpp"))
        subprocess.run(["g++", "-std=c++17", "-O1", "-o", str(program), *sources],
                       check=True, env=sandbox.unloaded())
        return name, {seed: sandbox.run([str(program)], env=sandbox.seeded(clock, seed)).stdout
                      for seed in SEEDS}
    names = [name for name in sorted(MANIFEST) if predicated(name)]
    with ThreadPoolExecutor(2) as pool:
        found = dict(pool.map(transcripts, names))
    yield found
    shutil.rmtree(folder)


def holding(name, predicate, transcripts):
    """The seeds on which a predicate holds of a program's transcripts."""
    wording = MANIFEST[name]["wording"]
    seeds = []
    for seed, text in transcripts[name].items():
        seen = events(text, wording)
        assert any(kind == "battle" for kind, _ in seen), (name, seed, "no battle read")
        if PREDICATES[predicate](seen):
            seeds.append(seed)
    return seeds


def observed(item):
    """An item of the JSON in the manifest's terms (a partial failure with its count, the
    seeds it was put to the test on and the first seed broken)."""
    failed, of, example = item["failed"], item["of"], item["example"]
    if of == 0:
        return "not checked" if failed == 0 else f"failed {failed} of 0"
    if failed == 0:
        return "ok"
    if failed == of:
        return "all"
    return f"broken on {failed} of {of} seeds, first seed {(example or {}).get('seed')}"


def expected(mark, item, seeds):
    """The manifest's mark in the same terms, a predicate's given the seeds it holds on
    (and the number of seeds the item was put to the test on, which the referee counts)."""
    if mark not in PREDICATES:
        return mark
    of = item["of"]
    if not seeds:
        return "ok"
    if len(seeds) == of:
        return "all"
    return f"broken on {len(seeds)} of {max(of, len(seeds))} seeds, first seed {seeds[0]}"


# ---- The manifest

def test_every_program_has_its_marks_and_every_mark_its_program():
    folders = {path.name for path in CLASS.iterdir()}
    assert folders == set(MANIFEST)
    for name in folders:
        source = (CLASS / name / "war.cpp").read_text()
        seeded = "same_deal" not in MANIFEST[name]["mistakes"]   # the one that never seeds
        assert ("srand(time(NULL))" in source) == seeded and "int main()" in source, name


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_manifest_entry_is_complete(name):
    entry = MANIFEST[name]
    assert set(entry) == {"mistakes", "wording", "why", "marks"}
    assert all(name in MISTAKE for name in entry["mistakes"]), entry["mistakes"]
    assert list(entry["marks"]) == list(ITEMS)
    assert set(entry["marks"].values()) <= set(MARKS)
    assert entry["wording"] in (*WORDINGS, NO_WORDING)
    assert entry["why"].endswith(".") and "\n" not in entry["why"]
    if entry["wording"] != "reference":             # any other wording costs format
        assert entry["marks"]["format"] == "all"


def test_the_predicates_on_the_reference_program_s_seed_1():
    """The reference's own seed 1 (tests/data/seed-1.txt): player B runs out in a tie
    (docs/rules.md: 2 cards stranded), a war is won before, two equal ranks meet, and an
    ace meets another rank, and its deal is shuffled (not the ace-first deck's own order);
    a transcript of one plain battle has none of these, and the reference's listing of an
    ace-first deck dealt alternately is that deck's."""
    seen = events((DATA / "seed-1.txt").read_text(), "reference")
    assert [predicate(seen) for predicate in PREDICATES.values()] == [True] * 4 + [False]
    listed = "".join(f"Card {n}, {rank} of spades\n" for n, rank in
                     enumerate(["ace", "three", "five", "seven"], 1))
    assert ace_first_deal(events(listed, "reference"))
    assert not ace_first_deal(events(listed.replace("five of spades", "five of clubs"),
                                     "reference"))
    plain = ("Player A plays ace of hearts\nPlayer B plays ace of spades\n"
             "There is a tie... Doing another battle.\n\n"
             "Player A has 1 in their 'to play' pile and 0 in their 'played' pile.\n"
             "Player B has 1 in their 'to play' pile and 0 in their 'played' pile.\n\n"
             "Player A plays two of hearts\nPlayer B plays three of spades\n"
             "Player B wins the 'currently in play' pile.\n")
    assert (won_war(events(plain, "reference")), ran_out_in_tie(events(plain, "reference")),
            tied(events(plain, "reference")), ace_battle(events(plain, "reference"))) == (
        True, False, True, False)


# ---- Each program's marks

@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_marks(name, class_grades, class_transcripts):
    """Every item of a program's grade is the manifest's mark, and the score counts the
    items that hold out of the full rubric (no point for an item not checked)."""
    sub = class_grades[0][name]
    marks = MANIFEST[name]["marks"]
    assert list(sub["items"]) == list(ITEMS)
    found = {item: observed(sub["items"][item]) for item in ITEMS}
    wanted = {item: expected(mark, sub["items"][item],
                             holding(name, mark, class_transcripts) if mark in PREDICATES else [])
              for item, mark in marks.items()}
    assert found == wanted, MANIFEST[name]["why"]
    for item in ("builds", "memory"):
        assert sub["items"][item]["of"] in (0, 1)
    assert sub["items"]["runs"]["of"] == COUNT
    assert sub["score"] == sum(1 for item in ITEMS if wanted[item] == "ok")
    assert sub["max_score"] == len(ITEMS)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_grader_finds_the_program_s_mistakes_and_no_other(name, class_grades):
    """The rows the grader reports of a program are its manifest's, those a transcript
    cannot show (no item) left out; and each is charged to its row's item."""
    sub = class_grades[0][name]
    shown = {mistake for mistake in MANIFEST[name]["mistakes"]
             if MISTAKE[mistake].item is not None}
    assert set(sub["mistakes"]) == shown, MANIFEST[name]["why"]
    for mistake in shown:
        assert sub["items"][MISTAKE[mistake].item]["failed"] > 0, mistake
