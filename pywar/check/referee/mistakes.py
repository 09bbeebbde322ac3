"""The named deviations from the reference's rules that student programs make: one table,
read by the referee that keeps going (pywar.check.referee.judge) and by docs/grading.md.

Each deviation changes one step of a battle and is charged to one rubric item, once a
seed: once the referee has adopted it, it plays the rest of that game by it, and its
consequences (the counts it changes, the loss it brings) are never charged again.

    >>> DEVIATION["refill_lazy"].item
    'refill'
    >>> [d.name for d in DEVIATIONS if d.item == "ties"]
    ['tie_decided']
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Deviation:
    """One way a program departs from the rules: its name, the step it changes, the
    rubric item it costs, and what it did, in words."""
    name: str
    step: str          # plays, verdict, pickup, refill or end
    item: str
    sentence: str


DEVIATIONS = (          # in the order the referee tries them: the likelier first
    Deviation("ace_low", "verdict", "ranks",
              "the ace ranked low, below the two"),
    Deviation("winner_misnamed", "verdict", "ranks",
              "the wrong winner named: the pot went to the player with the higher card"),
    Deviation("tie_decided", "verdict", "ties",
              "a tie decided: a winner named where both cards share a rank"),
    Deviation("tie_returned", "pickup", "pickup",
              "the tied cards given back to their players' 'played' piles when the tie "
              "was broken, the winner taking only the last battle's cards"),
    Deviation("war_pot_to_play", "pickup", "pickup",
              "a tie's pot put on the winner's 'to play' pile (a plain battle's on its "
              "'played' pile)"),
    Deviation("pot_to_play", "pickup", "pickup",
              "the pot put on the winner's 'to play' pile, not its 'played' pile"),
    Deviation("pot_to_loser", "pickup", "pickup",
              "the pot given to the loser of the battle"),
    Deviation("pot_to_survivor", "end", "pickup",
              "the pot of a tie in which a player ran out given to the other player, where "
              "the rules leave it stranded"),
    Deviation("pot_lost", "pickup", "pickup",
              "part of the pot lost or left stranded: the winner took fewer cards than "
              "the pot held"),
    Deviation("refill_lazy", "refill", "refill",
              "a silent, lazy refill: the 'played' pile turned over only when a card is "
              "needed, and no refill lines"),
    Deviation("refill_silent", "refill", "refill",
              "a refill done at the right time but without its lines"),
    Deviation("counts_before_refill", "refill", "refill",
              "the counts printed before the refill"),
    Deviation("refill_never", "refill", "refill",
              "no refill: a player whose 'to play' pile is empty lost while its 'played' "
              "pile still held cards"),
    Deviation("refill_from_empty", "refill", "refill",
              "a refill printed from an empty 'played' pile"),
    Deviation("play_after_out", "end", "end",
              "play going on after a player ran out of cards during a tie"),
)
DEVIATION = {deviation.name: deviation for deviation in DEVIATIONS}

# What a transcript cannot show, said in docs/grading.md: a deck dealt in halves
# instead of alternately (the deal as listed is all the referee knows), whether a refill
# really shuffled, and the order in which a pot joins the winner's cards.
