"""pywar diff: where the games of two trace (or transcript) files part.  The expected
events and lines are read off docs/trace.md's example and the reference transcripts."""

import json

import pytest

import pywar
from conftest import DATA, reference_transcript
from pywar.cli import main


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path, name, text):
    """A file in tmp_path holding text; its path as a string."""
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def trace(seed, engine="python", **options):
    """A game's trace."""
    return pywar.play(seed, engine=engine, trace=True, **options).trace


def test_two_implementations_play_the_same_game(tmp_path, capsys):
    a = write(tmp_path, "a.jsonl", trace(17455, "python"))
    b = write(tmp_path, "b.jsonl", trace(17455, "port-python", stack="adt"))
    assert run(capsys, "diff", a, b) == (0, f"{a} and {b} are the same game.\n", "")


def test_a_trace_and_the_reference_transcript_are_the_same_game(tmp_path, capsys):
    a = write(tmp_path, "a.jsonl", trace(1553))
    status, out, _ = run(capsys, "diff", a, str(DATA / "seed-1553.txt"))
    assert status == 0 and out.endswith("are the same game.\n")


def test_the_first_differing_event(tmp_path, capsys):
    """docs/trace.md: in round 1 of seed 17455 B takes the pot as [2, 27]."""
    good = trace(17455)
    assert '"cards":[2,27]' in good.splitlines()[6]
    a = write(tmp_path, "a.jsonl", good)
    b = write(tmp_path, "b.jsonl", good.replace('"cards":[2,27]', '"cards":[27,2]', 1))
    status, out, err = run(capsys, "diff", a, b, "--json")
    assert (status, err) == (1, "")
    found = json.loads(out)["difference"]
    assert (found["kind"], found["event"], found["trace_line"], found["round"],
            found["battle"]) == ("events", 5, 7, 1, 1)
    assert found["sides"] == {a: good.splitlines()[6],
                              b: good.splitlines()[6].replace("[2,27]", "[27,2]")}
    status, out, _ = run(capsys, "diff", a, b)
    assert out.splitlines()[0] == "the traces part at event 5 (trace line 7), round 1, battle 1"


def test_the_transcript_lines_around_the_first_difference(tmp_path, capsys):
    """An ace misnamed in the deal: the diff shows the reference's lines around it."""
    reference = reference_transcript(17455)
    lines = reference.splitlines()
    first = next(i for i, line in enumerate(lines) if " ace of " in line)
    wrong = reference.replace(" ace of ", " one of ")
    a = write(tmp_path, "a.jsonl", trace(17455))
    b = write(tmp_path, "b.txt", wrong)
    status, out, _ = run(capsys, "diff", a, b)
    assert status == 1
    report = out.splitlines()
    assert report[0] == f"the transcripts part at line {first + 1}, in the narration of " \
                        "event 0 (trace line 2), round 0, battle 0"
    assert report[1:4] == [f"--- {a}", f"+++ {b}",
                           f"@@ -{first - 2},7 +{first - 2},7 @@"]
    assert report[4:7] == [" " + line for line in lines[first - 3:first]]
    assert report[7:9] == ["-" + lines[first], "+" + lines[first].replace(" ace ", " one ")]


def test_traces_of_different_seeds_part_at_the_deal(tmp_path, capsys):
    """Seeds 1 and 2 deal different hands: the games part at event 0, the deal."""
    one, two = trace(1), trace(2)
    a, b = write(tmp_path, "a.jsonl", one), write(tmp_path, "b.jsonl", two)
    status, out, _ = run(capsys, "diff", a, b)
    report = out.splitlines()
    assert status == 1
    assert report[:4] == ["the traces part at event 0 (trace line 2), round 0, battle 0",
                          "  the trace headers differ in seed 1 / 2",
                          f"  {a}: {one.splitlines()[1]}", f"  {b}: {two.splitlines()[1]}"]
    assert report[4].startswith("the transcripts part at line ")
    found = json.loads(run(capsys, "diff", a, b, "--json")[1])
    assert found["differing_header"] == {"seed": [1, 2]}
    assert (found["difference"]["event"], found["difference"]["differing_header"]) == \
        (0, {"seed": [1, 2]})


def test_two_rule_sets_are_named_in_words(tmp_path, capsys):
    """smu and lehigh as docs/rules.md gives them: the names, then each setting."""
    a = write(tmp_path, "a.jsonl", trace(17455))
    b = write(tmp_path, "b.jsonl", trace(17455, rules="lehigh"))
    status, out, _ = run(capsys, "diff", a, b)
    assert status == 1 and "{" not in out.splitlines()[1]
    assert out.splitlines()[1] == (
        "  the trace headers differ in rules smu / lehigh (face_down 0 / 3, short_war lose "
        "/ all-but-one, pickup smu / pot-order, piles to-play+played / queue, shuffle smu / "
        "swap-each, narration smu / lehigh, max_rounds 10000000 / 1000000)")


def test_seeds_0_and_1_are_the_same_game_under_two_headers(tmp_path, capsys):
    """docs/rules.md: as in glibc, seed 0 is seed 1."""
    a = write(tmp_path, "a.jsonl", trace(0))
    b = write(tmp_path, "b.jsonl", trace(1))
    assert run(capsys, "diff", a, b) == (
        0, f"{a} and {b} are the same game (the trace headers differ in seed 0 / 1).\n", "")


def test_a_trace_cut_short_is_not_the_same_game(tmp_path, capsys):
    """A crashed program's trace: the full one's first 40 lines."""
    full = trace(17455)
    lines = full.splitlines(keepends=True)
    a, b = write(tmp_path, "full.jsonl", full), write(tmp_path, "cut.jsonl", "".join(lines[:40]))
    status, out, _ = run(capsys, "diff", a, b, "--json")
    found = json.loads(out)["difference"]
    assert (status, found["kind"], found["trace_line"]) == (1, "events", 41)
    assert found["sides"] == {a: lines[40].rstrip("\n"), b: None}


def test_a_transcript_cut_short_is_not_the_same_game(tmp_path, capsys):
    """The reference's transcript and its first 100 lines part at line 101."""
    full = reference_transcript(17455)
    a = write(tmp_path, "full.txt", full)
    b = write(tmp_path, "cut.txt", "".join(full.splitlines(keepends=True)[:100]))
    status, out, _ = run(capsys, "diff", a, b)
    assert status == 1 and out.splitlines()[0].startswith("the transcripts part at line 101")


@pytest.mark.parametrize("content, status, words", [
    ("hello\n", 2, "neither a pywar trace nor a transcript"),
    ('{"trace":"pywar","version":1}\n{"event":"nope"}\n', 2, "line 2: not an event"),
])
def test_files_that_are_not_games(tmp_path, capsys, content, status, words):
    a = write(tmp_path, "a.jsonl", trace(17455))
    b = write(tmp_path, "b", content)
    found, out, err = run(capsys, "diff", a, b)
    assert (found, out) == (status, "") and err.count("\n") == 1 and words in err


@pytest.mark.parametrize("version", [None, 2, "1"])
def test_a_trace_without_the_known_version_is_refused(tmp_path, capsys, version):
    """docs/trace.md: the header names version 1; one without it is not read as one."""
    lines = trace(17455).splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["version"]
    if version is not None:
        header["version"] = version
    a = write(tmp_path, "a.jsonl", "".join(lines))
    b = write(tmp_path, "b.jsonl", json.dumps(header) + "\n" + "".join(lines[1:]))
    status, out, err = run(capsys, "diff", a, b)
    assert (status, out) == (2, "") and f"trace version {version!r} is not known" in err


def test_a_file_that_cannot_be_read(tmp_path, capsys):
    status, out, err = run(capsys, "diff", str(tmp_path / "none"), str(tmp_path / "none"))
    assert (status, out) == (3, "") and "cannot read" in err


# ---- Headers replay refuses, and nesting too deep (issue 31)

SEED = '"seed":17455,'
BAD_HEADERS = [
    ('"seed":NaN,', "NaN is not JSON"),
    ('"seed":"5",', "the header's seed is '5', not an integer from 0 to 4294967295"),
    ('"seed":-1,', "the header's seed is -1"),
    ('"seed":' + "9" * 400 + ",", "the header's seed is 999"),
    ('"seed":' + "9" * 5000 + ",", "pywar trace"),      # diff: "neither a pywar trace nor ..."
    ('"seed":5,"seed":17455,', 'the key "seed" is given twice'),
]


@pytest.mark.parametrize("seed, words", BAD_HEADERS)
def test_diff_refuses_the_headers_replay_refuses(tmp_path, capsys, seed, words):
    """Each was 'the same game' to diff (json.loads takes NaN and a key twice, and diff
    did not check the values), while replay refused it: both refuse it now, exit 2."""
    good = trace(17455)
    assert good.count(SEED) == 1
    a = write(tmp_path, "a.jsonl", good)
    b = write(tmp_path, "b.jsonl", good.replace(SEED, seed))
    for argv in (["diff", a, b], ["diff", b, a, "--json"], ["replay", "-q", b]):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, ""), argv
        assert err.count("\n") == 1 and words in err and "Traceback" not in err, argv


@pytest.mark.parametrize("line", [1, 3])
def test_a_line_nested_100000_deep_is_one_line_not_a_recursion_error(tmp_path, capsys, line):
    """A header, or an event, of 100,000 '[': json.loads raises RecursionError, which
    came out of replay and diff as a traceback."""
    lines = trace(17455).splitlines(keepends=True)
    lines[line - 1] = "[" * 100_000 + "\n"
    a = write(tmp_path, "a.jsonl", trace(17455))
    b = write(tmp_path, "b.jsonl", "".join(lines))
    for argv, status in ((["diff", a, b], 2), (["diff", b, a], 2),
                         (["replay", "-q", b], 2 if line == 1 else 1)):
        found, out, err = run(capsys, *argv)
        assert (found, out) == (status, ""), argv
        assert err.count("\n") == 1 and "nested deeper than pywar reads" in err, argv
        assert f"line {line}" in err or line == 1


def test_two_deals_are_named_in_the_headers(tmp_path, capsys):
    """Two games of --deal: the headers' deals differ, and diff says so beside the first
    differing event (the deal's), in words and in --json."""
    a = write(tmp_path, "a.jsonl", trace(0, rules="lehigh", deck="2x2", deal=([2, 0], [1, 3])))
    b = write(tmp_path, "b.jsonl", trace(0, rules="lehigh", deck="2x2", deal=([0, 2], [1, 3])))
    status, out, _ = run(capsys, "diff", a, b)
    assert status == 1
    assert out.splitlines()[:2] == [
        "the traces part at event 0 (trace line 2), round 0, battle 0",
        "  the trace headers differ in deal [[2,0],[1,3]] / [[0,2],[1,3]]"]
    found = json.loads(run(capsys, "diff", a, b, "--json")[1])
    assert found["differing_header"] == {"deal": [[[2, 0], [1, 3]], [[0, 2], [1, 3]]]}
