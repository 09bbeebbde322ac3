"""pywar rules: the presets and the rule dimensions, as tables or as JSON."""

import json
import sys

from ..rules import DECK_HELP, DIMENSIONS, PRESET_HELP, PRESETS
from .common import NAMED, RANGES, examples, option, table


def rules_data():
    """The presets and the dimensions' valid values, as a JSON-ready dict."""
    values = {name: {"min": low, "max": high} for name, (low, high) in RANGES.items()}
    values.update({name: list(choices) for name, choices in NAMED.items()})
    values["detect_cycles"] = [True, False]
    values["deck"] = DECK_HELP
    return {
        "presets": {name: {"help": PRESET_HELP.get(name, ""), "rules": rules.to_dict()}
                    for name, rules in PRESETS.items()},
        "dimensions": {name: {"option": option(name), "values": values[name]}
                       for name in DIMENSIONS},
    }


def describe(values):
    """A dimension's valid values as text: a range, a list, or a sentence (the deck)."""
    if isinstance(values, str):
        return values
    if isinstance(values, dict):
        return f"{values['min']} to {values['max']:,}"
    return ", ".join(str(value) for value in values)


def run_rules(args):
    """Print the presets and the dimensions, as tables or as JSON."""
    data = rules_data()
    if args.json:
        sys.stdout.write(json.dumps(data) + "\n")
        return 0
    presets = data["presets"]
    settings = [key for key in PRESETS["smu"].to_dict() if key != "name"]
    about = [(name, preset["help"]) for name, preset in presets.items()]
    grid = [["setting", *presets]] + [[key, *(preset["rules"][key] for preset in presets.values())]
                                      for key in settings]
    dims = [("dimension", "option", "values")] + [
        (name, dim["option"], describe(dim["values"])) for name, dim in data["dimensions"].items()]
    sys.stdout.write(f"Presets (--rules R):\n{table(about)}\nTheir settings:\n{table(grid)}\n"
                     f"Dimensions, set over a preset:\n{table(dims)}")
    return 0


def add(subparsers):
    """The rules subcommand."""
    parser = subparsers.add_parser("rules", help="list the presets and the rule dimensions",
                                   description="List the presets and the rule dimensions.",
                                   epilog=examples(
                                       ("pywar rules", "the presets and the dimensions"),
                                       ("pywar rules --json", "the same as one line of JSON")))
    parser.add_argument("--json", action="store_true", help="print them as JSON")
    parser.set_defaults(run=run_rules, parser=parser)

