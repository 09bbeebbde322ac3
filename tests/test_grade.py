"""pywar grade on a class of its own: tests/data/class holds one student-style C++ program
per deviation that real submissions made, each complete, seeded with srand(time(NULL))
and shuffling its own way (faithful/ is the assignment done right).  The class is
graded once per session, through the command line, and each test below writes down the
marks its program must get, item by item.  A mark is 'all' (broken on every seed), a
number of seeds, or the count that a plain reading of the faithful program's transcripts
gives (the programs that share its shuffle play its games)."""

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import DATA, needs_tools
from pywar.check.grading import gradescope_results, report
from pywar.check.runner import sandbox
from pywar.check.grading.grade import Submission
from pywar.check.referee.rubric import NAMES as ITEMS
from pywar.cli import main

CLASS = DATA / "class"
SEEDS = 5                       # seeds 1 to 5: seed 5 ends in a tie (tie_crash crashes)
FIRST = 1
ALL = "all"
NOT_CHECKED = "not checked"

pytestmark = needs_tools("g++", "valgrind")


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="session")
def class_json(class_grades):
    """The whole class graded once through the command line (conftest's class_grades,
    shared with tests/test_class_marks.py): (the JSON's submissions by name, the path of
    the HTML page)."""
    return class_grades


@pytest.fixture(scope="session")
def faithful_transcripts(tmp_path_factory):
    """What the faithful program prints for each seed, run with pywar's seed clock."""
    folder = Path(tempfile.mkdtemp(prefix="pywar-test-faithful-"))   # nobody may enter
    program = folder / "war"
    subprocess.run(["g++", "-std=c++17", "-O1", "-o", str(program),
                    str(CLASS / "faithful" / "war.cpp")], check=True, env=sandbox.unloaded())
    os.chmod(folder, 0o755)
    clock = sandbox.seed_clock(str(folder))
    yield {seed: sandbox.run([str(program)], env=sandbox.seeded(clock, seed)).stdout
           for seed in range(FIRST, FIRST + SEEDS)}
    shutil.rmtree(folder)


def marks(grades, name):
    """A submission's items that earn nothing: {item: 'all' or the number of seeds
    broken, or 'not checked' where its rule was never put to the test}."""
    items = grades[0][name]["items"]
    assert list(items) == list(ITEMS)
    for item in items.values():
        assert set(item) == {"ok", "failed", "of", "example"}
        assert item["ok"] == (item["failed"] == 0 and item["of"] > 0)
        assert (item["example"] is None) == item["ok"]
    return {item: NOT_CHECKED if not value["of"] else
            ALL if value["failed"] == value["of"] else value["failed"]
            for item, value in items.items() if not value["ok"]}


def example(grades, name, item):
    """The first example of a submission's item."""
    return grades[0][name]["items"][item]["example"]


# ---- Each program's marks

def test_the_faithful_program_gets_full_marks(class_json):
    assert marks(class_json, "faithful") == {}
    assert class_json[0]["faithful"]["score"] == len(ITEMS)
    assert class_json[0]["faithful"]["items"]["runs"]["of"] == SEEDS


def test_a_program_that_reseeds_at_every_shuffle_gets_full_marks(class_json):
    assert marks(class_json, "reseeds") == {}


def test_the_top_first_lister_fails_format_alone(class_json):
    assert marks(class_json, "top_first") == {"format": ALL}
    assert example(class_json, "top_first", "format")["line"] == 9    # Card 1 of player A


def test_debug_lines_fail_format_alone(class_json):
    assert marks(class_json, "debug_lines") == {"format": ALL}
    assert example(class_json, "debug_lines", "format")["said"].startswith("'DEBUG: pot has")


def test_a_program_in_its_own_words_fails_format_and_is_graded_on_the_rest(class_json):
    assert marks(class_json, "own_words") == {"format": ALL}
    found = example(class_json, "own_words", "format")
    assert (found["line"], found["said"]) == (1, "'WELCOME TO WAR!!!'")


def test_ace_low_fails_ranks(class_json):
    assert marks(class_json, "ace_low") == {"ranks": ALL}
    found = example(class_json, "ace_low", "ranks")
    assert "beats" in found["required"] and "ace" in found["required"]


def test_half_a_ties_pot_lost_fails_pickup(class_json, faithful_transcripts):
    won_wars = [seed for seed, text in faithful_transcripts.items()
                if re.search(r"Doing another battle\.\n\n(?:.*\n)*?.* wins the ", text)]
    assert marks(class_json, "half_pot") == {"pickup": ALL if len(won_wars) == SEEDS
                                             else len(won_wars)}
    assert "lost" in example(class_json, "half_pot", "pickup")["said"]


def test_no_refill_step_fails_refill(class_json):
    assert marks(class_json, "no_refill") == {"refill": ALL}


def test_the_pot_on_the_to_play_pile_fails_pickup(class_json):
    # the pot joins 'to play', so 'to play' never runs out: no refill is ever due
    assert marks(class_json, "pot_to_play") == {"pickup": ALL, "refill": NOT_CHECKED}
    assert "'to play' pile" in example(class_json, "pot_to_play", "pickup")["said"]


def test_a_crash_on_a_tie_with_an_empty_pile_fails_runs_alone(class_json, faithful_transcripts):
    """It crashes on the seeds whose game ends in a tie (the faithful program's last
    verdict is a tie), and what it printed before is refereed: nothing else is wrong."""
    ending_in_a_tie = [seed for seed, text in faithful_transcripts.items()
                       if re.findall(r"(There is a tie|wins the 'currently)", text)[-1]
                       == "There is a tie"]
    assert ending_in_a_tie                              # the seeds were chosen for one
    assert marks(class_json, "tie_crash") == {"runs": len(ending_in_a_tie)}
    found = example(class_json, "tie_crash", "runs")
    assert found["seed"] == ending_in_a_tie[0]
    assert found["said"] == "was killed by SIGABRT (a crash)"
    assert found["progress"].startswith("the game got to round ")
    assert found["last_lines"][-1].startswith("Player A plays ")


@pytest.mark.parametrize("name, said", [
    ("tie_crash", ["terminate called after throwing an instance of 'std::out_of_range'",
                   "  what():  vector::_M_range_check: __n (which is 18446744073709551615) "
                   ">= this->size() (which is 0)"]),
    ("tie_assert", ["pywar-program: ./war.cpp:59: Card* Player::playCard(): Assertion "
                    "`!toPlay.empty() && \"a card to play\"' failed."])])
def test_a_crash_says_what_it_said_on_stderr(class_json, name, said):
    """A crash's example holds what the run said on stderr (issue 46), in the JSON and in
    the words of the terminal, the page and Gradescope's output."""
    found = example(class_json, name, "runs")
    assert found["said"] == "was killed by SIGABRT (a crash)" and found["stderr"] == said
    sub = next(s for s in submissions_of(class_json) if s.name == name)
    words = "; on stderr: " + " | ".join(map(repr, said))
    runs = next(line for line in report.terminal([sub]).splitlines()
                if line.startswith("  runs "))
    assert runs.endswith(words)
    assert html.escape(words) in report.html_page([sub])
    test = json.loads(gradescope_results.results(sub, dict.fromkeys(ITEMS, 1.0)))["tests"][1]
    assert test["name"] == "runs" and test["output"].endswith(words)


def test_an_item_never_tested_before_a_crash_says_so(class_json):
    """crash_round10 crashes in round 10 on every seed, before any refill was due or any
    player ran out: its refill and end say the run stopped first, never "no refill was
    due on these seeds" (which claims what the program never showed, issue 46)."""
    for item in ("refill", "end"):
        said = example(class_json, "crash_round10", item)["said"]
        assert said == ("not checked: seed 1's run was killed by SIGSEGV (a crash) before "
                        "its rule was put to the test (the game got to round 9)"), item
    said = example(class_json, "pot_to_play", "refill")["said"]   # a game that ended
    assert said == "not checked: no refill was due on these seeds"


@pytest.mark.parametrize("name, end", [("silent_game", "Player B ran out of cards.  "
                                                     "Player B has lost."),
                                       ("one_line_game", "Player 1 wins")])
def test_a_silent_game_is_told_its_game_is_not_shown(class_json, name, end):
    """A program that plays its whole game and prints only its end (alr_war of
    Andrew-Locke-Robinson/OOP, issue 46): end says its game is not shown, not "the end
    told before any battle was played", and each rule of play says why it was not checked."""
    found = example(class_json, name, "end")
    assert found["mistake"] == "game_not_shown"
    assert found["said"] == f"{end!r}: its end, and no battle before it: its game is not shown"
    assert [found["line"], end] in found["context"]        # the line it quotes
    for item in ("plays", "ranks", "ties", "pickup", "refill", "counts"):
        assert example(class_json, name, item)["said"] == (
            "not checked: seed 1's game is not shown (its end told, and no battle before it)")


@pytest.mark.parametrize("name, seeds", [("weak_shuffle", [2, 4]),
                                         ("unshuffled_blocks", [1, 2, 3, 4, 5])])
def test_a_deck_dealt_in_its_own_order_is_not_shuffled(class_json, name, seeds):
    """A deck built ace first and left in its order by a weak shuffle on even seconds, and
    one never shuffled and dealt two at a time (issue 46): deal_unshuffled on each seed it
    is dealt, never "a game recorded, not played" (not_its_game) nor "the program does not
    seed rand()" (same_deal), which the deals repeated across seeds made them before."""
    sub = class_json[0][name]
    by_seed = {int(seed): rows for seed, rows in sub["mistakes_by_seed"].items()}
    assert [seed for seed, rows in by_seed.items() if "deal_unshuffled" in rows] == seeds
    assert not {"not_its_game", "same_deal"} & set(sub["mistakes"])
    found = example(class_json, name, "deal")
    assert (found["seed"], found["mistake"]) == (seeds[0], "deal_unshuffled")
    assert found["said"].endswith("not shuffled")


WARS = ["face_down", "war_one_down", "war_refill_first", "war_from_bottom", "war_short_loses",
        "war_down_from_played", "war_four_down"]


@pytest.mark.parametrize("name", WARS)
def test_every_war_of_other_books_costs_ties_alone(class_json, name):
    """A war with cards face down in each form a student writes (three, one, two with a
    refill first, three from the bottom, a short player losing, three from the 'played'
    pile, four): face_down_war on every seed, charged to ties alone, no cascade into
    counts, refill or plays (issue 46)."""
    assert marks(class_json, name) == {"ties": ALL}
    assert class_json[0][name]["mistakes"] == {"face_down_war": SEEDS}
    assert example(class_json, name, "ties")["mistake"] == "face_down_war"


def test_what_a_run_said_on_stderr_is_the_line_that_says_why_it_died(tmp_path):
    """A sanitizer's report (ASan's ERROR and SUMMARY lines, of some forty), found among
    a program's own debug lines; else a run's last lines; bounded either way: four lines
    at most, each cut at quote.LINE."""
    from pywar.check.grading.grade import STDERR_LINES, said_on_stderr
    from pywar.check.referee.quote import LINE
    source = tmp_path / "overflow.cpp"
    source.write_text("#include <cstdio>\n#include <vector>\nint main() {\n"
                      "    std::vector<int> v(3);\n    fprintf(stderr, \"debug: dealing\\n\");\n"
                      "    return v.data()[3];\n}\n")
    program = tmp_path / "overflow"
    subprocess.run(["g++", "-g", "-fsanitize=address", "-o", str(program), str(source)],
                   check=True, env=sandbox.unloaded())
    ran = subprocess.run([str(program)], capture_output=True, text=True,
                         env={**sandbox.unloaded(), "ASAN_OPTIONS": "detect_leaks=0"})
    assert ran.returncode == 1 and len(ran.stderr.splitlines()) > 20
    said = said_on_stderr(ran.stderr)
    assert len(said) == 2
    assert re.fullmatch(r"==\d+==ERROR: AddressSanitizer: heap-buffer-overflow on address .*",
                        said[0])
    assert said[1] == f"SUMMARY: AddressSanitizer: heap-buffer-overflow {source}:6 in main"
    chatty = "".join(f"turn {n}: {'x' * 3000}\n" for n in range(10_000))
    assert said_on_stderr(chatty) == [f"turn {n}: {'x' * 3000}"[:LINE]
                                      for n in range(10_000 - STDERR_LINES, 10_000)]
    assert said_on_stderr("") == said_on_stderr("\n \n") == []


def test_main_returning_1_fails_runs(class_json):
    assert marks(class_json, "returns_one") == {"runs": ALL}
    assert example(class_json, "returns_one", "runs")["said"] == "exited with status 1"


def test_cards_never_deleted_fail_memory(class_json):
    assert marks(class_json, "never_deletes") == {"memory": ALL}
    said = example(class_json, "never_deletes", "memory")["said"]
    assert "definitely lost" in said and ", allocated by " in said     # where (issue 37)


# ---- The reports

def submissions_of(grades):
    """The JSON's submissions as pywar.check.grading.grade.Submission objects."""
    return [Submission(**sub) for sub in grades[0].values()]


def test_the_terminal_table_and_first_examples(class_json):
    text = report.terminal(submissions_of(class_json))
    lines = text.splitlines()
    assert lines[0].split() == ["submission", *report.SHORT.values(), "score"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:len(class_json[0]) + 1]}
    assert rows["faithful"] == ["ok"] * len(ITEMS) + [f"{len(ITEMS)}/{len(ITEMS)}"]
    assert rows["ace_low"][ITEMS.index("ranks")] == f"{SEEDS}/{SEEDS}"
    assert lines[len(class_json[0]) + 1].startswith("(ok: put to the test and kept on every seed; K/N: broken")
    assert "faithful: 12 of 12, every item ok" in lines
    ranks = next(line for line in lines if line.startswith(f"  ranks (on {SEEDS} of {SEEDS} seeds): seed 1"))
    assert "the rules require player" in ranks and "(ace high)" in ranks


def test_the_gradescope_file_has_its_documented_shape(class_json):
    weights = dict.fromkeys(ITEMS, 1.0) | {"format": 0.5, "memory": 2.0}
    sub = next(s for s in submissions_of(class_json) if s.name == "top_first")
    found = json.loads(gradescope_results.results(sub, weights))
    assert set(found) == {"score", "tests", "output", "output_format", "test_output_format",
                          "extra_data"}
    assert found["extra_data"] == {"seeds": sub.seeds, "fresh": sub.fresh, "sha256": sub.sha256}
    assert found["output_format"] == found["test_output_format"] == "text"
    assert [test["name"] for test in found["tests"]] == list(ITEMS)
    for test in found["tests"]:
        assert set(test) == {"name", "score", "max_score", "status", "output",
                             "output_format"}
        assert test["output_format"] == "text"          # shown as it is: no HTML
        assert test["status"] == ("failed" if test["name"] == "format" else "passed")
        assert test["max_score"] == weights[test["name"]]
        assert test["score"] == (0 if test["name"] == "format" else weights[test["name"]])
    format_test = found["tests"][ITEMS.index("format")]
    assert format_test["output"].startswith(f"broken on {SEEDS} of {SEEDS} seeds; first: seed 1")


def test_a_submission_that_does_not_build(tmp_path, capsys):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "war.cpp").write_text("int main() { return undeclared; }\n")
    results = tmp_path / "results.json"
    status, out, err = run(capsys, "grade", folder, "-n", "3", "--gradescope", results,
                           "--weights", "builds=4")
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split() == ["broken", "1/1", *["-"] * (len(ITEMS) - 1), "0/15"]
    builds = next(line for line in lines if line.startswith("  builds: "))
    assert builds.startswith("  builds: the build (g++ -std=c++17 -O1 -o {program} ./*.cpp) "
                             "exited with status 1: ./war.cpp:1:21: error: ")
    assert "undeclared" in builds and "^" not in builds        # the error, not the caret
    mine = lines[lines.index("broken: 0 of 15"):]       # said once, not as each item's
    assert mine[1:] == [builds, "  not graded: it did not build"]     # "not checked" (38)
    found = json.loads(results.read_text())
    assert found["score"] == 0 and found["tests"][0]["max_score"] == 4
    said, errors = found["tests"][0]["output"].split("\nthe compiler's errors:\n")
    assert said == builds[len("  builds: "):]              # and the errors (issue 45)
    assert errors.startswith("./war.cpp:1:21: error: ") and "undeclared" in errors
    assert re.match(r"pywar grade: 0 of 15; run on seeds 1 to 3, seed \d+ keyed to its files "
                    r"\(valgrind's: the same at every grading of the same files\), and 1 "
                    r"drawn fresh ", found["output"]), found["output"]
    assert found["output"].endswith("; not graded: it did not build")
    assert [test["output"] for test in found["tests"][1:]] == \
        ["not checked: it did not build"] * (len(ITEMS) - 1)        # never empty (issue 45)


@pytest.mark.parametrize("files, held", [
    ({}, "it is empty"),
    ({"README.txt": "my war\n", "war.pdf": "%PDF"}, "none of its 2 files is a C or C++ source"),
    ({"war.h": "int f();\n"}, "its sources: war.h")])
def test_a_submission_without_a_cpp_file_says_so_in_one_line(tmp_path, capsys, files, held):
    """An empty or source-less submission says it holds no C++ sources (issue 46), in
    one line of the build's example, not as the compiler's "fatal error: ./*.cpp"; no
    build is run."""
    folder = tmp_path / "nothing"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    status, out, _ = run(capsys, "grade", folder, "-n", "1", "--fresh", "0", "--json",
                         "--no-memory")
    assert status == 0
    builds = json.loads(out)["submissions"][0]["items"]["builds"]
    assert (builds["ok"], builds["failed"]) == (False, 1)
    assert builds["example"]["said"] == (f"was not run: the submission holds no C++ "
                                         f"sources (no .cpp file; {held})")
    assert builds["example"]["error"] is None and builds["example"]["last_lines"] == []


def test_an_include_in_another_case_is_named_and_can_be_built(tmp_path, capsys):
    """#include "Pile.h" for pile.h: builds fails with that reason and nothing else is
    checked; with --fix-include-case builds still fails, and every other item is graded
    (the faithful program, split so that it includes a header)."""
    folder = tmp_path / "casey"
    folder.mkdir()
    (folder / "pile.h").write_text("#pragma once\nconst int PILE_MARK = 1;\n")
    (folder / "war.cpp").write_text('#include "Pile.h"\n' +
                                    (CLASS / "faithful" / "war.cpp").read_text())
    status, out, _ = run(capsys, "grade", folder, "-n", "2", "--no-memory", "--json")
    (sub,) = json.loads(out)["submissions"]
    assert status == 0 and sub["score"] == 0
    said = sub["items"]["builds"]["example"]["said"]
    assert 'war.cpp: #include "Pile.h", but the file is pile.h: it builds on Windows and ' \
           "macOS, not on Linux" in said
    status, out, _ = run(capsys, "grade", folder, "-n", "2", "--no-memory", "--json",
                         "--fix-include-case")
    (sub,) = json.loads(out)["submissions"]
    assert [item for item in ITEMS if not sub["items"][item]["ok"]] == ["builds", "memory"]
    assert sub["items"]["builds"]["example"]["said"].startswith("built only with "
                                                               "--fix-include-case; war.cpp")
    assert sub["score"] == len(ITEMS) - 2


@pytest.mark.parametrize("included, files", [
    ("./card.h", {"Card.h": "#pragma once\n"}),                       # Levi-B4's War
    ("../include/Card.h", {"Include/card.h": "#pragma once\n"}),     # a folder's case too
])
def test_an_include_with_a_path_in_another_case_is_named_and_can_be_built(
        tmp_path, capsys, included, files):
    """An #include with a path, read from the including file's folder: named, and built
    with --fix-include-case (it was skipped: any include with a '/' in it)."""
    folder = tmp_path / "pathy"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    source = folder / ("src/war.cpp" if included.startswith("..") else "war.cpp")
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(f'#include "{included}"\n' + (CLASS / "faithful" / "war.cpp").read_text())
    build = "g++ -std=c++17 -O1 -o {program} $(find . -name '*.cpp')"
    status, out, _ = run(capsys, "grade", folder, "-n", "1", "--no-memory", "--json",
                         "--build", build)
    (sub,) = json.loads(out)["submissions"]
    assert status == 0 and sub["score"] == 0 and sub["mistakes"] == {"include_case": 1}
    assert f'#include "{included}", but the file is {list(files)[0]}' in \
        sub["items"]["builds"]["example"]["said"]
    status, out, _ = run(capsys, "grade", folder, "-n", "1", "--no-memory", "--json",
                         "--build", build, "--fix-include-case")
    (sub,) = json.loads(out)["submissions"]
    assert [item for item in ITEMS if not sub["items"][item]["ok"]] == ["builds", "memory"]


def test_usage_errors_come_before_any_work(tmp_path, capsys):
    status, _, err = run(capsys, "grade", tmp_path / "nowhere")
    assert status == 2 and "is neither a folder nor" in err
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    status, _, err = run(capsys, "grade", tmp_path / "a", tmp_path / "b", "--gradescope",
                         tmp_path / "r.json")
    assert status == 2 and "one submission" in err and not (tmp_path / "r.json").exists()
    status, _, err = run(capsys, "grade", tmp_path / "a", "--weights", "style=2")
    assert status == 2 and "unknown item 'style'" in err
    status, _, err = run(capsys, "grade", tmp_path / "a", "--run", "./a.out")
    assert status == 2 and "{program}" in err


# ---- The page, in a real browser

def test_the_html_report_in_chromium(class_json):
    from conftest import browser_or_skip
    grades, page = class_json
    html = page.read_text()
    for outside in ("http:", "https:", "src=", "<link", "<script"):
        assert outside not in html, outside
    assert "-: not checked, no points" in html      # what a '-' cell means (issue 37)
    driver = browser_or_skip()
    try:
        driver.get(page.as_uri())
        cells = driver.execute_script("""
            const rows = {};
            for (const row of document.querySelectorAll('#grades tbody tr'))
              rows[row.dataset.name] = Array.from(row.querySelectorAll('td[data-item]'))
                .map(cell => [cell.dataset.item, cell.textContent, cell.className,
                              getComputedStyle(cell).backgroundColor]);
            return rows;""")
        sections = driver.execute_script("""
            return Array.from(document.querySelectorAll('section')).map(
              s => [s.dataset.name, Array.from(s.querySelectorAll('li[data-item]'))
                                      .map(li => li.dataset.item)]);""")
    finally:
        driver.quit()
    assert set(cells) == set(grades)
    for name, row in cells.items():
        items = grades[name]["items"]
        assert [item for item, *_ in row] == list(ITEMS)
        for item, text, kind, colour in row:
            assert text == report.mark(items[item])
            assert kind == ("ok" if items[item]["ok"] else
                            "unchecked" if not items[item]["of"] else "failed")
        assert len({colour for _, _, kind, colour in row if kind == "ok"}) <= 1
    assert dict(sections) == {name: [item for item in ITEMS if not sub["items"][item]["ok"]]
                              for name, sub in grades.items()}


# ---- Reruns

def test_a_rerun_gives_the_same_marks(class_json, capsys):
    """Two programs whose marks depend on the seeds' games, graded again: the same."""
    programs = [CLASS / "tie_crash", CLASS / "half_pot"]
    status, out, _ = run(capsys, "grade", *programs, "-n", SEEDS, "--seed", FIRST,
                         "--fresh", "0", "--json")
    assert status == 0
    again = {sub["name"]: sub for sub in json.loads(out)["submissions"]}
    for name, sub in again.items():
        assert sub["items"] == class_json[0][name]["items"], name


def test_fresh_seeds_are_named_and_replayed(capsys):
    """Each grading draws seeds of its own beside the fixed ones, names them in every
    report, and --fresh-seeds grades on them again: the same marks."""
    program = CLASS / "tie_crash"
    options = ("-n", "1", "--fresh", "3", "--no-memory")
    status, out, _ = run(capsys, "grade", program, *options, "--json")
    first = json.loads(out)["submissions"][0]
    keyed, *drawn = first["fresh"]                  # its keyed seed first (issue 46)
    assert status == 0 and len(drawn) == 2 and first["seeds"] == [1, keyed, *drawn]
    assert first["keyed"] == keyed and first["items"]["runs"]["of"] == 4
    status, out, _ = run(capsys, "grade", program, *options, "--json")
    again = json.loads(out)["submissions"][0]["fresh"]
    assert again[0] == keyed and again[1:] != drawn     # keyed to its files; drawn anew
    replay = ("-n", "1", "--fresh-seeds", ",".join(map(str, drawn)), "--no-memory")
    status, out, _ = run(capsys, "grade", program, *replay, "--json")
    replayed = json.loads(out)["submissions"][0]
    assert replayed["items"] == first["items"] and replayed["fresh"] == first["fresh"]
    status, out, _ = run(capsys, "grade", program, *replay)
    listed = ",".join(map(str, drawn))
    assert (f"run on seed 1, seed {keyed} keyed to its files (valgrind's: the same at every "
            f"grading of the same files), and 2 drawn fresh for this grading: {listed} (grade "
            f"again on them with --fresh-seeds {listed})") in out


def test_fresh_seeds_must_be_seeds(capsys):
    quick = ("-n", "1", "--no-memory")                  # should a usage error be missed
    status, _, err = run(capsys, "grade", CLASS / "faithful", *quick, "--fresh-seeds", "7,x")
    assert status == 2 and "--fresh-seeds" in err and "3141592653" in err
    status, _, err = run(capsys, "grade", CLASS / "faithful", *quick, "--fresh", "2",
                         "--fresh-seeds", "7")
    assert status == 2 and "not allowed with" in err


BROKEN_ITEMS = {"faithful": [], "reseeds": [], "top_first": ["format"],
                "debug_lines": ["format"], "own_words": ["format"], "ace_low": ["ranks"],
                "half_pot": ["pickup"], "no_refill": ["refill"], "pot_to_play": ["pickup"],
                "tie_crash": ["runs"], "returns_one": ["runs"], "never_deletes": ["memory"]}
# (the rest of the class, tests/data/class-marks.json, is pinned by test_class_marks.py)


@pytest.mark.slow
def test_the_class_on_the_default_forty_seeds(capsys):
    """The default -n 40 and two seeds drawn fresh: each program of the first class breaks
    its own item and no other (no honest one is taken for a game recorded)."""
    programs = [CLASS / name for name in sorted(BROKEN_ITEMS)]
    status, out, _ = run(capsys, "grade", *programs, "--jobs", "2", "--json")
    assert status == 0
    for sub in json.loads(out)["submissions"]:
        broken = [item for item in ITEMS if sub["items"][item]["failed"]]
        assert broken == BROKEN_ITEMS[sub["name"]], sub["name"]
        # every seed plays battles, so these rules are put to the test on all 40 (ties,
        # refills and ends only on the seeds whose games have them)
        assert len(sub["seeds"]) == 42 and len(sub["fresh"]) == 2    # keyed, one drawn
        assert all(sub["items"][name]["of"] == 42 for name in
                   ("runs", "format", "deal", "plays", "ranks", "counts")), sub["name"]


def test_ctrl_c_reports_the_submissions_graded_before_it(tmp_path, capsys, monkeypatch):
    """A Ctrl-C while the second of three is graded: the first is reported, exit 130."""
    import pywar.check.grading.grade as grading
    calls = []

    def grade_one(source, settings, clock, ran, referee=None):
        calls.append(source)
        if len(calls) == 2:
            raise KeyboardInterrupt
        items = {item: {"ok": True, "failed": 0, "of": 1, "example": None} for item in ITEMS}
        return Submission(os.path.basename(source), items, 12.0, 12.0)
    monkeypatch.setattr(grading, "grade_one", grade_one)
    folders = []
    for name in ("ann", "ben", "cat"):
        (tmp_path / name).mkdir()
        folders.append(tmp_path / name)
    status, out, err = run(capsys, "grade", *folders, "--json")
    assert status == 130
    assert err == "pywar grade: interrupted: 1 of 3 submissions graded\n"
    assert [sub["name"] for sub in json.loads(out)["submissions"]] == ["ann"]


def test_sources_in_one_folder_of_a_submission_are_built_there(tmp_path, capsys):
    """A zip of a folder, as Gradescope unpacks it (submission/War/*.cpp, and macOS's
    __MACOSX beside it), scored 0 ('./*.cpp: No such file or directory', issue 37): it
    is built in that folder, and a note says so; its marks are those of the same files
    handed in flat."""
    flat, nested = tmp_path / "flat", tmp_path / "nested"
    shutil.copytree(DATA / "class" / "ace_low", flat)
    shutil.copytree(DATA / "class" / "ace_low", nested / "War" / "src")
    (nested / "__MACOSX").mkdir()
    status, out, _ = run(capsys, "grade", flat, nested, "-n", "2", "--no-memory", "--json")
    first, second = json.loads(out)["submissions"]
    assert status == 0 and first["items"]["builds"]["ok"]
    assert {item: marks["ok"] for item, marks in first["items"].items()} == \
        {item: marks["ok"] for item, marks in second["items"].items()}
    assert "its sources are in the folder War/src/ alone: built there" in second["notes"]


def test_an_item_left_out_is_in_neither_the_score_nor_the_table(tmp_path, capsys):
    """--no-memory: memory is '-' and out of the score; Gradescope gets no memory test."""
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "war.cpp").write_text("int main() { return undeclared; }\n")
    results = tmp_path / "results.json"
    status, out, _ = run(capsys, "grade", folder, "-n", "2", "--no-memory", "--gradescope",
                         results)
    assert status == 0 and out.splitlines()[1].split()[-2:] == ["-", "0/11"]
    assert [test["name"] for test in json.loads(results.read_text())["tests"]] == [
        item for item in ITEMS if item != "memory"]


def test_a_flood_and_a_hang_fail_runs_and_are_refereed_as_far_as_they_got(tmp_path, capsys):
    """tests/data/limits' flood (the round header forever) and sleeper, graded: runs fails
    on every seed with the limit named, and what the flood printed is refereed (its
    header lines list no deal: deal fails too, on the file's own story)."""
    folders = []
    for name in ("flood", "sleeper"):
        (tmp_path / name).mkdir()
        shutil.copy(DATA / "limits" / f"{name}.cpp", tmp_path / name / "main.cpp")
        folders.append(tmp_path / name)
    status, out, _ = run(capsys, "grade", *folders, "-n", "2", "--fresh", "0",
                         "--output-limit", "1", "--timeout", "1", "--no-memory", "--json",
                         "--jobs", "2")
    assert status == 0
    grades = {sub["name"]: sub["items"] for sub in json.loads(out)["submissions"]}
    assert grades["flood"]["runs"]["failed"] == 2
    assert grades["flood"]["runs"]["example"]["said"] == "printed more than 1 MiB"
    assert grades["flood"]["runs"]["example"]["last_lines"] == ["======== Round 1 ========"] * 3
    assert grades["flood"]["deal"]["example"]["said"] == "no listing of the deal"
    assert grades["sleeper"]["runs"]["example"]["said"] == "did not finish within 1 s"
    assert grades["sleeper"]["runs"]["example"]["progress"] == "the game never began"


def test_a_program_that_takes_its_seed_as_an_argument(tmp_path, capsys):
    """tests/data/student_war.c (C, --seed N) with --build and --run '{program} --seed
    {seed}': full marks, on the fixed seeds and the fresh (without its --seed N it exits 2
    with its usage line)."""
    folder = tmp_path / "student"
    folder.mkdir()
    shutil.copy(DATA / "student_war.c", folder)
    status, out, _ = run(capsys, "grade", folder, "--build", "cc -std=c11 -O1 -o {program} *.c",
                         "--run", "{program} --seed {seed}", "-n", "2", "--seed", "17455",
                         "--json")
    assert status == 0
    (sub,) = json.loads(out)["submissions"]
    assert sub["score"] == sub["max_score"] == len(ITEMS)
    assert sub["seeds"][:2] == [17455, 17456] and len(sub["seeds"]) == 4   # {seed}: fresh too
    assert sub["items"]["runs"]["of"] == 4


def test_a_report_that_cannot_be_written_is_exit_3_before_any_work(tmp_path, capsys):
    (tmp_path / "ann").mkdir()
    page = tmp_path / "no-such-folder" / "class.html"
    status, out, err = run(capsys, "grade", tmp_path / "ann", "--html", page)
    assert (status, out) == (3, "")
    assert err == (f"pywar grade: error: cannot write --html {str(page)!r}: "
                   "No such file or directory\n")
