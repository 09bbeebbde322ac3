"""pywar similar (issue 39): a class of our own, tests/data/similar/class: a program
(original), a copy of it with every name changed, its comments gone and its layout changed
(renamed), a copy with its functions in another order (reordered), both made from it by
tests/data/similar/make_copies.py, and a program written apart (apart) that makes the same
common mistake, the ace low; the handout's Pile (tests/data/similar/handout) in each."""

import doctest
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from conftest import DATA, ROOT, needs_tools
from pywar.check.similar import behaviour, pairs, source
from pywar.cli import main

HERE = ROOT / "tests" / "data" / "similar"
CLASS = HERE / "class"
HANDOUT = HERE / "handout"
COPIES = {"original", "renamed", "reordered"}
NAMES = sorted(path.name for path in CLASS.iterdir())


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def similar_json(capsys, *extra, folders=None):
    """pywar similar --json on the class (or folders): the pairs by their two names."""
    folders = folders or [CLASS / name for name in NAMES]
    status, out, err = run(capsys, "similar", *folders, "--json", *extra)
    assert status == 0, err
    found = json.loads(out)
    return {frozenset((pair["a"], pair["b"])): pair for pair in found["pairs"]}, found


def copy_pairs_and_apart_pairs(found, key="score"):
    """The scores of the pairs of copies, and of the pairs with the program written apart."""
    copies = [found[frozenset(pair)][key] for pair in combinations(sorted(COPIES), 2)]
    apart = [found[frozenset(("apart", name))][key] for name in sorted(COPIES)]
    return copies, apart


# ---- The class is what it claims to be

def test_the_copies_are_made_from_the_original_as_make_copies_says(tmp_path):
    """The committed copies are make_copies.py's output: made again, byte for byte."""
    shutil.copytree(HERE, tmp_path / "similar")
    subprocess.run([sys.executable, str(tmp_path / "similar" / "make_copies.py")], check=True)
    for name in ("renamed", "reordered"):
        for path in (CLASS / name).iterdir():
            assert (tmp_path / "similar" / "class" / name / path.name).read_bytes() == \
                path.read_bytes()


def own_names(text):
    """The names a C++ text uses outside its strings and comments."""
    text = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', " ", text,
                  flags=re.S)
    return set(re.findall(r"\b[A-Za-z_]\w*\b", text))


def test_the_renamed_copy_shares_no_name_of_its_own_and_no_comment():
    """Every name the original chose is changed (those of C++ and of the handout kept),
    and the comments are gone: a plain computation on the two files."""
    original = (CLASS / "original" / "war.cpp").read_text()
    renamed = (CLASS / "renamed" / "game_of_war.cpp").read_text()
    handout = own_names((HANDOUT / "pile.h").read_text() + (HANDOUT / "pile.cpp").read_text())
    cxx = {"bool", "char", "const", "cout", "delete", "else", "endl", "for", "if", "include",
           "int", "main", "namespace", "new", "rand", "return", "srand", "std", "time", "true",
           "false", "using", "void", "while", "cstdlib", "ctime", "iostream", "h", "NULL"}
    chosen = own_names(original) - handout - cxx
    assert len(chosen) >= 25
    assert not chosen & own_names(renamed)
    assert "//" in original and "//" not in renamed and "/*" not in renamed


def function_names(text):
    """The functions a C++ text defines, in its order."""
    return re.findall(r"(?m)^[A-Za-z][\w\s&*]*?\b(\w+)\([^;\n]*\)\s*\{$", text)


def test_the_reordered_copy_defines_the_same_functions_in_another_order():
    """The same functions, in the reverse order."""
    original = function_names((CLASS / "original" / "war.cpp").read_text())
    reordered = function_names((CLASS / "reordered" / "war.cpp").read_text())
    assert len(original) == 7 and reordered == original[::-1]


# ---- By source

def test_the_disguised_copies_rank_first_well_above_the_program_written_apart(capsys):
    """Each pair of copies above 0.9, each pair with the program written apart below 0.1,
    the handout left out: the renamed names, gone comments and new order change nothing."""
    found, whole = similar_json(capsys, "--starter", HANDOUT)
    copies, apart = copy_pairs_and_apart_pairs(found)
    assert min(copies) > 0.9 and max(apart) < 0.1
    first_three = {frozenset((pair["a"], pair["b"])) for pair in whole["pairs"][:3]}
    assert first_three == {frozenset(pair) for pair in combinations(COPIES, 2)}
    assert whole["starter"] == [str(HANDOUT)] and whole["behaviour"] is None


def test_the_handout_makes_every_pair_alike_unless_left_out(capsys):
    """Without --starter the handout's Pile, in every submission, makes the program written
    apart look alike to each copy; with it, nothing of the handout is matched."""
    without, _ = similar_json(capsys)
    with_starter, _ = similar_json(capsys, "--starter", HANDOUT)
    _, apart_without = copy_pairs_and_apart_pairs(without)
    _, apart_with = copy_pairs_and_apart_pairs(with_starter)
    assert min(apart_without) > 0.2 > 0.1 > max(apart_with)
    regions = [region["file"] for pair in with_starter.values() for side in "ab"
               for region in pair["evidence"]["source"][side]["regions"]]
    assert regions and not {"pile.h", "pile.cpp"} & set(regions)


def test_the_regions_name_the_lines_the_other_holds(capsys):
    """The original and its renamed copy: the regions run over the game's file, from its
    first line of code to its last, on each side."""
    found, _ = similar_json(capsys, "--starter", HANDOUT)
    pair = found[frozenset(("original", "renamed"))]
    sides = {pair["a"]: pair["evidence"]["source"]["a"], pair["b"]: pair["evidence"]["source"]["b"]}
    original_lines = (CLASS / "original" / "war.cpp").read_text().count("\n")
    renamed_lines = (CLASS / "renamed" / "game_of_war.cpp").read_text().count("\n")
    assert sides["original"]["regions"] == [{"file": "war.cpp", "lines": [2, original_lines]}]
    assert sides["renamed"]["regions"] == [{"file": "game_of_war.cpp",
                                            "lines": [1, renamed_lines]}]


def test_the_report_is_the_same_whatever_python_s_hash_seed():
    """copydetect hashes k-grams with hash(), which changes with every process: with every
    k-gram kept the report does not (PYTHONHASHSEED 1 and 2, byte for byte)."""
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-m", "pywar", "similar", *sorted(map(
            str, CLASS.iterdir())), "--json"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1]


def test_a_header_left_open_does_not_hide_the_files_after_it(tmp_path, capsys):
    """Each file is tokenized alone: an unused header that opens a comment and never
    closes it (a.h, first by name) hides nothing of the copy's game."""
    shutil.copytree(CLASS / "original", tmp_path / "original")
    shutil.copytree(CLASS / "renamed", tmp_path / "renamed")
    (tmp_path / "renamed" / "a.h").write_text("/* nothing to see\n")
    found, _ = similar_json(capsys, "--starter", HANDOUT,
                            folders=[tmp_path / "original", tmp_path / "renamed"])
    assert found[frozenset(("original", "renamed"))]["source"] > 0.9


def test_a_past_term_is_compared_with_this_one_not_with_itself(tmp_path, capsys):
    """--archive: this term's submissions each with every past one; two past ones never."""
    past = tmp_path / "fall"
    past.mkdir()
    shutil.copytree(CLASS / "renamed", past / "lee")
    shutil.copytree(CLASS / "reordered", past / "kim")
    found, whole = similar_json(capsys, "--starter", HANDOUT, "--archive", past,
                                folders=[CLASS / "original", CLASS / "apart"])
    assert set(found) == {frozenset(pair) for pair in (
        ("original", "apart"), ("original", "lee"), ("original", "kim"), ("apart", "lee"),
        ("apart", "kim"))}
    assert whole["archive"] == ["kim", "lee"]
    assert whole["pairs"][0]["archived"] and whole["pairs"][0]["score"] > 0.9
    _, whole = similar_json(capsys, "--archive", past, folders=[past / "lee", CLASS / "apart"])
    assert whole["archive"] == ["kim"]          # lee is this term's: not compared with itself
    (past / "kim" / "big.cpp").write_text("int x;\n" * (source.FILE_BYTES // 7 + 1))
    _, whole = similar_json(capsys, "--archive", past, folders=[past / "lee", CLASS / "apart"])
    assert whole["notes"] == ["kim (archive): big.cpp: only its first 1 MiB compared"]


def test_a_region_is_shown_at_its_own_lines_whatever_the_file_starts_or_ends_with():
    """Hand-worked lines: the same code, 11 lines from a type's name (after 'union' in the
    other), in a file whose lines end in '\\r\\n' after 20 lines of comment (lines 21-31
    there), in one that starts with 3 blank lines (4-14), and after a line of other code
    (2-12); the marked text starts at the name and ends with the function."""
    block = ("Accumulator {\n    int sum;\n    int count;\n};\n"
             "int total(int *values, int count) {\n    int sum = 0;\n"
             "    for (int i = 0; i < count; i++) {\n        sum += values[i] * 2 - 1;\n"
             "    }\n    return sum;\n}\n")
    texts = {"crlf.cpp": ("// x\n" * 20 + "struct " + block).replace("\n", "\r\n"),
             "blank.cpp": "\n\n\nstruct " + block,
             "class.cpp": "double z = 99.0;\nclass " + block}
    expected = {"crlf.cpp": (21, 31), "blank.cpp": (4, 14), "class.cpp": (2, 12)}
    other = source.code_of_texts("b", [("b.cpp", "int w;\nunion " + block)])
    for name, text in texts.items():
        code = source.code_of_texts("a", [(name, text)])
        region, = source.compare(code, other).regions[0]
        shown = code.files[0][1][region.start:region.end]
        assert (region.first, region.last) == expected[name], name
        assert shown.startswith("Accumulator {") and shown.endswith("return sum;\n}"), name


def test_the_filtered_code_is_copydetect_s_but_qualifiers_and_empty_statements():
    """pywar's filter_code mends copydetect's offsets, and drops what copydetect keeps of a
    qualifier ('V::') and an empty statement (a ';' after ';', '{' or '}'): the class's
    every file is filtered to copydetect's code with those two taken out."""
    from copydetect.utils import filter_code
    for path in sorted(CLASS.glob("*/*")) + sorted(HANDOUT.iterdir()):
        text = source.as_lexed(path.read_text())
        language = source.language_of(path.name)
        theirs = filter_code(text, path.name, language)[0]
        theirs = re.sub(r"(?<=[;{}]);+", "", re.sub(r"[VO]?::", "", theirs))
        assert source.filter_code(text, language)[0] == theirs, path


def test_a_copy_with_every_name_qualified_and_a_semicolon_after_each_is_still_a_copy(
        tmp_path, capsys):
    """std::cout for cout (using namespace std gone) and ';' after every statement: two
    disguises that kept a working copy at 0.79 and 0.62 are undone (1.00 and 0.98)."""
    text = (CLASS / "original" / "war.cpp").read_text().replace("using namespace std;", "")
    for name in ("cout", "endl", "rand", "srand", "time"):
        text = re.sub(rf"\b{name}\b", f"std::{name}", text)
    text = re.sub(r";\n", ";;\n", text)
    shutil.copytree(CLASS / "original", tmp_path / "disguised")
    (tmp_path / "disguised" / "war.cpp").write_text(text)
    found, _ = similar_json(capsys, "--starter", HANDOUT,
                            folders=[CLASS / "original", tmp_path / "disguised"])
    assert found[frozenset(("original", "disguised"))]["source"] > 0.95


def test_a_submission_past_its_bound_is_compared_in_part(tmp_path):
    """A submission's files are compared up to source.TOO_MUCH in all (2 MiB; tokenizing
    took 5 s a MiB): three files of 1 MiB, the third left out with a note."""
    for name in ("a.cpp", "b.cpp", "c.cpp"):
        (tmp_path / name).write_text("int x;\n" * (source.FILE_BYTES // 7))
    files, notes = source.files_of(tmp_path)
    assert [name for name, _ in files] == ["a.cpp", "b.cpp"]
    assert notes == ["files past 2 MiB in all not compared"]


# ---- By behaviour

def test_a_trait_every_program_shows_weighs_nothing_and_a_rare_one_most():
    """Hand-worked: five programs; a crash shown by all weighs log(5/5) = 0, a line that
    two show log(5/2), one that one shows log(5).  a and b share two lines that they alone
    show: (2 log 2.5 - log 2.5) / (2 log 2.5) = 0.5; d and e share one such line and
    nothing else, one rare trait's worth: 0; a and c share only what all show: 0."""
    crash, one, two = ("mistake", "crash"), ("line", "Player <n> takes it"), ("line", "y")
    own, other = ("line", "x"), ("line", "z")
    place = behaviour.Seen(3, 10)
    traits = {"a": {crash: place, one: place, two: place}, "b": {crash: place, one: place,
                                                                 two: place},
              "c": {crash: place, own: place}, "d": {crash: place, other: place},
              "e": {crash: place, other: place}}
    weights, counts = behaviour.weigh(traits), behaviour.counted(traits)
    assert weights[crash] == 0 and weights[one] == pytest.approx(math.log(2.5))
    assert weights[own] == pytest.approx(math.log(5)) == pytest.approx(1.609438, abs=1e-6)
    pair = behaviour.compare(traits["a"], traits["b"], weights, counts, 5)
    assert pair.score == pytest.approx(0.5) and pair.shared == 2
    assert pair.weight == pytest.approx(2 * 0.916291, abs=1e-6) == pytest.approx(pair.either)
    assert pair.allowed == pytest.approx(0.916291, abs=1e-6)
    alone = behaviour.compare(traits["d"], traits["e"], weights, counts, 5)
    assert alone.score == 0.0 and alone.shared == 1 and len(alone.traits) == 1
    common = behaviour.compare(traits["a"], traits["c"], weights, counts, 5)
    assert common.score == 0.0 and common.traits == [] and common.shared == 0
    assert behaviour.compare(traits["c"], traits["d"], weights, counts, 5).score == 0.0


def test_a_mistake_made_on_every_seed_is_one_trait_however_many_seeds():
    """ace_low on each of 40 seeds is one trait, seen on those 40 seeds; two programs of
    four whose only shared trait it is score 0 whether graded on 1 seed or on 40."""
    def graded(seeds, rows=("ace_low",)):
        return {"mistakes_by_seed": {str(seed): list(rows) for seed in seeds}}
    forty = behaviour.mistake_traits(graded(range(1, 41)))
    assert forty == {("mistake", "ace_low"): behaviour.Seen(1, seeds=tuple(range(1, 41)))}
    for seeds in (range(1, 2), range(1, 41)):
        traits = {"a": behaviour.mistake_traits(graded(seeds)),
                  "b": behaviour.mistake_traits(graded(seeds)),
                  "c": behaviour.mistake_traits(graded(seeds, ["crash"])), "d": {}}
        weights, counts = behaviour.weigh(traits), behaviour.counted(traits)
        shared = behaviour.compare(traits["a"], traits["b"], weights, counts, 4)
        assert (shared.score, shared.shared) == (0.0, 1)
        assert shared.weight == pytest.approx(math.log(2))


def test_the_reference_s_own_lines_are_no_trait_and_cards_and_numbers_are_blanked():
    """Every line the reference prints has a shape the reference prints; a line of a
    program's own keeps its words and loses its cards and numbers."""
    known = behaviour.reference_shapes()
    transcript = (ROOT / "tests" / "data" / "seed-1.txt").read_text().split("\n")
    assert {behaviour.shape(line) for line in transcript} <= known
    assert behaviour.shape("Player B takes the 10 of Hearts and 3 more") == \
        "Player <p> takes the <card> and <n> more" == behaviour.shape(
            "Player A takes the 2 of spades and 1 more")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded once on 3 seeds, its JSON and its kept runs: (json path, kept)."""
    return grade_once(tmp_path_factory.mktemp("graded"), [CLASS / name for name in NAMES], 3)


def grade_once(folder, submissions, seeds):
    """pywar grade of submissions on seeds 1 to `seeds`, kept in folder: (json path, kept)."""
    kept, grades = folder / "kept", folder / "class.json"
    command = [sys.executable, "-m", "pywar", "grade", *map(str, submissions), "-n",
               str(seeds), "--fresh", "0", "--no-memory", "--json", "--keep", str(kept)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    grades.write_text(done.stdout)
    return grades, kept


@needs_tools("g++")
def test_with_behaviour_the_copies_still_rank_first_and_the_common_mistake_weighs_nothing(
        graded, capsys):
    """Graded, the four make the same mistake (ace_low) on the same seeds: that weighs
    nothing, and the apart pairs share nothing rare; the copies share their lines of their
    own, named with the seed and line each first printed them."""
    grades, kept = graded
    every = json.loads(grades.read_text())["submissions"]
    assert all("ace_low" in sub["mistakes_by_seed"]["1"] for sub in every)
    found, whole = similar_json(capsys, "--starter", HANDOUT, "--grades", grades,
                                "--kept", kept)
    copies, apart = copy_pairs_and_apart_pairs(found, "behaviour")
    assert min(copies) > 0.15 and max(apart) == 0.0     # 3 traits of 3 of 4: 0.20
    for pair in found.values():
        on = pair["behaviour_on"]                   # (shared - log(4/2)) / either
        assert pair["behaviour"] == pytest.approx(
            max(0, on["weight"] - math.log(2)) / on["either"] if on["either"] else 0, abs=1e-5)
    copies, apart = copy_pairs_and_apart_pairs(found)
    assert min(copies) > 0.9 and max(apart) < 0.1
    evidence = found[frozenset(("original", "renamed"))]["evidence"]["behaviour"]
    lines = [trait for trait in evidence if trait["kind"] == "line"]
    first = next(t for t in lines if t["text"] == "Player <p> takes the whole pot!")
    assert (first["shown_by"], first["of"]) == (3, 4)     # the three copies of the four
    printed = (kept / "original" / f"seed-{first['a']['seed']}.txt").read_text().split("\n")
    assert printed[first["a"]["line"] - 1] in ("Player A takes the whole pot!",
                                               "Player B takes the whole pot!")
    assert all(trait["mistake"] != "ace_low" for trait in evidence if trait["kind"] == "mistake")
    assert whole["behaviour"] == {"kept": str(kept), "grades": str(grades), "games": None}


@needs_tools("g++")
def test_a_copy_reworded_is_still_found_by_its_code_and_a_rewrite_by_its_lines(
        graded, capsys):
    """Either kind of evidence alone raises a pair: the score is the stronger of the two."""
    grades, kept = graded
    found, _ = similar_json(capsys, "--starter", HANDOUT, "--grades", grades, "--kept", kept)
    for pair in found.values():
        assert pair["score"] == max(pair["source"], pair["behaviour"])
    reworded = source.Match((0.9, 0.8), ([], []))
    rewritten = source.Match((0.1, 0.2), ([], []))
    lines = behaviour.Shared(0.7, [])
    assert pairs.Pair("a", "b", reworded, behaviour.Shared(0.0, [])).score() == pytest.approx(0.85)
    assert pairs.Pair("a", "b", rewritten, lines).score() == 0.7
    assert pairs.Pair("a", "b", rewritten).score() == pytest.approx(0.15)


@needs_tools("g++")
def test_graded_here_with_n_the_pairs_are_those_of_a_grading_made_before(graded, capsys):
    """-n 3 grades the class here as pywar grade -n 3 --fresh 0 --no-memory did in the
    fixture: every pair and its evidence the same."""
    grades, kept = graded
    _, before = similar_json(capsys, "--starter", HANDOUT, "--grades", grades, "--kept", kept)
    _, here = similar_json(capsys, "--starter", HANDOUT, "-n", "3")
    assert here["pairs"] == before["pairs"] and here["behaviour"]["games"] == 3


# Two programs written apart that make one mistake alike: the similar class's apart and
# the grading class's ace_low (tests/data/class: the faithful program with the ace low),
# beside two more of the grading class (faithful, and top_first with piles listed top
# first): as the real class's two Program 6 students, who share one habit and 3% of code.
APART_ONE_MISTAKE = [CLASS / "apart", *(DATA / "class" / name
                                        for name in ("ace_low", "faithful", "top_first"))]


@pytest.fixture(scope="module")
def one_mistake(tmp_path_factory):
    """APART_ONE_MISTAKE graded once on 2 seeds: (json path, kept)."""
    return grade_once(tmp_path_factory.mktemp("one_mistake"), APART_ONE_MISTAKE, 2)


@needs_tools("g++")
def test_two_programs_written_apart_that_share_one_mistake_are_not_alike(one_mistake,
                                                                       capsys):
    """apart and ace_low share no code and make one mistake alike, the ace low, on every
    seed, and print no line of their own: one trait, counted once, one rare trait's worth
    (log(4/2)), which two programs may share by chance: behaviour 0, and the table, the
    JSON and the page say what the score stands on."""
    grades, kept = one_mistake
    every = {sub["name"]: sub["mistakes_by_seed"]
             for sub in json.loads(grades.read_text())["submissions"]}
    assert every["apart"] == every["ace_low"] == {"1": ["ace_low"], "2": ["ace_low"]}
    found, _ = similar_json(capsys, "--starter", HANDOUT, "--grades", grades, "--kept", kept,
                            folders=APART_ONE_MISTAKE)
    pair = found[frozenset(("apart", "ace_low"))]
    assert pair["source"] < 0.05 and pair["behaviour"] == 0.0 and pair["score"] < 0.05
    assert pair["behaviour_on"] == {"traits": 1, "weight": round(math.log(2), 6),
                                    "allowance": round(math.log(2), 6),
                                    "either": round(math.log(2), 6), "of": 4}
    (trait,) = pair["evidence"]["behaviour"]
    assert trait["mistake"] == "ace_low" and trait["a"] == trait["b"] == {
        "seed": 1, "seeds": [1, 2]}
    page = kept.parent / "similar.html"
    status, out, _ = run(capsys, "similar", *APART_ONE_MISTAKE, "--starter", HANDOUT,
                         "--grades", grades, "--kept", kept, "--html", page)
    said = ("behaviour: 1 shared trait weighing 0.69, of 0.69 that either shows: no more "
            "than one rare trait's worth (0.69), which any two programs may share by "
            "chance, so not alike by behaviour; the same mistake (ace_low)")
    row = next(line for line in out.split("\n") if line.endswith("apart ~ ace_low")
               or line.endswith("ace_low ~ apart"))
    assert status == 0 and row.split()[2:4] == ["0.00", "1"] and said in out
    shown = page.read_text()
    assert "<td>0.00</td><td>1</td>" in shown and html.escape(said) in shown


def test_a_grading_that_lacks_a_submission_or_never_ran_it_says_so(tmp_path, capsys):
    """--grades of three of the four compared, one of them run on no seed (its build
    failed): the pairs with either are not compared by behaviour (null, '?') and say why,
    never 'nothing rare in common'; a note names each; the pair graded is compared."""
    def graded(name, runs):
        return {"name": name, "score": 1, "max_score": 12, "items": {"runs": {
            "ok": runs > 0, "failed": 0, "of": runs}},
            "mistakes_by_seed": {"1": ["crash"]} if runs else {}}
    grades = tmp_path / "class.json"
    grades.write_text(json.dumps({"submissions": [
        graded("original", 1), graded("renamed", 1), graded("reordered", 0)]}))
    folders = [CLASS / name for name in ("apart", "original", "renamed", "reordered")]
    found, whole = similar_json(capsys, "--grades", grades, folders=folders)
    assert whole["unknown"] == [{"name": "apart", "why": "is not in the grading"},
                                {"name": "reordered", "why": "was run on no seed by the "
                                                             "grading"}]
    assert f"apart: behaviour not compared, it is not in the grading (--grades {grades}): " \
        "what it did is unknown" in whole["notes"]
    for pair in found.values():
        if {"apart", "reordered"} & {pair["a"], pair["b"]}:
            assert pair["behaviour"] is None and pair["behaviour_on"] is None
            assert pair["evidence"]["behaviour"] is None and pair["unknown"]
    graded_pair = found[frozenset(("original", "renamed"))]
    assert graded_pair["behaviour"] == 0.0 and graded_pair["behaviour_on"]["of"] == 2
    status, out, err = run(capsys, "similar", *folders, "--grades", grades)
    assert status == 0 and out.count("nothing rare in common") == 1     # the pair graded
    assert out.count("behaviour: not compared, apart is not in the grading: what it did "
                     "is unknown") == 2
    assert out.count("behaviour: not compared, apart is not in the grading and reordered "
                     "was run on no seed by the grading: what they did is unknown") == 1
    assert "note: reordered: behaviour not compared, it was run on no seed by the " \
        "grading: what it did is unknown" in err
    rows = [line.split() for line in out.split("\n") if " ~ " in line]
    assert sum(row[2:4] == ["?", "?"] for row in rows) == 5


def test_a_line_makes_a_trait_of_its_first_characters_and_a_link_none(tmp_path):
    """A run that printed one line of 10,000 characters: its trait is that line's first
    behaviour.LINE_CHARS (200); a submission's kept folder that is a link is not read."""
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "seed-1.txt").write_text("spam " * 2000)
    (tmp_path / "bob").symlink_to(tmp_path / "ann")
    (trait, place), = behaviour.line_traits(tmp_path / "ann", set()).items()
    assert trait == ("line", ("spam " * 40)) and place == behaviour.Seen(1, 1)
    assert behaviour.line_traits(tmp_path / "bob", set()) == {}


# ---- The command

@pytest.mark.parametrize("argv, said", [
    (["nowhere/"], "'nowhere/' is not a folder: each SUBMISSION is a folder"),
    ([str(CLASS / "apart")], "give two submissions at least, or --archive DIR"),
    ([str(CLASS / "apart"), str(CLASS / "original"), "--starter", "nowhere"],
     "--starter 'nowhere' is not a folder: give a folder of the code handed out"),
    ([str(CLASS / "apart"), str(CLASS / "original"), "--grades", str(HANDOUT / "pile.h")],
     "is not a pywar grade JSON (not JSON"),
    ([str(CLASS / "apart"), str(CLASS / "original"), "-n", "3", "--kept", str(HANDOUT)],
     "-n grades the class here: give it, or --grades and --kept"),
    ([str(CLASS / "apart"), str(CLASS / "original"), "--grades", "class.json", "--html",
      "class.json"], "--html 'class.json' and --grades 'class.json' are the same file"),
])
def test_bad_input_is_one_line_before_any_work(capsys, argv, said):
    """A usage error, exit 2, one line naming what is valid."""
    status, out, err = run(capsys, "similar", *argv)
    assert status == 2 and not out and said in err and err.count("error:") == 1


def test_the_page_is_never_written_over_a_submission_s_file(tmp_path, capsys):
    """--html inside a folder it compares (a student's game.cpp) is a usage error, and the
    file is left as it was."""
    shutil.copytree(CLASS / "apart", tmp_path / "apart")
    game = tmp_path / "apart" / "game.cpp"
    status, out, err = run(capsys, "similar", tmp_path / "apart", CLASS / "original",
                           "--html", game)
    assert status == 2 and not out and f"--html '{game}' is inside" in err
    assert game.read_bytes() == (CLASS / "apart" / "game.cpp").read_bytes()


def test_without_copydetect_the_command_says_how_to_add_it(capsys, monkeypatch):
    """copydetect missing: a usage error naming the pip command of the similar extra."""
    monkeypatch.setitem(sys.modules, "copydetect", None)
    status, _, err = run(capsys, "similar", CLASS / "apart", CLASS / "original")
    assert status == 2 and "copydetect, not installed: pip install" in err and "[similar]" in err


def test_what_a_submission_names_is_neither_followed_nor_shown_raw(tmp_path, capsys):
    """A link to a file outside is not read, a FIFO named war.cpp does not hang the
    comparison, and a name that is not UTF-8 or holds a terminal escape is shown escaped."""
    secret = tmp_path / "secret.cpp"
    secret.write_text((CLASS / "original" / "war.cpp").read_text())
    sly = tmp_path / "sly\x1b[31m"
    sly.mkdir()
    (sly / "war.cpp").symlink_to(secret)
    os.mkfifo(sly / "game.cpp")
    (sly / os.fsdecode(b"x\xff.cpp")).write_text("int main() { return 0; }\n")
    status, out, err = run(capsys, "similar", CLASS / "original", sly)
    assert status == 0
    assert "\x1b" not in out and "sly\\x1b[31m" in out
    assert "no code alike" in out


def test_a_note_on_a_submission_is_shown_escaped(tmp_path, capsys):
    """A submission too deep to compare, its name holding a terminal escape: its note on
    stderr names it escaped."""
    sly = tmp_path / "sly\x1b[31m"
    (sly / ("d/" * 40)).mkdir(parents=True)
    status, _, err = run(capsys, "similar", CLASS / "original", sly)
    assert status == 0 and "\x1b" not in err
    assert "note: sly\\x1b[31m: not compared: folders more than 32 deep" in err


def test_the_page_escapes_what_a_submission_wrote(tmp_path, capsys):
    """Code holding markup is shown as text, and every pair of --top is on the page."""
    evil = tmp_path / "evil"
    shutil.copytree(CLASS / "original", evil)
    with open(evil / "war.cpp", "a") as file:
        file.write("// </pre><script>alert(1)</script>\n")
    page = tmp_path / "similar.html"
    status, _, _ = run(capsys, "similar", CLASS / "original", evil, CLASS / "apart",
                       "--html", page)
    text = page.read_text()
    assert status == 0 and "<script>" not in text and "&lt;/pre&gt;&lt;script&gt;" in text
    assert text.count("class=\"pair\"") == 3 and text.count("<mark>") > 3


def test_the_modules_examples_run():
    """The doctests of the source and behaviour modules."""
    for module in (source, behaviour):
        failures, tried = doctest.testmod(module)
        assert tried and not failures


def test_the_page_shows_a_pair_side_by_side_with_the_shared_code_marked(browser, tmp_path,
                                                                         capsys):
    """In Chromium: the first pair's two sides stand side by side (one top, one left of
    the other), each with marked code, and what is marked on the renamed side is its game's
    code, not the handout's."""
    page = tmp_path / "similar.html"
    status, _, _ = run(capsys, "similar", CLASS / "original", CLASS / "renamed",
                       CLASS / "apart", "--starter", HANDOUT, "--html", page)
    assert status == 0
    browser.get(page.as_uri())
    sides = browser.find_elements("css selector", "#pair-1 .side")
    assert len(sides) == 2
    left, right = (side.rect for side in sides)
    assert left["y"] == right["y"] and left["x"] + left["width"] <= right["x"]
    for side in sides:
        marks = side.find_elements("css selector", "mark")
        assert marks and all(mark.is_displayed() for mark in marks[:3])
    marked = " ".join(mark.text for mark in sides[1].find_elements("css selector", "mark"))
    assert "takes the whole pot!" in marked and "Pile::Pile()" not in marked
    link = browser.find_element("css selector", "a[href='#pair-1']")
    assert "original ~ renamed" in link.text


def test_a_grade_json_edited_by_hand_is_read_for_what_it_can_mean(tmp_path, capsys):
    """--grades is a file of pywar's that a person may edit: a seed that is no number, rows
    that are no list, a row pywar does not know, are left out; nothing raises."""
    names = ["apart", "original"]
    subs = [{"name": name, "score": 1, "max_score": 12, "items": {"builds": {
        "ok": True, "failed": 0, "of": 1}}, "mistakes_by_seed": found} for name, found in
        zip(names, ({"x": ["crash"], "3": ["crash", 7, "nope"], "4": "crash",
                     "\u00b2": ["crash"], "9" * 5000: ["crash"], "4294967296": ["crash"]},
                    [1, 2]))]
    grades = tmp_path / "class.json"
    grades.write_text(json.dumps({"submissions": subs}))
    found, _ = similar_json(capsys, "--grades", grades,
                            folders=[CLASS / name for name in names])
    assert found[frozenset(names)]["behaviour"] == 0.0
    assert behaviour.mistake_traits(subs[0]) == {
        ("mistake", "crash"): behaviour.Seen(3, seeds=(3,))}
