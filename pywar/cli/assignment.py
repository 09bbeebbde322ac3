"""pywar assignment: an assignment file, shown and checked (docs/grading.md, section 7).

    pywar assignment show smu                  # SMU's file, as pywar ships it
    pywar assignment show mine.toml --json     # a file, checked, as JSON
"""

import json
import os
import sys
from dataclasses import asdict

from ..check.assignment.file import BUILTIN, AssignmentError, builtin_text, load, loads
from ..check.assignment.file import not_yet
from .common import examples
from .inputs import cannot

EXAMPLES = examples(
    ("pywar assignment show smu", "SMU's assignment, the one pywar grade grades by default"),
    ("pywar assignment show smu > mine.toml", "a start for an assignment of your own"),
    ("pywar assignment show mine.toml --json", "a file checked, as JSON (exit 2 if bad)"),
    ("pywar grade submissions/*/ --assignment mine.toml", "grade a class under it"),
)


def assignment_of(parser, name):
    """(the file's text, its Assignment) of a built-in NAME or a FILE: a usage error for
    a bad file, exit 3 for one that cannot be read."""
    try:
        if name in BUILTIN and not os.path.exists(name):
            text = builtin_text(name)
            return text, loads(text, f"{name}.toml")
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
    parser.set_defaults(parser=parser)
