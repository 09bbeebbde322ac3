"""A one-card game's draft (rules `game = "one-card"`: CSULB CECS 325's One Card WAR):
its reference's transcripts read by their layout, the layout its referee (referee/single.py)
reads: the opening, the deck listed as made and as shuffled (each under its heading, in
rows), each battle's header lines, its plays and its verdict, then the statistics
(docs/grading.md, section 8).

The cards are read in the first listing by their usual names ('AC', '10S', '9 of clubs',
'9♣'), the suits numbered in the order the deck is made; their names are factored as a
rank's and a suit's (draft.card_naming); the ace is low or high as the reference's own
verdicts say.  Each kind's template is its lines with their values put back as fields,
the one most give; a statistic's number is the tally of the transcript's own verdicts
it equals (its line's words say which where several do), padded where it fills a column.

    >>> stats_template("Wins   14          10", ("Ann", "Bob"), ["wins1", "wins2"])
    'Wins   {wins1:<12}{wins2}'
    >>> numbered("Game 12", 12), usual_cards("9C,10 of hearts")
    ('Game {number}', [(0, 2, 7, 0), (3, 15, 8, 3)])
"""

import re
from collections import Counter
from dataclasses import replace

from ...rules import parse_deck
from ..grading.grade import DEFAULT_BUILD, DEFAULT_RUN
from ..referee.single import (ROW_CARDS, STANDARD_RANKS, STAT_WORDS, COLUMN_WORDS, TIED, Told,
                              card_pattern, judge_single, rank_number, suit_number, tallies,
                              value_of)
from .draft import (Drafted, chosen_template, card_naming, escaped, file_lines, kind_lines,
                    noted, players_of, template_of, toml_list, toml_string)
from .file import ONE_CARD_LEFT_OUT, ONE_CARD_LINES, STATS_FIELDS, Wording, builtin, loads

READER = Wording(players=("", ""), ranks=tuple(names[0] for names in STANDARD_RANKS),
                 suits=("club", "spade", "diamond", "heart"), card="{rank} of {suit}s",
                 ace="high", deal="deck", opening=(), lines=())
                                    # the cards' usual names, to read a deck's listing
CARD = card_pattern(READER)
NUMBER = re.compile(r"(?<![\w-])[0-9]+(?![\w])")
WORD = re.compile(r"[A-Za-z]+")
PADDING = 2                         # spaces after a number, at least, that pad a column


# ---- One transcript's parts

def usual_cards(line):
    """[(start, end, rank number, suit's number among READER's)] of the cards a line
    names by their usual names."""
    found = []
    for match in CARD.finditer(line):
        rank = suit = None
        if match["rank"]:
            rank, suit = rank_number(READER, match["rank"]), suit_number(READER, match["suit"])
        if rank is not None and suit is not None:
            found.append((match.start(), match.end(), rank, suit))
    return found


def listings(lines):
    """[(the heading's index, [(a row's index, its cards)])] of each listing: the lines of
    ROW_CARDS cards or more that follow one another."""
    found = []
    for at, line in enumerate(lines):
        cards = usual_cards(line)
        if len(cards) < ROW_CARDS:
            continue
        if not found or found[-1][1][-1][0] != at - 1:
            found.append((at - 1, []))
        found[-1][1].append((at, cards))
    return found


def names_printed(lines, names):
    """Each player's name as the lines print it (the stdin's line, in any case), or None."""
    found = []
    for name in names:
        seen = Counter(match[0] for line in lines for match in re.finditer(
            rf"(?<!\w){re.escape(name)}(?!\w)", line, re.I))
        found.append(seen.most_common(1)[0][0] if seen else None)
    return tuple(found) if all(found) else None


def named(line, players):
    """The players' numbers a line names, in order of their place."""
    return [number for _, number in sorted(
        (match.start(), number) for number, name in enumerate(players)
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line))]


class Transcript:
    """One transcript cut in its parts: its opening, its listings (each a heading and
    rows), its battles (header lines, plays, verdict) and its statistics' lines."""

    def __init__(self, seed, text, players):
        self.seed, self.lines = seed, text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.listings = listings(self.lines)
        self.players = players      # how many
        self.judged = []            # each battle as a single.Told (battle_lines)
        self.battles = []           # [(header lines' indexes, plays' indexes, verdict's)]
        self.stats = []             # indexes of the lines after the last verdict

    def game_start(self):
        """The index of the first line after the last listing."""
        return self.listings[-1][1][-1][0] + 1 if self.listings else 0

    def cut(self, card_at):
        """Cut the game in battles by its lines that name one card (card_at(line): the
        card's id or None): each player's a battle, then its verdict."""
        start = at = self.game_start()
        while at < len(self.lines):
            if card_at(self.lines[at]) is None:
                at += 1
                continue
            plays = list(range(at, at + self.players))
            verdict = at + self.players
            if verdict > len(self.lines) or any(card_at(self.lines[place]) is None
                                                 for place in plays):
                break
            self.battles.append((list(range(start, at)), plays,
                                 verdict if verdict < len(self.lines) else None))
            start = at = verdict + 1
        self.stats = list(range(start, len(self.lines)))


# ---- The draft

def one_card_file(transcripts, rules, stdin, name="drafted", reference="a reference",
                  build_command=DEFAULT_BUILD, run_command=DEFAULT_RUN):
    """(the assignment file drafted from a one-card game's transcripts (seeds from 1),
    the notes on what was not placed): the players are the stdin's lines as printed."""
    draft = Drafted(lines={})
    ranks, suits = parse_deck(rules.deck)
    kept = builtin("cecs325").wording
    runs = [Transcript(seed, text, rules.players) for seed, text in enumerate(transcripts, 1)]
    wording = dict(ace="high", opening=kept.opening, between=kept.between,
                   per_row=kept.per_row)
    naming = deck_naming(draft, runs, ranks, suits)
    if naming is None:
        naming = kept
        draft.notes.append("the deck's listing could not be read as the deck's cards: "
                           "CECS 325's card names kept")
    wording.update(ranks=naming.ranks, suits=naming.suits, card=naming.card)
    reading = replace(kept, lines=(), **wording)
    name_of = {card: reading.card_name(card) for card in range(ranks * suits)}
    card_at = card_reader(name_of)
    for run in runs:
        run.cut(card_at)
    wording["players"] = draft.players = players_named(draft, runs, stdin,
                                                        rules.players) or kept.players
    listing_lines(draft, runs, wording)
    battle_lines(draft, runs, name_of, card_at, wording)
    stats_lines(draft, runs, wording["players"], name_of)
    lines = kind_lines(draft, ONE_CARD_LINES, builtin("cecs325"), lambda _, found: found)
    text = file_lines(name, rules, reference, wording_lines(wording), lines,
                      (build_command, run_command, stdin), ONE_CARD_LEFT_OUT)
    drafted = loads(text, "the draft")
    for run in runs:
        draft.notes += rules_broken(run, drafted)
    return noted(text, draft.notes), draft.notes


def players_named(draft, runs, stdin, players):
    """The players' names: the stdin's lines as the runs print them, else the word each
    player's plays hold and the other's do not (draft.players_of), or None."""
    names = [line.strip() for line in stdin.split("\n") if line.strip()][:players]
    if len(names) == players:
        found = names_printed([line for run in runs for line in run.lines], names)
        if found:
            return found
        draft.notes.append(f"the players' names {names!r} (the stdin's lines) are not "
                           "printed")
    found = players_of([(0, run.lines[at], "plays", 0, {"player": number}) for run in runs
                        for _, places, _ in run.battles for number, at in enumerate(places)])
    if found is None:
        draft.notes.append("the players' names could not be told: CECS 325's kept")
    return found


def wording_lines(wording):
    """The [wording] table's fields, each a TOML line."""
    return [f"players = {toml_list(wording['players'])}",
            f"ranks = {toml_list(wording['ranks'])}", f"suits = {toml_list(wording['suits'])}",
            f"card = {toml_string(wording['card'])}", f"ace = {toml_string(wording['ace'])}",
            'deal = "deck"', f"between = {toml_string(wording['between'])}",
            *([] if wording["per_row"] is None else [f"per_row = {wording['per_row']}"]),
            f"opening = {toml_list(wording['opening'])}"]


def rules_broken(run, assignment):
    """What the one-card referee finds in a run under the drafted file: a line each."""
    found = judge_single("\n".join(run.lines) + "\n", assignment.wording,
                         assignment.rules.players)
    return [f"seed {run.seed}: the reference's run breaks the drafted file ({item}): "
            f"{found.first(item).text()}" for item in found.broken()]


def deck_naming(draft, runs, ranks, suits):
    """The Naming of the cards of the first listing of each run (its suits numbered in
    the order that listing makes the deck), or None."""
    texts, order = {}, None
    for run in runs:
        if not run.listings:
            draft.notes.append(f"seed {run.seed}: no listing of the deck (lines of "
                               f"{ROW_CARDS} cards or more)")
            continue
        cards = [card for _, row in run.listings[0][1] for card in row]
        order = order or list(dict.fromkeys(suit for *_, suit in cards))
        if len(order) != suits:
            return None
        line_of = {at: run.lines[at] for at, _ in run.listings[0][1]}
        for at, row in run.listings[0][1]:
            for start, end, rank, suit in row:
                texts.setdefault(order.index(suit) * ranks + rank, line_of[at][start:end])
    return card_naming(texts, ranks, suits) if len(texts) == ranks * suits else None


def card_reader(name_of):
    """card_at(line): the id of the one card a line names by the drafted names, or None."""
    found = re.compile("(?<![A-Za-z0-9])(" + "|".join(
        re.escape(name) for name in sorted(name_of.values(), key=len, reverse=True)) +
        ")(?![A-Za-z0-9])")
    ids = {name: card for card, name in name_of.items()}

    def card_at(line):
        """The one card a line names, or None."""
        cards = found.findall(line)
        return ids[cards[0]] if len(cards) == 1 else None
    return card_at


# ---- Each kind's template

def listing_lines(draft, runs, wording):
    """The opening, the two headings, the row's template, between and per_row."""
    betweens, rows, openings, headings = Counter(), Counter(), Counter(), [Counter(),
                                                                          Counter()]
    for run in runs:
        if len(run.listings) != 2:
            draft.notes.append(f"seed {run.seed}: {len(run.listings)} listings of the deck, "
                               "not two (as made, then shuffled)")
            continue
        openings[tuple(run.lines[:max(run.listings[0][0], 0)])] += 1
        for which, (heading, row_lines) in enumerate(run.listings):
            if heading >= 0:
                headings[which][run.lines[heading]] += 1
            for at, cards in row_lines:
                line = run.lines[at]
                betweens.update(line[end:cards[place + 1][0]]
                                for place, (_, end, *_) in enumerate(cards[:-1]))
                rows[escaped(line[:cards[0][0]]) + "{cards}" + escaped(line[cards[-1][1]:])] += 1
        gap = run.listings[1][0] - run.listings[0][1][-1][0] - 1
        if gap:
            draft.notes.append(f"seed {run.seed}, line {run.listings[0][1][-1][0] + 2}: "
                               f"{gap} lines between the listings: not placed")
        wording["per_row"] = len(run.listings[0][1][0][1])
    if openings:
        wording["opening"] = openings.most_common(1)[0][0]
    for kind, counted in zip(("unshuffled", "shuffled"), headings):
        if counted:
            draft.lines[kind] = escaped(counted.most_common(1)[0][0])
    if rows:
        draft.lines["row"] = rows.most_common(1)[0][0]
    if betweens:
        wording["between"] = betweens.most_common(1)[0][0]
        if len(betweens) > 1:
            draft.notes.append(f"the cards of a row are separated by {dict(betweens)!r}: "
                               f"{wording['between']!r} kept")


def battle_lines(draft, runs, name_of, card_at, wording):
    """Each battle's header lines, its plays and verdict templates, and the ace (low or
    high, whichever explains more of the verdicts); each run's battles (single.Told)
    kept on the run for its statistics."""
    headers, plays, wins, ties, explained = {}, [], [], [], Counter()
    players = wording["players"]
    for run in runs:
        run.judged = []
        for number, (header, places, verdict) in enumerate(run.battles, 1):
            for part, at in enumerate(header):
                headers.setdefault(part, []).append(
                    (run.seed, at + 1, run.lines[at], {"number": number},
                     numbered(run.lines[at], number)))
            battle = Told()
            for at in places:
                who = named(run.lines[at], players)
                card = card_at(run.lines[at])
                if len(who) == 1:
                    battle.cards[who[0]] = card
                    values = {"player": who[0], "card": card}
                    plays.append((run.seed, at + 1, run.lines[at], values,
                                  template_of(run.lines[at], values, players, name_of.get)))
            run.judged.append(battle)
            if verdict is None or len(battle.cards) != len(players):
                continue
            said, who = run.lines[verdict], named(run.lines[verdict], players)
            if len(who) == 1:
                battle.verdict = who[0]
                wins.append((run.seed, verdict + 1, said, {"player": who[0]},
                             template_of(said, {"player": who[0]}, players, name_of.get)))
                explained.update(aces_explaining(battle))
            elif len({card % len(wording["ranks"]) for card in battle.cards.values()}) == 1:
                battle.verdict = TIED
                ties.append((run.seed, verdict + 1, said, {}, escaped(said)))
            else:
                draft.notes.append(f"seed {run.seed}, line {verdict + 1}: {said!r} is a "
                                   "verdict naming no one player, of cards of two ranks")
    chosen = [chosen_template(draft, "battle", headers[part], name_of)
              for part in sorted(headers) if part < most_common_length(runs)]
    if chosen and None not in chosen:
        draft.lines["battle"] = tuple(chosen)
    for kind, found in (("plays", plays), ("wins", wins), ("tie", ties)):
        if found:
            template = chosen_template(draft, kind, found, name_of)
            if template is not None:
                draft.lines[kind] = template
    wording["ace"] = "low" if explained["low"] > explained["high"] else "high"
    if not explained:
        draft.notes.append("no verdict of an ace against another rank: ace high kept")


def most_common_length(runs):
    """The header lines a battle has, as most battles have them."""
    counted = Counter(len(header) for run in runs for header, _, _ in run.battles)
    return counted.most_common(1)[0][0] if counted else 0


def numbered(line, number):
    """A battle's header line as a template: its number put back as {number} where it says
    it once."""
    hits = re.findall(rf"(?<![\w-]){number}(?!\w)", line)
    if len(hits) > 1:
        return None
    return re.sub(rf"(?<![\w-]){number}(?!\w)", "{number}", escaped(line))


def aces_explaining(battle):
    """The aces ('low', 'high') under which a battle's verdict is the rules' (an ace
    against another rank only)."""
    found = []
    for ace in ("low", "high"):
        ranked = replace(READER, ace=ace)
        values = {player: value_of(ranked, card) for player, card in battle.cards.items()}
        aces = [card % len(READER.ranks) == len(READER.ranks) - 1
                for card in battle.cards.values()]
        if any(aces) and not all(aces) and max(values, key=values.get) == battle.verdict:
            found.append(ace)
    return found


# ---- The statistics

def stats_lines(draft, runs, players, name_of):
    """The statistics' templates, line by line: the players' names as {player1} and
    {player2}, each number the tally it equals in every run (the line's words saying
    which where several do), padded where the spaces after it fill a column."""
    counts = Counter(len(run.stats) for run in runs)
    length = counts.most_common(1)[0][0] if counts else 0
    names = {f"player{number + 1}": name for number, name in enumerate(players)}
    chosen, columns = [], None
    for part in range(length):
        said = [(run, run.stats[part]) for run in runs if len(run.stats) == length]
        fields, columns = stat_fields(draft, [(run.lines[at], counted_of(run))
                                              for run, at in said], players, columns)
        chosen.append(chosen_template(draft, "stats", [
            (run.seed, at + 1, run.lines[at], {**counted_of(run), **names},
             stats_template(run.lines[at], players, fields)) for run, at in said], name_of))
    if chosen and None not in chosen:
        draft.lines["stats"] = tuple(chosen)
    for run in runs:
        if len(run.stats) != length:
            draft.notes.append(f"seed {run.seed}: {len(run.stats)} lines after the last "
                               f"battle, not {length}")


def counted_of(run):
    """{wins1: ..., ties2: ...} of the run's own verdicts."""
    counted = tallies(run.judged, run.players)
    return {f"{stat}{player + 1}": value for (player, stat), value in counted.items()}


def stat_fields(draft, lines, players, columns):
    """([the field of each number of a stats line, or None: printed as is], the columns
    a heading names for the lines after it), from the line as each run prints it with
    the run's tallies ([(text, {field: value})]): of the fields each number equals in
    every run, the one its line's words name (its stat word, its player's name, else its
    place among the numbers of a stat)."""
    numbers = [[int(match[0]) for match in NUMBER.finditer(text)] for text, _ in lines]
    text = lines[0][0]
    stats = [STAT_WORDS.get(word, COLUMN_WORDS.get(word)) for word in
             map(str.lower, WORD.findall(text)) if word in STAT_WORDS or word in COLUMN_WORDS]
    if not numbers[0]:
        return [], (stats if len(stats) > 1 else columns)
    if len({len(found) for found in numbers}) != 1:
        return [], columns
    count = len(numbers[0])
    if not stats and columns and len(columns) == count:
        stats = columns
    if len(stats) != count:
        stats = stats[:1] * count if len(set(stats)) == 1 else [None] * count
    who = set(named(text, players))
    fields = []
    for place in range(count):
        candidates = [field for field in STATS_FIELDS[2:] if all(
            counted[field] == found[place] for (_, counted), found in zip(lines, numbers))]
        player = min(who) if len(who) == 1 else \
            stats[:place].count(stats[place]) if stats[place] else place
        wanted = [field for field in candidates if field.endswith(str(player + 1)) and
                  (stats[place] is None or field.startswith(stats[place]))]
        fields.append(wanted[0] if len(wanted) == 1 else
                      candidates[0] if len(candidates) == 1 else None)
        if fields[-1] is None and candidates:
            draft.notes.append(f"the statistics' line {text!r}: its number {place + 1} "
                               f"could be {', '.join(candidates)}: printed as is")
    return fields, columns


def stats_template(line, players, fields):
    """A stats line as a template: the players' names and each number of a field put back
    ({wins1}, padded {wins1:<12} where two spaces or more after it fill its column)."""
    spans = [(match.start(), match.end(), f"{{player{number + 1}}}")
             for number, name in enumerate(players)
             for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", line)]
    for match, field in zip(NUMBER.finditer(line), fields):
        if field is None:
            continue
        end = match.end()
        spaces = len(line[end:]) - len(line[end:].lstrip(" "))
        if spaces >= PADDING and end + spaces < len(line):
            spans.append((match.start(), end + spaces,
                          f"{{{field}:<{end + spaces - match.start()}}}"))
        else:
            spans.append((match.start(), end, f"{{{field}}}"))
    found, at = "", 0
    for start, end, field in sorted(spans):
        if start < at:
            return None
        found += escaped(line[at:start]) + field
        at = end
    return found + escaped(line[at:])
