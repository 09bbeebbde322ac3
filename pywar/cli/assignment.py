"""pywar assignment: an assignment file, shown and checked, or drafted from an
instructor's reference program (docs/grading.md, section 8).

    pywar assignment show smu                  # SMU's file, as pywar ships it
    pywar assignment show mine.toml --json     # a file, checked, as JSON
    pywar assignment draft reference/ -o mine.toml      # the reference's words, drafted
"""

import json
import os
import sys
from dataclasses import asdict

from ..check.assignment.file import BUILTIN, AssignmentError, builtin_text, load, loads
from ..check.assignment.file import not_yet
from ..check.grading.grade import DEFAULT_BUILD, DEFAULT_RUN
from ..check.runner import sandbox
from .common import add_isolation_option, checked_isolation, count_type, examples
from .inputs import cannot
from .outputs import output_files

EXAMPLES = examples(
    ("pywar assignment show smu", "SMU's assignment, the one pywar grade grades by default"),
    ("pywar assignment show smu > mine.toml", "a start for an assignment of your own"),
    ("pywar assignment show mine.toml --json", "a file checked, as JSON (exit 2 if bad)"),
    ("pywar grade submissions/*/ --assignment-file mine.toml", "grade a class under it"),
    ("pywar assignment draft reference/ -n 3 -o mine.toml",
     "build the instructor's reference, run it on seeds 1 to 3 and draft its words"),
    ("pywar assignment draft reference/ --rules cecs325 --stdin $'Aquaman\\nBatman\\n'",
     "a one-card game's reference that asks the players' names"),
)
MAX_DRAFT_GAMES = 100           # seeds a draft runs the reference on, at most


def looks_like_a_name(name):
    """Whether what was given reads as a built-in's name (no folder, no suffix), not a
    file's path."""
    return os.sep not in name and "." not in name


def assignment_of(parser, name):
    """(the file's text, its Assignment) of a built-in NAME or a FILE: a usage error for
    a bad file, exit 3 for one that cannot be read."""
    try:
        if name in BUILTIN and not os.path.exists(name):
            text = builtin_text(name)
            return text, loads(text, f"{name}.toml")
        if looks_like_a_name(name) and not os.path.exists(name):
            parser.error(f"no built-in assignment {name!r}, nor a file of that name: choose "
                         f"{', '.join(BUILTIN)}, or give an assignment file (NAME.toml)")
        found = load(name)
        with open(name, encoding="utf-8") as file:
            return file.read(), found
    except AssignmentError as error:
        parser.error(str(error))
    except OSError as error:
        raise cannot("read", f"the assignment {name!r}", error) from None


def as_json(assignment):
    """An Assignment as a JSON-ready dict."""
    found = asdict(assignment)
    found["rules"] = assignment.rules.to_dict()
    found["wording"]["lines"] = dict(assignment.wording.lines)
    return found


def run_assignment(args):
    """Show an assignment: its file as written, or as JSON; a note on stderr where pywar
    grade cannot grade under it yet."""
    text, found = assignment_of(args.parser, args.assignment)
    if args.json:
        sys.stdout.write(json.dumps(as_json(found)) + "\n")
    else:
        sys.stdout.write(text)
    said = not_yet(found)
    if said:
        print(f"{args.parser.prog}: note: pywar grade cannot grade under it yet: {said}",
              file=sys.stderr)
    return 0


def run_draft(args):
    """Draft an assignment file from a reference program: the file on stdout (or -o
    FILE), what could not be placed on stderr too."""
    from ..check.assignment.draft import DraftError
    from ..check.assignment.drafting import draft
    checked_isolation(args)
    if sandbox.c_compiler() is None:
        args.parser.error("no C compiler (cc, gcc or clang): pywar builds its seed clock with "
                          "one")
    if not os.path.isdir(args.reference):
        args.parser.error(f"{args.reference!r} is not a folder: REFERENCE is a folder of the "
                          "reference program's sources")
    with output_files(("-o", args.output, False, "utf-8")) as files:
        try:
            text, notes = draft(args.reference, args.rules, args.games, args.build,
                                args.run_command, args.stdin, args.isolation)
        except (DraftError, ValueError, TypeError) as error:     # a bad --rules: before any work
            args.parser.error(str(error))
        for note in notes:
            print(f"{args.parser.prog}: not placed: {note}", file=sys.stderr)
        (files["-o"] if "-o" in files else sys.stdout).write(text)
    return 0


def add(subparsers):
    """The assignment subcommand."""
    parser = subparsers.add_parser(
        "assignment", help="show an assignment file (rules, wording, build, rubric)",
        description="An assignment is one TOML file: its rules, its wording, how a "
                    "submission is built and run, and its rubric (docs/grading.md, section "
                    "7). 'show' prints a built-in assignment (" + ", ".join(BUILTIN) +
                    ") or checks a FILE and prints it; a bad file is one line naming the "
                    "field and what is valid (exit 2).",
        epilog=EXAMPLES)
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action",
                                    required=True)
    show = actions.add_parser("show", help="print an assignment file, checked",
                              description="Print a built-in assignment's file as shipped, "
                                          "or check FILE and print it.", epilog=EXAMPLES)
    show.add_argument("assignment", metavar="NAME|FILE",
                      help=f"a built-in assignment ({', '.join(BUILTIN)}) or a file")
    show.add_argument("--json", action="store_true", help="print it, checked, as JSON")
    show.set_defaults(run=run_assignment, parser=show)
    drafting = actions.add_parser(
        "draft", help="draft an assignment file from an instructor's reference program",
        description="Build REFERENCE (a folder of the instructor's own program), run it on "
                    "seeds 1 to N under pywar's seed clock, read each line with the "
                    "referee's reader and print the assignment file it drafts: each kind of "
                    "line as a template, the players', ranks' and suits' names, the opening. "
                    "What it could not place (a line no template gives back, a kind never "
                    "printed, a rule the reference's game breaks) is said on stderr and at "
                    "the file's end.", epilog=EXAMPLES)
    drafting.add_argument("reference", metavar="REFERENCE",
                          help="a folder of the reference program's sources")
    drafting.add_argument("--rules", default="smu", metavar="R",
                          help="the rules the reference plays (default: smu; a war is held "
                               "to smu's rules only so far, a one-card game such as cecs325 "
                               "to its own)")
    drafting.add_argument("-n", "--games", type=count_type(1, MAX_DRAFT_GAMES), default=3,
                          metavar="N", help="seeds to run it on, from 1 (default: 3)")
    drafting.add_argument("-o", "--output", metavar="FILE",
                          help="write the file there (default: stdout)")
    drafting.add_argument("--build", default=DEFAULT_BUILD, metavar="CMD",
                          help="the command that builds {program} (default: "
                               f"{DEFAULT_BUILD.replace('%', '%%')})")
    drafting.add_argument("--run", dest="run_command", default=DEFAULT_RUN, metavar="CMD",
                          help="the command of one run (default: {program})")
    drafting.add_argument("--stdin", default="", metavar="TEXT",
                          help="what each run reads on stdin (default: nothing)")
    add_isolation_option(drafting)
    drafting.set_defaults(run=run_draft, parser=drafting)
    parser.set_defaults(parser=parser)
