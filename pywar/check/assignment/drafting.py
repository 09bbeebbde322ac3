"""`pywar assignment draft REFERENCE`: the reference built and run on seeds 1 to N under
the seed clock through pywar's runner, and its runs drafted into an assignment file by
its game's drafter: a war's (draft: SMU's rules, the referee's reader) or a one-card
game's (draft_single) (docs/grading.md, section 8)."""

import os
import re
import tempfile
from dataclasses import replace

from ...rules import PRESETS, make_rules, parse_deck
from ..grading.build import build, run_argv
from ..grading.grade import DEFAULT_BUILD, DEFAULT_RUN, Settings
from ..runner import sandbox
from .draft import REFEREED, DraftError, drafted, file_text
from .draft_single import one_card_file
from .file import game_of, loads


# ---- The reference's runs

def reference_runs(reference, games, settings):
    """[(seed, the reference's output)] of seeds 1 to games: the reference built and run
    through pywar's runner, with the seed clock, as grade_one builds and runs a
    submission: in a group of its own, its folder closed to every other (without
    bubblewrap, as root, a run is a user of that group: its folder shut to it, the build
    failed with status 125)."""
    settings = replace(settings, group=sandbox.new_group())
    with tempfile.TemporaryDirectory(prefix="pywar-draft-") as work:
        sandbox.close_folder(work, settings.group)
        program, outcome, _, said = build(reference, work, settings)
        if program is None:
            raise DraftError(f"the reference {reference!r} did not build: {said}")
        clock = sandbox.seed_clock(work)
        found = []
        for seed in range(1, games + 1):
            ran = sandbox.run(run_argv(settings, program, seed), settings.limits,
                              env=sandbox.seeded(clock, seed), isolation=settings.isolation,
                              group=settings.group, stdin=settings.stdin.encode())
            if ran.status != 0:
                raise DraftError(f"the reference's run of seed {seed} did not end well: "
                                 f"{ran.trouble() or f'exit status {ran.status}'}")
            found.append((seed, ran.stdout))
    return found


def draft(reference, rules="smu", games=3, build_command=DEFAULT_BUILD,
          run_command=DEFAULT_RUN, stdin="", isolation="auto"):
    """(the drafted assignment file's text, the notes on what was not placed)."""
    rules = make_rules(rules) if isinstance(rules, str) else rules
    one_card = game_of(rules) == "one-card"
    if rules != PRESETS[REFEREED] and not one_card:
        raise DraftError(f"--rules {rules.name}: the referee holds a war to the rules of "
                         f"{REFEREED} only, so far (and a one-card game to its own)")
    ranks, suits = parse_deck(rules.deck)
    settings = Settings(build=build_command, run=run_command, stdin=stdin,
                        isolation=isolation, memory=False)
    seeds = reference_runs(reference, games, settings)
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", os.path.basename(os.path.normpath(reference)))
    name, reference = name.strip("-") or "drafted", os.path.basename(os.path.normpath(reference))
    if one_card:
        return one_card_file([text for _, text in seeds], rules, stdin, name, reference,
                             build_command, run_command)
    found = drafted(seeds, ranks, suits)
    text = file_text(found, name, rules, build_command, run_command, stdin, reference)
    loads(text, "the draft")            # a draft is a good file, or a bug of pywar's
    return text, found.notes
