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
    assert seen and set(seen) == {"none"}


@pytest.mark.parametrize("command", ["grade", "exercise check", *COMMANDS])
def test_one_definition_of_the_option(command, capsys):
    assert main([*command.split(), "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--isolation {auto,required,none}" in text
