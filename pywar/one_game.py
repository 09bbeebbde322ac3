"""One game: play() with any engine, and its GameResult, whose fields are the table of
result fields (pywar.common.fields)."""

from dataclasses import asdict, dataclass

from .arguments import check_text_target
from .common.fields import PLAYER_NAMES, RECORD_KEYS, check_seed
from . import twin
from .engine_choice import PORT_ENGINES, check_port, resolve_engine
from .rules import check_deal, make_rules, parse_deck
from .stopping import runner_for


@dataclass(frozen=True)
class GameResult:
    """How one game went: the same fields from every engine (pywar.common.fields: the
    winner "A", "B", ... or None, the outcome's name, the piles as {"A": {"to_play": n,
    "played": n}, ...}, the record as {"A": {"won": n, "lost": n, "tied": n}, ...}, the
    digest an int), with its transcript and trace if asked for.
    Between the game's rules, seed and engine and its texts, one field a row of the
    table (tests/test_fields.py holds them alike)."""
    rules: str
    seed: int
    engine: str
    winner: object
    outcome: str
    rounds: int
    battles: int
    ties: int
    wars: int
    longest_tie_streak: int
    stranded: int
    piles: dict
    digest: int
    cycle_start: object = None
    cycle_period: object = None
    lead_changes: int = 0
    biggest_pot: int = 0
    comeback: int = 0
    deepest_war: int = 0
    refills: int = 0
    war_rounds: int = 0
    war_depths: dict = None
    record: dict = None
    transcript: object = None
    trace: object = None

    def to_json(self):
        """The result as a JSON-ready dict (the digest as 16 hex digits, no transcript
        and no trace)."""
        data = asdict(self)
        data.pop("transcript")
        data.pop("trace")
        data["digest"] = f"{self.digest:016x}"
        data["war_depths"] = {str(depth): rounds
                              for depth, rounds in sorted(self.war_depths.items())}
        return data


def play(seed, rules="smu", engine=None, transcript=False, deal=None, trace=False,
         stack=None, **dimensions):
    """Play one game of War and return its GameResult.

    rules is a preset name or a Rules value; dimensions (face_down=3, ...) are
    set over it.  engine is 'c', 'python', 'auto' (default: $PYWAR_ENGINE or
    'auto'), or the port of the SMU reference, 'port-c' or 'port-python', which plays
    only smu, with stack 'pile' (Program 4, the default) or 'adt' (Program 6).  With
    transcript=True the result carries the game's text; with a text stream
    (sys.stdout, an open file) the text is written to it as the game goes.  trace
    works the same way for the game's trace (docs/trace.md).  deal, if given,
    replaces the shuffled deal: a hand of card ids per player, each hand top first,
    ids being suit * 13 + rank (suits heart, diamond, spade, club).
    """
    seed = check_seed(seed)
    check_text_target("transcript", transcript)
    check_text_target("trace", trace)
    chosen = make_rules(rules, **dimensions)
    engine = resolve_engine(engine)
    stack = check_port(engine, chosen, stack, deal)
    deal = None if deal is None else check_deal(deal, chosen)
    header = trace_header(engine, seed, chosen, deal, stack) if trace is not False else ""
    if trace not in (False, True):
        trace.write(header)
    if engine in ("c", "port-c"):
        from . import _checked
    if engine == "port-c":
        fields, text, lines = _checked.port_play(seed, stack, transcript, trace)
    elif engine == "port-python":
        from . import port
        counts, text, lines = port.play(seed, stack, transcript, trace)
        fields = dict(vars(counts))
    elif engine == "c":
        fields, text, lines = _checked.play(seed, chosen, transcript, deal, trace,
                                             runner=runner_for(chosen))
    else:
        counts, text, lines = twin.play(seed, chosen, transcript, deal, trace)
        fields = dict(vars(counts))           # the checked layer's dict form
    return game_result(fields, chosen.name, seed, engine, transcript=text,
                       trace=None if lines is None else header + lines)


def more_events_than(limit, seed, rules, engine, deal=None):
    """Whether the game would have more than limit events in its trace, known before it
    is played for its trace: counted in C (the engine's game, for c or python, whose
    games are the same), or without the C core, bounded from the rules' round cap
    (most_events); None when neither can tell.  A port engine's game is never too long:
    the port plays plain smu, shuffled, whose games end within a few thousand rounds
    (and its Python game needs nothing beyond the standard library)."""
    if engine in PORT_ENGINES:
        return False
    from . import _checked
    if _checked.available():
        return _checked.count_events(seed, rules, deal, limit, runner=runner_for(rules)) > limit
    return False if most_events(rules) <= limit else None


def most_events(rules):
    """An upper bound on a game's events under the rules: at most cards + 2 battles a
    round, each with a face-up card, two face-down events and two refills per player and
    the battle, then refills and the pickups, for each of max_rounds rounds; the deal,
    the run-outs and the end."""
    ranks, suits = parse_deck(rules.deck)
    cards, players = ranks * suits, rules.players
    per_round = 1 + (cards + 2) * (5 * players + 1) + players + 2
    return 1 + rules.max_rounds * per_round + players + 3


def game_result(fields, rules_name, seed, engine, **texts):
    """The GameResult of a game's fields as an engine gives them (a dict: the winner a
    player number or None, the piles as pairs), with its transcript and trace, if any."""
    fields = dict(fields)
    winner = fields.pop("winner")
    piles = fields.pop("piles")
    record = fields.pop("record")
    return GameResult(
        rules=rules_name, seed=seed, engine=engine,
        winner=None if winner is None else PLAYER_NAMES[winner],
        piles={name: {"to_play": pile[0], "played": pile[1]}
               for name, pile in zip(PLAYER_NAMES, piles)},
        record={name: dict(zip(RECORD_KEYS, counts))
                for name, counts in zip(PLAYER_NAMES, record)},
        **texts, **fields)


def trace_header(engine, seed, rules, deal=None, stack=None):
    """The first line of a game's trace (docs/trace.md)."""
    from .common.trace import header_line
    return header_line(engine, seed, rules.to_dict(), stack=stack, deal=deal)
