"""tests/data/cecs325: a class of CSULB CECS 325's "One Card WAR" (Prog 1, the Fall 2024
handout "Prog 1 - WAR (array).doc", CECS 325-02, as published in the public repository
Cole-Hartman/CECS-325), in that course's words.  `reference/` is the program as the
handout asks for it, written here from the handout alone; each other folder is the
reference with one planted mistake, named by the folder; tests/data/cecs325-marks.json
holds the marks a correct grader gives each (docs/instructors.md).

Here, without grading: every program builds; the reference prints, on three seeds under
pywar's seed clock, exactly the lines of the handout's sample output re-made in plain
Python from the deck it shuffled (and that re-making gives the handout's own sample from
the sample's deck); every program is the reference but for one small diff; and the
manifest is complete.  Grading the class under its assignment is the grader's test."""

import difflib
import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import DATA, needs_tools
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.check.runner import sandbox

CLASS = DATA / "cecs325"
MANIFEST = json.loads((DATA / "cecs325-marks.json").read_text())
REFERENCE = "reference"
PROGRAMS = sorted(path.name for path in CLASS.iterdir())
BUILD = ["g++", "-std=c++17", "-O1"]         # pywar grade's build, as the class is graded
WARNINGS = ["-Wall", "-Wextra"]
SEEDS = (1, 2, 6)            # seed 1 has no tie; seeds 2 and 6 have ties (2 and 5)
PLAYERS = ("Aquaman", "Batman")              # the sample's players

# The handout's rules and words, as its sample output shows them.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # aces low
SUITS = "CSDH"               # the order of the sample's original deck
ROW = 13                     # cards to a printed row
GAMES = 26
PROMPTS = ("Enter the name of the first player: ", "Enter the name of the second player: ")
SHUFFLED = " Shuffled Deck"
MARKS = ("ok", "failed", "unchecked")
LEFT_OUT = "left out"        # an item of rules that One Card WAR has not
NOT_ONE_CARD = ("pickup", "refill")
SMALL_DIFF = {"reference": 6, "own": 24}     # changed lines at most, by wording

# The handout's sample output (quoted from it): its shuffled deck, and some of its lines.
HANDOUT_DECK = ("9C,8H,6H,KC,8C,JH,2S,6D,9H,10D,7D,3D,JS\n"
                "5C,6C,5S,QS,5D,9S,AD,AS,QC,4H,JC,2C,6S\n"
                "2H,JD,10H,9D,QH,QD,2D,KS,7C,4C,KD,AH,KH\n"
                "4S,10S,8D,7S,3C,3H,3S,8S,AC,7H,5H,4D,10C")
HANDOUT_LINES = [
    "Game 1", "--------", "        Aquaman=>9C", "        Batman=>8H", "Aquaman=> Winner",
    "Game 2", "--------", "        Aquaman=>6H", "        Batman=>KC", "Batman=> Winner",
    "Game 16", "--------", "        Aquaman=>QH", "        Batman=>QD", "Tie game",
    "Game 19", "--------", "        Aquaman=>KD", "        Batman=>AH", "Aquaman=> Winner",
    "------Final Stats-------", "       Aquaman vs. Batman",
    "Wins   14          10", "Losses 10          14", "Ties   2           2"]

pytestmark = needs_tools("g++")


def rows(cards):
    """A deck as the handout prints it: 13 cards to a row, comma-separated."""
    return [",".join(cards[start:start + ROW]) for start in range(0, len(cards), ROW)]


def rank(card):
    """A card's rank, 0 for the ace to 12 for the king."""
    return RANKS.index(card[:-1])


def game_lines(number, first, second, card1, card2):
    """One game's lines and its outcome (1: the first player wins, -1: the second, 0: a tie)."""
    outcome = (rank(card1) > rank(card2)) - (rank(card1) < rank(card2))
    verdict = {1: f"{first}=> Winner", -1: f"{second}=> Winner", 0: "Tie game"}[outcome]
    return [f"Game {number}", "-" * 8, f"{' ' * 8}{first}=>{card1}",
            f"{' ' * 8}{second}=>{card2}", verdict], outcome


def expected(first, second, shuffled):
    """The handout's sample output for two players and a shuffled deck, as a run with the
    names piped on stdin prints it (the prompts ask on one line, the names not echoed)."""
    original = [rank_name + suit for suit in SUITS for rank_name in RANKS]
    lines = ["".join(PROMPTS) + " Original Deck", *rows(original), SHUFFLED, *rows(shuffled)]
    outcomes = []
    for game in range(GAMES):
        said, outcome = game_lines(game + 1, first, second, *shuffled[2 * game:2 * game + 2])
        lines += said
        outcomes.append(outcome)
    wins, losses, ties = outcomes.count(1), outcomes.count(-1), outcomes.count(0)
    return lines + ["------Final Stats-------", f"       {first} vs. {second}",
                    f"Wins   {wins:<12}{losses}", f"Losses {losses:<12}{wins}",
                    f"Ties   {ties:<12}{ties}"]


def shuffled_of(text):
    """The shuffled deck a transcript lists: its 52 cards in order."""
    lines = text.splitlines()
    start = lines.index(SHUFFLED) + 1
    return [card for line in lines[start:start + 4] for card in line.split(",")]


def changed_lines(program):
    """The lines a program's files add to or take from the reference's."""
    changed = 0
    for path in sorted((CLASS / REFERENCE).iterdir()):
        diff = difflib.unified_diff(path.read_text().splitlines(),
                                    (CLASS / program / path.name).read_text().splitlines(),
                                    lineterm="", n=0)
        changed += sum(1 for line in diff
                       if line[:1] in "+-" and not line.startswith(("+++", "---")))
    return changed


@pytest.fixture(scope="module")
def built():
    """Each program built with the grader's command, the warnings on: {name: (program,
    g++'s output)}, and the seed clock's library."""
    folder = Path(tempfile.mkdtemp(prefix="pywar-test-cecs325-"))
    os.chmod(folder, 0o755)

    def build(name):
        program = folder / name
        sources = sorted(str(path) for path in (CLASS / name).glob("*.cpp"))
        done = subprocess.run([*BUILD, *WARNINGS, "-o", str(program), *sources],
                              capture_output=True, text=True, env=sandbox.unloaded())
        return name, (program if done.returncode == 0 else None, done.stderr)
    with ThreadPoolExecutor(2) as pool:
        programs = dict(pool.map(build, PROGRAMS))
    yield programs, sandbox.seed_clock(str(folder))
    shutil.rmtree(folder)


def run(built, name, seed):
    """A program's run on a seed under the seed clock, the players' names on its stdin."""
    programs, clock = built
    stdin = "".join(f"{player}\n" for player in PLAYERS).encode()
    return sandbox.run([str(programs[name][0])], env=sandbox.seeded(clock, seed), stdin=stdin)


# ---- The re-made sample

def test_the_re_made_sample_is_the_handout_s():
    """From the sample's own shuffled deck, the re-making gives the handout's lines: its
    games (16, a tie of two queens; 19, KD beating AH: aces low) and its statistics."""
    deck = HANDOUT_DECK.replace("\n", ",").split(",")
    lines = expected(*PLAYERS, deck)
    assert lines[6:10] == HANDOUT_DECK.splitlines()
    picked = [line for number in (1, 2, 16, 19) for line in
              lines[10 + 5 * (number - 1):10 + 5 * number]] + lines[-5:]
    assert picked == HANDOUT_LINES


# ---- The programs

@pytest.mark.parametrize("name", PROGRAMS)
def test_it_builds(name, built):
    program, said = built[0][name]
    assert program is not None, said
    if name == REFERENCE:
        assert said == "", said          # clean under -Wall -Wextra


@pytest.mark.parametrize("seed", SEEDS)
def test_the_reference_prints_the_handout_s_sample_of_its_own_deck(seed, built):
    outcome = run(built, REFERENCE, seed)
    assert (outcome.status, outcome.stderr) == (0, "")
    shuffled = shuffled_of(outcome.stdout)
    assert sorted(shuffled) == sorted(rank_name + suit for suit in SUITS for rank_name in RANKS)
    assert outcome.stdout.splitlines() == expected(*PLAYERS, shuffled)


def test_the_seeds_deal_other_decks_with_ties_and_aces(built):
    """The shuffle follows the clock (each seed its own deck), and the seeds between them
    play a tie and an ace against another rank, so that the comparison above can fail."""
    decks = [shuffled_of(run(built, REFERENCE, seed).stdout) for seed in SEEDS]
    assert len({tuple(deck) for deck in decks}) == len(SEEDS)
    pairs = [(deck[i], deck[i + 1]) for deck in decks for i in range(0, 2 * GAMES, 2)]
    assert any(rank(a) == rank(b) for a, b in pairs)
    assert any((rank(a) == 0) != (rank(b) == 0) for a, b in pairs)


@needs_tools("valgrind")
def test_the_reference_is_clean_under_valgrind(built):
    programs, clock = built
    memcheck = ["valgrind", "--leak-check=full", "--error-exitcode=9", "-q",
                str(programs[REFERENCE][0])]
    outcome = sandbox.run(memcheck, env=sandbox.seeded(clock, SEEDS[1]), stdin=b"A\nB\n",
                          limits=sandbox.profile("memcheck"))
    assert (outcome.status, outcome.stderr) == (0, "")


@pytest.mark.parametrize("name", [name for name in PROGRAMS if name != REFERENCE])
def test_each_program_is_the_reference_but_one_mistake(name):
    """Its files are the reference's, one small diff apart (larger for its own words)."""
    assert sorted(path.name for path in (CLASS / name).iterdir()) == \
        sorted(path.name for path in (CLASS / REFERENCE).iterdir())
    assert 0 < changed_lines(name) <= SMALL_DIFF[MANIFEST[name]["wording"]]


# ---- The manifest

def test_every_program_has_its_marks_and_every_mark_its_program():
    assert set(PROGRAMS) == set(MANIFEST)


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_manifest_entry_is_complete(name):
    entry = MANIFEST[name]
    assert list(entry) == ["mistakes", "wording", "why", "marks"]
    assert list(entry["marks"]) == list(ITEMS)
    assert entry["why"].endswith(".") and "\n" not in entry["why"]
    assert entry["wording"] in SMALL_DIFF
    for item, mark in entry["marks"].items():
        assert mark == LEFT_OUT if item in NOT_ONE_CARD else mark in MARKS, (item, mark)
    missed = [item for item, mark in entry["marks"].items() if mark != "ok" and
              mark != LEFT_OUT]
    assert bool(missed) == bool(entry["mistakes"]) == (name != REFERENCE)
    if entry["wording"] == "own":
        assert entry["marks"]["format"] == "failed"


# ---- The class graded under its assignment file (pywar grade --assignment-file)

GRADED_SEEDS = ("-n", "5", "--fresh", "0")   # the manifest's seeds 1 to 5, valgrind on seed 1


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded by `pywar grade` under CECS 325's file, as `pywar assignment
    show cecs325` prints it: {program: its submission's JSON}."""
    folder = tmp_path_factory.mktemp("cecs325-graded")
    assignment = folder / "cecs325.toml"
    shown = subprocess.run(["pywar", "assignment", "show", "cecs325"], capture_output=True,
                           text=True, check=True)
    assignment.write_text(shown.stdout)
    done = subprocess.run(["pywar", "grade", *[str(CLASS / name) for name in PROGRAMS],
                           *GRADED_SEEDS, "--assignment-file", str(assignment), "--json",
                           "--jobs", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return {entry["name"]: entry for entry in json.loads(done.stdout)["submissions"]}


def mark_of(entry, item):
    """An item's mark in the manifest's words: ok, failed, unchecked or left out."""
    if item in entry["left_out"]:
        return LEFT_OUT
    found = entry["items"][item]
    return "ok" if found["ok"] else "failed" if found["failed"] else "unchecked"


@needs_tools("valgrind")
@pytest.mark.parametrize("name", PROGRAMS)
def test_graded_under_its_file_each_program_gets_its_marks(name, graded):
    """Under cecs325.toml the reference earns every mark and each planted mistake costs
    its one item, as the manifest (worked from each program's code) says."""
    entry = graded[name]
    assert {item: mark_of(entry, item) for item in ITEMS} == MANIFEST[name]["marks"]
    assert sorted(entry["mistakes"]) == sorted(MANIFEST[name]["mistakes"])
    assert entry["max_score"] == 10 and entry["score"] == sum(
        1 for mark in MANIFEST[name]["marks"].values() if mark == "ok")


def test_the_receipt_names_the_file_and_its_rules(tmp_path):
    """A grade under CECS 325's file names the file by its text's sha256, and its rules
    are the file's (cecs325, one-card), not SMU's."""
    import hashlib
    done = subprocess.run(["pywar", "assignment", "show", "cecs325"], capture_output=True,
                          text=True, check=True)
    (tmp_path / "cecs325.toml").write_text(done.stdout)
    graded_again = subprocess.run(
        ["pywar", "grade", str(CLASS / REFERENCE), "-n", "1", "--fresh", "0", "--no-memory",
         "--assignment-file", str(tmp_path / "cecs325.toml"), "--json"],
        capture_output=True, text=True, timeout=300)
    receipt = json.loads(graded_again.stdout)["receipt"]
    assert receipt["assignment"] == {
        "name": "cecs325", "sha256": hashlib.sha256(done.stdout.encode()).hexdigest()}
    assert receipt["rules"]["game"] == "one-card" and receipt["rules"]["name"] == "cecs325"


def test_every_one_card_row_has_a_program_here_and_every_name_is_a_row():
    """The checklist of a student mistake (docs/development.md), for a one-card game's
    rows: each has a program of this class, and each name the manifest gives is a row."""
    from pywar.check.referee.mistakes import MISTAKE, MISTAKES
    named = {row for entry in MANIFEST.values() for row in entry["mistakes"]}
    assert named <= set(MISTAKE), named - set(MISTAKE)
    assert {m.name for m in MISTAKES if m.found_by == "one-card"} <= named


# ---- A reference in words of its own teaches pywar its words (pywar assignment draft)

def changed_files(name):
    """The files of a program that differ from the reference's."""
    return {path.name for path in (CLASS / name).iterdir()
            if path.read_bytes() != (CLASS / REFERENCE / path.name).read_bytes()}


@pytest.mark.slow
@needs_tools("valgrind")
def test_a_reference_in_its_own_words_drafts_a_file_that_grades_its_mistakes(tmp_path):
    """own_words (the course's game in other words) drafts a file; under it, own_words
    earns every mark, and each mistake of the class that touches other files than its
    words, put into own_words (its war.cpp over the mistake's program), costs the
    manifest's one item, format kept."""
    drafted = tmp_path / "own.toml"
    done = subprocess.run(["pywar", "assignment", "draft", str(CLASS / "own_words"),
                           "--rules", "cecs325", "--stdin", "Aquaman\nBatman\n", "-n", "3",
                           "-o", str(drafted)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    words = changed_files("own_words")
    composed = [name for name in PROGRAMS if name not in (REFERENCE, "own_words")
                and changed_files(name) and not changed_files(name) & words]
    assert len(composed) >= 5, composed
    class_ = tmp_path / "class"
    for name in ["own_words", *composed]:
        shutil.copytree(CLASS / name, class_ / name)
        for file in words:
            shutil.copy(CLASS / "own_words" / file, class_ / name / file)
    graded_ = subprocess.run(["pywar", "grade", *[str(class_ / n) for n in ["own_words",
                                                                          *composed]],
                              *GRADED_SEEDS, "--assignment-file", str(drafted), "--json",
                              "--jobs", "2"], capture_output=True, text=True, timeout=600)
    assert graded_.returncode == 0, graded_.stderr[-2000:]
    entries = {e["name"]: e for e in json.loads(graded_.stdout)["submissions"]}
    assert {item: mark_of(entries["own_words"], item) for item in ITEMS} == \
        MANIFEST[REFERENCE]["marks"]
    for name in composed:
        assert {item: mark_of(entries[name], item) for item in ITEMS} == \
            MANIFEST[name]["marks"], name


def test_the_course_s_reference_drafts_cecs325_s_own_wording(tmp_path):
    """`pywar assignment draft` on the course's reference gives the wording of the file
    pywar ships for the course, field for field."""
    from pywar.check.assignment.file import builtin, load
    drafted = tmp_path / "drafted.toml"
    done = subprocess.run(["pywar", "assignment", "draft", str(CLASS / REFERENCE),
                           "--rules", "cecs325", "--stdin", "Aquaman\nBatman\n", "-n", "2",
                           "-o", str(drafted)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert load(drafted).wording == builtin("cecs325").wording
