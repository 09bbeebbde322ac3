"""pywar diff: where two games part, from their trace (or transcript) files."""

import json
import sys

import pywar

from ..check.implementations.difference import Side, first_difference, header_difference, header_words
from ..check.implementations.outside import kind_of
from ..check.implementations.replay import NotATrace, header_of, split_lines
from .common import examples
from .inputs import NOT_WANTED, InputError, read_input, say_error


def kind_of_file(text):
    """'trace' or 'transcript', told by the first line, or None; a first line nested too
    deep for json (RecursionError) is taken for a trace, which reading then refuses."""
    try:
        return kind_of(text)
    except RecursionError:
        return "trace"


def side_of_file(path):
    """A file as a Side: a trace or a transcript (told by its first line).  A trace's
    header must be one that replay reads (a seed, deal, rules, engine and stack it can
    hold, no key twice): else two games could be called the same under headers that say
    nothing."""
    text = read_input(path)
    kind = kind_of_file(text)
    if kind is None:
        raise InputError(f"{path} is neither a pywar trace nor a transcript (its first line "
                         "is not a trace header or a narration's first line)", NOT_WANTED)
    if kind == "transcript":
        return Side(path, transcript=text)
    lines = split_lines(text)
    try:
        pywar.read_trace(lines)
        header_of(lines[0])
    except (pywar.TraceError, NotATrace) as error:
        raise InputError(f"{path}: {error}", NOT_WANTED) from None
    return Side(path, trace=text)


def run_diff(args):
    """Compare two files: 0 the same game, 1 they part (and where)."""
    try:
        sides = [side_of_file(path) for path in (args.a, args.b)]
    except InputError as error:
        return say_error(args.parser.prog, error)
    found = first_difference(*sides)
    headers = header_difference(*sides) if found is None else found.headers
    if args.json:
        verdict = {"a": args.a, "b": args.b, "same": found is None,
                   "differing_header": headers,
                   "difference": None if found is None else found.to_json()}
        sys.stdout.write(json.dumps(verdict) + "\n")
    elif found is None:
        also = f" ({header_words(headers)})" if headers else ""
        sys.stdout.write(f"{args.a} and {args.b} are the same game{also}.\n")
    else:
        sys.stdout.write(found.report())
    return 0 if found is None else 1


def add(subparsers):
    """The diff subcommand."""
    parser = subparsers.add_parser(
        "diff", help="show where the games of two trace files part",
        description="Compare two traces (or transcripts) of a game: the first differing "
                    "event, both sides, and the transcript lines around the first differing "
                    "line, as a unified diff; headers that differ (seed, deal, rules) are "
                    "named, and the events compared all the same. Exit status 0 the same "
                    "game, 1 different, 2 a file "
                    "that is neither a trace nor a transcript, 3 one that cannot be read.",
        epilog=examples(("pywar diff game.jsonl other.jsonl", "where two games part"),
                        ("pywar diff game.jsonl student.txt --json", "a trace and a transcript")))
    parser.add_argument("a", metavar="A", help="a trace or transcript file (- for stdin)")
    parser.add_argument("b", metavar="B", help="the other")
    parser.add_argument("--json", action="store_true", help="print the finding as one JSON line")
    parser.set_defaults(run=run_diff, parser=parser)
