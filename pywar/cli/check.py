"""pywar check: play the same seeds in both engines and compare every game."""

import json
import sys

import pywar
from ..rules import make_rules
from .common import (Progress, add_progress_option, add_rule_options, add_seed_range_options,
                     rule_dimensions, usage_errors)


def run_check(args):
    """Play the seeds in both engines and compare them: 0 if they agree, else 1."""
    with usage_errors(args.parser):
        rules = make_rules(args.rules, **rule_dimensions(args))
        pywar.resolve_engine("c")
    progress = Progress("checking", args.progress)
    interrupted = False
    try:
        c_run = pywar.simulate(args.games, rules, seed=args.seed, engine="c")
        twin_run = pywar.simulate(args.games, rules, seed=args.seed, engine="python",
                                  progress=progress)
    except pywar.SimulationInterrupted as stop:     # compare the games the twin finished
        twin_run, interrupted = stop.simulation, True
        c_run = pywar.simulate(twin_run.games, rules, seed=args.seed, engine="c") \
            if twin_run.games else twin_run
    finally:
        progress.close()
    differing = [name for name in c_run.arrays
                 if not (c_run.arrays[name] == twin_run.arrays[name]).all()]
    mismatch = None
    if differing:
        index = int(min((c_run.arrays[name] != twin_run.arrays[name]).argmax()
                        for name in differing))
        mismatch = int(c_run.seeds[index])
    verdict = {"rules": rules.name, "games": twin_run.games, "seed": args.seed,
               "interrupted": interrupted,
               "agree": not differing, "differing_fields": differing, "first_seed": mismatch,
               "digest": c_run.combined_digest()}
    if args.json:
        sys.stdout.write(json.dumps(verdict) + "\n")
    elif differing:
        sys.stdout.write(f"The engines differ on {', '.join(differing)}, first at seed "
                         f"{mismatch} ({rules.name} rules).\n")
    else:
        sys.stdout.write(f"The C core and the Python twin agree on all {twin_run.games:,} games "
                         f"of {rules.name} from seed {args.seed} (digest {verdict['digest'][:16]}).\n")
    return 1 if differing else 130 if interrupted else 0



def add(subparsers):
    """The check subcommand."""
    parser = subparsers.add_parser(
        "check", help="show that the C core and the Python twin agree",
        description="Play the same seeds in both engines and compare every game's "
                    "result and digest. Exit status 1 if any game differs.")
    add_seed_range_options(parser, default=1000)
    add_rule_options(parser)
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    add_progress_option(parser)
    parser.set_defaults(run=run_check, parser=parser)

