"""pywar step: step through one game at a prompt, in the manner of pdb.

    pywar step --seed 17455                          # at a terminal: (war) n, b, r, p, ...
    printf 'until 10\\npiles\\nquit\\n' | pywar step --seed 17455     # a script of commands
    pywar step --pdb --seed 17455                    # the port under pdb, in do_battle

The stepper (pywar/step/prompt.py) says what each command does (help); stepping through
the whole game prints the transcript exactly, and nothing else goes to stdout.
"""

import sys
import time

import pywar
from ..step.model import SteppedGame, debug, stepping_engine
from ..rules import make_rules
from ..step.prompt import Stepper
from .common import add_rule_options, examples, rule_dimensions, seed_type, usage_errors
from .inputs import stdin

STEP_ENGINES = ("port-python", "python")


def checked_args(args):
    """(rules, engine) of the command line, or a usage error."""
    with usage_errors(args.parser):
        rules = make_rules(args.rules, **rule_dimensions(args))
        engine = stepping_engine(args.engine, rules, None)
        pywar.check_port(engine, rules, args.stack)
    return rules, engine


def run_step(args):
    """Step through a game at the prompt, or under pdb: 0 once the stepper quits."""
    rules, engine = checked_args(args)
    seed = args.seed
    if seed is None:
        seed = int(time.time()) % pywar.SEED_LIMIT
        print(f"seed: {seed}", file=sys.stderr)
    if args.pdb:
        debug(seed, rules, engine, args.stack, sys.stdout)
        return 0
    commands = stdin()
    with usage_errors(args.parser):
        game = SteppedGame(seed, rules, engine=engine, stack=args.stack)
    Stepper(game, stdin=commands).loop()
    return 0


def add(subparsers):
    """The step subcommand."""
    parser = subparsers.add_parser(
        "step", help="step through one game at a prompt, as in pdb",
        description="Step through one game of War, event by event, at a prompt in the "
                    "manner of pdb: n(ext), b(attle), r(ound), u(ntil) N, t(ie), w(ar), "
                    "c(ontinue), back, p(iles), s(tate), where, code, h(elp), q(uit). "
                    "Commands are read from stdin when it is not a terminal.",
        epilog=examples(
            ("pywar step --seed 17455", "the port, at the prompt (war)"),
            ("pywar step --seed 12 --rules lehigh", "the engine's twin, for other rules"),
            ("pywar step --pdb --seed 17455", "under pdb, stopped in do_battle")))
    parser.add_argument("--seed", type=seed_type, metavar="N",
                        help="0 to 2^32 - 1 (default: from the clock, printed on stderr)")
    add_rule_options(parser)
    parser.add_argument("--engine", choices=STEP_ENGINES,
                        help="port-python (the port: plain smu, the default there) or "
                             "python (the engine's twin: every rule set)")
    parser.add_argument("--stack", choices=("pile", "adt"),
                        help="the port's stack: pile (Program 4, the default) or adt "
                             "(Program 6)")
    parser.add_argument("--pdb", action="store_true",
                        help="play the game under the Python debugger, stopped in the "
                             "port's TableTop.do_battle")
    parser.set_defaults(run=run_step, parser=parser)
    return parser
