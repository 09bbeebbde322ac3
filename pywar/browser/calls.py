"""What the page of pywar page asks of its Python in the browser (Pyodide, in a Web
Worker: pywar/browser/assets/worker.js), each answer one JSON text.  Standard library
alone, and only pywar's packages that pywar/browser/folder.py ships (tests/test_browser.py
imports this module with nothing else on the path).

    >>> import json
    >>> game = json.loads(play_game(17455))
    >>> game["digest"], game["rounds"], game["trace"].count("\\n") == len(game["narration"]) + 1
    ('1600161d3d15723f', 29, True)
"""

import json

from ..check.exercise import inprocess, skeleton
from ..check.exercise.portjudge import SEEDS, default_seeds, listed, report
from ..common.fields import check_seed
from ..one_game import play
from ..rules import PRESETS
from ..step.page import game_parts

EDITIONS = {    # what the page offers: (engine, stack, in words)
    "port-pile": ("port-python", "pile", "the port, Program 4's array piles"),
    "port-adt": ("port-python", "adt", "the port, Program 6's stack ADT"),
    "twin": ("python", None, "the engine's Python twin"),
}
PORT_RULES = "smu"              # the only rules the port plays
EDITED = ("__init__.py", "card.py", "pile.py", "player.py", "program4.py", "tabletop.py")


def choices():
    """The rules and the editions the page offers, and which rules each edition plays."""
    return json.dumps({"rules": list(PRESETS), "port_rules": PORT_RULES, "seeds": list(SEEDS),
                       "editions": {name: words for name, (_, _, words) in EDITIONS.items()}})


def refusal(seed, rules, edition):
    """Why a game cannot be played, in one line naming what is valid; None if it can."""
    if rules not in PRESETS:
        return f"rules {rules!r}: choose one of {', '.join(PRESETS)}"
    if edition not in EDITIONS:
        return f"edition {edition!r}: choose one of {', '.join(EDITIONS)}"
    if EDITIONS[edition][0] == "port-python" and rules != PORT_RULES:
        return f"the port plays only {PORT_RULES}: for {rules}, choose the twin"
    try:
        check_seed(seed)
    except (TypeError, ValueError) as error:
        return str(error)
    return None


def play_game(seed, rules="smu", edition="port-pile"):
    """One game played in this Python, with what the front end shows of it
    (pywar.step.page.game_parts) and its result: its digest, as pywar play --json spells
    it, its winner, rounds and outcome; or {"error": one line}."""
    said = refusal(seed, rules, edition)
    if said is not None:
        return json.dumps({"error": said})
    engine, stack, words = EDITIONS[edition]
    result = play(seed, rules, engine=engine, stack=stack, trace=True)
    answer = {"seed": seed, "rules": rules, "edition": edition, "edition_words": words,
              "digest": f"{result.digest:016x}", "winner": result.winner,
              "rounds": result.rounds, "outcome": result.outcome}
    try:
        answer.update(game_parts(result.trace))
    except ValueError as error:              # more events than a page holds
        answer["error"] = f"the game is played, but cannot be shown: {error}"
    return json.dumps(answer)


def port_files(filled=True):
    """The port's files for the editor: its own (filled) or the skeleton's, TODOs in place
    of the members' bodies (pywar exercise new's)."""
    files = skeleton.skeleton(filled=filled)
    return json.dumps({name: files[name] for name in EDITED})


def again_label(seeds):
    """The label of the page's button that checks again on seeds (app.js shows it)."""
    return f"check on {'seed' if len(seeds) == 1 else 'seeds'} {listed(seeds)} again"


def again_in_page(seeds):
    """How the page checks again on seeds, in portcheck.report's sentence: its button,
    where the command says --seed."""
    return f'the button "{again_label(seeds)}"'


def check_port(files, stack="pile", seeds=None):
    """pywar exercise check of the student's files (JSON {name: text}) in this Python, on
    the check's seeds and two drawn fresh (or on seeds, a list): its lines, as the command
    prints them but for what the page offers to check again on the fresh seeds (again,
    its button's label), its first finding and whether it passed."""
    files = json.loads(files)
    fresh = []
    if seeds is None:
        seeds = default_seeds()
        fresh = list(seeds[len(SEEDS):])
    findings = inprocess.check(files, stack, list(seeds), fresh)
    first = findings[0]
    return json.dumps({"passed": first.kind == "passed",
                       "lines": report(findings, fresh, again_in_page),
                       "again": again_label(fresh) if fresh else None,
                       "first": vars(first), "seeds": list(seeds), "fresh": fresh})
