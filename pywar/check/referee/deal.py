"""The deal as a transcript lists it, checked: 26 different cards for each player, each
pile's size as listed; and the listing's orientation, told by the first battle."""

from dataclasses import dataclass, field

from .lines import KIND
from .mistakes import ROW
from .quote import line_shown
from .rubric import RUBRIC
from .shuffled import natural
from .table import Table
from .words import DECK, HAND, cards, player, the_card


@dataclass
class Deal:
    """What the lines before the first battle list: each pile's Events, its printed size,
    the table they set up, and whether the deal is sound (26 different cards each)."""
    piles: list = field(default_factory=lambda: [[], []])
    sizes: dict = field(default_factory=dict)           # player -> (Event, size)
    table: Table = field(default_factory=Table.empty)
    sound: bool = False
    checked: bool = False

    def cards_of(self, number):
        """A player's cards as listed."""
        return [event.card for event in self.piles[number]]

    def numbered_from(self):
        """The first listed Event of each pile whose numbering does not start at 1."""
        return [pile[0] for pile in self.piles if pile and pile[0].said.number not in (1, None)]


def listing(seen):
    """The piles and sizes the deal's lines list."""
    deal, current = Deal(), None
    for event in seen:
        if event.kind == KIND.pile:
            current = event.player
        elif event.kind == KIND.size and current is not None:     # a pile's own size
            deal.sizes.setdefault(current, (event, event.said.number))
        elif event.kind == KIND.listed:
            owner = current if current is not None else (0 if len(deal.piles[0]) < HAND else 1)
            deal.piles[owner].append(event)
    return deal


def check_deal(seen, note, complete, went_on):
    """The Deal of the lines before the first battle, each fault noted (note(item, at,
    required, said, mistake)); not checked when the run stopped before the deal was over."""
    deal = listing(seen)
    listed = [event.card for pile in deal.piles for event in pile]
    if not complete and not went_on and len(listed) < DECK:
        return deal                     # it stopped before the deal was over: not checked
    deal.checked = True
    if not listed:
        note(RUBRIC.deal, seen[-1] if seen else None, "the deal listed: 26 cards for each player",
             "no listing of the deal", ROW.deal_not_listed)
        return deal
    deal.sound = True
    for number, pile in enumerate(deal.piles):
        if len(pile) != HAND:
            deal.sound = False
            note(RUBRIC.deal, pile[-1] if pile else seen[-1], f"{HAND} cards for each player",
                 f"{cards(len(pile))} listed for {player(number)}", ROW.deal_short)
    for number, (event, size) in deal.sizes.items():
        if size != len(deal.piles[number]):
            note(RUBRIC.deal, event, f"the number of cards listed, {len(deal.piles[number])}",
                 line_shown(event.text), ROW.deal_size_wrong)
    first_seen = {}
    for event in (event for pile in deal.piles for event in pile):
        if event.card in first_seen:
            deal.sound = False
            note(RUBRIC.deal, event, f"{DECK} different cards", f"{the_card(event.card)} a second "
                 f"time (first on line {first_seen[event.card] + 1})", ROW.deal_repeats)
        first_seen.setdefault(event.card, event.index)
    if deal.sound and all(natural(deal.cards_of(number)) for number in (0, 1)):
        note(RUBRIC.deal, deal.piles[0][0], "a deck shuffled before the deal", "the cards listed "
             "in a natural order of the deck (by suit or by rank): not shuffled",
             ROW.deal_unshuffled)
    for number in (0, 1):
        dealt = deal.cards_of(number)
        deal.table.order[number] = dealt[::-1]          # bottom first, as the reference
        deal.table.to_play[number] = set(dealt)
        deal.table.count[number] = [len(dealt), 0]
    return deal


def top_first_listing(deal, table, battle):
    """The first listed Event of a pile if the first battle shows the piles listed top
    first (the table's orders turned over then), else None."""
    for number, event in battle.plays.items():
        order = table.order[number]
        if order and event.card == order[-1] and event.card != order[0]:
            table.order = [pile[::-1] if pile else pile for pile in table.order]
            return deal.piles[number][0]
    return None
