"""pywar completion: bash's and zsh's completion scripts, made by shtab from the parser."""

import shutil
import subprocess

import pytest

from pywar.cli import main

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
needs_fish = pytest.mark.skipif(shutil.which("fish") is None,
                                reason="needs fish (Debian: apt-get install fish; .ci/run does)")


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
    ("pywar simu", "simulate"),
    ("pywar simi", "similar"),
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


def fish(source, line, cwd):
    """fish's completions of a command line after sourcing a script: (word, description)
    pairs, as `complete -C` gives them."""
    done = subprocess.run(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                           source, line], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert (done.returncode, done.stderr) == (0, "")
    return [tuple(found.split("\t")) for found in done.stdout.splitlines()]


@needs_fish
@pytest.mark.parametrize("line, expected", [
    ("pywar simu", "simulate"),
    ("pywar simi", "similar"),
    ("pywar simulate --face", "--face-down"),
    ("pywar play --pickup w", "winner-first"),
    ("pywar exact --no-s", "--no-symmetry"),
    ("pywar completion f", "fish"),
    ("pywar help simu", "simulate"),
])
def test_fish_completes_commands_options_and_choices(capsys, tmp_path, line, expected):
    path = tmp_path / "pywar.fish"
    path.write_text(script(capsys, "fish"))
    assert [word for word, *_ in fish(str(path), line, tmp_path)] == [expected]


@needs_fish
def test_fish_offers_files_only_where_a_file_is_wanted(capsys, tmp_path):
    path = tmp_path / "pywar.fish"
    path.write_text(script(capsys, "fish"))
    (tmp_path / "game.jsonl").write_text("")
    for line in ("pywar replay g", "pywar play --trace g", "pywar diff game.jsonl g"):
        assert [word for word, *_ in fish(str(path), line, tmp_path)] == ["game.jsonl"], line
    assert fish(str(path), "pywar play --seed g", tmp_path) == []
    assert [word for word, *_ in fish(str(path), "pywar g", tmp_path)] == ["grade"]  # no file


def test_the_fish_script_describes_each_command(capsys):
    """Each command of the README's table, with its one-line help."""
    lines = script(capsys, "fish").splitlines()
    assert lines[1] == "complete -c pywar -f"
    assert "complete -c pywar -n __fish_use_subcommand -a simulate -d 'play many games and " \
           "summarize them'" in lines


def test_an_unknown_shell_is_a_usage_error(capsys):
    assert main(["completion", "tcsh"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pywar completion: error: argument shell: invalid choice")
