"""The reference's program4.cpp: main, the loop of rounds. C: csrc/port/program4.c."""

from .pile import text_printf
from .tabletop import TableTop


def main(seed, stack="pile", text=None, trace=None):
    """main: play the game of the seed, a round at a time, until someone runs out of
    cards; return the observer's counts. C: pywar_port_play."""
    table_top = TableTop(seed, stack, text, trace)
    someone_ran_out_of_cards = False
    round = 1
    while not someone_ran_out_of_cards:
        table_top.observer.round()
        text_printf(text, f"======== Round {round} ========\n")
        round += 1
        someone_ran_out_of_cards = table_top.do_battle()
    table_top.observer.end()
    counts = table_top.observer.result
    table_top.destroy()
    return counts
