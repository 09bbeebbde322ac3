"""An assignment is a file (issue 49): SMU's ships in the package and is the source of the
reference's words; grading under it gives the marks of pywar grade without it, byte for
byte; a bad file is one line naming what is valid, exit 2, before any work."""

import doctest
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CLASS, CLASS_SEEDS, DATA, ROOT, open_folder
from pywar.check.assignment import file as assignment_file
from pywar.check.assignment.file import (FIELDS, AssignmentError, builtin, builtin_text, load,
                                         loads, not_yet)
from pywar.check.grading.grade import DEFAULT_BUILD, DEFAULT_RUN
from pywar.check.referee import words
from pywar.check.referee.rubric import NAMES, default_weights
from pywar.check.runner import sandbox
from pywar.common.fields import PLAYER_NAMES
from pywar.rules import PRESETS

PYWAR = str(Path(sys.executable).parent / "pywar")
SMU = builtin_text("smu")
TRANSCRIPTS = ("seed-1.txt", "seed-1553.txt", "seed-17455.txt")   # the reference's own


def pywar(*args):
    """pywar's run with args: (status, stdout, stderr less the one warning of a machine
    without bubblewrap, which tests/test_sandbox.py tests)."""
    done = subprocess.run([PYWAR, *args], capture_output=True, text=True)
    said = sandbox.warning("auto")
    err = done.stderr.replace(f"{said}\n", "", 1) if said else done.stderr
    return done.returncode, done.stdout, err


def test_the_module_examples():
    failures, tried = doctest.testmod(assignment_file)
    assert tried > 3 and failures == 0


def test_smus_file_is_todays_grading():
    """SMU's file holds pywar grade's defaults: the referee's rules, the build and run
    commands, each item weighted 1 (an independent value: the rubric's defaults), memory
    graded, and the engine's two players."""
    smu = builtin("smu")
    assert smu.rules == PRESETS["smu"]
    assert (smu.build, smu.run, smu.stdin, smu.memory) == (DEFAULT_BUILD, DEFAULT_RUN, "", True)
    assert smu.weights == default_weights() == {name: 1.0 for name in NAMES}
    assert smu.wording.players == tuple(PLAYER_NAMES[:2]) == ("A", "B")
    assert not_yet(smu) is None


def test_the_referee_takes_its_words_from_smus_file():
    """One fact in one place: the referee's words are the file's (a hand-written line of
    the reference's for each)."""
    smu = builtin("smu").wording
    assert words.plays_line(1, 38) == smu.line("plays", player=1, card=38) == \
        "Player B plays ace of spades"
    assert words.counts_line(0, 25, 2) == \
        "Player A has 25 in their 'to play' pile and 2 in their 'played' pile."
    assert words.OPENING == smu.opening and words.RANKS == smu.ranks
    assert words.NAME_OF[0] == smu.card_name(0) == "two of hearts"


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_smus_templates_read_every_line_of_the_reference(name):
    """Every line of the reference's recorded transcripts is the opening or is read by
    exactly one of the file's templates, whose fields are the reference's (a card of the
    deck, a player): the file's words are the reference's, checked against its output."""
    smu = builtin("smu").wording
    lines = (DATA / name).read_text().splitlines()
    assert tuple(lines[:len(smu.opening)]) == smu.opening
    kinds = set()
    for line in lines[len(smu.opening):]:
        if not line:
            continue
        found = smu.read(line)
        assert len(found) == 1, (line, found)
        kind, values = found[0]
        kinds.add(kind)
        assert values.get("card", "two of hearts") in words.CARD_NAMES, line
        assert values.get("player", "A") in ("A", "B"), line
    assert {"pile", "size", "listed", "plays", "wins", "counts", "lost"} <= kinds
    assert "tie" in kinds or name == "seed-17455.txt"


def test_show_prints_smus_file_as_shipped():
    status, out, err = pywar("assignment", "show", "smu")
    shipped = (ROOT / "pywar/check/assignment/smu.toml").read_text(encoding="utf-8")
    assert (status, out, err) == (0, shipped, "")
    status, out, err = pywar("assignment", "show", "smu", "--json")
    shown = json.loads(out)
    assert status == 0 and shown["weights"] == default_weights()
    assert shown["wording"]["lines"]["tie"] == "There is a tie... Doing another battle."


# ---- Bad files: one line each, naming what is valid

def changed(old, new, text=SMU):
    """SMU's file with one piece replaced (it must be there)."""
    assert old in text, old
    return text.replace(old, new, 1)


BAD = [
    # (what, the file, what its one line says)
    ("missing field", changed('card = "{rank} of {suit}s"\n', ""),
     "missing field wording.card: a card's name, a template naming {rank} and {suit}"),
    ("missing weight", changed("ties = 1\n", ""),
     "missing field rubric.weights.ties: every item of the rubric has its weight: builds,"),
    ("a template that names no card",
     changed('plays = "Player {player} plays {card}"', 'plays = "Player {player} plays"'),
     "wording.lines.plays 'Player {player} plays' names no {card}: no line of it could say "
     "which card; it must name {player}, {card}"),
    ("a template that names an unknown field",
     changed('wins = "Player {player} wins', 'wins = "Player {winner} wins'),
     "wording.lines.wins names {winner}: it may name {player}"),
    ("a template that reads as another's",
     changed('tie = "There is a tie... Doing another battle."', 'tie = "Player A:"'),
     "wording.lines.pile and wording.lines.tie both read 'Player A:': each kind of line "
     "must be told apart from the others"),
    ("a broken brace", changed('size = "There are {count} cards', 'size = "There are {count '
                                                                  'cards'),
     "wording.lines.size 'There are {count cards in the pile.': expected '}' before end of "
     "string"),
    ("an unknown preset", changed('preset = "smu"', 'preset = "smoo"'),
     "rules.preset 'smoo': choose smu, lehigh, iofall, iofall-single"),
    ("an unknown dimension", changed('preset = "smu"', 'preset = "smu"\nfacedown = 3'),
     "unknown field rules.facedown: rules may hold preset, face_down, short_war, pickup,"),
    ("a bad dimension value", changed('preset = "smu"', 'preset = "smu"\npickup = "all"'),
     "rules: unknown pickup 'all': choose one of smu, pot-order, random, winner-first,"),
    ("a wrong version", changed("version = 1", "version = 2"),
     "version 2: this pywar reads version 1"),
    ("a version that is text", changed("version = 1", 'version = "1"'),
     "version is a string: it must be a whole number (the version of this format: 1)"),
    ("another format", changed('format = "pywar-assignment"', 'format = "war"'),
     "format 'war': an assignment file says format = \"pywar-assignment\""),
    ("an unknown field", changed("[run]\n", "[run]\ntimeout = 3\n"),
     "unknown field run.timeout: run may hold command, stdin"),
    ("three players", changed('players = ["A", "B"]', 'players = ["A", "B", "C"]'),
     "wording.players has 3: the rules need 2"),
    ("an ace of its own", changed('ace = "high"', 'ace = "middle"'),
     "wording.ace 'middle': choose high, low"),
    ("no {program}", changed('command = "{program}"', 'command = "./war"'),
     "run.command './war' names no {program}"),
    ("a negative weight", changed("memory = 1\n", "memory = -1\n"),
     "rubric.weights.memory = -1: a number from 0"),
    ("not TOML", "format = pywar-assignment\n", "not TOML: "),
]


@pytest.mark.parametrize("what, text, said", BAD, ids=[case[0] for case in BAD])
def test_a_bad_file_is_one_line_naming_what_is_valid(what, text, said):
    with pytest.raises(AssignmentError) as raised:
        loads(text, "bad.toml")
    message = str(raised.value)
    assert message.startswith("bad.toml: " + said) and "\n" not in message


def test_the_bad_files_are_bad_for_their_one_change_alone():
    """Each bad file above is SMU's but for its change: SMU's own loads (so a test above
    fails only for the change it plants)."""
    assert loads(SMU).name == "smu"


@pytest.mark.parametrize("what, text, said", [BAD[0], BAD[2], BAD[6], BAD[9]],
                         ids=["missing field", "template", "unknown rule", "version"])
def test_grade_refuses_a_bad_file_before_any_work(tmp_path, what, text, said):
    """pywar grade --assignment-file BAD: exit 2, one line on stderr, nothing built (--keep's
    folder, made last of the checks, not made)."""
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    kept = tmp_path / "kept"
    status, out, err = pywar("grade", str(CLASS / "faithful"), "--assignment-file", str(bad),
                             "--keep", str(kept), "--no-memory")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"pywar grade: error: {bad}: {said}")
    assert not kept.exists()


def test_a_file_the_grader_cannot_honour_yet_is_refused_and_shown(tmp_path):
    """Aces low (another wording): pywar grade says it cannot grade under it yet, which
    field, exit 2; pywar assignment show shows it, with that note on stderr."""
    low = tmp_path / "low.toml"
    low.write_text(changed('ace = "high"', 'ace = "low"'))
    status, out, err = pywar("grade", str(CLASS / "faithful"), "--assignment-file", str(low))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "cannot grade under it yet: wording.ace 'low': a war game's referee holds " \
        "SMU's rules" in err
    status, out, err = pywar("assignment", "show", str(low))
    assert status == 0 and out == low.read_text() and "wording.ace 'low'" in err


def test_an_unreadable_file_is_an_input_error(tmp_path):
    status, out, err = pywar("assignment", "show", str(tmp_path / "none.toml"))
    assert status == 3 and "cannot read the assignment" in err


def test_an_unknown_built_in_name_is_a_usage_error_naming_the_built_ins():
    status, out, err = pywar("assignment", "show", "cecs324")
    assert (status, out, err.count("\n")) == (2, "", 1)
    assert "no built-in assignment 'cecs324'" in err and "choose smu, cecs325" in err


def test_the_command_line_overrides_the_files_choices(tmp_path):
    """The file's build, run, weights and memory are taken where the command line gives
    none; an option given wins (read through grade's own checks, before any work)."""
    from pywar.cli import build_parser
    from pywar.cli.grade import checked
    mine = tmp_path / "mine.toml"
    mine.write_text(changed("format = 1", "format = 0.5", changed(
        "[rubric]\nmemory = true", "[rubric]\nmemory = false",
        changed('command = "{program}"', 'command = "{program} --seed {seed}"'))))
    args = build_parser().parse_args(["grade", str(CLASS / "faithful"), "--assignment-file",
                                      str(mine), "--weights", "memory=2", "--fresh", "0"])
    args.scratch = str(tmp_path)                # run_grade's scratch folder (an LMS's)
    settings = checked(args)
    assert settings.run == "{program} --seed {seed}" and settings.build == DEFAULT_BUILD
    assert settings.memory is False
    assert settings.weights == {**default_weights(), "format": 0.5, "memory": 2.0}
    args = build_parser().parse_args(["grade", str(CLASS / "faithful"), "--assignment-file",
                                      str(mine), "--run", "{program}", "--fresh", "0"])
    args.scratch = str(tmp_path)
    assert checked(args).run == "{program}"


# ---- Grading under SMU's file: today's marks, byte for byte

SOME = ("faithful", "ace_low", "pot_to_loser", "never_deletes", "crash_round10", "own_words")


def graded_under_smus_file(tmp_path, programs):
    """The class's grading command (conftest's grade_class) on programs, under SMU's
    file as pywar assignment show prints it: {name: submission}."""
    smu = tmp_path / "smu.toml"
    status, out, _ = pywar("assignment", "show", "smu")
    smu.write_text(out)
    first, count = CLASS_SEEDS
    status, out, err = pywar("grade", *(str(CLASS / name) for name in programs), "-n",
                             str(count), "--seed", str(first), "--fresh", "0", "--jobs", "2",
                             "--timeout", "3", "--budget", "60", "--json", "--assignment-file",
                             str(smu))
    assert status == 0, err
    return {sub["name"]: sub for sub in json.loads(out)["submissions"]}


def test_grading_under_smus_file_gives_todays_marks(tmp_path, class_grades):
    """Six programs of the class (a faithful one, a deviation, a leak, a crash, a wording
    of its own) graded under SMU's file: each submission's JSON the same bytes as the
    class's grading without it (the slow test below takes the whole class)."""
    today, _ = class_grades
    under = graded_under_smus_file(tmp_path, SOME)
    assert sorted(under) == sorted(SOME)
    for name in SOME:
        assert json.dumps(under[name]) == json.dumps(today[name]), name


@pytest.mark.slow
def test_grading_the_whole_class_under_smus_file_gives_todays_marks(tmp_path, class_grades):
    today, _ = class_grades
    under = graded_under_smus_file(tmp_path, sorted(path.name for path in CLASS.iterdir()))
    assert sorted(under) == sorted(today)
    different = [name for name in today if json.dumps(under[name]) != json.dumps(today[name])]
    assert different == []


def test_every_field_is_documented():
    """docs/grading.md's tables of the fields and the lines are FIELDS's and SMU's (python -m
    pywar.check.assignment.tables docs/grading.md writes it)."""
    from pywar.check.assignment.tables import TABLES, tables_in
    page = (ROOT / "docs/grading.md").read_text(encoding="utf-8")
    assert tables_in(page) == {name: table() for name, table in TABLES.items()}
    assert len(FIELDS) > 20 and all(f"`{field.path}`" in page for field in FIELDS)


# ---- run.stdin: what each run reads (a program that asks for the players' names)

def test_a_run_reads_the_stdin_it_is_given_and_none_by_default():
    from pywar.check.runner import sandbox
    given = sandbox.run(["/bin/cat"], stdin=b"Aquaman\nBatman\n")
    assert (given.status, given.stdout) == (0, "Aquaman\nBatman\n")
    assert sandbox.run(["/bin/cat"]).stdout == ""
    wrote = sandbox.run(["/bin/sh", "-c", "echo x >&0 && echo wrote || echo refused"],
                        stdin=b"Aquaman\n")
    assert wrote.stdout == "refused\n"          # stdin is read-only: no file to fill


def test_grade_feeds_the_files_stdin_to_every_run(tmp_path):
    """SMU's faithful program made to ask a word first (exit 1 unless it reads 'go'):
    under SMU's file with run.stdin = "go\\n" it earns every mark, memory too; under SMU's
    own (no stdin) each run fails; the receipt names the stdin."""
    program = tmp_path / "asks"
    program.mkdir()
    source = (CLASS / "faithful" / "war.cpp").read_text()
    program.joinpath("war.cpp").write_text(changed(
        "int main() {", 'int main() {\n    std::string word;\n    if (!(std::cin >> word) || '
        'word != "go") return 1;', source))
    asks = tmp_path / "asks.toml"
    asks.write_text(changed('stdin = ""', 'stdin = "go\\n"'))
    grades = {}
    for name, extra in (("asks", ["--assignment-file", str(asks)]), ("smu", [])):
        status, out, err = pywar("grade", str(program), "-n", "2", "--fresh", "0", "--json",
                                 *extra)
        assert status == 0, err
        grades[name] = json.loads(out)
    asked = grades["asks"]["submissions"][0]
    assert asked["score"] == asked["max_score"] == 12, asked["items"]
    assert grades["asks"]["receipt"]["stdin"] == "go\n"
    plain = grades["smu"]["submissions"][0]["items"]["runs"]
    assert (plain["ok"], plain["failed"]) == (False, 2) and "stdin" not in grades["smu"]["receipt"]


# ---- pywar assignment draft: an instructor's reference teaches its words

def drafted_from(tmp_path, reference, games=2):
    """pywar assignment draft REFERENCE -n games -o FILE: (FILE, stderr)."""
    path = tmp_path / f"{reference}.toml"
    status, out, err = pywar("assignment", "draft", str(CLASS / reference), "-n", str(games),
                             "-o", str(path))
    assert (status, out) == (0, ""), err
    return path, err


def test_draft_modules_examples():
    from pywar.check.assignment import draft, draft_single
    failures, tried = doctest.testmod(draft)
    assert tried > 3 and failures == 0
    failures, tried = doctest.testmod(draft_single)
    assert tried >= 2 and failures == 0


def test_a_reference_in_words_of_its_own_drafts_its_words(tmp_path):
    """own_words (SMU's game in other words): each template is the line its source
    prints (written here by hand from tests/data/class/own_words/war.cpp), and the
    drafted file reads every line of its run on a seed it was not drafted on."""
    path, err = drafted_from(tmp_path, "own_words")
    drafted = load(path)
    assert err == "" and not_yet(drafted) is None           # gradable under its words
    assert drafted.wording.blank_after[:2] == ("listed", "counts")  # war.cpp l.55, 123
    assert dict(drafted.wording.lines) == {
        "round": "--- Round #{number} ---", "pile": "Player {player}'s cards:",
        "size": "There are {count} cards.", "listed": "  {place}. {card}",
        "plays": "Player {player} puts down the {card}.",
        "wins": "Player {player} wins the loot!", "tie": "It's a tie... battle again!",
        "refill": ("Player {player} refills from the played pile",),
        "counts": "Player {player}: to play: {to_play}, played: {played}",
        "lost": "Player {player} is out of cards and loses."}
    assert drafted.wording.opening == ("WELCOME TO WAR!!!", "Shuffling the deck", "",
                                       "Initial piles")
    assert drafted.wording.card_name(38) == "ace of spades"
    from pywar.check.runner import sandbox
    with open_folder() as work:     # a run's own user may enter it, without bubblewrap too
        program = Path(work) / "war"
        subprocess.run(["g++", "-O1", "-o", str(program),
                        str(CLASS / "own_words" / "war.cpp")], check=True)
        clock = sandbox.seed_clock(work)
        printed = sandbox.run([str(program)], env=sandbox.seeded(clock, 7)).stdout
    game = printed.split("\n")[len(drafted.wording.opening):]
    unread = [line for line in game if line and len(drafted.wording.read(line)) != 1]
    assert len(game) > 100 and unread == []


def test_a_reference_in_smus_words_drafts_smus_file_and_grades_as_it(tmp_path):
    """The class's faithful program drafts SMU's wording exactly; under the drafted file
    it earns every mark, and ace_low (one mistake) loses its one item, ranks."""
    path, err = drafted_from(tmp_path, "faithful")
    drafted = load(path)
    assert err == "" and drafted.wording == builtin("smu").wording and not_yet(drafted) is None
    status, out, err = pywar("grade", str(CLASS / "faithful"), str(CLASS / "ace_low"), "-n",
                             "2", "--fresh", "0", "--no-memory", "--json", "--assignment-file",
                             str(path))
    assert status == 0, err
    marks = {sub["name"]: [item for item, mark in sub["items"].items() if not mark["ok"]]
             for sub in json.loads(out)["submissions"]}
    assert marks == {"faithful": ["memory"], "ace_low": ["ranks", "memory"]}


def test_draft_names_the_rule_a_reference_breaks(tmp_path):
    """ace_low as a reference: the draft says where its game breaks the rules (ranks)."""
    _, err = drafted_from(tmp_path, "ace_low", games=1)
    assert err.startswith("pywar assignment draft: not placed: seed 1: the reference's game "
                          "breaks the rules (ranks): line 116 (round 7)")


def test_draft_refuses_rules_the_referee_does_not_hold_before_any_work(tmp_path):
    status, out, err = pywar("assignment", "draft", str(CLASS / "faithful"), "--rules",
                             "lehigh", "-o", str(tmp_path / "x.toml"))
    assert (status, out) == (2, "") and err.count("\n") == 1 and "smu only" in err
    assert not (tmp_path / "x.toml").exists()


@pytest.mark.parametrize("ten, suits", [("10", "CSDH"), ("T", "♥♦♠♣")])
def test_short_card_names_are_told_as_a_ranks_and_a_suits(ten, suits):
    """CECS 325's names (AC, 10S, KD) and a program's Unicode suits."""
    from pywar.check.assignment.draft import card_naming
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", ten, "J", "Q", "K", "A"]
    naming = card_naming({card: ranks[card % 13] + suits[card // 13] for card in range(52)},
                         13, 4)
    assert (naming.card, naming.ranks, naming.suits) == ("{rank}{suit}", tuple(ranks),
                                                         tuple(suits))


# ---- A one-card game's draft (CECS 325's One Card WAR), from transcripts made here

HANDOUT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
HANDOUT_DECK = [rank + suit for suit in "CSDH" for rank in HANDOUT_RANKS]   # as made
PROMPTS = "Enter the name of the first player: Enter the name of the second player: "
HEROES = ("Aquaman", "Batman")
HANDOUT_WORDS = {           # the handout's sample output (CECS 325-02, Fall 2024, Prog 1)
    "opening": [], "unshuffled": PROMPTS + " Original Deck", "shuffled": " Shuffled Deck",
    "between": ",", "per_row": 13, "battle": ["Game {number}", "--------"],
    "plays": "        {player}=>{card}", "wins": "{player}=> Winner", "tie": "Tie game",
    "stats": lambda wins, losses, ties: [
        "------Final Stats-------", f"       {HEROES[0]} vs. {HEROES[1]}",
        f"Wins   {wins[0]:<12}{wins[1]}", f"Losses {losses[0]:<12}{losses[1]}",
        f"Ties   {ties[0]:<12}{ties[1]}"]}
OWN_WORDS = {               # the same game in words of its own
    "opening": ["Welcome to One Card War!"], "unshuffled": "The deck:",
    "shuffled": "After shuffling:", "between": " | ", "per_row": 26,
    "battle": ["", "Round {number}"], "plays": "{player} plays {card}",
    "wins": "{player} wins!", "tie": "It's a tie",
    "stats": lambda wins, losses, ties: [
        "", "Final:", *(f"{HEROES[p]}: {wins[p]} wins, {losses[p]} losses, {ties[p]} ties"
                        for p in (0, 1))]}


def one_card_run(shuffled, says, ace_high=False, losses_off=0):
    """A One Card WAR run's output as a plain program in these words (says) prints it, for a
    shuffled deck (its cards named as the handout names them): aces low, unless
    ace_high; the first player's losses miscounted by losses_off."""
    def value(card):
        rank = HANDOUT_RANKS.index(card[:-1])
        return 13 if ace_high and rank == 0 else rank

    def rows(cards):
        return [says["between"].join(cards[at:at + says["per_row"]])
                for at in range(0, len(cards), says["per_row"])]
    lines = [*says["opening"], says["unshuffled"], *rows(HANDOUT_DECK), says["shuffled"],
             *rows(shuffled)]
    wins, losses, ties = [0, 0], [0, 0], [0, 0]
    for game in range(26):
        cards = shuffled[2 * game:2 * game + 2]
        lines += [line.format(number=game + 1) for line in says["battle"]]
        lines += [says["plays"].format(player=HEROES[p], card=cards[p]) for p in (0, 1)]
        first, second = map(value, cards)
        if first == second:
            lines.append(says["tie"])
            ties = [ties[0] + 1, ties[1] + 1]
            continue
        winner = 0 if first > second else 1
        lines.append(says["wins"].format(player=HEROES[winner]))
        wins[winner] += 1
        losses[1 - winner] += 1
    losses[0] += losses_off
    return "\n".join(lines + says["stats"](wins, losses, ties)) + "\n"


def shuffled_deck(seed):
    """The handout's deck shuffled by a seed."""
    deck = list(HANDOUT_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def one_card_draft(words, seeds=(1, 2, 3)):
    """The file drafted from runs in these words on shuffled decks: (its text, notes)."""
    from pywar.check.assignment.draft_single import one_card_file
    from pywar.rules import make_rules
    return one_card_file([one_card_run(shuffled_deck(seed), words) for seed in seeds],
                         make_rules("cecs325"), "Aquaman\nBatman\n")


def test_the_one_card_run_made_here_is_the_handouts_sample():
    """one_card_run, given the handout's shuffled deck, prints the handout's sample lines
    (quoted here from it): an independent check of what the drafts below read."""
    sample = ("9C,8H,6H,KC,8C,JH,2S,6D,9H,10D,7D,3D,JS,5C,6C,5S,QS,5D,9S,AD,AS,QC,4H,JC,2C,"
              "6S,2H,JD,10H,9D,QH,QD,2D,KS,7C,4C,KD,AH,KH,4S,10S,8D,7S,3C,3H,3S,8S,AC,7H,5H,"
              "4D,10C").split(",")
    printed = one_card_run(sample, HANDOUT_WORDS).split("\n")
    assert printed[6] == "9C,8H,6H,KC,8C,JH,2S,6D,9H,10D,7D,3D,JS"   # the prompts and the
                                        # heading one line: the names come from stdin
    game_16 = printed.index("Game 16")
    assert printed[game_16:game_16 + 5] == ["Game 16", "--------", "        Aquaman=>QH",
                                            "        Batman=>QD", "Tie game"]
    game_19 = printed.index("Game 19")
    assert printed[game_19 + 4] == "Aquaman=> Winner"       # KD beats AH: the ace low
    assert printed[-4:-1] == ["Wins   14          10", "Losses 10          14",
                              "Ties   2           2"]


def test_a_one_card_reference_in_the_handouts_words_drafts_cecs325s_wording():
    text, notes = one_card_draft(HANDOUT_WORDS)
    drafted = loads(text)
    assert notes == [] and drafted.wording == builtin("cecs325").wording
    assert drafted.rules == builtin("cecs325").rules
    assert (drafted.weights["pickup"], drafted.weights["refill"]) == (0, 0)


def test_a_one_card_run_whose_prompts_end_no_line_drafts_them_into_the_heading():
    """A run fed its names on stdin echoes none: its prompts and its first heading are
    one line, the first listing's heading; the opening is empty."""
    words = {**HANDOUT_WORDS, "opening": [], "unshuffled": PROMPTS + " Original Deck"}
    text, notes = one_card_draft(words)
    wording = loads(text).wording
    assert notes == [] and wording.opening == ()
    assert dict(wording.lines)["unshuffled"] == PROMPTS + " Original Deck"


def test_a_one_card_reference_in_words_of_its_own_drafts_them_and_one_mistake_costs_one_item():
    from pywar.check.referee.single import judge_single
    text, notes = one_card_draft(OWN_WORDS)
    wording = loads(text).wording
    assert notes == []
    assert dict(wording.lines) == {
        "unshuffled": "The deck:", "shuffled": "After shuffling:", "row": "{cards}",
        "battle": ("", "Round {number}"), "plays": "{player} plays {card}",
        "wins": "{player} wins!", "tie": "It's a tie",
        "stats": ("", "Final:", "{player1}: {wins1} wins, {losses1} losses, {ties1} ties",
                  "{player2}: {wins2} wins, {losses2} losses, {ties2} ties")}
    assert (wording.opening, wording.between, wording.per_row, wording.ace, wording.card) \
        == (("Welcome to One Card War!",), " | ", 26, "low", "{rank}{suit}")
    new = shuffled_deck(9)
    high = one_card_run(new, OWN_WORDS, ace_high=True)
    assert high != one_card_run(new, OWN_WORDS)            # the deck has aces that matter
    for printed, broken in ((one_card_run(new, OWN_WORDS), []), (high, ["ranks"]),
                            (one_card_run(new, OWN_WORDS, losses_off=1), ["counts"])):
        assert judge_single(printed, wording).broken() == broken


ONE_CARD_CPP = r"""// One Card WAR as the handout lays it out, written for this test (aces low)
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <string>
using namespace std;
const string RANKS[] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
const string SUITS = "CSDH";
string name(int card) { return RANKS[card % 13] + SUITS[card / 13]; }
void print(const int *deck) {
    for (int i = 0; i < 52; i++) cout << name(deck[i]) << (i % 13 == 12 ? "\n" : ",");
}
int main() {
    int deck[52], wins[2] = {0, 0}, ties = 0;
    string players[2];
    for (int i = 0; i < 52; i++) deck[i] = i;
    cout << "Enter the name of the first player: ";
    cin >> players[0];
    cout << "Enter the name of the second player: ";
    cin >> players[1];
    cout << " Original Deck" << endl;
    print(deck);
    srand(time(NULL));
    for (int i = 51; i > 0; i--) swap(deck[i], deck[rand() % (i + 1)]);
    cout << " Shuffled Deck" << endl;
    print(deck);
    for (int game = 0; game < 26; game++) {
        int first = deck[2 * game], second = deck[2 * game + 1];
        cout << "Game " << game + 1 << "\n--------\n";
        cout << "        " << players[0] << "=>" << name(first) << endl;
        cout << "        " << players[1] << "=>" << name(second) << endl;
        if (first % 13 == second % 13) { cout << "Tie game" << endl; ties++; continue; }
        int winner = first % 13 > second % 13 ? 0 : 1;
        cout << players[winner] << "=> Winner" << endl;
        wins[winner]++;
    }
    cout << "------Final Stats-------\n       " << players[0] << " vs. " << players[1] << endl;
    cout << left << "Wins   " << setw(12) << wins[0] << wins[1] << endl;
    cout << "Losses " << setw(12) << wins[1] << wins[0] << endl;
    cout << "Ties   " << setw(12) << ties << ties << endl;
}
"""


def test_pywar_assignment_draft_drafts_a_one_card_reference(tmp_path):
    """The command end to end: a C++ reference in the handout's layout, fed its names on
    stdin, drafts cecs325.toml's wording but for its first heading, which its prompts
    share (no name echoed), and its empty opening."""
    reference = tmp_path / "reference"
    reference.mkdir()
    (reference / "war.cpp").write_text(ONE_CARD_CPP)
    path = tmp_path / "drafted.toml"
    status, out, err = pywar("assignment", "draft", str(reference), "--rules", "cecs325",
                             "--stdin", "Aquaman\nBatman\n", "-n", "2", "-o", str(path))
    assert (status, out, err) == (0, "", "")
    assert load(path).wording == builtin("cecs325").wording


# ---- A war game graded under words of its own

def test_a_war_reference_in_its_own_words_is_graded_under_its_drafted_file(tmp_path):
    """own_words (SMU's game in other words, blank lines of its own) drafts a file that
    pywar grade takes: own_words earns every mark under it, and faithful (SMU's words)
    loses the format alone, at its first line."""
    path, _ = drafted_from(tmp_path, "own_words", games=3)
    status, out, err = pywar("grade", str(CLASS / "own_words"), str(CLASS / "faithful"),
                             "-n", "4", "--fresh", "0", "--no-memory", "--assignment-file",
                             str(path), "--json")
    assert status == 0, err
    graded = {entry["name"]: entry for entry in json.loads(out)["submissions"]}
    assert all(item["ok"] for item in graded["own_words"]["items"].values()
               if item["of"] or item["failed"])
    assert graded["own_words"]["score"] == graded["own_words"]["max_score"] == 11
    broken = [name for name, item in graded["faithful"]["items"].items()
              if not item["ok"] and name != "memory"]
    assert broken == ["format"]
    assert graded["faithful"]["items"]["format"]["example"]["line"] == 1


@pytest.mark.parametrize("change, said", [
    (('card = "{rank} of {suit}s"', 'card = "{rank}-{suit}"'),
     "wording.card: the referee does not read 'Player A plays two-heart' as the card 0"),
    (('tie = "There is a tie... Doing another battle."', 'tie = "Deadlock."'),
     "wording.lines.tie: the referee reads 'Deadlock.' as nothing, not as a tie line"),
])
def test_a_war_wording_the_reader_would_not_read_is_refused_before_any_work(
        tmp_path, change, said):
    """A war game's wording whose cards or lines the referee's reader would not read as
    they mean: pywar grade refuses it in one line, exit 2, naming the field."""
    bad = tmp_path / "bad.toml"
    bad.write_text(changed(*change))
    status, out, err = pywar("grade", str(CLASS / "faithful"), "--assignment-file", str(bad))
    assert (status, out, err.count("\n")) == (2, "", 1) and said in err


def test_blank_after_names_kinds_of_lines_once():
    with pytest.raises(AssignmentError, match="wording.blank_after 'played': each once"):
        loads(changed('deal = "piles"', 'deal = "piles"\nblank_after = ["played"]'))
    assert loads(changed('deal = "piles"', 'deal = "piles"\nblank_after = []')) \
        .wording.blank_after == ()
