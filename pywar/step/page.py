"""The page of a game: one self-contained HTML file that shows the game as it goes
(pywar play --html game.html).

    >>> import pywar, pywar.step.page
    >>> game = pywar.play(17455, trace=True)
    >>> page = pywar.step.page.html(game.trace)
    >>> page.startswith("<!DOCTYPE html>"), "http" in page.split("<body>")[1]
    (True, False)

The file holds everything it needs and works from file:// with no network: its style
(assets/page.css), its script (assets/page.js) and the game itself, in two parts:

- the trace (docs/trace.md), line for line as `pywar play --trace` writes it, from
  which the script rebuilds the table at every event, as pywar.common.table_state does;
- the transcript's lines of each event, worked out here by narrate_steps, the one
  narrator (the script says no words of its own about the game);
- the code beside the table (pywar.step.source): the source files that made the events and
  the line of each event, in Python and, for the port, in C; and how the game ended,
  in words (ending).

The page opens on the deal, with its lines.

A page holds at most MAX_EVENTS events (a game of some 40,000 rounds, a file of about
50 MB): a longer game is refused with a ValueError.
"""

import html as html_text
import json
import re
from importlib import resources

from . import source
from ..common.trace import read
from ..twin.narrator import narrate_steps, player_names

MAX_EVENTS = 250_000


def asset(name):
    """The text of one of the page's files (pywar/step/assets/)."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def embedded(text):
    """Text that is safe inside a <script> element: no '</' can close it early."""
    return text.replace("</", "<\\/")


def title_of(header, code):
    """The page's title: the game (its seed, or a given deal), its rules, and the code it
    is shown in (code: source.pane's, or None); the engine that wrote the trace is named
    in the footer, since the page shows the port's code or the twin's, not the engine's."""
    game = "a given deal" if header.get("deal") is not None else f"seed {header['seed']}"
    if code is None:
        shown = "step by step"
    elif not any(place[3] for place in code["places"]):
        shown = ("step by step in the port (Python)" if source.is_port_game(header)
                 else "step by step in the engine's Python twin")
    else:
        shown = "step by step in the port (Python and C)"
    return f"War: {game}, {header['rules']['name']} rules, {shown}"


def deal_note(header):
    """The words that warn of the two orders of a pile: the table shows each pile top
    first, smu's narration lists the deal bottom first (Narrator.deal); '' for the others,
    which do not list the deal."""
    if header["rules"]["narration"] != "smu":
        return ""
    return ("The deal's lines list each pile as the reference prints it, from the bottom "
            "card up (Card 1 is the bottom card); the table shows each pile top first.")


def in_a_sentence(label):
    """A player's label inside a sentence: 'player B', 'User'."""
    return label[0].lower() + label[1:] if label.startswith("Player ") else label


def ending(events, labels):
    """How the game ended, in words, from its last events; labels: the players' names."""
    end = events[-1]
    rounds = end["round"]
    out = [in_a_sentence(labels[event["player"]]) for event in events
           if event["event"] == "run_out"]
    winner = None if end["winner"] is None else in_a_sentence(labels[end["winner"]])
    if end["outcome"] == "capped":
        why = "the round cap was reached"
    elif end["outcome"] == "cycle":
        cycle = next(event for event in events if event["event"] == "cycle")
        why = (f"the game repeats itself every {cycle['period']} rounds from round "
               f"{cycle['start'] + 1}")
    else:
        why = " and ".join(out) + " ran out of cards"
    who = "Nobody wins" if winner is None else f"{winner[0].upper()}{winner[1:]} wins"
    return f"The game is over after {rounds} rounds: {why}. {who}."


def game_parts(trace):
    """What the front end (assets/page.js) shows of a game, from its trace (the text of
    pywar.play(..., trace=True)), as plain data: the trace itself, the narration of each
    event, the code pane's data, and the words around them.  The page of pywar play --html
    holds them; the page of pywar page asks the browser's Python for them."""
    lines = trace.splitlines(keepends=True)
    header, events = read(lines)
    if len(events) > MAX_EVENTS:
        raise ValueError(f"the game has {len(events):,} events, more than a page holds "
                         f"({MAX_EVENTS:,})")
    code = source.pane(header, events)
    rules = header["rules"]
    players = player_names(rules["narration"], rules.get("players", 2))
    return {"title": title_of(header, code), "engine": str(header["engine"]),
            "deal_note": deal_note(header), "trace": "".join(lines),
            "narration": narrate_steps(header, events),
            "source": {"ending": ending(events, [label for label, _ in players]),
                       "code": code, "players": players}}


def filled(template, parts):
    """A template of assets/ with each {{NAME}} replaced by parts[NAME] ('' if absent)."""
    return re.sub(r"\{\{(\w+)\}\}", lambda found: parts.get(found[1], ""), template)


def html(trace):
    """The page of a game, from its trace (the text of pywar.play(..., trace=True))."""
    game = game_parts(trace)
    return filled(asset("page.html"), {
        "TITLE": html_text.escape(game["title"], quote=False),
        "ENGINE": html_text.escape(game["engine"]),
        "DEAL_NOTE": html_text.escape(game["deal_note"]),
        "STYLE": asset("page.css"),
        "SCRIPT": embedded(asset("page.js")),
        "TRACE": embedded(game["trace"]),
        "NARRATION": embedded(json.dumps(game["narration"])),
        "SOURCE": embedded(json.dumps(game["source"])),
        "WHERE": "Everything is in this file.",
    })


def write(stream, trace):
    """Write the page of a game's trace to a text stream."""
    stream.write(html(trace))


class Collector:
    """A text stream that keeps a game's trace for its page, up to MAX_EVENTS events and
    the header; past that it keeps nothing more and says so (too_long)."""

    def __init__(self):
        """An empty collector."""
        self.parts = []
        self.lines = 0
        self.limit = MAX_EVENTS + 1          # the header and the events
        self.too_long = False

    def write(self, text):
        """Keep a piece of the trace, while it fits."""
        if self.too_long:
            return
        self.lines += text.count("\n")
        if self.lines > self.limit:
            self.too_long = True
            self.parts = []
            return
        self.parts.append(text)

    def text(self):
        """The trace kept."""
        return "".join(self.parts)
