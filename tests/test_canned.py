"""Canned games (issue 36): a program or a port that prints games of the reference's,
recorded beforehand, in place of games it plays.  A run's game must belong to its seed:
pywar grade runs every submission on seeds drawn fresh at each grading beside the fixed
ones and names a deal dealt again, or dealt again but for its suits, where other seeds
deal their own (not_its_game); pywar exercise check plays seeds drawn fresh at each check.
The games are the reference's (pywar.play), written into each program here: no student's
code."""

import json
import re
import sys

import pytest

from conftest import needs_tools
from test_hostile import VICTIM, marks, write_class
import pywar
from pywar.check.exercise import portjudge
from pywar.check.grading.grading_key import grading_key
from pywar.check.grading.receipt import files_sha256
from pywar.check.seeds import keyed_seed
from pywar.port import play as port_play
from pywar.cli import main

FIXED = 3                                   # the fixed seeds, 1 to 3, of these gradings
RECORDED = 17455                            # a short game of the reference's (29 rounds)


def literal(text):
    """A C++ raw string literal of a game's text."""
    return f'R"GAME({text})GAME"'


def game(seed):
    """The reference's transcript of a seed."""
    return pywar.play(seed, transcript=True).transcript


HEAD = "#include <cstdio>\n#include <cstdlib>\n#include <ctime>\n#include <string>\n"
ONE_GAME = HEAD + ("int main() { srand(time(NULL)); std::fputs(" + literal(game(RECORDED)) +
                   ", stdout); return 0; }\n")
# a game for each fixed seed, kept by the seed the clock reads; any other seed gets one
TABLE = HEAD + ("static const char *games[] = {" +
                ",\n".join(literal(game(seed)) for seed in range(1, FIXED + 1)) + "};\n"
                "int main() { unsigned now = (unsigned) time(NULL); srand(now);\n"
                f"  std::fputs(games[(now - 1) % {FIXED}], stdout); return 0; }}\n")
# one game, each rank's four suits shuffled by the clock: a new deal on every seed
RENAMED = HEAD + ("static const char *SUITS[] = {\"hearts\", \"diamonds\", \"clubs\", \"spades\"};\n"
                  "int main() { srand(time(NULL)); int to[13][4];\n"
                  "  for (int r = 0; r < 13; r++) { for (int s = 0; s < 4; s++) to[r][s] = s;\n"
                  "    for (int s = 3; s > 0; s--) { int j = rand() % (s + 1), t = to[r][s];"
                  " to[r][s] = to[r][j]; to[r][j] = t; } }\n"
                  "  static const char *RANKS[] = {\"two\", \"three\", \"four\", \"five\", \"six\","
                  " \"seven\", \"eight\", \"nine\", \"ten\", \"jack\", \"queen\", \"king\", \"ace\"};\n"
                  "  std::string text = " + literal(game(RECORDED)) + ", out;\n"
                  "  for (size_t i = 0; i < text.size();) { bool done = false;\n"
                  "    for (int r = 0; r < 13 && !done; r++) for (int s = 0; s < 4 && !done; s++) {\n"
                  "      std::string card = std::string(RANKS[r]) + \" of \" + SUITS[s];\n"
                  "      if (text.compare(i, card.size(), card) == 0) { out += std::string(RANKS[r])"
                  " + \" of \" + SUITS[to[r][s]]; i += card.size(); done = true; } }\n"
                  "    if (!done) out += text[i++]; }\n"
                  "  std::fputs(out.c_str(), stdout); return 0; }\n")
CANNED = {"one_game": ONE_GAME, "table": TABLE, "renamed": RENAMED}
# issue 47's table: the fixed seeds' games, and for any other seed one of other games
# recorded beforehand (here on seeds 101 to 103), chosen by the seed: each seed's deal
# differs, so no deal repeats
EXTRAS = (101, 102, 103)
EXTRA_TABLE = HEAD + ("static const char *games[] = {" + ",\n".join(
    literal(game(seed)) for seed in (*range(1, FIXED + 1), *EXTRAS)) + "};\n"
    "int main() { unsigned now = (unsigned) time(NULL);\n"
    f"  std::fputs(games[now >= 1 && now <= {FIXED} ? now - 1 : {FIXED} + now % "
    f"{len(EXTRAS)}], stdout); return 0; }}\n")


def grade(folders, *options):
    """pywar grade in a process of its own, on the fixed seeds 1 to 3: its submissions."""
    import subprocess
    command = [sys.executable, "-m", "pywar", "grade", *map(str, folders), "-n", str(FIXED),
               "--no-memory", "--jobs", "2", "--json", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return {sub["name"]: sub for sub in json.loads(done.stdout)["submissions"]}


def refereed(games):
    """Runs of seeds that printed the texts given ({seed: text}), refereed, and their
    deals compared across them: {seed: its mistakes}."""
    from pywar.check.grading.grade import SeedRun, recorded_games, same_deals
    from pywar.check.referee.judge import judge
    runs = [SeedRun(seed, None, text, judge(text, complete=True)) for seed, text in games.items()]
    same_deals(runs)
    recorded_games(runs)
    return {run.seed: sorted(run.judged.mistakes) for run in runs}


def renamed(text):
    """A game with the hearts and the spades swapped: a new deal, the same game."""
    return re.sub(r"\b(hearts|spades)\b", lambda m: {"hearts": "spades"}.get(m[1], "hearts"),
                  text)


def test_deals_that_do_not_follow_the_clock_are_named():
    """The reference's own games are no one's mistake (seeds 0 and 1 are one seed to
    glibc); a seed that deals another's deal, or the same but for its suits, is
    not_its_game where the others deal their own, and same_deal where every seed deals
    one deal."""
    honest = {seed: game(seed) for seed in (0, 1, 2, 3)}
    assert refereed(honest) == {0: [], 1: [], 2: [], 3: []}
    assert refereed({**honest, 99: game(2)}) == {0: [], 1: [], 2: ["not_its_game"], 3: [],
                                                  99: ["not_its_game"]}
    found = refereed({**honest, 99: renamed(game(3))})
    assert found == {0: [], 1: [], 2: [], 3: ["not_its_game"], 99: ["not_its_game"]}
    assert refereed({seed: game(RECORDED) for seed in (1, 2, 3)}) == {
        seed: ["same_deal"] for seed in (1, 2, 3)}
    assert refereed({seed: renamed(game(RECORDED)) if seed == 2 else game(RECORDED)
                     for seed in (1, 2, 3)}) == {seed: ["not_its_game"] for seed in (1, 2, 3)}


def test_games_of_the_reference_s_on_some_seeds_and_not_on_others_are_named():
    """Seeds 1 to 3 deal the reference's own deals, seeds 10 and 11 the reference's deals
    of seeds 102 and 103: not_its_game on 10 and 11 alone, though no deal repeats
    (issue 47).  The reference's games on every seed, a program's own on every seed, and
    the reference's on one seed alone (glibc's seeds 0 and 1 are one) are no one's."""
    reference = {seed: game(seed) for seed in (0, 1, 2, 3, 10)}
    assert refereed(reference) == {0: [], 1: [], 2: [], 3: [], 10: []}
    table = {1: game(1), 2: game(2), 3: game(3), 10: game(102), 11: game(103)}
    assert refereed(table) == {1: [], 2: [], 3: [], 10: ["not_its_game"],
                               11: ["not_its_game"]}
    own = {seed: game(seed + 500) for seed in (1, 2, 3, 10)}      # a shuffle of its own
    assert refereed(own) == {1: [], 2: [], 3: [], 10: []}
    once = {0: game(1), 1: game(1), 2: game(502), 3: game(503)}
    assert refereed(once) == {0: [], 1: [], 2: [], 3: []}


@needs_tools("g++")
def test_a_table_of_the_reference_s_games_loses_deal_on_the_fresh_seeds(tmp_path):
    """Issue 47's table, graded beside the victim on seeds 1 to 3 and three fresh seeds
    (its keyed seed, and two given whose games are not its keyed seed's) that it answers
    with games of other seeds (no deal repeats): deal broken on every fresh seed, as a game recorded, not played; the
    victim's marks are its own."""
    folders = write_class(tmp_path, {"extras": {"war.cpp": EXTRA_TABLE}})
    keyed = keyed_seed(grading_key(), files_sha256(str(tmp_path / "extras")),
                       range(1, FIXED + 1))        # its keyed seed, the session's key's
    given = [seed for seed in (9, 10, 11) if seed % len(EXTRAS) != keyed % len(EXTRAS)][:2]
    graded = grade(folders, "--fresh-seeds", ",".join(map(str, given)))   # no game twice
    deal = graded["extras"]["items"]["deal"]
    assert graded["extras"]["keyed"] == keyed
    assert (deal["failed"], deal["of"]) == (3, 6), deal
    assert graded["extras"]["mistakes"] == {"not_its_game": 3}
    assert deal["example"]["seed"] == keyed and deal["example"]["said"].startswith(
        f"not the reference's deal for seed {keyed}, where seeds 1 to 3 deal the "
        "reference's own")
    assert graded["extras"]["score"] == graded["extras"]["max_score"] - 1
    assert graded["victim"]["mistakes"] == {"ace_low": FIXED + 3}


@pytest.mark.slow                           # 15 s: four programs built, graded three times
@needs_tools("g++")
def test_a_canned_game_earns_no_deal_of_its_own(tmp_path):
    """Beside the victim: each canned program breaks deal, on the seeds that give it
    away, and the victim's marks are its own; without seeds drawn fresh (--fresh 0) the
    table of the fixed seeds' games would pass as the reference itself."""
    folders = write_class(tmp_path, {name: {"war.cpp": text} for name, text in CANNED.items()})
    graded = grade(folders, "--fresh", "2")
    rows = {"one_game": "same_deal", "table": "not_its_game", "renamed": "not_its_game"}
    for name, row in rows.items():
        deal = graded[name]["items"]["deal"]
        assert deal["ok"] is False and row in graded[name]["mistakes"], (name, deal)
        assert graded[name]["score"] == graded[name]["max_score"] - 1, name
    assert "with its cards renamed" in graded["renamed"]["items"]["deal"]["example"]["said"]
    assert graded["table"]["items"]["deal"]["failed"] >= 2    # a fresh seed, the one it copies
    alone = grade(folders[-1:], "--fresh-seeds", ",".join(map(str, graded["victim"]["fresh"])))
    assert marks(graded["victim"]) == marks(alone["victim"])
    assert graded["victim"]["mistakes"] == {"ace_low": FIXED + 2}
    fixed_only = grade([tmp_path / "table"], "--fresh", "0")["table"]    # what fresh seeds add
    assert fixed_only["items"]["deal"]["ok"] is True


# ---- pywar exercise check: a port that replays the reference's games for the fixed seeds

REPLAY = '''"""A port that plays nothing: it replays recorded games of the reference's."""
import json
import os

with open(os.path.join(os.path.dirname(__file__), "recorded.json"), encoding="utf-8") as f:
    RECORDED = json.load(f)


def main(seed, stack="pile", text=None, trace=None):
    """The recorded game of the seed, or seed 12's."""
    transcript, events = RECORDED.get(str(seed), RECORDED["12"])
    text.append(transcript)
    for line in events.splitlines(keepends=True):
        trace.append(line)
'''


def replaying_port(folder):
    """A skeleton whose TODOs are pass and whose main replays the fixed seeds' games."""
    assert main(["exercise", "new", str(folder)]) == 0
    for path in folder.glob("*.py"):
        path.write_text(re.sub(r'raise NotImplementedError\("TODO: [^"]*"\)', "pass",
                               path.read_text()))
    recorded = {}
    for seed in portjudge.SEEDS:
        _, transcript, trace = port_play(seed, "pile", transcript=True, trace=True)
        recorded[str(seed)] = [transcript, trace]
    (folder / "recorded.json").write_text(json.dumps(recorded))
    (folder / "program4.py").write_text(REPLAY)


@pytest.mark.slow                           # about 5 s: the check runs the port twice
def test_a_port_that_replays_recorded_games_fails_the_check(tmp_path, capsys):
    replaying_port(tmp_path / "port")
    fixed = ["--seed", *" --seed ".join(map(str, portjudge.SEEDS)).split()]
    assert main(["exercise", "check", str(tmp_path / "port"), *fixed]) == 0   # it would pass
    capsys.readouterr()
    status = main(["exercise", "check", str(tmp_path / "port"), "--json"])
    found = json.loads(capsys.readouterr().out)
    assert status == 1 and not found["passed"], found
    assert len(found["fresh"]) == portjudge.FRESH and found["seeds"][3:] == found["fresh"]
