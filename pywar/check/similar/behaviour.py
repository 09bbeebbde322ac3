"""Similarity by behaviour: what a grading saw each program do, compared pair by pair.

A program's traits are the lines of its own (a line's shape, its cards, numbers and
players' letters blanked, that the reference never prints) with the first place it printed each, from
pywar grade --keep's transcripts, and its mistakes (a mistake's row, with the seeds it
was seen on), from pywar grade --json: a mistake made on every seed is one trait, not one
a seed.  A trait weighs log(N / n), where n of the class's N programs show it: a trait
that every program shows weighs nothing, one that two alone show weighs most, log(N / 2).
Any two programs may share one trait by chance, however rare; so a pair's score is the
weight of the traits it shares, less one rare trait's worth (log(N / 2)), over the
weight of those either shows: two programs that share one mistake and nothing else
score 0, and the score grows with each trait more they share.

    >>> shape("Player A plays ace of spades"), shape("Round 12!  A takes 4 cards")
    ('Player <p> plays <card>', 'Round <n>!  A takes <n> cards')
    >>> traits = {"a": {("line", "x"): 1, ("line", "y"): 1}, "b": {("line", "x"): 1},
    ...           "c": {("line", "y"): 1}, "d": {}}
    >>> weigh(traits)[("line", "x")] == math.log(4 / 2) == allowance(4)
    True
    >>> compare(traits["a"], traits["b"], weigh(traits), counted(traits), 4).score
    0.0
"""

import gzip
import math
import os
import re
from dataclasses import dataclass

from ...common.fields import SEED_LIMIT
from ..submission.names import kept_name
from ..referee.mistakes import MISTAKE
from ..referee.words import RANKS, SUITS
from ..submission.bounds import MIB
from ..submission.regular import regular_file

CARD = re.compile(r"\b(?:%s|[2-9]|10|[jqka])\s+of\s+(?:%s)s?\b" % ("|".join(RANKS),
                                                                   "|".join(SUITS)), re.I)
NUMBER = re.compile(r"\d+")
PLAYER = re.compile(r"\b(player) [AB]\b", re.I)  # a player named: "Player A wins the loot!"
                                                # and its twin for B are one wording
REFERENCE_SEEDS = (1553, 17455, 12)     # games whose lines hold every shape the reference
                                        # prints: the deal, battles, ties, refills, the end
READ_BYTES = 4 * MIB            # a kept run's first 4 MiB are read: its lines of
                                        # its own come early, a flood repeats them
SHOWN = 10                              # traits the JSON shows as a pair's evidence, the
                                        # rarest
LINE_CHARS = 200                        # a line's first characters make its trait: a program
                                        # looping on one line without an end (cut at 4 MiB)
                                        # would put 4 MiB in every pair's evidence


def shape(line):
    """A line with its cards, numbers and players' letters blanked: what a program's
    wording is."""
    return PLAYER.sub(r"\1 <p>", NUMBER.sub("<n>", CARD.sub("<card>", line)))


def reference_shapes():
    """The shapes of every line the reference prints (in a few of its games)."""
    from ...one_game import play
    return {shape(line) for seed in REFERENCE_SEEDS
            for line in play(seed, "smu", transcript=True).transcript.split("\n")}


@dataclass
class Seen:
    """Where a program showed a trait: a seed, and a line of its kept run (or None), or
    for a mistake every seed it was seen on (its first the seed)."""
    seed: int
    line: int = None
    seeds: tuple = ()

    def to_json(self):
        """{"seed", "line"} or {"seed", "seeds"}, without what it has not."""
        return {"seed": self.seed, **({"line": self.line} if self.line else {}),
                **({"seeds": list(self.seeds)} if self.seeds else {})}


def read_kept(path):
    """The first READ_BYTES of a kept run's output (seed-N.txt, or .txt.gz), no link
    followed; None where it cannot be read."""
    try:
        with regular_file(path) as file:
            if path.endswith(".gz"):
                with gzip.GzipFile(fileobj=file) as unzipped:
                    return unzipped.read(READ_BYTES)
            return file.read(READ_BYTES)
    except (OSError, EOFError):             # none, or a gzip that is not one, cut short
        return None


def kept_runs(folder):
    """(seed, path) of each run kept in one submission's folder of --keep DIR (none where
    that folder is a link: pywar grade makes none)."""
    found = []
    if os.path.islink(folder):
        return found
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        matched = re.fullmatch(r"seed-(\d+)\.txt(\.gz)?", name)
        if matched:
            found.append((int(matched.group(1)), os.path.join(folder, name)))
    return sorted(found)


def line_traits(folder, known):
    """The lines of its own a program printed in its kept runs: {("line", shape): where
    it first printed it, a Seen}."""
    traits = {}
    for seed, path in kept_runs(folder):
        data = read_kept(path)
        if data is None:
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            found = shape(line.rstrip("\r")[:LINE_CHARS])
            if found not in known and ("line", found) not in traits:
                traits[("line", found)] = Seen(seed, number)
    return traits


def mistake_traits(graded):
    """A graded submission's mistakes (pywar grade --json's mistakes_by_seed), each one
    trait whatever the seeds it was seen on: {("mistake", row): a Seen of those seeds}.
    A mistake the program makes on every seed is one choice it made, not one a seed."""
    seeds = {}
    found = (graded or {}).get("mistakes_by_seed")
    for text, rows in (found.items() if isinstance(found, dict) else ()):
        seed = seed_of(text)
        if seed is None or not isinstance(rows, list):
            continue                    # a file of pywar's, edited: what it cannot mean
        for row in rows:
            if isinstance(row, str) and row in MISTAKE:
                seeds.setdefault(row, set()).add(seed)
    return {("mistake", row): Seen(min(where), seeds=tuple(sorted(where)))
            for row, where in seeds.items()}


def seed_of(text):
    """A key of mistakes_by_seed as its seed: the ASCII digits of a seed pywar plays (0 to
    2^32 - 1), else None ('\u00b2' is a digit to str.isdigit, and int() refuses it)."""
    if not (isinstance(text, str) and text.isascii() and text.isdigit()
            and len(text) <= len(str(SEED_LIMIT))):
        return None
    return int(text) if int(text) < SEED_LIMIT else None


NOT_GRADED = "is not in the grading"
NOT_RUN = "was run on no seed by the grading"


def seeds_run(graded):
    """How many seeds a grade JSON's submission was run on (its runs item's "of"), or None
    where the file does not say."""
    items = graded.get("items")
    runs = items.get("runs") if isinstance(items, dict) else None
    found = runs.get("of") if isinstance(runs, dict) else None
    return found if isinstance(found, int) else None


def unknown(names, grades):
    """{name: why} of the names whose behaviour a grade JSON's dict (or None) cannot tell:
    not in it, or run on no seed (a build that failed).  Unknown is not none: such a
    program is left out of the comparison by behaviour."""
    if grades is None:
        return {}
    graded = {sub["name"]: sub for sub in grades.get("submissions", [])
              if isinstance(sub, dict) and isinstance(sub.get("name"), str)}
    return {name: NOT_GRADED if name not in graded else NOT_RUN for name in names
            if name not in graded or seeds_run(graded[name]) == 0}


def traits_of(names, kept=None, grades=None):
    """Each submission's traits by name, from a --keep DIR and a grade JSON's dict (either
    may be None); the names whose behaviour the grade JSON cannot tell are left out
    (unknown)."""
    known = reference_shapes() if kept is not None else set()
    graded = {sub["name"]: sub for sub in (grades or {}).get("submissions", [])
              if isinstance(sub, dict)}
    left_out = unknown(names, grades)
    found = {}
    for name in names:
        if name in left_out:
            continue
        traits = {}
        if kept is not None:
            traits.update(line_traits(os.path.join(kept, kept_name(name)), known))
        traits.update(mistake_traits(graded.get(name)))
        found[name] = traits
    return found


def weigh(traits):
    """Each trait's weight in the class: log(N / n), n of the N programs showing it."""
    return {trait: math.log(len(traits) / count) for trait, count in counted(traits).items()}


def allowance(of):
    """What two of a class of `of` programs may share by chance: one rare trait's worth,
    the weight of a trait that two alone show, log(of / 2)."""
    return math.log(of / 2) if of > 2 else 0.0


@dataclass
class Shared:
    """A pair's similarity by behaviour, what it stands on, and the rarest traits the two
    share."""
    score: float
    traits: list                # (trait, its weight, how many show it, Seen in a, in b),
                                # every trait shared that weighs something, rarest first
    shared: int = 0             # traits the two share that weigh something
    weight: float = 0.0         # their weight
    either: float = 0.0         # the weight of the traits either shows
    allowed: float = 0.0        # the weight taken off as chance's: allowance(of)
    of: int = 0                 # the programs compared by behaviour, the weights' class

    def evidence_json(self):
        """What the score stands on, as JSON."""
        return {"traits": self.shared, "weight": round(self.weight, 6),
                "allowance": round(self.allowed, 6), "either": round(self.either, 6),
                "of": self.of}


def compare(a, b, weights, counts, of):
    """The Shared of two programs' traits ({trait: Seen}), by the weights of their class
    of `of` programs: (shared weight - allowance(of)) / the weight either shows, at
    least 0."""
    both = [trait for trait in set(a) & set(b) if weights[trait] > 0]
    weight = math.fsum(weights[trait] for trait in both)      # in any order, the same
    either = math.fsum(weights[trait] for trait in set(a) | set(b))
    allowed = allowance(of)
    score = max(0.0, weight - allowed) / either if either else 0.0
    rarest = sorted(both, key=lambda trait: (-weights[trait], repr(trait)))
    return Shared(score, [(trait, weights[trait], counts[trait], a[trait], b[trait])
                          for trait in rarest], len(both), weight, either, allowed, of)


def counted(traits):
    """How many programs show each trait."""
    counts = {}
    for shown in traits.values():
        for trait in shown:
            counts[trait] = counts.get(trait, 0) + 1
    return counts
