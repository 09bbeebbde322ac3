"""The stepper: a prompt, in the manner of pdb, that steps a pywar.Game and prints what
the transcript says at each step (pywar step).

    (war) n               one event            (war) p       every pile and the pot
    (war) b               to the next battle   (war) code    the port's source of it
    (war) until 10        to round 10          (war) back    one step back

Stepping through a whole game prints the transcript exactly.  Only the narration goes
to stdout when stepping; the answers to questions (piles, state, where, code, help) go
there too, and nothing else does.  The prompt `(war) ` appears only when stdin is a
terminal (on stderr when stdout is not one); otherwise commands are read from stdin,
one a line, with no prompt, so a script of commands gives clean output.  Errors and, at
a terminal, a line saying where the game stands after each step go to stderr.
"""

import cmd
import json
import sys

from .game import StepError, card_label

COMMANDS = [
    ("n, next", "one event of the trace (a card face up, a battle, a pickup, ...)"),
    ("b, battle", "to the next battle: its face-up cards compared"),
    ("r, round", "to the start of the next round"),
    ("u N, until N", "until round N has begun (or to the end, saying that N never comes)"),
    ("t, tie", "to the next tie"),
    ("w, war", "to the next war: the battle after a tie"),
    ("c, continue", "to the end of the game"),
    ("back", "one step back"),
    ("p, piles", "every pile, top first, and the pot"),
    ("s, state", "the state of the table as JSON"),
    ("where", "the round, the battle and the event"),
    ("code", "the port's source that made the last event, with its file and line"),
    ("h, help", "this list"),
    ("q, quit", "leave"),
]
NAMES = ", ".join(name.split(", ")[-1] for name, _ in COMMANDS)


def labels(cards, deck):
    """Cards as short names (QS, 10H), space-separated."""
    return " ".join(card_label(card, deck) for card in cards)


def describe(event, deck):
    """What an event does, in a few words."""
    kind = event["event"]
    player = "ABCDEFGH"[event["player"]] if "player" in event else None
    if kind == "deal":
        return "the deal: " + ", ".join(f"{'ABCDEFGH'[p]} {len(hand)} cards"
                                        for p, hand in enumerate(event["hands"]))
    if kind == "round":
        return f"round {event['round']} begins"
    if kind in ("face_up", "take_back"):
        again = " again" if kind == "take_back" else ""
        return f"{player} plays {card_label(event['card'], deck)} face up{again}"
    if kind == "face_down":
        return f"{player} puts {labels(event['cards'], deck)} face down"
    if kind == "battle":
        if event["winner"] is None:
            return "a tie between " + " and ".join("ABCDEFGH"[p] for p in event["tied"])
        return f"{'ABCDEFGH'[event['winner']]} wins the battle"
    if kind == "pickup":
        return f"{player} picks up {labels(event['cards'], deck)}"
    if kind == "refill":
        return f"{player}'s played pile becomes its to-play pile ({len(event['cards'])} cards)"
    if kind == "run_out":
        return f"{player} has run out of cards"
    if kind == "cap":
        return "the round cap is reached"
    if kind == "cycle":
        return f"the game repeats every {event['period']} rounds from round {event['start'] + 1}"
    winner = "nobody" if event["winner"] is None else "ABCDEFGH"[event["winner"]]
    return f"the end ({event['outcome']}): {winner} wins"


class Stepper(cmd.Cmd):
    """The stepper's commands over one Game."""

    prompt = "(war) "

    def __init__(self, game, stdin=None, stdout=None, stderr=None, interactive=None):
        """A stepper over a game; interactive (default: stdin is a terminal) shows the
        prompt and a line after each step."""
        super().__init__(stdin=stdin, stdout=stdout)
        self.game = game
        self.stderr = stderr or sys.stderr
        self.interactive = self.stdin.isatty() if interactive is None else interactive

    # ---- The loop

    def read_command(self):
        """The next command line: typed at the prompt, or a line of stdin (EOFError at
        its end)."""
        if not self.interactive:
            line = self.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\r\n")
        if self.stdout.isatty():
            return input(self.prompt)
        self.stderr.write(self.prompt)
        self.stderr.flush()
        return input()

    def loop(self):
        """Read and run commands until quit or the end of the input."""
        if self.interactive:
            self.note(f"{self.about()}: {len(self.game.events)} events. "
                      "Type help for the commands.")
        while True:
            try:
                line = self.read_command()
            except EOFError:
                if self.interactive:
                    self.note("")               # end the prompt's line, as pdb does
                break
            except KeyboardInterrupt:
                if not self.interactive:
                    raise                       # a script stops: exit status 130
                self.note("\n--KeyboardInterrupt-- (q quits)")
                continue
            if self.onecmd(line):
                break
            self.stdout.flush()

    def about(self):
        """The game in a few words: seed, rules, engine."""
        game = self.game
        stack = f" ({game.stack})" if game.stack else ""
        return f"seed {game.seed}, {game.rules.name} rules, engine {game.engine}{stack}"

    def say(self, text):
        """Print on stdout."""
        self.stdout.write(text)

    def note(self, text):
        """Print a line on stderr."""
        self.stderr.write(text + "\n")
        self.stderr.flush()

    def error(self, text):
        """Print an error line on stderr, as pdb does (***)."""
        self.note(f"*** {text}")

    def default(self, line):
        """An unknown command."""
        self.error(f"unknown command {line.split()[0]!r}: the commands are {NAMES} "
                   "(help lists them)")

    def where_line(self):
        """Where the game stands: the event, its kind, round and battle."""
        game = self.game
        if game.position == 0:
            return f"before the deal (event 0 of {len(game.events)})"
        event = game.last.event
        return (f"event {game.position} of {len(game.events)}, round {event['round']}, "
                f"battle {event['battle']}: {describe(event, game.rules.deck)}")

    # ---- Stepping

    def move(self, how):
        """Take steps with how() and print their narration."""
        if self.game.over:
            self.error("the game is over: back goes back, quit leaves")
            return
        steps = how()
        self.say("".join(step.narration for step in steps))
        if self.interactive:
            self.note("> " + self.where_line())

    def do_next(self, arg):
        """n, next: one event of the trace."""
        self.move(lambda: [self.game.step()])

    def do_battle(self, arg):
        """b, battle: to the next battle, its face-up cards compared."""
        self.move(self.game.battle)

    def do_round(self, arg):
        """r, round: to the start of the next round."""
        self.move(self.game.round)

    def do_until(self, arg):
        """u N, until N: until round N has begun."""
        if not arg.strip().isdigit() or int(arg) < 1:
            self.error(f"until takes a round number from 1, as in: until 10 (not {arg!r})")
            return
        wanted, was_over = int(arg), self.game.over
        try:
            self.move(lambda: self.game.until(round=wanted))
        except StepError as error:
            self.error(str(error).replace("back() or goto() go back", "back goes back"))
            return
        last = self.game.table.counters.rounds
        if self.game.over and not was_over and last < wanted:
            self.note(f"the game ended in round {last}: round {wanted} never comes")

    def do_tie(self, arg):
        """t, tie: to the next tie."""
        self.move(self.game.tie)

    def do_war(self, arg):
        """w, war: to the next war, the battle after a tie."""
        self.move(self.game.war)

    def do_continue(self, arg):
        """c, continue: to the end of the game."""
        self.move(self.game.run)

    def do_back(self, arg):
        """back: one step back."""
        if self.game.position == 0:
            self.error("at the start, before the deal: there is no step to go back to")
            return
        self.game.back()
        if self.interactive:
            self.note("> " + self.where_line())

    # ---- Looking

    def do_piles(self, arg):
        """p, piles: every pile, top first, and the pot."""
        if self.game.position == 0:
            self.error("no cards are dealt yet: n deals them")
            return
        self.say(str(self.game.state()) + "\n")

    def do_state(self, arg):
        """s, state: the state of the table as JSON."""
        if self.game.position == 0:
            self.error("no cards are dealt yet: n deals them")
            return
        self.say(json.dumps(self.game.state()) + "\n")

    def do_where(self, arg):
        """where: the round, the battle and the event."""
        self.say(self.where_line() + "\n")

    def do_code(self, arg):
        """code: the port's source that made the last event, with its file and line."""
        game = self.game
        if game.places is None:
            self.error(f"code shows the port's source, and this game is played by the "
                       f"engine's twin (engine {game.engine}): step a plain smu game with "
                       "--engine port-python")
            return
        if game.position == 0:
            self.error("no event yet: n steps to the deal")
            return
        try:
            self.say(listing(game.last.place))
        except OSError as error:                # an installation without the source
            self.error(f"no source for {game.last.place}: {error}")

    def do_help(self, arg):
        """h, help: the commands."""
        wanted = [(name, what) for name, what in COMMANDS
                  if not arg or arg.strip() in name.replace(" N", "").split(", ")]
        if not wanted:
            self.error(f"no command {arg.strip()!r}: the commands are {NAMES}")
            return
        heading = "" if arg else "Commands (an empty line repeats the last one):\n"
        width = max(len(name) for name, _ in COMMANDS)
        self.say(heading + "".join(f"  {name:<{width}}  {what}\n" for name, what in wanted))

    def do_quit(self, arg):
        """q, quit: leave."""
        return True

    def do_EOF(self, arg):
        """The end of the input: leave."""
        return True

    do_n = do_next
    do_b = do_battle
    do_r = do_round
    do_u = do_until
    do_t = do_tie
    do_w = do_war
    do_c = do_continue
    do_p = do_piles
    do_s = do_state
    do_h = do_help
    do_q = do_quit


def listing(place):
    """A method's source with its line numbers, an arrow at the place's line, as pdb's
    longlist shows it, under a line naming the file and line."""
    first, lines = place.source()
    numbered = [f"{number:4} {'->' if number == place.line else '  '} {line}".rstrip() + "\n"
                for number, line in enumerate(lines, start=first)]
    return f"{place}\n" + "".join(numbered)
