"""The format: the reference's words and layout, judged at the first line that departs
from them (one item, one example), each departure named by its row of the mistakes."""

from .lines import KIND, reference_words, refill_words
from .mistakes import ROW
from .rubric import RUBRIC
from .words import OPENING, round_line

BLANK_AFTER = {KIND.welcome, KIND.deck, KIND.initial, KIND.wins, KIND.tie}
DEAL_KINDS = {KIND.welcome, KIND.deck, KIND.initial, KIND.pile, KIND.size,
              KIND.listed}                                  # before the battles only


def first_departure(lines, meanings, misnamed, wording=None):
    """(line index, what the reference has there, the mistake) of the first line that
    departs from the reference's words or layout (an assignment's wording's words, where
    given, in the reference's layout), or None.  misnamed: the indexes of refill lines
    that name the other player."""
    blank_due = played = False
    rounds = 0
    opening = OPENING if wording is None else wording.opening
    for index, (text, found) in enumerate(zip(lines, meanings)):
        if wording is not None and index < len(opening):
            if text != opening[index]:          # an assignment's opening: line for line
                return index, repr(opening[index]), (ROW.blank_lines if "" in (
                    text, opening[index]) else ROW.other_words if found else ROW.extra_lines)
            continue
        if wording is None and index < len(OPENING) and OPENING[index] and \
                text != OPENING[index]:
            return index, repr(OPENING[index]), ROW.other_words if found else ROW.extra_lines
        if text == "":
            if not blank_due:
                return index, "no blank line here", ROW.blank_lines
            blank_due = False
            continue
        if blank_due:
            return index, "a blank line", ROW.blank_lines
        if len(found) != 1:
            if not found:
                return index, ("only the reference's lines (this line is not one the "
                               "reference prints)"), ROW.extra_lines
            return (index, "one thing a line (the reference prints each on its own)",
                    ROW.two_on_a_line)
        said = found[0]
        played = played or said.kind in (KIND.round, KIND.plays)
        if played and said.kind in DEAL_KINDS:
            return (index, "only the reference's lines (it prints no such line once the "
                    "game has begun)", ROW.extra_lines)
        if said.kind == KIND.round:                # the reference numbers its rounds from 1
            rounds += 1
        words = (reference_line(said, text, rounds, index in misnamed) if wording is None
                 else assignment_line(wording, said, text, rounds, index in misnamed))
        if words != text:
            shown = "the reference's words" if words is None else repr(words)
            return index, shown, words_mistake(said, text, index in misnamed)
        blank_due = (blank_before_next(said, meanings, index) if wording is None else
                     blank_in(wording, said, meanings, index)) or (
            said.kind == KIND.refill and refill_ends(said, text, wording))
    return None


def blank_before_next(said, meanings, index):
    """Whether the reference prints a blank line after a line (but a refill's): after its
    opening's lines, a verdict, a pile's last card, the second player's counts."""
    return said.kind in BLANK_AFTER or pile_ends(said, meanings, index) or (
        said.kind == KIND.counts and said.player == 1)


def blank_in(wording, said, meanings, index):
    """Whether an assignment's wording has a blank line after a line (its blank_after; a
    pile's listing ends at its last card, the counts at the last player's)."""
    if said.kind not in wording.blank_after:
        return False
    if said.kind == KIND.listed:
        return pile_ends(said, meanings, index)
    if said.kind == KIND.counts:
        return said.player == len(wording.players) - 1
    return True


def pile_ends(said, meanings, index):
    """Whether a line lists a pile's last card (the next line lists none): a blank line is
    due after it, however many cards the pile holds."""
    following = meanings[index + 1] if index + 1 < len(meanings) else []
    return said.kind == KIND.listed and not (following and following[0].kind == KIND.listed)


def refill_ends(said, text, wording=None):
    """Whether a refill's line is its last before a blank one: the reference's
    'Shuffling ...' line, or the last line of an assignment's refill whose lines end in a
    blank one."""
    if wording is None:
        return text.startswith("Shuffling")
    parts = wording.line("refill", player=said.player)
    printed = [part for part in parts if part]
    return bool(parts) and parts[-1] == "" and bool(printed) and text == printed[-1]


def assignment_line(wording, said, text, rounds, misnamed):
    """An assignment's own line for what a line says (None where it has no single
    line: a kind its wording has not, a listed card without its place)."""
    kind = said.kind
    if kind == KIND.round:
        return wording.line("round", number=rounds)
    if kind == KIND.refill:
        printed = [part for part in wording.line("refill", player=said.player) if part]
        if misnamed:
            return printed[1] if len(printed) > 1 else None
        return text if text in printed else None
    made = {KIND.pile: lambda: wording.line("pile", player=said.player),
            KIND.size: lambda: wording.line("size", count=said.number),
            KIND.listed: lambda: None if said.number is None else wording.line(
                "listed", place=said.number, card=said.card),
            KIND.plays: lambda: wording.line("plays", player=said.player, card=said.card),
            KIND.wins: lambda: wording.line("wins", player=said.player),
            KIND.tie: lambda: wording.line("tie"),
            KIND.counts: lambda: wording.line("counts", player=said.player,
                                              to_play=said.to_play, played=said.played),
            KIND.lost: lambda: wording.line("lost", player=said.player),
            KIND.blank: lambda: ""}
    return made[kind]() if kind in made else None


def reference_line(said, text, rounds, misnamed):
    """The reference's own line for what a line says (None where it has no single line)."""
    if said.kind == KIND.round:
        return round_line(rounds)
    if said.kind == KIND.refill:
        if misnamed:
            return refill_words(said.player)[1]
        return text if text in refill_words(said.player) else None
    return reference_words(said)


def words_mistake(said, text, misnamed):
    """The row of a line in other words than the reference's."""
    if said.ace_as_one:
        return ROW.ace_one
    if said.kind == KIND.round and text == round_line(said.number):
        return ROW.rounds_misnumbered
    if misnamed:
        return ROW.refill_misnamed
    return ROW.other_words


def judge_layout(judge, meanings):
    """Note the format's first departure on the judge (with none, a listing top first or
    numbered from 0); a listing's orientation, its numbering and the ace printed as one
    are mistakes of the file wherever they come."""
    opening = OPENING if judge.wording is None else judge.wording.opening or ("a line",)
    if not judge.lines:
        return judge.note(RUBRIC.format, 0, f"the reference's opening, {opening[0]!r}",
                          mistake=ROW.no_output)
    judge.test(RUBRIC.format)
    found = first_departure(judge.lines, meanings, judge.misnamed, judge.wording)
    if found is not None:
        index, required, mistake = found
        judge.note(RUBRIC.format, index, required, mistake=mistake)
    listing = []
    if judge.top_first is not None:
        listing.append((judge.top_first, "the piles listed bottom card first (Card 1 is the "
                        "bottom, Card 26 the first played)", "they are listed top card "
                        "first", ROW.top_first))
    if judge.numbered_from:
        listing.append((judge.numbered_from[0], "the cards of a pile numbered from 1", None,
                        ROW.from_zero))
    for number, (at, required, said, mistake) in enumerate(listing):
        if found is None and number == 0:
            judge.note(RUBRIC.format, at, required, said, mistake)
        else:
            judge.found(mistake)
    if judge.ace_as_one is not None:
        judge.found(ROW.ace_one)
    return None
