"""The pywar command line: pywar play and pywar rules, through main() and a real process."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import pywar
from pywar import _checked
from pywar.cli import main
from pywar.rules import (DIMENSIONS, MAX_FACE_DOWN, MAX_ROUNDS_LIMIT, PICKUPS, PILES,
                         PRESET_HELP, PRESETS, SHORT_WARS, SHUFFLES)

REFERENCE = Path(__file__).parent / "data" / "seed-17455.txt"
SEED = 17455
ENGINES = [pytest.param("c", marks=pytest.mark.skipif(not _checked.available(),
                                                      reason="the C core is not built")),
           "python"]
JSON_KEYS = {"rules", "seed", "engine", "winner", "outcome", "rounds", "battles", "ties",
             "longest_tie_streak", "stranded", "piles", "digest", "wars", "cycle_start",
             "cycle_period", "lead_changes", "biggest_pot", "comeback", "deepest_war",
             "refills", "war_rounds", "war_depths", "record"}


@pytest.fixture(autouse=True)
def no_engine_from_env(monkeypatch):
    """Run every test without a PYWAR_ENGINE from outside."""
    monkeypatch.delenv("PYWAR_ENGINE", raising=False)


def run(capsys, *argv):
    """main(argv): (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_of(capsys, *argv):
    """The JSON printed by `pywar play --json argv`, checked to be one line."""
    status, out, err = run(capsys, "play", "--json", *argv)
    assert status == 0, err
    assert out.endswith("\n") and out.count("\n") == 1
    return json.loads(out)


def assert_usage_error(status, out, err, prog="pywar play"):
    """Exit 2, nothing on stdout, and one 'prog: error: ...' line on stderr."""
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: "), err
    assert "Traceback" not in err


@pytest.mark.parametrize("engine", ENGINES)
def test_transcript_is_the_reference_byte_for_byte(capsys, engine):
    status, out, err = run(capsys, "play", "--seed", str(SEED), "--engine", engine)
    assert status == 0
    assert err == ""
    assert out.encode() == REFERENCE.read_bytes()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rules", list(PRESETS))
def test_json_agrees_with_play(capsys, engine, rules):
    data = json_of(capsys, "--seed", str(SEED), "--rules", rules, "--engine", engine)
    assert set(data) == JSON_KEYS
    game = pywar.play(SEED, rules=rules, engine=engine)
    assert data == game.to_json()
    assert data["digest"] == f"{game.digest:016x}"
    assert (data["rules"], data["seed"], data["engine"]) == (rules, SEED, engine)


def test_default_engine_comes_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("PYWAR_ENGINE", "python")
    assert json_of(capsys, "--seed", "1")["engine"] == "python"


def test_an_engine_variable_the_command_does_not_play_is_named(capsys, monkeypatch):
    """PYWAR_ENGINE=port-c under pywar simulate (which plays c or python) is a usage
    error that names the variable, before any game; --engine overrides it."""
    monkeypatch.setenv("PYWAR_ENGINE", "port-c")
    status, out, err = run(capsys, "simulate", "-n", "3", "--json")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == ("pywar simulate: error: PYWAR_ENGINE=port-c is not an "
                                    "engine of this command: choose one of auto, c, python, "
                                    "or unset it")
    status, out, err = run(capsys, "simulate", "-n", "3", "--json", "--engine", "python")
    assert status == 0 and json.loads(out)["games"] == 3
    monkeypatch.setenv("PYWAR_ENGINE", "bogus")           # only the command's engines listed
    status, out, err = run(capsys, "simulate", "-n", "3")
    assert status == 2 and err.endswith("choose one of auto, c, python, or unset it\n")


def test_without_a_seed_it_says_the_seed_and_the_seed_replays(capsys):
    status, out, err = run(capsys, "play")
    assert status == 0
    match = re.fullmatch(r"seed: (\d+)\n", err)
    assert match, err
    seed = int(match.group(1))
    assert 0 <= seed < 2 ** 32
    assert run(capsys, "play", "--seed", str(seed)) == (0, out, "")


def test_the_clock_seed_is_the_time_mod_2_to_the_32(capsys, monkeypatch):
    seed = 2 ** 31 + SEED
    monkeypatch.setattr("pywar.cli.time.time", lambda: 5 * 2 ** 32 + seed + 0.75)
    status, out, err = run(capsys, "play")
    assert (status, err) == (0, f"seed: {seed}\n")
    monkeypatch.undo()
    assert run(capsys, "play", "--seed", str(seed)) == (0, out, "")


@pytest.mark.parametrize("argv, valid", [
    (["--seed", "x"], [str(2 ** 32 - 1)]),
    (["--seed", "1.5"], [str(2 ** 32 - 1)]),
    (["--seed", "-1"], [str(2 ** 32 - 1)]),
    (["--seed", str(2 ** 32)], [str(2 ** 32 - 1)]),
    (["--seed"], ["--seed"]),
    (["--rules", "nope"], list(PRESETS)),
    (["--engine", "nope"], list(pywar.ENGINES)),
    (["--short-war", "nope"], list(SHORT_WARS)),
    (["--pickup", "nope"], list(PICKUPS)),
    (["--piles", "nope"], list(PILES)),
    (["--shuffle", "nope"], list(SHUFFLES)),
    (["--face-down", str(MAX_FACE_DOWN + 1)], [str(MAX_FACE_DOWN)]),
    (["--face-down", "-1"], [str(MAX_FACE_DOWN)]),
    (["--face-down", "x"], [str(MAX_FACE_DOWN)]),
    (["--max-rounds", "0"], [f"{MAX_ROUNDS_LIMIT:,}"]),
    (["--max-rounds", str(MAX_ROUNDS_LIMIT + 1)], [f"{MAX_ROUNDS_LIMIT:,}"]),
    (["--max-rounds", "1e6"], [f"{MAX_ROUNDS_LIMIT:,}"]),
    (["--no-such-option"], ["--no-such-option"]),
])
def test_bad_input_is_one_line_naming_what_is_valid(capsys, argv, valid):
    status, out, err = run(capsys, "play", *argv)
    assert_usage_error(status, out, err)
    for word in valid:
        assert word in err


def test_bad_engine_in_the_environment_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setenv("PYWAR_ENGINE", "nope")
    status, out, err = run(capsys, "play", "--seed", "1")
    assert_usage_error(status, out, err)
    assert all(engine in err for engine in pywar.ENGINES)


@pytest.mark.parametrize("argv, prog", [(["nope"], "pywar"),
                                        (["rules", "--nope"], "pywar rules")])
def test_bad_command_is_one_line(capsys, argv, prog):
    assert_usage_error(*run(capsys, *argv), prog=prog)


def test_no_command_prints_the_help_and_exits_0(capsys):
    """`pywar` alone asks for help, as `pywar --help` does: on stdout, exit 0."""
    status, out, err = run(capsys)
    assert (status, err) == (0, "")
    assert out.startswith("usage: pywar [-h] [--version] COMMAND ...\n")
    assert "commands:" in out and "simulate" in out and "exit status:" in out


@pytest.mark.parametrize("argv, prog, word", [
    (["simulate", "-n", "10", "--face-dow", "1"], "pywar simulate", "--face-dow"),
    (["play", "--se", "1"], "pywar play", "--se"),
    (["rules", "--js"], "pywar rules", "--js"),
    (["check", "-n", "1", "--again", "c"], "pywar check", "--again"),
    (["exact", "--deck", "3x1", "--piles", "queue", "--pick", "winner-first"], "pywar exact",
     "--pick"),
    (["--vers"], "pywar", "--vers"),
])
def test_abbreviated_options_are_refused(capsys, argv, prog, word):
    status, out, err = run(capsys, *argv)
    assert_usage_error(status, out, err, prog=prog)
    assert f"unrecognized arguments: {word}" in err


@pytest.mark.parametrize("command", ["play", "simulate", "check", "exact", "rules", "step",
                                     "replay", "diff", "referee", "grade", "completion"])
def test_version_after_every_command_is_the_top_level_version(capsys, command):
    top = run(capsys, "--version")
    assert run(capsys, command, "--version") == top
    assert top[1].startswith("pywar 0.")


def test_asking_for_c_without_the_c_core_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(_checked, "available", lambda: False)
    status, out, err = run(capsys, "play", "--seed", "1", "--engine", "c")
    assert_usage_error(status, out, err)
    assert "python" in err


def test_auto_without_the_c_core_warns_in_one_line_and_plays_python(capsys, monkeypatch):
    monkeypatch.setattr(_checked, "available", lambda: False)
    monkeypatch.delenv("PYWAR_REQUIRE_C", raising=False)      # set in CI: then an error
    status, out, err = run(capsys, "play", "--seed", "1", "--json")
    assert status == 0
    assert json.loads(out)["engine"] == "python"
    assert err.count("\n") == 1 and err.startswith("pywar: warning: ")


@pytest.mark.parametrize("argv, dimensions", [
    (["--face-down", "1"], {"face_down": 1}),
    (["--short-war", "last-card"], {"short_war": "last-card"}),
    (["--pickup", "random"], {"pickup": "random"}),
    (["--piles", "queue", "--max-rounds", "1000"], {"piles": "queue", "max_rounds": 1000}),
    (["--shuffle", "fisher-yates"], {"shuffle": "fisher-yates"}),
    (["--max-rounds", "10"], {"max_rounds": 10}),
    (["--piles", "queue", "--no-cycle-detection", "--max-rounds", "500"],
     {"piles": "queue", "detect_cycles": False, "max_rounds": 500}),
    (["--rules", "lehigh", "--no-cycle-detection"], {"rules": "lehigh", "detect_cycles": False}),
    (["--rules", "iofall", "--face-down", "2", "--pickup", "winner-first"],
     {"rules": "iofall", "face_down": 2, "pickup": "winner-first"}),
])
def test_dimension_options_reach_the_game(capsys, argv, dimensions):
    data = json_of(capsys, "--seed", str(SEED), *argv)
    assert data == pywar.play(SEED, **dimensions).to_json()
    rules = dimensions.pop("rules", "smu")
    assert data["rules"] != pywar.play(SEED, rules=rules).rules
    for name in dimensions:
        assert name in data["rules"]


def test_face_down_changes_the_game(capsys):
    assert json_of(capsys, "--seed", str(SEED), "--face-down", "1")["digest"] != \
        json_of(capsys, "--seed", str(SEED))["digest"]


def test_max_rounds_caps_the_game(capsys):
    rounds = json_of(capsys, "--seed", str(SEED))["rounds"]
    assert rounds > 2
    capped = json_of(capsys, "--seed", str(SEED), "--max-rounds", str(rounds - 1))
    assert (capped["outcome"], capped["rounds"]) == ("capped", rounds - 1)


def test_rules_lists_every_preset_and_dimension(capsys):
    status, out, err = run(capsys, "rules")
    assert (status, err) == (0, "")
    for name, rules in PRESETS.items():
        assert name in out and PRESET_HELP[name] in out
        for value in rules.to_dict().values():
            assert str(value) in out
    for name in DIMENSIONS:
        assert name in out
    for value in SHORT_WARS + PICKUPS + PILES + SHUFFLES:
        assert value in out
    assert str(MAX_FACE_DOWN) in out and f"{MAX_ROUNDS_LIMIT:,}" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert rows["deck"].endswith("--deck                RxS: R ranks times S suits, at most 52 "
                                 "cards (13x4 is the standard deck)")
    assert rows["players"].endswith("--players             2 to 8")
    assert rows["refill"].endswith("--refill              shuffle, keep")


def test_rules_json_is_the_same_data(capsys):
    status, out, err = run(capsys, "rules", "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert list(data["presets"]) == list(PRESETS)
    for name, preset in data["presets"].items():
        assert preset == {"help": PRESET_HELP[name], "rules": PRESETS[name].to_dict()}
    assert list(data["dimensions"]) == list(DIMENSIONS)
    values = {name: dim["values"] for name, dim in data["dimensions"].items()}
    assert values["short_war"] == list(SHORT_WARS)
    assert values["pickup"] == list(PICKUPS)
    assert values["piles"] == list(PILES)
    assert values["shuffle"] == list(SHUFFLES)
    assert values["face_down"] == {"min": 0, "max": MAX_FACE_DOWN}
    assert values["max_rounds"] == {"min": 1, "max": MAX_ROUNDS_LIMIT}
    assert values["detect_cycles"] == [True, False]


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["rules", "--help"]])
def test_help_exits_0(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    assert out.startswith("usage: pywar")


def test_help_names_the_commands_and_options(capsys):
    assert all(word in run(capsys, "--help")[1] for word in ("play", "rules"))
    out = run(capsys, "play", "--help")[1]
    for word in ("--seed", "--rules", "--engine", "--json", "--face-down", "--short-war",
                 "--pickup", "--piles", "--shuffle", "--max-rounds", "--no-cycle-detection"):
        assert word in out


def test_version(capsys):
    """--version: the version, then the engines built (tests/test_engines.py has more)."""
    status, out, err = run(capsys, "--version")
    assert status == 0 and err == ""
    engines = "c, python, port-c, port-python" if _checked.available() else "python, port-python"
    assert re.fullmatch(rf"pywar \S+ \(engines: {engines}[;)].*\n", out)


def pywar_process(*argv, **kwargs):
    """Run `python -m pywar argv` in a real process, without PYWAR_ENGINE."""
    env = {key: value for key, value in os.environ.items() if key != "PYWAR_ENGINE"}
    return subprocess.run([sys.executable, "-m", "pywar", *argv], env=env, timeout=60,
                          **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs})


def test_process_bad_rules_is_one_line_and_exit_2():
    done = pywar_process("play", "--rules", "nope")
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("pywar play: error: ")
    assert "Traceback" not in err and "smu" in err


def test_process_transcript_is_the_reference():
    done = pywar_process("play", "--seed", str(SEED))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == REFERENCE.read_bytes()


def test_process_closed_stdout_gives_no_traceback():
    """A reader that went away ends the command quietly, exit 0, as it ends `cat`."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = pywar_process("play", "--seed", str(SEED), stdout=write_end)
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode == 0


@pytest.mark.parametrize("argv, message", [
    (["play", "--face-down", "26"], "argument --face-down: must be an integer from 0 to 25, not 26"),
    (["play", "--max-rounds", "0"],
     "argument --max-rounds: must be an integer from 1 to 100,000,000, not 0"),
    (["play", "--deck", "3y"], "--deck must be RxS: R ranks times S suits, at most 52 cards "
                               "(13x4 is the standard deck), not '3y'"),
    (["play", "--deck", "1x1"], "--deck '1x1' has too few cards to deal one to each of 2 players"),
    (["play", "--no-cycle-detection"],
     "--no-cycle-detection means nothing here: only games with a --pickup other than 'random' "
     "and --piles 'queue' or --refill 'keep' can repeat"),
    (["play", "--piles", "queue", "--refill", "keep"],
     "--refill 'keep' means nothing with --piles 'queue': a queue is never refilled"),
    (["play", "--engine", "python", "--stack", "adt"],
     "--stack is for the port engines (port-c, port-python), not --engine 'python'"),
    (["simulate", "-n", "0"], "argument -n/--games: must be an integer from 1, not 0"),
    (["simulate", "-n", "9", "--max-rounds", "x"],
     "argument --max-rounds: must be an integer from 1 to 100,000,000, not 'x'"),
    (["check", "-n", "5000000000"], "-n must be an integer from 1 to 4,294,967,296 (each 32-bit "
                                    "seed once), not 5,000,000,000"),
    (["exact", "--deck", "4x1", "--piles", "queue", "--no-cycle-detection"],
     "exact needs cycle detection, not --no-cycle-detection: an endless game must end"),
    (["exact", "--deck", "4x1", "--piles", "queue", "--pickup", "random"],
     "exact needs a fixed pickup, not --pickup 'random': a random pickup shuffles every pot"),
])
def test_messages_name_options_as_typed(capsys, argv, message):
    """The command line's words (--face-down), not Python's (face_down)."""
    status, out, err = run(capsys, *argv)
    assert (status, out, err) == (2, "", f"pywar {argv[0]}: error: {message}\n")
    assert not any(name in err for name in DIMENSIONS if "_" in name)


COMMAND_NAMES = ["play", "simulate", "check", "exact", "rules", "step", "replay", "diff",
                 "referee", "grade", "completion"]


def help_text(capsys, *argv):
    """What `pywar argv --help` prints, checked to be on stdout with exit 0."""
    status, out, err = run(capsys, *argv, "--help")
    assert (status, err) == (0, "")
    return out


def section(text, title):
    """The lines of a help's section, from its title to the next blank line."""
    return text.split(f"\n{title}\n", 1)[1].split("\n\n", 1)[0].splitlines()


@pytest.mark.parametrize("command", [None, *COMMAND_NAMES])
def test_every_help_has_examples_and_each_parses(capsys, command):
    """Each example's command line is parsed as the command would parse it (not run)."""
    from pywar.cli import build_parser
    argv = [] if command is None else [command]
    commands = [line.strip() for line in section(help_text(capsys, *argv), "examples:")
                if line.startswith("  pywar ")]
    assert len(commands) >= 2
    for line in commands:
        words = shlex.split(line)
        args = build_parser().parse_args(words[1:])
        assert args.command == (command or words[1]), line


def test_the_help_lists_the_exit_statuses(capsys):
    lines = section(help_text(capsys), "exit status:")
    codes = [int(line.split()[0]) for line in lines if re.match(r"  \d", line)]
    assert codes == [0, 1, 2, 3, 130]


@pytest.mark.parametrize("command", ["play", "simulate", "check", "exact", "step"])
def test_the_rule_options_say_what_each_value_means(capsys, command):
    text = " ".join(help_text(capsys, command).split())
    assert "'pywar rules'" in text and "docs/rules.md" in text
    for values in (SHORT_WARS, PICKUPS, PILES, SHUFFLES, ("shuffle", "keep")):
        for value in values:
            assert f" {value} (" in text, value


def digests(data):
    """Every value of a 'digest' key, at any depth of a JSON value."""
    if isinstance(data, dict):
        return [value for key, value in data.items() if key == "digest"] + \
            [found for value in data.values() for found in digests(value)]
    if isinstance(data, list):
        return [found for value in data for found in digests(value)]
    return []


@pytest.mark.parametrize("argv, length, keys", [
    (["play", "--seed", "1", "--json"], 16, set()),
    (["play", "--seed", "12", "--rules", "lehigh", "--json"], 16, set()),
    (["simulate", "-n", "30", "--json"], 64, {"interrupted", "requested"}),
    (["check", "-n", "5", "--json"], 64, {"interrupted", "requested"}),
    (["exact", "--deck", "4x1", "--piles", "queue", "--pickup", "winner-first", "--json"], 0,
     set()),
    (["rules", "--json"], 0, set()),
    (["diff", "A", "B", "--json"], 0, set()),
])
def test_every_json_is_one_line_with_full_hex_digests(capsys, tmp_path, argv, length, keys):
    """One line of JSON; a game's digest is 16 hex digits (64 bits), a run's 64 (sha256);
    simulate and check name an interruption alike."""
    for name, seed in (("A", 1), ("B", 2)):
        (tmp_path / name).write_text(pywar.play(seed, trace=True, engine="python").trace)
    argv = [str(tmp_path / word) if word in ("A", "B") else word for word in argv]
    status, out, err = run(capsys, *argv)
    assert status in (0, 1) and err == ""
    assert out.endswith("\n") and out.count("\n") == 1
    data = json.loads(out)
    assert keys <= set(data) and all(data[key] is False for key in keys - {"requested"})
    found = digests(data)
    assert len(found) == (1 if length else 0)
    assert all(re.fullmatch(f"[0-9a-f]{{{length}}}", digest) for digest in found)


COMMAND_NAMES = ("play", "simulate", "check", "exact", "rules", "step", "replay", "diff",
                 "referee", "completion", "man", "help")     # the README's table


def printed(capsys, *argv):
    """main(argv) on stdout: (status, out), nothing on stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert err == ""
    return status, out


def test_help_is_the_help_of_pywar_or_of_a_command(capsys):
    assert printed(capsys, "help") == printed(capsys, "--help")
    assert "pywar help COMMAND" in printed(capsys, "help")[1]
    for name in COMMAND_NAMES:
        status, out = printed(capsys, "help", name)
        assert (status, out) == printed(capsys, name, "--help") and status == 0
        assert out.startswith(f"usage: pywar {name} ")


def test_help_of_an_unknown_command_is_one_line_naming_the_commands(capsys):
    status = main(["help", "nope"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert all(f"'{name}'" in err for name in COMMAND_NAMES)


@pytest.mark.parametrize("argv, near", [(["simulat"], "simulate"), (["grdae"], "grade"),
                                        (["play", "--engine", "pythn"], "python")])
def test_a_misspelt_choice_names_the_nearest(capsys, argv, near):
    """'pywar simulat' said only 'invalid choice' (issue 37): one line, exit 2, with the
    choice it was near."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"invalid choice: {argv[-1]!r}: did you mean {near!r}? (choose from " in err
