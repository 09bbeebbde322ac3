"""The port as an exercise, its check: the first member whose behaviour departs from the
reference (pywar exercise check DIR; the skeleton is pywar.check.exercise.skeleton).

The check (check()) runs the student's port in pywar's runner (sandbox.run, its
exercise profile: bubblewrap where it works, no stdin, a scratch folder, limits on
time, memory and output), beside a pywar of the shared modules alone (no pywar.port),
where pywar/check/exercise/portplay.py plays each seed and records what the port printed and
traced.  Those records are compared here, in pywar's own process, with the reference's
trace and transcript: a seed passes only if the game ended with all of both.  If the
whole port departs, a second run plays the reference again with one of the student's
members in place of the port's, member by member (a piece of do_battle is put in place
of the port's piece), and the check names the member whose game departs first: the
seed, the event and what was expected, in words.  A member whose TODO is still raised
in the student's files is named as not written yet.  Nothing the port's process writes
or changes can make it pass: its records are only what it played.
"""

import ast
import json
import os
import time
from dataclasses import dataclass

from ..grading.grade import draw_fresh
from ..runner import sandbox
from ..runner.pychild import (PYWAR_FOLDER, boot, copy_shared, not_started, python_for_runs,
                              records_of)
from .portplay import TODO
from ...port.card import RANK, SUIT
from ...rules import MAX_CARDS

SEEDS = (17455, 1553, 12)           # short; five ties in a row; a long one with refills
FRESH = 2                           # and seeds drawn fresh at each check: no game recorded
                                    # for the fixed seeds serves them
GAME_SECONDS = 5.0                  # one game of the student's, at most
CHECK_SECONDS = 120.0               # the whole check, at most
LIMITS = sandbox.PROFILES["exercise"]   # memory, output, processes of the port's process


# ---- A finding, in words

@dataclass
class PortFinding:
    """What the check found: the member to look at (None: the whole port), the seed, and
    what happened, in a sentence."""
    member: object
    seed: object
    message: str
    kind: str = "departs"   # departs, unfilled, error, timeout, import, passed, unchecked

    def __str__(self):
        """As 'Pile.shuffle: after the first shuffle ...'."""
        if self.member is None:
            return self.message
        return f"{self.member}{' ' if self.kind == 'unfilled' else ': '}{self.message}"


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


def same_kind_words(expected, got, member=None):
    """What differs between two events of the same kind, in a student's words; member:
    the student's member in the reference's place (None: the whole port)."""
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
        return f"{event_words(expected, True)}; yours plays {card_name(got['card'])}"
    return f"{event_words(expected, True)}; in yours {event_words(got)}"


def where(event):
    """Where in the game an event is: at the deal, in round 12."""
    return "at the deal" if event["event"] == "deal" else f"in round {event['round']}"


# ---- Judging what the port printed and traced, in pywar's own process

class Departed(Exception):
    """A game that has left the reference's: its words, and how many events came before."""

    def __init__(self, words, clock):
        super().__init__(words)
        self.words = words
        self.clock = clock


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
        self.departed = None             # once departed, always: a swallowed one comes back

    def depart(self, words):
        """Raise (and remember) the game's departure."""
        self.departed = Departed(words, self.events)
        raise self.departed

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
            words = (same_kind_words(wanted, got, self.member)
                     if isinstance(got, dict) and got.get("event") == wanted["event"]
                     else f"{event_words(wanted, True)}; in yours {event_words(got)}")
            self.depart(f"{words} (seed {self.seed}, {where(wanted)})")
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


# ---- The port run in pywar's runner; what it printed and traced, judged here

BOOT = boot("pywar.check.exercise.portplay")
SHARED = ("rules.py", "common", "check/exercise/portplay.py")   # of pywar, beside it


@dataclass
class RecordedGame:
    """One game as the port's run recorded it: the member in the reference's place (None:
    the student's whole port), the seed, the pieces written and how it ended."""
    member: object
    seed: int
    pieces: list
    end: object = None
    words: str = ""


def games_of(records):
    """The games of a run's records, and its load or drift words if any ('' if none)."""
    games, said = [], ""
    for record in records:
        if "game" in record and isinstance(record["game"], list) and len(record["game"]) == 2:
            games.append(RecordedGame(record["game"][0], record["game"][1], []))
        elif ("t" in record or "e" in record) and games:
            games[-1].pieces.append(next(iter(record.items())))
        elif "end" in record and games:
            games[-1].end, games[-1].words = record["end"], str(record.get("words", ""))
        elif "load" in record or "drift" in record:
            said = str(record.get("load") or record.get("drift"))
    return games, said


def stopped_words(outcome):
    """How a port's run stopped the check, in a few words."""
    status = outcome.status
    if outcome.failed_to_start:
        how = f"it could not be started: {outcome.failed_to_start}"
    elif outcome.flooded or status == -signal_number("SIGXFSZ"):
        how = f"it wrote more than {LIMITS.output // sandbox.MIB} MiB"
    elif status is not None and status < 0:
        how = f"killed by {signal_name(-status)}"
    else:
        how = f"exit status {status}"
    said = outcome.stderr.strip().splitlines()
    last = f": {said[-1]}" if said else ""
    return f"your port stopped the check ({how}){last}"


def signal_number(name):
    """A signal's number by its name."""
    import signal
    return int(getattr(signal, name))


def signal_name(number):
    """A signal's name by its number."""
    import signal
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def judged(game, reference, seconds, stopped):
    """None if a recorded game is the reference's, whole; else (clock, kind, words).
    Every piece is compared here, whatever the run said of it."""
    trace, transcript = reference
    streams = Streams(game.seed, trace, transcript, game.member)
    try:
        for kind, piece in game.pieces:
            (streams.line if kind == "t" else streams.event)(str(piece))
        if game.end == "finished":
            streams.finish()
            return None
    except Departed as departed:
        return departed.clock, "departs", departed.words
    except (ValueError, TypeError, KeyError, IndexError):
        return (streams.events, "error", f"its trace is not one pywar can read (seed "
                f"{game.seed}, {now(streams)})")
    if game.end == "timeout":
        return (streams.events, "timeout", f"seed {game.seed} did not finish within "
                f"{seconds:g} s ({now(streams)}): a loop that never ends?")
    if game.end == "unfilled":
        return streams.events, "unfilled", game.words
    if game.end == "error" and game.words.startswith("raised NotImplementedError"):
        return streams.events, "error", game.words
    if game.end == "error":
        return streams.events, "error", f"{game.words} (seed {game.seed}, {now(streams)})"
    if game.end == "cut":
        return (streams.events, "error", f"seed {game.seed} printed far more than the "
                f"reference's game ({now(streams)}): a loop that never ends?")
    return streams.events, "error", stopped


def bounds_of(games, seeds):
    """The characters a port's game of each seed may write: the reference's, and 64 KiB
    (a longer game has departed by then)."""
    return ",".join(str(len(games[seed][0]) + len(games[seed][1]) + 65536) for seed in seeds)


class PortRun:
    """The runs of one check: the student's port copied, the pywar beside it, and the
    time left of the whole check."""

    def __init__(self, work, copy, stack, games, seconds, timeout, isolation="auto"):
        self.work, self.copy, self.stack = work, copy, stack
        self.isolation = isolation
        self.games, self.seconds, self.timeout = games, seconds, timeout
        self.deadline = time.monotonic() + timeout

    def run(self, mode, seeds):
        """One run of the port (whole or members) on seeds: (games, load or drift words,
        how it stopped) or a PortFinding once the check's time is up."""
        lib = copy_shared(os.path.join(self.work, f"lib-{mode}"),
                          SHARED + (("port",) if mode == "members" else ()))
        argv = [python_for_runs(self.isolation), "-I", "-S", "-B", "-c", BOOT, lib, mode,
                self.copy, self.stack, str(self.seconds), bounds_of(self.games, seeds),
                ",".join(map(str, seeds))]
        shown = [self.copy, lib]
        if mode == "members":
            expected = os.path.join(self.work, "expected.json")
            with open(expected, "w", encoding="utf-8") as file:
                json.dump({str(seed): game for seed, game in self.games.items()}, file)
            os.chmod(expected, 0o644)
            argv.append(expected)
            shown.append(expected)
        left = self.deadline - time.monotonic()
        if left <= 0:
            return self.out_of_time()
        limits = sandbox.profile("exercise", wall=left, cpu=max(1, int(left + 1)))
        outcome = sandbox.run(argv, limits, show=shown, hide=[PYWAR_FOLDER],
                              isolation=self.isolation)
        if outcome.timed_out:
            return self.out_of_time()
        games, said = games_of(records_of(outcome.stdout))
        if not games and not said and (outcome.failed_to_start or outcome.status in (126, 127)):
            return self.not_started(outcome, argv[0])
        stopped = stopped_words(outcome) if outcome.status != 0 or outcome.flooded else \
            "your port stopped the check before its game ended"
        return games, said, stopped

    def not_started(self, outcome, python):
        """The finding of a check whose Python could not be started (the machine's)."""
        return PortFinding(None, None, not_started(outcome, python, "your port"), "unchecked")

    def out_of_time(self):
        """The finding of a check that ran past its time."""
        return PortFinding(None, None, f"the check did not finish within {self.timeout:g} s",
                       "timeout")


def first_departure(games, wanted, reference, seconds, stopped):
    """The first of the wanted seeds on which the student's whole port departs: (seed,
    (clock, kind, words)), or None if it plays them all as the reference."""
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
            clock, kind, words = departs
            found[game.member] = ((suspects.index(game.seed), clock), game.member, game.seed,
                                  kind, words)
    return sorted(found.values(), key=lambda finding: finding[0])


def default_seeds():
    """The seeds of a check: the fixed ones, then FRESH drawn from the system's random
    source for this check alone."""
    return [*SEEDS, *draw_fresh(FRESH, SEEDS)]


def check(folder, stack="pile", seeds=None, timeout=CHECK_SECONDS, game_seconds=GAME_SECONDS,
          isolation="auto"):
    """Check a student's port (a folder made by new and filled in) on seeds (default:
    default_seeds()): a list of Findings, the first the one to say; one of kind passed
    when it plays every seed exactly.  The port runs in pywar's runner; only what it
    printed and traced is judged, here."""
    folder = os.path.abspath(folder)
    seeds = list(default_seeds() if seeds is None else seeds)
    reference = reference_games(seeds, stack)
    with sandbox.Scratch("pywar-exercise-") as work:
        copy = os.path.join(work, "port")
        try:
            sandbox.safe_copy(folder, copy)
        except (OSError, sandbox.CopyTrouble) as error:
            return [PortFinding(None, None, f"your port cannot be copied: {error}", "error")]
        runs = PortRun(work, copy, stack, reference, game_seconds, timeout, isolation)
        return judge_port(runs, seeds, reference, game_seconds, copy)


def judge_port(runs, seeds, reference, seconds, copy):
    """The findings of a check: the whole port's run, and if it departs, the members'."""
    ran = runs.run("whole", seeds)
    if isinstance(ran, PortFinding):
        return [ran]
    games, said, stopped = ran
    if said:
        return [PortFinding(None, None, said, "import")]
    whole = first_departure(games, seeds, reference, seconds, stopped)
    if whole is None:
        unwritten = still_todo(copy)
        if not unwritten:
            return [PortFinding(None, None, f"your port plays seeds {', '.join(map(str, seeds))} "
                            "exactly as the reference does, event for event and line for "
                            "line", "passed")]
        return [PortFinding(label, None, "is not written yet: its body still raises its TODO",
                        "unfilled") for label in unwritten]
    suspects = seeds[:seeds.index(whole[0]) + 1]          # the whole port passed the others
    ran = runs.run("members", suspects)
    if isinstance(ran, PortFinding):
        return [ran]
    games, said, stopped = ran
    if said:
        return [PortFinding("TableTop.do_battle", None, said, "error")]
    findings = member_findings(games, suspects, reference, seconds, stopped)
    if not findings:
        clock, kind, words = whole[1]
        return [PortFinding(None, whole[0], f"your port departs, though no one member does "
                        f"alone (look at what you changed outside the TODOs, or at two members "
                        f"together): {words}", kind)]
    return [PortFinding(label, seed, words if kind != "unfilled" else
                    "is not written yet: its body still raises its TODO", kind)
            for _, label, seed, kind, words in findings]
