"""An instructor's reference teaches pywar its words: `pywar assignment draft` builds the
reference, runs it on seeds under the seed clock, reads each line with the referee's
reader (what a line says whatever its words: lines.Reader) and writes each kind of line
as a template (docs/grading.md, section 8).

Each line the reader reads as one thing of a kind of the file (a play, a count, a card
of the deal) is paired with what it says (a player, a card, numbers); each kind's
template is the reference's line with those values' texts put back as fields, the one
most of its lines give.  The cards' names are learnt from the lines that name one card
(what such lines of a kind and player do not share), then told as a rank's name and a
suit's.  Every line the drafted file does not give back, every kind the reference never
printed, and every rule of the referee that the reference's game breaks (its judge, as
for a student's) is listed for the instructor to decide.

    >>> cards = {0: "2H", 12: "AH", 13: "2D", 25: "AD", 26: "2S", 38: "AS", 39: "2C", 51: "AC"}
    >>> card_naming(cards, 2, 4) is None
    True
    >>> naming = card_naming({card: f"{'23456789TJQKA'[card % 13]}{'HDSC'[card // 13]}"
    ...                       for card in range(52)}, 13, 4)
    >>> naming.card, naming.ranks[12], naming.suits
    ('{rank}{suit}', 'A', ('H', 'D', 'S', 'C'))
"""

import json
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...rules import make_rules
from ..referee.judge import judge
from ..referee.lines import KIND, Reader
from ..referee.rubric import NAMES as ITEMS, RUBRIC
from .file import BLANK_KINDS, FORMAT, LINES, SMU_BLANKS, VERSION, builtin

REFEREED = "smu"                    # the rules the referee holds a game to
WORD = re.compile(r"\w+")
SHOWN = 5                           # lines not placed, said at most, of each kind


class DraftError(ValueError):
    """A reference that cannot be drafted from, in one line."""


@dataclass
class Naming:
    """How the reference names cards: a template over a rank's and a suit's name."""
    card: str
    ranks: tuple
    suits: tuple


@dataclass
class Drafted:
    """A draft: the players' names, the card naming, the opening, each kind's template
    (or None: never printed), and what could not be placed."""
    players: tuple = ("A", "B")
    naming: Naming = None
    opening: tuple = ()
    blank_after: tuple = SMU_BLANKS
    lines: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


# ---- What the reference's lines say

FIELDS_OF = {KIND.round: ("number",), KIND.size: ("count",), KIND.listed: ("place", "card"),
             KIND.plays: ("player", "card"), KIND.counts: ("player", "to_play", "played")}
GAME_KINDS = (KIND.pile, KIND.listed, KIND.round, KIND.plays)   # the opening ends before


def values_of(said):
    """A Said's values as the file's fields ({player}, {card}, numbers)."""
    numbers = {"number": said.number, "count": said.number, "place": said.number,
               "to_play": said.to_play, "played": said.played}
    found = {} if said.player is None else {"player": said.player}
    if said.card is not None:
        found["card"] = said.card
    found.update({name: numbers[name] for name in FIELDS_OF.get(said.kind, ())
                  if name not in found})
    return found


def read_lines(lines):
    """(the opening: the lines before the first of the game, [(its line number from 1,
    its text, kind, which line of its kind, values)]) of one transcript: each line read
    as one thing of a kind of the file (a refill's lines numbered in a run of them)."""
    reader, rows, opening, refill = Reader(), [], None, (None, 0)
    for number, text in enumerate(lines, 1):
        said = reader.events(text) if text.strip() else []
        if opening is None and said and said[0].kind in GAME_KINDS:
            opening = tuple(lines[:number - 1])
        if len(said) != 1 or said[0].kind not in LINES or opening is None:
            refill = (None, 0)
            continue
        kind = said[0].kind
        part = 0
        if kind == KIND.refill:
            part = refill[1] if refill[0] == said[0].player else 0
            refill = (said[0].player, part + 1)
        else:
            refill = (None, 0)
        rows.append((number, text, kind, part, values_of(said[0])))
    return opening or (), rows


def rules_broken(text, seed):
    """What the referee's judge finds against the rules in the reference's run of a seed:
    a line each ('seed 1, line 116: ranks: ...')."""
    found = judge(text)
    return [f"seed {seed}: the reference's game breaks the rules ({item}): "
            f"{found.first(item).text()}" for item in found.broken() if item != RUBRIC.format]


# ---- The reference's words

def players_of(rows):
    """The two players' names: the word in every line of a player's and in none of the
    other's, kind by kind; None if no kind tells them apart."""
    by_kind = defaultdict(lambda: defaultdict(list))
    for _, text, kind, _, values in rows:
        if "player" in values:
            by_kind[kind][values["player"]].append(set(WORD.findall(text)))
    votes = Counter()
    for lines in by_kind.values():
        if len(lines) == 2:
            common = [set.intersection(*lines[player]) for player in (0, 1)]
            names = [common[0] - common[1], common[1] - common[0]]
            if all(len(name) == 1 for name in names):
                votes[(names[0].pop(), names[1].pop())] += 1
    return votes.most_common(1)[0][0] if votes else None


def card_texts(rows, players):
    """{card id: the reference's text for it}, from the lines that name one card: each
    kind's lines of a player, their common beginning and end taken away (to a word's
    edge: a card's name starts and ends with a whole word)."""
    groups = defaultdict(list)
    for _, text, kind, _, values in rows:
        if "card" in values:
            groups[(kind, values.get("player"))].append((masked(text, values, players),
                                                          values["card"]))
    found = {}
    for lines in groups.values():
        if len(lines) < 2:
            continue
        texts = [text for text, _ in lines]
        start, end = common_ends(texts)
        for text, card in lines:
            found.setdefault(card, text[start:len(text) - end])
    return found


def masked(text, values, players):
    """A line with its numbers' texts blanked (a place, a count: not part of a card)."""
    for name, number in values.items():
        if name not in ("player", "card"):
            text = re.sub(rf"(?<![\w-]){number}(?!\w)", "\0", text)
    return text


def common_ends(texts):
    """(the length of the beginning all texts share, of the end), each cut back to a
    word's edge where a word runs on into what differs."""
    start = len(os.path.commonprefix(texts))
    end = len(os.path.commonprefix([text[::-1] for text in texts]))
    shortest = min(len(text) for text in texts)
    end = min(end, shortest - start)
    while start and any(text[start - 1].isalnum() and text[start:start + 1].isalnum()
                        for text in texts):
        start -= 1
    while end and any(text[len(text) - end].isalnum() and text[len(text) - end - 1:
                                                               len(text) - end].isalnum()
                      for text in texts):
        end -= 1
    return start, end


def card_naming(texts, ranks, suits):
    """A Naming that gives back every card's text seen ({card id: text}), or None: each
    rank's name is what a rank's cards begin with, each suit's what its cards end with,
    what they share between them the template's."""
    by_rank, by_suit = defaultdict(list), defaultdict(list)
    for card, text in texts.items():
        by_suit[card // ranks].append(text)
        by_rank[card % ranks].append(text)
    if len(by_rank) != ranks or len(by_suit) != suits or \
            any(len(set(found)) < 2 for found in (*by_rank.values(), *by_suit.values())):
        return None
    heads = [os.path.commonprefix(by_rank[rank]) for rank in range(ranks)]
    tails = [os.path.commonprefix([text[::-1] for text in by_suit[suit]])[::-1]
             for suit in range(suits)]
    between = os.path.commonprefix([head[::-1] for head in heads])[::-1]
    if not all(tail.startswith(between) for tail in tails):
        between = ""
    rank_names = [head[:len(head) - len(between)] for head in heads]
    suit_names = [tail[len(between):] for tail in tails]
    after = os.path.commonprefix([name[::-1] for name in suit_names])[::-1]
    if after and all(len(name) > len(after) for name in suit_names):
        suit_names = [name[:len(name) - len(after)] for name in suit_names]
    else:
        after = ""
    naming = Naming("{rank}" + escaped(between) + "{suit}" + escaped(after),
                    tuple(rank_names), tuple(suit_names))
    if any(naming.card.format(rank=rank_names[card % ranks], suit=suit_names[card // ranks])
           != text for card, text in texts.items()):
        return None
    return naming


def escaped(text):
    """Text as a template's literal: each brace doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def template_of(text, values, players, card_name):
    """The template a line gives with its values put back as fields, or None where a
    value's text is not in it once (a count printed twice, say)."""
    pieces = {name: str(number) for name, number in values.items()
              if name not in ("player", "card")}
    found = escaped(text)
    if "card" in values:
        name = escaped(card_name(values["card"]))
        if found.count(name) != 1:
            return None
        found = found.replace(name, "\0card\0")
    for name, number in pieces.items():
        hits = re.findall(rf"(?<![\w-]){number}(?!\w)", found)
        if len(hits) != 1:
            return None
        found = re.sub(rf"(?<![\w-]){number}(?!\w)", f"\0{name}\0", found)
    if "player" in values:
        name = players[values["player"]]
        found, count = re.subn(rf"(?<!\w){re.escape(escaped(name))}(?!\w)", "\0player\0",
                               found)
        if not count:
            return None
    return re.sub("\0(\\w+)\0", r"{\1}", found)


def drafted(seeds, ranks, suits):
    """A Drafted from each seed's (seed, the reference's output)."""
    draft = Drafted()
    rows, printed = [], {}
    for seed, text in seeds:
        printed[seed] = text.split("\n")
        opening, found = read_lines(printed[seed])
        draft.opening = draft.opening or opening
        rows += [(seed, *row) for row in found]
        draft.notes += rules_broken(text, seed)
    plain = [row[1:] for row in rows]
    draft.players = players_of(plain) or draft.players
    texts = card_texts(plain, draft.players)
    draft.naming = card_naming(texts, ranks, suits)
    if draft.naming is None:
        draft.notes.append("the cards' names could not be told as a rank's and a suit's: "
                           "SMU's card names kept")
        draft.naming = Naming("{rank} of {suit}s", *(builtin("smu").wording.ranks,
                                                      builtin("smu").wording.suits))
    name_of = {card: draft.naming.card.format(rank=draft.naming.ranks[card % ranks],
                                              suit=draft.naming.suits[card // ranks])
               for card in range(ranks * suits)}
    by_kind = defaultdict(list)
    for seed, number, text, kind, part, values in rows:
        by_kind[(kind, part)].append((seed, number, text, values))
    for (kind, part), lines in sorted(by_kind.items()):
        chosen = chosen_template(draft, kind, [
            (seed, number, text, values, template_of(text, values, draft.players,
                                                     name_of.get))
            for seed, number, text, values in lines], name_of)
        if chosen is not None:
            draft.lines.setdefault(kind, {})[part] = chosen
    refill_ends(draft, rows, printed)
    draft.blank_after = blanks_after(rows, printed)
    return draft


def blanks_after(rows, printed):
    """The kinds of line a blank one follows in every run (a pile's last card, the last
    player's counts); a kind never printed as SMU's reference has it."""
    followed = defaultdict(set)
    for at, (seed, number, _, kind, _, values) in enumerate(rows):
        later = rows[at + 1] if at + 1 < len(rows) else None
        if kind == KIND.listed and later and later[3] == KIND.listed and later[0] == seed:
            continue                            # not a pile's last card
        if kind == KIND.counts and values.get("player") != 1:
            continue                            # not the last player's counts
        if kind in BLANK_KINDS:
            followed[kind].add(printed[seed][number:number + 1] == [""])
    return tuple(kind for kind in BLANK_KINDS if followed[kind] == {True} or (
        not followed[kind] and kind in SMU_BLANKS))


def chosen_template(draft, kind, lines, name_of):
    """The template most of a kind's lines give ([(seed, line number, text, values, its
    template or None)]), or None; each line it does not give back noted in the draft."""
    templates = Counter(template for *_, template in lines)
    templates.pop(None, None)
    if not templates:
        draft.notes.append(f"the {kind} lines could not be made a template (e.g. "
                           f"seed {lines[0][0]}, line {lines[0][1]}: {lines[0][2]!r})")
        return None
    chosen = templates.most_common(1)[0][0]
    missed = [(seed, number, text) for seed, number, text, values, _ in lines
              if filled(chosen, values, draft.players, name_of) != text]
    for seed, number, text in missed[:SHOWN]:
        draft.notes.append(f"seed {seed}, line {number}: {text!r} is not the {kind} "
                           f"template's line, {chosen!r}")
    if len(missed) > SHOWN:
        draft.notes.append(f"... and {len(missed) - SHOWN} more {kind} lines so")
    return chosen


def refill_ends(draft, rows, printed):
    """A refill's lines end with a blank one where every refill the reference printed is
    followed by one (SMU's three lines: two and a blank)."""
    parts = draft.lines.get(KIND.refill)
    if not parts:
        return
    last = max(parts)
    ends = [printed[seed][number:number + 1] for seed, number, _, kind, part, _ in rows
            if kind == KIND.refill and part == last]
    if ends and all(end == [""] for end in ends):
        parts[last + 1] = ""


def filled(template, values, players, name_of):
    """A template filled with an event's values."""
    named = dict(values)
    if "player" in named:
        named["player"] = players[named["player"]]
    if "card" in named:
        named["card"] = name_of[named["card"]]
    return template.format(**named)


# ---- The file

def toml_string(text):
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def toml_list(items, indent="    "):
    """A TOML array of strings, one a line."""
    return "[\n" + "".join(f"{indent}{toml_string(item)},\n" for item in items) + "]"


def file_text(draft, name, rules, build_command, run_command, stdin, reference):
    """The assignment file of a draft, with what could not be placed as comments."""
    lines = kind_lines(draft, LINES, builtin("smu"), lambda kind, parts: tuple(
        parts[number] for number in sorted(parts)) if kind == "refill" else parts[0])
    return noted(file_lines(name, rules, reference, [
        f"players = {toml_list(draft.players)}",
        f"ranks = {toml_list(draft.naming.ranks)}", f"suits = {toml_list(draft.naming.suits)}",
        f"card = {toml_string(draft.naming.card)}", 'ace = "high"',
        f"deal = {toml_string('piles' if 'listed' in draft.lines else 'none')}",
        f"opening = {toml_list(draft.opening)}",
        f"blank_after = {toml_list(draft.blank_after)}"], lines,
        (build_command, run_command, stdin)),
        draft.notes)


def kind_lines(draft, kinds, kept, found_of):
    """Each kind's template as a TOML line: found_of(kind, the draft's), or the kept
    assignment's where the reference never printed the kind (noted)."""
    lines = []
    for kind in kinds:
        parts = draft.lines.get(kind)
        if parts is None:
            draft.notes.append(f"the reference never printed a {kind} line on these seeds: "
                               f"{kept.name.upper()}'s template kept")
            found = dict(kept.wording.lines)[kind]
        else:
            found = found_of(kind, parts)
        lines.append(template_line(kind, found))
    return lines


def template_line(kind, found):
    """A kind's template (a list kind's, a tuple) as a TOML line."""
    return f"{kind} = " + (toml_list(found) if isinstance(found, tuple) else toml_string(found))


def file_lines(name, rules, reference, wording, lines, commands, left_out=()):
    """An assignment file's text: its [wording]'s fields and its lines' templates (each
    a TOML line), the build and run commands and stdin; every item weighs 1 but those
    left out (0)."""
    build_command, run_command, stdin = commands
    dimensions = {key: value for key, value in rules.to_dict().items()
                  if key != "name" and getattr(make_rules(rules.name.split(",")[0]), key)
                  != value}
    return "\n".join([
        f"# Drafted by pywar assignment draft from {reference}: check every line before",
        "# grading under it (docs/grading.md, section 8).",
        "", f'format = "{FORMAT}"', f"version = {VERSION}", "", "[assignment]",
        f"name = {toml_string(name)}", f"title = {toml_string(f'{name}, drafted')}",
        f"source = {toml_string(f'drafted from the reference {reference}')}", "", "[rules]",
        f"preset = {toml_string(rules.name.split(',')[0])}",
        *(f"{key} = {json.dumps(value)}" for key, value in dimensions.items()), "",
        "[wording]", *wording, "", "[wording.lines]", *lines, "",
        "[build]", f"command = {toml_string(build_command)}", "", "[run]",
        f"command = {toml_string(run_command)}", f"stdin = {toml_string(stdin)}", "",
        "[rubric]", "memory = true", "", "[rubric.weights]",
        *(f"{item} = {0 if item in left_out else 1}" for item in ITEMS), ""])


def noted(text, notes):
    """A file's text with what could not be placed as comments at its end."""
    if notes:
        text += "\n# Not placed: for the instructor to decide\n" + "".join(
            f"# {note}\n" for note in notes)
    return text
