"""Fuzzers of the hostile-user audit (issue 18), kept as slow tests: mutated traces and
transcripts through replay, diff and referee; random API calls in a subprocess; SIGINT
and SIGTERM at random moments, to the process or its whole group, where the CSV's rows
must equal the summary's games.  None may give a traceback.

Each fuzzer draws from a seeded random.Random, and names the seed and the case that
failed."""

import io
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import pywar
from conftest import ROOT, needs_c
from pywar.cli import main

pytestmark = [pytest.mark.slow, needs_c]
SCRIPT = os.path.join(os.path.dirname(sys.executable), "pywar")
JSON_VALUES = [None, True, False, 0, -1, 1.5, 2 ** 70, "", "x", "round", [], [1, 2], {},
               {"a": 1}, [[1, 2], [3]], "\u0665", "y" * 10_000]


def games():
    """A few games' traces and transcripts, under different rules."""
    return [pywar.play(seed, rules=rules, trace=True, transcript=True)
            for seed, rules in ((17455, "smu"), (12, "lehigh"), (7, "iofall"), (3, "smu"))]


def mutate_line(line, chance):
    """A trace line changed one way: a value replaced, a key dropped or added, or its
    text cut or a character changed."""
    how = chance.randrange(5)
    if how < 3:
        try:
            event = json.loads(line)
        except ValueError:
            return line[::-1]
        if not isinstance(event, dict) or not event:
            return line + "x"
        key = chance.choice(list(event))
        if how == 0:
            event[key] = chance.choice(JSON_VALUES)
        elif how == 1:
            del event[key]
        else:
            event[chance.choice(["extra", "event", "piles"])] = chance.choice(JSON_VALUES)
        return json.dumps(event, separators=(",", ":"))
    if how == 3:
        return line[:chance.randrange(len(line) + 1)]
    at = chance.randrange(len(line)) if line else 0
    return line[:at] + chance.choice("{}[],:\"0a\x00\u00e9 ") + line[at + 1:]


def mutate_lines(lines, chance):
    """Lines with one to three changes: a line mutated, dropped, repeated or swapped."""
    lines = list(lines)
    for _ in range(chance.randint(1, 3)):
        i = chance.randrange(len(lines))
        how = chance.randrange(4)
        if how == 0:
            lines[i] = mutate_line(lines[i], chance)
        elif how == 1 and len(lines) > 1:
            del lines[i]
        elif how == 2:
            lines.insert(i, lines[i])
        else:
            j = chance.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return lines


def one_line_outcome(argv, capsys):
    """main(argv): its status, which must be one of the documented ones, with at most a
    few lines on stderr and no traceback."""
    status = main(argv)
    out, err = capsys.readouterr()
    assert status in (0, 1, 2, 3), (argv, status, err)
    assert "Traceback" not in err and len(err.splitlines()) <= 3, (argv, err)
    return status


@pytest.mark.parametrize("seed", range(4))
def test_mutated_traces_and_transcripts_give_no_traceback(seed, tmp_path, capsys):
    chance = random.Random(seed)
    played = games()
    good = tmp_path / "good.jsonl"
    for round_ in range(150):
        game = chance.choice(played)
        trace = game.trace.splitlines()
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join(mutate_lines(trace, chance)) + "\n")
        good.write_text(game.trace)
        one_line_outcome(["replay", str(bad)], capsys)
        one_line_outcome(["diff", str(good), str(bad)], capsys)
        one_line_outcome(["referee", str(bad)], capsys)
        text = tmp_path / "bad.txt"
        text.write_text("\n".join(mutate_lines(game.transcript.splitlines(), chance)) + "\n")
        one_line_outcome(["referee", str(text)], capsys)
        one_line_outcome(["referee", str(text), "--seed", str(game.seed)], capsys)
        one_line_outcome(["diff", str(text), str(bad)], capsys)


API_FUZZER = textwrap.dedent('''
    import io, os, random, sys, traceback
    import pywar
    chance = random.Random(int(sys.argv[1]))
    VALUES = [None, True, False, 0, 1, 2, -1, 3, 7, 2 ** 32, 2 ** 64, 1.5, float("nan"), "",
              "smu", "c", "python", "port-python", "x", b"x", [], [0], {}, object(),
              io.StringIO(), io.BytesIO(), "games.csv", 1, sys.stdout]
    ALLOWED = (TypeError, ValueError, RuntimeError, ImportError, OSError)
    def arguments():
        return {name: chance.choice(VALUES) for name in chance.sample(
            ["rules", "engine", "seed", "transcript", "trace", "deal", "stack", "face_down",
             "max_rounds", "players", "deck", "piles", "pickup", "csv", "jobs", "chunk",
             "client", "keep_games", "progress"], chance.randint(0, 3))}
    CALLS = [
        ("play", lambda kw: pywar.play(chance.choice(VALUES), **kw)),
        ("simulate", lambda kw: pywar.simulate(chance.choice([1, 3, 20, 0, -1, "3", 2.0]), **kw)),
        ("Game", lambda kw: pywar.Game(chance.choice(VALUES), **kw)),
        ("make_rules", lambda kw: pywar.make_rules(chance.choice(VALUES), **kw)),
        ("check_seed", lambda kw: pywar.check_seed(chance.choice(VALUES))),
        ("write_csv", lambda kw: pywar.simulate(2).write_csv(chance.choice(VALUES))),
    ]
    stdout_fd = os.dup(1)
    for case in range(int(sys.argv[2])):
        name, call = chance.choice(CALLS)
        kw = {key: value for key, value in arguments().items()
              if key not in ("transcript", "trace") or name == "play"}
        if name not in ("simulate",):
            for key in ("csv", "jobs", "chunk", "client", "keep_games", "progress"):
                kw.pop(key, None)
        try:
            call(kw)
        except ALLOWED:
            pass
        except BaseException as error:
            os.write(stdout_fd, f"case {case}: {name}({kw!r}) raised {error!r}\\n".encode())
        try:
            os.fstat(1), os.fstat(0)
        except OSError:
            os.write(stdout_fd, f"case {case}: {name}({kw!r}) closed stdin or stdout\\n".encode())
            break
    os.write(stdout_fd, b"done\\n")
''')


@pytest.mark.parametrize("seed", range(3))
def test_random_api_calls_in_a_subprocess_raise_only_documented_errors(seed, tmp_path):
    """Each call either works or raises TypeError, ValueError, RuntimeError, ImportError
    (a missing extra) or OSError (a path that cannot be written); none crashes
    the interpreter or closes its streams."""
    script = tmp_path / "fuzz.py"
    script.write_text(API_FUZZER)
    done = subprocess.run([sys.executable, str(script), str(seed), "300"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    report = [line for line in done.stdout.splitlines() if line.startswith("case ")]
    assert done.returncode == 0 and report == [] and done.stdout.endswith("done\n"), \
        (done.stdout[-2000:], done.stderr[-2000:])


def stop_at_random(chance, folder, group):
    """Run `pywar simulate --csv games.csv --json`, stop it with SIGINT or SIGTERM at a
    random moment of its first 3 s, to it or to its whole process group, and check:
    no traceback, the documented status, and the CSV's rows equal the summary's games
    (or, stopped before any game finished, the earlier file as it was; before any work,
    with one line)."""
    (folder / "games.csv").write_bytes(b"an earlier run\n")
    number = chance.choice([signal.SIGINT, signal.SIGTERM])
    env = {key: value for key, value in os.environ.items() if key != "PYWAR_ENGINE"}
    process = subprocess.Popen([SCRIPT, "simulate", "-n", "3000000", "--csv", "games.csv",
                                "--json", "--chunk", "512"], cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=group)
    delay = chance.uniform(0, 3.0)
    time.sleep(delay)
    (os.killpg if group else os.kill)(process.pid, number)
    out, err = process.communicate(timeout=120)
    case = (number, delay, group, process.returncode, err[-600:])
    if "init_import_site" in err or process.returncode == -number:
        return "interpreter"            # before pywar's code runs: Python's own start
    assert "Traceback" not in err, case
    assert process.returncode == 128 + number, case
    rows = (folder / "games.csv").read_bytes()
    if out:
        summary = json.loads(out)
        if summary["games"] == 0:                   # no game finished: the file as it was
            assert rows == b"an earlier run\n", case
        assert rows.count(b"\n") - 1 == summary["games"], case
        assert all(line.startswith("pywar: warning: ") for line in err.splitlines()), case
        return "reported"
    assert rows == b"an earlier run\n" and len(err.splitlines()) == 1, case
    return "loading"


@pytest.mark.parametrize("seed", range(2))
def test_signals_at_random_moments_keep_the_csv_equal_to_the_summary(seed, tmp_path):
    chance = random.Random(seed)
    seen = [stop_at_random(chance, tmp_path, group=chance.random() < 0.5) for _ in range(30)]
    assert seen.count("reported") >= 5 and seen.count("loading") >= 1, seen
