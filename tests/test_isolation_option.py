"""--isolation, one option of grade, exercise check, check and referee (issue 36): check
and referee took none, so their cmd: and py: programs could not be made to refuse a
machine without bubblewrap, nor be run without it on purpose."""

import pytest

from pywar.check.runner import sandbox
from pywar.cli import main

COMMANDS = {
    "check": ["check", "--engine", "cmd:/bin/echo {seed}", "--against", "c", "-n", "1"],
    "referee": ["referee", "--engine", "cmd:/bin/echo {seed}", "--seed", "1"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_required_is_refused_where_bubblewrap_does_not_work(command, monkeypatch, capsys):
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)
    status = main([*COMMANDS[command], "--isolation", "required"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.splitlines()[-1].startswith(f"pywar {command}: error: --isolation required: "
                                           "bubblewrap (bwrap) is missing"), err


@pytest.mark.parametrize("command", COMMANDS)
def test_the_isolation_given_reaches_every_run(command, monkeypatch, capsys):
    seen = []
    run = sandbox.run

    def spy(*args, **kwargs):
        seen.append(kwargs.get("isolation"))
        return run(*args, **kwargs)
    monkeypatch.setattr(sandbox, "run", spy)
    main([*COMMANDS[command], "--isolation", "none"])
    capsys.readouterr()
    assert seen and set(seen) == {sandbox.Isolation("none", "none")}   # resolved once, passed


@pytest.mark.parametrize("command", COMMANDS)
def test_the_wish_is_resolved_once_where_the_command_starts(command, monkeypatch, capsys):
    """auto is resolved to a mode once, by the command, and that fact is passed down: no
    run asks the machine again (issue 44: each run, the Python it starts and the build's
    words had each resolved the wish anew)."""
    asked = []
    mode = sandbox.mode

    def counted(isolation="auto"):
        asked.append(isolation)
        return mode(isolation)
    monkeypatch.setattr(sandbox, "mode", counted)
    main([*COMMANDS[command], "-n" if command == "check" else "--seed", "3", "--isolation",
          "auto"])
    capsys.readouterr()
    assert asked == ["auto"]


@pytest.mark.parametrize("command", ["grade", "exercise check", *COMMANDS])
def test_one_definition_of_the_option(command, capsys):
    assert main([*command.split(), "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--isolation {auto,required,none}" in text


def test_the_one_warning_says_what_none_leaves_readable(monkeypatch):
    """Without bubblewrap a port may load the installed reference (exercise check passed
    one that did) and a run may read folders open to others: the warning says so."""
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)
    said = sandbox.warning("auto")
    assert "not isolated" in said and "the installed pywar" in said
    assert "folders open to others" in said


CHEAT = ("import pywar\n"
         "if {folder!r} not in pywar.__path__:\n"
         "    pywar.__path__.append({folder!r})\n"
         "from pywar.port.{module} import *  # noqa\n")


MODULES = ("card", "pile", "player", "tabletop", "program4")
CHEAT_INIT = ("import sys\nimport pywar\npywar.__path__.append({folder!r})\n"
              "import pywar.port as real\n"
              "from pywar.port import check, play, main  # noqa\n"
              f"for name in {MODULES!r}:\n"
              "    sys.modules[__name__ + '.' + name] = globals()[name] = getattr(real, name)\n")


@pytest.mark.skipif(not sandbox.bwrap_works(), reason="bubblewrap does not work here")
def test_under_bubblewrap_a_port_cannot_load_the_installed_reference(tmp_path):
    """Each module of the port the installed reference's own, by pywar's own folder put on
    pywar's path: under bubblewrap that folder is not there (docs/grading.md: without
    it, the port passes)."""
    from pywar.check.exercise import portcheck
    from pywar.check.runner.pychild import PYWAR_FOLDER
    port = tmp_path / "port"
    port.mkdir()
    for module in MODULES:
        (port / f"{module}.py").write_text(CHEAT.format(folder=PYWAR_FOLDER, module=module))
    (port / "__init__.py").write_text(CHEAT_INIT.format(folder=PYWAR_FOLDER))
    found = portcheck.check(str(port), seeds=(17455,))
    assert found[0].kind != "passed", found[0]
