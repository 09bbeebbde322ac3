"""The last tracebacks and the small faults of the hostile-user audit (issue 18): each
is now one line and the exit status the README gives."""

import json
import os
import subprocess
import sys

import pytest

import pywar
from conftest import ROOT, needs_c
from pywar import cli
from pywar.step import page
from pywar.cli import main

pytestmark = needs_c
LONG = 1_000_000                 # characters in a planted line (the audit's was 100 MB)


def command(*argv, stdin=subprocess.DEVNULL, close=()):
    """Run the pywar console script: (status, stdout, stderr).  close: the descriptors
    (0, 1) to close in the child."""
    def prepare():
        for descriptor in close:
            os.close(descriptor)
    script = os.path.join(os.path.dirname(sys.executable), "pywar")
    done = subprocess.run([script, *argv], stdin=stdin, capture_output=not close,
                          stdout=subprocess.PIPE if close else None,
                          stderr=subprocess.PIPE if close else None,
                          preexec_fn=prepare, timeout=120, cwd=ROOT)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def trace_lines(seed=17455):
    """The lines of a game's trace."""
    return pywar.play(seed, trace=True).trace.splitlines()


@pytest.mark.parametrize("kind", [{}, [], None, 1.5, True, {"a": [1]}])
def test_replay_of_an_event_of_any_json_kind_is_one_line(kind, tmp_path, capsys):
    lines = trace_lines()
    event = json.loads(lines[3])
    event["event"] = kind
    lines[3] = json.dumps(event, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    for argv in (["replay", str(path)], ["diff", str(path), str(path)]):
        status = main(argv)
        err = capsys.readouterr().err
        assert status in (1, 2) and len(err.splitlines()) == 1
        assert "not an event of the trace" in err


@pytest.mark.parametrize("argv", [["rules"], ["play", "--seed", "1"],
                                  ["simulate", "-n", "3"], ["--version"]])
def test_a_closed_stdout_is_one_line_and_exit_3(argv):
    status, out, err = command(*argv, close=(1,))
    assert (status, err) == (3, "pywar: error: cannot write stdout: it is closed\n")


@pytest.mark.parametrize("argv", [["step", "--seed", "1"], ["replay", "-"],
                                  ["referee", "-"]])
def test_a_closed_stdin_is_one_line_and_exit_3(argv):
    status, out, err = command(*argv, stdin=None, close=(0,))
    assert status == 3
    assert err == f"pywar {argv[0]}: error: cannot read stdin: it is closed\n"


RUN_COMMAND = """
import sys
class Exhausted:
    def find_spec(name, path=None, target=None):
        if name == {module!r}:
            raise {error}
sys.meta_path.insert(0, Exhausted)
sys.argv = ["pywar", "simulate", "-n", "3"]
import pywar_command
sys.exit(pywar_command.main())
"""


@pytest.mark.parametrize("error, status, line", [
    ("MemoryError", 3, "pywar simulate: error: out of memory"),
    ("KeyboardInterrupt", 130, "pywar: interrupted")])
def test_out_of_memory_or_ctrl_c_while_the_modules_load_is_one_line(error, status, line):
    """The console script's first step, pywar_command, when importing pywar.cli's
    simulate module runs out of memory, or meets a Ctrl-C."""
    code = RUN_COMMAND.format(module="pywar.cli.simulate", error=error)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert (done.returncode, done.stderr) == (status, line + "\n")


def test_out_of_memory_in_the_work_names_the_command(monkeypatch, capsys):
    """It printed 'pywar: error: ' with nothing after it, and exit 2."""
    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(pywar, "simulate", exhausted)
    assert main(["simulate", "-n", "10"]) == 3
    assert capsys.readouterr().err == "pywar simulate: error: out of memory\n"


@pytest.mark.parametrize("seed", [" 5", "5 ", "+5", "1_000", "\u0665", "\uff15", "-0", "0x5"])
def test_a_seed_is_ascii_digits_only(seed, capsys):
    assert main(["play", "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert err == (f"pywar play: error: argument --seed: seed must be an integer from 0 to "
                   f"{pywar.SEED_LIMIT - 1}, not {seed!r}\n")


def test_a_count_is_ascii_digits_only(capsys):
    assert main(["simulate", "-n", "1_000"]) == 2
    assert "not '1_000'" in capsys.readouterr().err


def test_simulate_offers_only_the_engines_it_plays(capsys):
    parser = cli.build_parser()
    simulate = parser._subparsers._group_actions[0].choices["simulate"]
    engine = next(action for action in simulate._actions if action.dest == "engine")
    assert tuple(engine.choices) == ("auto", "c", "python")
    assert main(["simulate", "-n", "3", "--engine", "port-c"]) == 2
    assert "invalid choice: 'port-c'" in capsys.readouterr().err


def test_referee_with_neither_a_file_nor_an_engine_says_so(capsys):
    assert main(["referee"]) == 2
    err = capsys.readouterr().err
    assert "not both" not in err and "give a FILE or --engine" in err


def test_referee_cuts_a_long_line_short(tmp_path, capsys):
    lines = pywar.play(17455, transcript=True).transcript.splitlines()
    lines[10] = "x" * LONG
    path = tmp_path / "long.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["referee", str(path)]) == 1
    out = capsys.readouterr().out
    assert len(out) < 500 and "xxx..." in out


def test_referee_cuts_a_long_first_line_short(tmp_path, capsys):
    path = tmp_path / "long.txt"
    path.write_text("y" * LONG + "\n")
    assert main(["referee", str(path)]) == 2
    assert len(capsys.readouterr().err) < 300


def test_diff_cuts_a_long_line_short(tmp_path, capsys):
    lines = trace_lines()
    event = json.loads(lines[5])
    event["round"] = "y" * LONG
    bad = list(lines)
    bad[5] = json.dumps(event, separators=(",", ":"))
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "b.jsonl").write_text("\n".join(bad) + "\n")
    assert main(["diff", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 1
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) < 1100 and "yyy..." in out


LONG_GAME = ["--rules", "lehigh", "--seed", "11", "--max-rounds", "2000000",
             "--no-cycle-detection"]


def test_a_page_of_too_many_events_is_refused_before_the_game(tmp_path, monkeypatch, capsys):
    """It played 15 s, then refused with exit 3: now the C core counts the events first."""
    monkeypatch.setattr(pywar, "play", lambda *args, **kwargs: pytest.fail("played"))
    path = tmp_path / "x.html"
    assert main(["play", *LONG_GAME, "--html", str(path)]) == 2
    assert capsys.readouterr().err == (f"pywar play: error: --html: the game has more than "
                                       f"{page.MAX_EVENTS:,} events, more than a page holds\n")
    assert os.listdir(tmp_path) == []


def test_a_game_of_too_many_events_to_step_is_refused_before_it_is_played(monkeypatch,
                                                                          capsys):
    from pywar.step import model as game
    monkeypatch.setattr(game, "record", lambda *args, **kwargs: pytest.fail("played"))
    with pytest.raises(game.StepError, match="longer than 1,000,000 events"):
        pywar.Game(11, "lehigh", max_rounds=2_000_000, detect_cycles=False)
    assert main(["step", *LONG_GAME]) == 2
    assert "longer than 1,000,000 events" in capsys.readouterr().err


def test_the_count_in_c_equals_the_trace(monkeypatch):
    """The count is the trace's event lines, for the games at hand and one with a deal."""
    from pywar.rules import make_rules
    for seed, rules in ((17455, "smu"), (12, "lehigh"), (7, "iofall")):
        lines = pywar.play(seed, rules=rules, trace=True).trace.splitlines()
        assert pywar._checked.count_events(seed, make_rules(rules)) == len(lines) - 1
        assert pywar._checked.count_events(seed, make_rules(rules), limit=20) == 21
        assert pywar.more_events_than(len(lines) - 1, seed, make_rules(rules), "python") is False
        assert pywar.more_events_than(len(lines) - 2, seed, make_rules(rules), "c") is True
    deal = [[0, 1, 2], [3, 4, 5]]
    rules = make_rules("smu", deck="3x2")
    lines = pywar.play(1, rules=rules, deal=deal, trace=True).trace.splitlines()
    assert pywar._checked.count_events(1, rules, deal) == len(lines) - 1


def test_without_the_c_core_the_round_cap_bounds_the_events(monkeypatch):
    """most_events is at least the events of real games, and decides without C."""
    from pywar.rules import make_rules
    for seed in range(5):
        rules = make_rules("lehigh", max_rounds=50, detect_cycles=False)
        lines = pywar.play(seed, rules=rules, trace=True).trace.splitlines()
        assert len(lines) - 1 <= pywar.most_events(rules)
    monkeypatch.setattr(pywar._checked, "available", lambda: False)
    small = make_rules("smu", max_rounds=100)
    assert pywar.more_events_than(page.MAX_EVENTS, 1, small, "python") is False
    assert pywar.more_events_than(page.MAX_EVENTS, 1, make_rules("smu"), "python") is None
