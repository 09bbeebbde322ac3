"""pywar completion: bash's and zsh's completion scripts, made by shtab from the parser."""

import shutil
import subprocess

import pytest

from pywar.cli import main

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def script(capsys, shell):
    """What `pywar completion SHELL` prints, checked to be on stdout with exit 0."""
    status = main(["completion", shell])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    return out


def bash(source, commands):
    """Run commands in bash after sourcing a script: their stdout."""
    done = subprocess.run(["bash", "-c", f"source /dev/stdin <<'END'\n{source}\nEND\n{commands}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_bash
def test_the_bash_script_is_valid_bash_naming_the_commands_and_options(capsys):
    text = script(capsys, "bash")
    check = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True,
                           timeout=60)
    assert (check.returncode, check.stderr) == (0, "")
    for word in ("simulate", "replay", "completion", "--face-down", "--no-cycle-detection",
                 "winner-first", "complete -o bashdefault -F _shtab_pywar pywar"):
        assert word in text


@needs_bash
@pytest.mark.parametrize("words, expected", [
    ("pywar sim", "simulate"),
    ("pywar simulate --face", "--face-down"),
    ("pywar play --pickup w", "winner-first"),
    ("pywar exact --no-s", "--no-symmetry"),
    ("pywar completion z", "zsh"),
])
def test_bash_completes_commands_options_and_choices(capsys, words, expected):
    """The completion function, called as bash calls it on a Tab."""
    words = words.split()
    call = (f"COMP_WORDS=({' '.join(words)}); COMP_CWORD={len(words) - 1}; "
            "_shtab_pywar; echo \"${COMPREPLY[@]}\"")
    assert bash(script(capsys, "bash"), call).split() == [expected]


def test_the_zsh_script(capsys):
    text = script(capsys, "zsh")
    assert text.startswith("#compdef pywar")
    assert "simulate" in text and "--face-down" in text
    if shutil.which("zsh"):
        check = subprocess.run(["zsh", "-n"], input=text, capture_output=True, text=True,
                               timeout=60)
        assert (check.returncode, check.stderr) == (0, "")


def test_an_unknown_shell_is_a_usage_error(capsys):
    assert main(["completion", "fish"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pywar completion: error: argument shell: invalid choice")
