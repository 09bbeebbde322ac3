"""pywar clock: the environment of pywar grade's run of a seed, for `env` to run a
student's program by hand as pywar grade ran it (docs/grading.md, section 4):

    g++ -std=c++17 -O1 -o war ./*.cpp                   # the build pywar ran
    env $(pywar clock --seed 15) ./war > seed-15.txt    # its run of seed 15
"""

import shlex

from ..check.runner import byhand, sandbox
from .common import examples, seed_type
from .inputs import cannot

EXAMPLES = examples(
    ("env $(pywar clock --seed 15) ./war > seed-15.txt",
     "run ./war as pywar grade ran it on seed 15 (outside the sandbox: a program you trust)"),
    ("pywar clock --seed 15 --library .", "the seed clock built in this folder"),
)


def run_clock(args):
    """Print env's arguments for a run of the seed: -i, then each variable."""
    if sandbox.c_compiler() is None:
        args.parser.error("no C compiler (cc, gcc or clang): pywar builds its seed clock "
                          "with one")
    try:
        library = byhand.built_clock(args.library)
    except OSError as error:
        raise cannot("write", f"the seed clock in {args.library or byhand.cache_folder()!r}",
                     error) from None
    env = byhand.run_environment(library, args.seed)
    print(shlex.join(["-i", *(f"{name}={value}" for name, value in env.items())]))
    return 0


def add(subparsers):
    """The clock subcommand."""
    parser = subparsers.add_parser(
        "clock", help="the environment of pywar grade's run of a seed, its seed clock built",
        description="Print the arguments of env that run a program as pywar grade runs it on "
                    "a seed: a cleared environment (env -i), pywar's PATH, LANG, LC_ALL and "
                    "TZ, and its seed clock (LD_PRELOAD, built once in pywar's cache, and "
                    "PYWAR_SEED), so that srand(time(NULL)) reads the seed. The program runs "
                    "outside pywar's sandbox: run only one you trust.",
        epilog=EXAMPLES)
    parser.add_argument("--seed", type=seed_type, required=True, metavar="S",
                        help="the seed the clock reads")
    parser.add_argument("--library", metavar="DIR",
                        help="build the seed clock in DIR (default: $XDG_CACHE_HOME/pywar, "
                             "or ~/.cache/pywar)")
    parser.set_defaults(run=run_clock, parser=parser)
