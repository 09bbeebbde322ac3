"""The port as an exercise, its judge: the first member whose behaviour departs from the
reference, found from what a run of the port printed and traced (its records), in
pywar's own process.  The judge starts nothing: pywar exercise check runs the port in
pywar's runner (pywar.check.exercise.portcheck) and the page of pywar page runs it in
the browser's Python (pywar.check.exercise.inprocess); both hand their runs to
judge_port, which asks a run for the whole port, then for the members, and judges what
each recorded.

A seed passes only if the game ended with all of the reference's trace and transcript.
If the whole port departs, a second run plays the reference again with one of the
student's members in place of the port's, member by member (a piece of do_battle is put
in place of the port's piece), and the judge names the member whose game departs first:
the seed, the event and what was expected, in words.  A member whose TODO is still
raised in the student's files is named as not written yet.  Nothing the port's process
writes or changes can make it pass: its records are only what it played.

Below the member, the judge says what the whole port did, as facts of its run, not
guesses: the member of the student's that wrote its first difference (where that is
not the member named), the last line of the student's files its crash ran (file, line,
text, member, exception, as Python's traceback ends), and the first lines the port
printed itself (its prints are not its transcript: the child sends them to its stderr).
"""

import ast
import json
import os
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..seeds import draw_fresh, seeds_words
from .portplay import TODO
from ...port.card import RANK, SUIT
from ...rules import MAX_CARDS

SEEDS = (17455, 1553, 12)           # short; five ties in a row; a long one with refills
FRESH = 2                           # and seeds drawn fresh at each check: no game recorded
                                    # for the fixed seeds serves them
GAME_SECONDS = 5.0                  # one game of the student's, at most


# ---- A finding, in words

@dataclass
class PortFinding:
    """What the check found: the member to look at (None: the whole port), the seed, and
    what happened, in a sentence."""
    member: object
    seed: object
    message: str
    kind: str = "departs"   # departs, unfilled, error, timeout, import, passed, unchecked
    writer: object = None   # the whole port's first departure: the member that wrote it,
    whole: str = ""         # and its words
    crash: object = None    # where the whole port crashed: a dict, as portplay records it
    output: list = field(default_factory=list)   # the port's own output: its first lines,
    output_lines: int = 0                        # of so many

    def __str__(self):
        """As 'Pile.shuffle: after the first shuffle ...'."""
        if self.member is None:
            return self.message
        return f"{self.member}{' ' if self.kind == 'unfilled' else ': '}{self.message}"

    def details(self):
        """What the whole port did, below the finding: the member that wrote its first
        difference (where that is not the finding's), its crash, its own output."""
        lines = []
        if self.writer is not None and self.writer != self.member:
            said = "." if self.whole and self.whole in self.message else f": {self.whole}"
            lines.append(f"In your whole port, the first difference is written by "
                         f"{self.writer}{said}")
        if self.crash:
            lines += crash_lines(self.crash)
        if self.output:
            lines += output_lines(self.output, self.output_lines)
        return lines


def crash_lines(crash):
    """A crash of the whole port, as Python would end its traceback, in the student's
    files."""
    inside = f" (raised inside {crash['inside']})" if crash.get("inside") else ""
    return [f"Your port crashed (seed {crash['seed']}, {crash['place']}); the last line of "
            f"your files it ran{inside}:",
            f"  File \"{crash['file']}\", line {crash['line']}, in {crash['member']}",
            f"    {crash['text']}", f"{crash['exception']}"]


def output_lines(lines, count):
    """The port's own output, labelled as such."""
    some = f"the first {len(lines)} of {count} lines" if count > len(lines) else \
        ("1 line" if count == 1 else f"{count} lines")
    return [f"Your port's own output (printed beside its game; the check does not read "
            f"it), {some}:"] + [f"  | {line}" for line in lines]


def card_name(card_id):
    """A card id (suit * 13 + rank) in words: the king of spades."""
    suit, rank = divmod(card_id, 13)
    return f"the {RANK(rank).name.lower()} of {SUIT(suit).name.lower()}s"


def ordinal(n):
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def position_from_top(i):
    """The top card, the 2nd card from the top, ..."""
    return "the top card" if i == 0 else f"the {ordinal(i + 1)} card from the top"


def first_difference(expected, got):
    """The first index where two lists differ (or the shorter one's length)."""
    return next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b),
                min(len(expected), len(got)))


def deck_of(deal):
    """The shuffled deck, top first, from a deal event: the cards were dealt from its
    top, A first, each onto the top of a hand."""
    bottoms = [hand[::-1] for hand in deal["hands"]]
    return [card for pair in zip(*bottoms) for card in pair]


def name_of(player):
    """Player A or B (None: nobody)."""
    return "nobody" if player is None else f"player {'AB'[player]}"


def event_words(event, should=False):
    """What an event is, in words: what yours did, or (should) what was expected."""
    kind = event["event"]
    who = name_of(event.get("player"))
    phrases = {
        "deal": ("the deal", "give", "gives", f"each player {len(event.get('hands', [[]])[0])} cards"),
        "round": (f"round {event['round']}", "begin", "begins", ""),
        "face_up": (who, "play", "plays", card_name(event["card"]) if "card" in event else ""),
        "pickup": (who, "pick up", "picks up", f"{len(event.get('cards', []))} cards"),
        "refill": (f"{who}'s 'played' pile", "refill", "refills", "their 'to play' pile"),
        "run_out": (who, "run out of cards", "runs out of cards", ""),
        "end": ("the game", "end", "ends", f"({event.get('outcome')}): "
                f"{name_of(event.get('winner'))} wins"),
    }
    if kind == "battle":
        if event["winner"] is None:
            return "it should be a tie" if should else "it is a tie"
        subject, base, does, rest = name_of(event["winner"]), "win", "wins", "the battle"
    else:
        subject, base, does, rest = phrases.get(kind, (kind, "happen", "happens", ""))
    verb = f"should {base}" if should else does
    return " ".join(word for word in (subject, verb, rest) if word)


def sizes_words(event):
    """The piles' sizes after an event, in words."""
    piles = "; ".join(f"{name_of(p)} {to_play} to play and {played} played"
                      for p, (to_play, played) in enumerate(event["piles"]))
    return f"{piles}; {event['pot']} in the 'currently in play' pile"


def deal_words(expected, got):
    """What differs in the deal, said of the hands (a port whose shuffle is the
    reference's deals wrong through another member: remove_top_card, say)."""
    for player, (wanted, yours) in enumerate(zip(expected["hands"], got["hands"])):
        if wanted == yours:
            continue
        if len(wanted) != len(yours):
            return (f"the deal should give {name_of(player)} {len(wanted)} cards; yours gives "
                    f"{len(yours)}")
        i = first_difference(wanted, yours)
        return (f"after the deal {position_from_top(i)} of {name_of(player)}'s 'to play' "
                f"pile should be {card_name(wanted[i])}; yours is {card_name(yours[i])}")
    return None


def face_up_words(expected, got, following=None):
    """What differs in a face-up card, said of the pile it is read from (FACE_UP_READ);
    following: the reference's next event."""
    player, wanted, yours = expected["player"], expected["card"], got["card"]
    if player == 0 and following and following.get("event") == "face_up" and \
            following.get("card") == yours:
        words = (f"the face-up cards should go on the 'currently in play' pile A's first, "
                 f"then B's ({card_name(wanted)}, then {card_name(yours)}); yours puts "
                 f"{card_name(yours)} down first")
    else:
        place = "under B's" if player == 0 else "on top"
        words = (f"{name_of(player)}'s face-up card, {place} on the 'currently in play' "
                 f"pile, should be {card_name(wanted)}; yours is {card_name(yours)}")
    return words


FACE_UP_READ = ("the check reads the face-up cards off the top of the 'currently in play' "
                "pile, A's under B's, when do_battle calls self.observer.face_up(), not off "
                "the lines you print")


def same_kind_words(expected, got, member=None, following=None):
    """What differs between two events of the same kind, in a student's words; member:
    the student's member in the reference's place (None: the whole port); following:
    the reference's next event, if any."""
    kind = expected["event"]
    if kind == "deal" and member == "Pile.shuffle":
        wanted, yours = deck_of(expected), deck_of(got)
        if wanted != yours and len(wanted) == len(yours) == MAX_CARDS:
            i = first_difference(wanted, yours)
            return (f"after the first shuffle {position_from_top(i)} should be "
                    f"{card_name(wanted[i])}; yours is {card_name(yours[i])}")
    if kind == "deal" and len(expected["hands"]) == len(got.get("hands", ())):
        words = deal_words(expected, got)
        if words:
            return words
    if kind == "refill" and expected["cards"] != got["cards"]:
        wanted, yours = expected["cards"], got["cards"]
        i = first_difference(wanted, yours)
        if i < len(wanted) and i < len(yours):
            return (f"after {name_of(expected['player'])}'s refill and shuffle "
                    f"{position_from_top(i)} should be {card_name(wanted[i])}; yours is "
                    f"{card_name(yours[i])}")
    if kind == "pickup" and expected["cards"] != got["cards"]:
        wanted, yours = expected["cards"], got["cards"]
        if len(wanted) != len(yours):
            return (f"{name_of(expected['player'])} should pick up {len(wanted)} cards; "
                    f"yours picks up {len(yours)}")
        i = first_difference(wanted, yours)
        return (f"{name_of(expected['player'])} should pick up {card_name(wanted[i])} "
                f"as the {ordinal(i + 1)} card taken from the top of the 'currently in play' "
                f"pile; yours takes {card_name(yours[i])}")
    if {k: v for k, v in expected.items() if k not in ("piles", "pot")} == \
            {k: v for k, v in got.items() if k not in ("piles", "pot")}:
        return (f"after this ({event_words(expected)}), the piles should hold: "
                f"{sizes_words(expected)}; yours hold: {sizes_words(got)}")
    if kind == "face_up" and expected["player"] == got["player"]:
        return face_up_words(expected, got, following)
    return f"{event_words(expected, True)}; in yours {event_words(got)}"


def where(event):
    """Where in the game an event is: at the deal, in round 12."""
    return "at the deal" if event["event"] == "deal" else f"in round {event['round']}"


# ---- Judging what the port printed and traced, in pywar's own process

class Departed(Exception):
    """A game that has left the reference's: its words, how many events came before, and
    the member that wrote where it departs (None: unknown, or the game ended early)."""

    def __init__(self, words, clock, writer=None):
        super().__init__(words)
        self.words = words
        self.clock = clock
        self.writer = writer


@dataclass
class Departure:
    """How a recorded game departs: after so many events, its kind (departs, error,
    timeout, unfilled), its words, the member of the student's that wrote where it
    departs (the whole port's run alone says) and where it crashed (a dict, or None)."""
    clock: int
    kind: str
    words: str
    writer: object = None
    crash: object = None


class Streams:
    """The trace and the transcript of one game, checked against the reference's piece
    by piece, in the order the port wrote them: the first difference raises Departed."""

    def __init__(self, seed, trace, transcript, member=None):
        """The reference's trace lines (no header) and transcript of a seed; the member
        of the student's in the reference's place (None: the student's whole port)."""
        self.seed = seed
        self.expected = [json.loads(line) for line in trace.splitlines()]
        self.transcript = transcript
        self.member = member
        self.events = 0
        self.printed = 0
        self.writer = None               # the member writing (the whole port's run says)
        self.departed = None             # once departed, always: a swallowed one comes back

    def depart(self, words):
        """Raise (and remember) the game's departure."""
        self.departed = Departed(words, self.events, self.writer)
        raise self.departed

    def by(self, member):
        """The member of the student's that writes the next pieces."""
        self.writer = member

    def event(self, line):
        """One line of the student's trace."""
        if self.departed:
            raise self.departed
        got = json.loads(line)
        if self.events >= len(self.expected):
            self.depart(f"the game should be over ({event_words(self.expected[-1])}); "
                        f"yours goes on: {event_words(got)} (seed {self.seed})")
        wanted = self.expected[self.events]
        if got != wanted:
            following = self.expected[self.events + 1:self.events + 2]
            words = (same_kind_words(wanted, got, self.member, *following)
                     if isinstance(got, dict) and got.get("event") == wanted["event"]
                     else f"{event_words(wanted, True)}; in yours {event_words(got)}")
            read = f"; {FACE_UP_READ}" if wanted["event"] == "face_up" and \
                isinstance(got, dict) and got.get("event") in ("face_up", "battle") else ""
            self.depart(f"{words} (seed {self.seed}, {where(wanted)}){read}")
        self.events += 1

    def line(self, piece):
        """Some text the student's port printed."""
        if self.departed:
            raise self.departed
        end = self.printed + len(piece)
        if self.transcript[self.printed:end] != piece:
            at = self.printed + first_difference(self.transcript[self.printed:end], piece)
            start = self.transcript.rfind("\n", 0, at) + 1
            number = self.transcript.count("\n", 0, at) + 1
            wanted = self.transcript[start:].split("\n", 1)[0]
            yours = (self.transcript[:self.printed] + piece)[start:].split("\n", 1)[0]
            round_ = self.transcript.count("======== Round", 0, at)
            place = "in the opening" if round_ == 0 else f"in round {round_}"
            self.depart(f"line {number} of the transcript should be {quoted(wanted)}; "
                        f"yours is {quoted(yours)} (seed {self.seed}, {place})")
        self.printed = end

    def finish(self):
        """The game is over: both streams must be whole."""
        if self.departed:
            raise self.departed
        if self.events < len(self.expected):
            raise Departed(f"{event_words(self.expected[self.events], True)}; yours "
                           f"has ended the game (seed {self.seed}, "
                           f"{where(self.expected[self.events])})", self.events)
        if self.printed < len(self.transcript):
            missing = self.transcript[self.printed:].split("\n", 1)[0]
            raise Departed(f"the transcript should go on with {missing!r}; yours has ended "
                           f"(seed {self.seed})", self.events)


def quoted(line):
    """A line of the transcript, quoted, or 'an empty line'."""
    return repr(line) if line else "an empty line"


def now(streams):
    """Where a game stands after the events so far: before the deal, in round 12."""
    if streams.events == 0:
        return "before the deal"
    return where(streams.expected[min(streams.events, len(streams.expected) - 1)])


def reference_games(seeds, stack):
    """The reference's trace and transcript of each seed."""
    from ...port import play
    games = {}
    for seed in seeds:
        _, transcript, trace = play(seed, stack, transcript=True, trace=True)
        games[seed] = (trace, transcript)
    return games





@dataclass
class RecordedGame:
    """One game as the port's run recorded it: the member in the reference's place (None:
    the student's whole port), the seed, the pieces written and how it ended."""
    member: object
    seed: int
    pieces: list
    end: object = None
    words: str = ""
    crash: object = None


CRASH_FIELDS = ("file", "line", "text", "member", "exception", "inside")
CRASH_WIDTH = 400   # characters of each, at most (the child cuts a message or a line at 300)


def games_of(records):
    """The games of a run's records, and its load or drift words if any ('' if none)."""
    games, said = [], ""
    for record in records:
        if "game" in record and isinstance(record["game"], list) and len(record["game"]) == 2:
            games.append(RecordedGame(record["game"][0], record["game"][1], []))
        elif ("t" in record or "e" in record or "by" in record) and games:
            games[-1].pieces.append(next(iter(record.items())))
        elif "crash" in record and isinstance(record["crash"], dict) and games:
            games[-1].crash = {name: str(record["crash"].get(name) or "")[:CRASH_WIDTH] or None
                               for name in CRASH_FIELDS}
        elif "end" in record and games:
            games[-1].end, games[-1].words = record["end"], str(record.get("words", ""))
        elif "load" in record or "drift" in record:
            said = str(record.get("load") or record.get("drift"))
    return games, said


def judged(game, reference, seconds, stopped):
    """None if a recorded game is the reference's, whole; else its Departure.  Every
    piece is compared here, whatever the run said of it."""
    trace, transcript = reference
    streams = Streams(game.seed, trace, transcript, game.member)
    reading = {"t": streams.line, "e": streams.event, "by": streams.by}
    try:
        for kind, piece in game.pieces:
            reading[kind](str(piece))
        if game.end == "finished":
            streams.finish()
            return None
    except Departed as departed:
        return Departure(departed.clock, "departs", departed.words, departed.writer,
                         crashed(game))
    except (ValueError, TypeError, KeyError, IndexError):
        return Departure(streams.events, "error", f"its trace is not one pywar can read "
                         f"(seed {game.seed}, {now(streams)})", streams.writer)
    kind, words = ended(game, streams, seconds, stopped)      # no piece departs: no writer
    return Departure(streams.events, kind, words, None, crashed(game))


def ended(game, streams, seconds, stopped):
    """How a game that did not depart before it ended stops: (kind, words)."""
    if game.end == "timeout":
        return "timeout", (f"seed {game.seed} did not finish within {seconds:g} s "
                           f"({now(streams)}): a loop that never ends?")
    if game.end == "unfilled":
        return "unfilled", game.words
    if game.end == "error" and game.words.startswith("raised NotImplementedError"):
        return "error", game.words
    if game.end == "error":
        return "error", f"{game.words} (seed {game.seed}, {now(streams)})"
    if game.end == "cut":
        return "error", (f"seed {game.seed} printed far more than the reference's game "
                         f"({now(streams)}): a loop that never ends?")
    return "error", stopped


def crashed(game):
    """Where the whole port's game crashed (its crash record, with where in the game as
    its own trace said last), or None."""
    if game.crash is None or game.end != "error":
        return None
    last = next((piece for kind, piece in reversed(game.pieces) if kind == "e"), None)
    try:
        event = json.loads(str(last)) if last is not None else None
        place = "before the deal" if event is None else where(event)
    except (ValueError, TypeError, KeyError, AttributeError):
        place = "somewhere in the game"
    line = game.crash["line"]
    return {**game.crash, "line": int(line) if str(line).isdigit() else line,
            "seed": game.seed, "place": place}


def bounds_of(games, seeds):
    """The characters a port's game of each seed may write: the reference's, and 64 KiB
    (a longer game has departed by then)."""
    return ",".join(str(len(games[seed][0]) + len(games[seed][1]) + 65536) for seed in seeds)


class Ran(NamedTuple):
    """One run of the port: its games, its load or drift words ('' if none), how it
    stopped, and its own output (its first lines, of so many)."""
    games: list
    said: str
    stopped: str
    output: list
    output_lines: int


OWN_LINES = 20      # lines of the port's own output shown, at most
OWN_WIDTH = 200     # characters of each


def own_output(stderr):
    """What the port printed itself (its process's stderr: the child sends its stdout
    there): the first OWN_LINES lines, each cut to OWN_WIDTH characters and any control
    character shown as '?', and how many lines in all."""
    lines = stderr.splitlines()
    shown = []
    for line in lines[:OWN_LINES]:
        line = line.expandtabs(4)
        line = line if len(line) <= OWN_WIDTH else line[:OWN_WIDTH - 3] + "..."
        shown.append("".join(c if c.isprintable() else "?" for c in line))
    return shown, len(lines)


def first_departure(games, wanted, reference, seconds, stopped):
    """The first of the wanted seeds on which the student's whole port departs: (seed,
    Departure), or None if it plays them all as the reference."""
    played = {game.seed: game for game in games if game.member is None}
    for seed in wanted:
        game = played.get(seed, RecordedGame(None, seed, [], "stopped"))
        found = judged(game, reference[seed], seconds, stopped)
        if found is not None:
            return seed, found
    return None


def still_todo(folder):
    """The TODOs still raised in the student's files: 'Pile.shuffle', ... (read from
    the files' text, so that no code at import can hide one)."""
    labels = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as file:
            try:
                tree = ast.parse(file.read())
            except SyntaxError:
                return ["your port"]
        for node in ast.walk(tree):
            raised = node.exc if isinstance(node, ast.Raise) else None
            said = raised.args[0] if isinstance(raised, ast.Call) and raised.args else None
            if isinstance(said, ast.Constant) and isinstance(said.value, str) and \
                    said.value.startswith(TODO):
                labels.append(said.value[len(TODO):])
    return labels


def member_findings(games, suspects, reference, seconds, stopped):
    """The members whose game departs, each at its first departing seed: sortable
    ((seed's order, clock), member, seed, kind, words)."""
    found = {}
    for game in games:
        if game.member is None or game.member in found or game.seed not in suspects:
            continue
        departs = judged(game, reference[game.seed], seconds, stopped)
        if departs is not None:
            found[game.member] = ((suspects.index(game.seed), departs.clock), game.member,
                                  game.seed, departs.kind, departs.words)
    return sorted(found.values(), key=lambda finding: finding[0])


def default_seeds():
    """The seeds of a check: the fixed ones, then FRESH drawn from the system's random
    source for this check alone."""
    return [*SEEDS, *draw_fresh(FRESH, SEEDS)]


def played_words(seeds, fresh):
    """The seeds a port played, in words: 'seed 5', 'seeds 17455, 1553 and 12, and 2
    drawn fresh (A and B)'."""
    fixed = [seed for seed in seeds if seed not in fresh]
    if not fresh:
        return seeds_words(fixed)
    if not fixed:
        return f"{len(fresh)} {'seed' if len(fresh) == 1 else 'seeds'} drawn fresh " \
               f"({listed(fresh)})"
    return f"{seeds_words(fixed)}, and {len(fresh)} drawn fresh ({listed(fresh)})"


def listed(items):
    """Things in English: 'a', 'a and b', 'a, b and c'."""
    items = [str(item) for item in items]
    return " and ".join(part for part in (", ".join(items[:-1]), *items[-1:]) if part)


def judge_port(runs, seeds, reference, seconds, copy, fresh=()):
    """The findings of a check: the whole port's run, and if it departs, the members';
    the first with what the whole port did (its first difference's member, its crash,
    its own output)."""
    ran = runs.run("whole", seeds)
    if isinstance(ran, PortFinding):
        return [ran]
    own = {"output": ran.output, "output_lines": ran.output_lines}
    if ran.said:
        return [PortFinding(None, None, ran.said, "import", **own)]
    whole = first_departure(ran.games, seeds, reference, seconds, ran.stopped)
    if whole is None:
        unwritten = still_todo(copy)
        if not unwritten:
            played = played_words(seeds, fresh)
            played += "," if ", and " in played else ""        # the list's end
            return [PortFinding(None, None, f"your port plays {played} exactly as the "
                                "reference does, event for event and line for line",
                                "passed", **own)]
        findings = [PortFinding(label, None, "is not written yet: its body still raises its "
                                "TODO", "unfilled") for label in unwritten]
        return [replace(findings[0], **own)] + findings[1:]
    seed, departure = whole
    own.update(writer=departure.writer, whole=departure.words, crash=departure.crash)
    findings = member_run(runs, seeds[:seeds.index(seed) + 1], reference, seconds, whole)
    return [replace(findings[0], **own)] + findings[1:]


def seed_options(seeds):
    """How pywar exercise check is told to check on seeds again: '--seed A --seed B'."""
    return " ".join(f"--seed {seed}" for seed in seeds)


def report(findings, fresh=(), again=seed_options):
    """What pywar exercise check prints of its findings, line by line (the page's check in
    the browser says the same, but how to check again: again(seeds), in the words of
    what offers it), the first, the others by name, what the whole port did, and the
    seeds drawn fresh where they matter (fresh: those of the check)."""
    first = findings[0]
    lines = [str(first)]
    unfilled = [found.member for found in findings[1:] if found.kind == "unfilled"]
    others = [found.member for found in findings[1:] if found.kind != "unfilled"]
    if unfilled:
        lines.append(f"Not written yet either: {', '.join(unfilled)}.")
    if others:
        lines.append(f"Departing too, later: {', '.join(others)}.")
    lines += first.details()
    again = again(fresh)
    if first.kind == "passed" and fresh:                  # the pass names them
        lines.append(f"Check again on the fresh seeds with {again}.")
    elif any(str(seed) in str(first) for seed in fresh):    # said where it matters
        lines.append(f"Seeds {listed(SEEDS)}, and {len(fresh)} drawn fresh for this check: "
                     f"{listed(fresh)} (check again on them with {again}).")
    return lines


def member_run(runs, suspects, reference, seconds, whole):
    """The findings of the members run on the suspect seeds (the whole port passed the
    others): each member that departs alone, or the whole port if none does."""
    ran = runs.run("members", suspects)
    if isinstance(ran, PortFinding):
        return [ran]
    if ran.said:
        return [PortFinding("TableTop.do_battle", None, ran.said, "error")]
    findings = member_findings(ran.games, suspects, reference, seconds, ran.stopped)
    if not findings:
        seed, departure = whole
        return [PortFinding(None, seed, f"your port departs, though no one member does "
                            f"alone (look at what you changed outside the TODOs, or at two "
                            f"members together): {departure.words}", departure.kind)]
    return [PortFinding(label, seed, words if kind != "unfilled" else
                        "is not written yet: its body still raises its TODO", kind)
            for _, label, seed, kind, words in findings]
