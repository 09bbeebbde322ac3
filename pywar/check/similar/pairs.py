"""Every pair of a class ranked by one score from 0 to 1, most alike first, with its
evidence: this term's submissions each with each other, and each with every past one of
--archive (past terms are not compared with each other).

A pair's score is the stronger of its two kinds of evidence: its source's (the mean of
the two shares of code that the other holds) and, where the class was graded, its
behaviour's (none for a pair with a program the grading lacks or ran on no seed: what it
did is unknown).
Either kind alone may be strong (a copy with every line reworded prints
its own; a rewrite of another's program may print the same rare lines); neither lowers
the other.
"""

from dataclasses import dataclass
from itertools import combinations

from ..referee.mistakes import MISTAKE
from . import behaviour, source
from .behaviour import SHOWN

VERDICT = ("A score is evidence for a person to weigh, never a verdict: read both "
           "programs. Two students may share code they were allowed to (the handout, the "
           "lecture's), and a mistake that many make is no sign of a copy.")


@dataclass
class Pair:
    """Two submissions (b perhaps a past term's), the Match of their code and the Shared
    of their behaviour (None where not compared), and which of the two the grading cannot
    tell of (behaviour.unknown)."""
    a: str
    b: str
    match: source.Match
    shared: behaviour.Shared = None
    archived: bool = False
    unknown: tuple = ()         # (name, why) of the two whose behaviour is unknown

    def score(self):
        """The pair's one score: the stronger of source and behaviour."""
        by_source = self.match.score()
        return by_source if self.shared is None else max(by_source, self.shared.score)


def ranked(codes, archive=(), traits=None, unknown=None):
    """Every Pair of codes (source.Code), and each of codes with each of archive, most
    alike first; traits (behaviour.traits_of's, by name: None for no grading) for the
    class's behaviour, and unknown (behaviour.unknown's) the names it left out, and why."""
    unknown = unknown or {}
    weights = behaviour.weigh(traits) if traits else {}
    counts = behaviour.counted(traits) if traits else {}

    def shared(a, b):
        """The behaviour two submissions share, or None without both's traits."""
        if traits is None or a not in traits or b not in traits:
            return None
        return behaviour.compare(traits[a], traits[b], weights, counts, len(traits))

    found = [Pair(a.name, b.name, source.compare(a, b), shared(a.name, b.name),
                  unknown=tuple((name, unknown[name]) for name in (a.name, b.name)
                                if name in unknown))
             for a, b in combinations(codes, 2)]
    found += [Pair(a.name, b.name, source.compare(a, b), archived=True)
              for a in codes for b in archive]
    return sorted(found, key=lambda pair: (-pair.score(), pair.a, pair.b))


def trait_json(trait, weight, count, place_a, place_b, of):
    """A shared trait as JSON: a line of their own, or a mistake (with the seeds each
    made it on)."""
    kind, *what = trait
    found = {"kind": kind, "shown_by": count, "of": of, "weight": round(weight, 6),
             "a": place_a.to_json(), "b": place_b.to_json()}
    if kind == "line":
        found.update(text=what[0])
    else:
        found.update(mistake=what[0], sentence=MISTAKE[what[0]].sentence)
    return found


def pair_json(pair):
    """A Pair as JSON: both names, the score, each kind's, what behaviour's stands on,
    and the evidence."""
    sides = {side: {"share": round(share, 6), "regions": [r.to_json() for r in regions]}
             for side, share, regions in zip("ab", pair.match.shares, pair.match.regions)}
    shared = pair.shared
    return {"a": pair.a, "b": pair.b, "archived": pair.archived,
            "score": round(pair.score(), 6), "source": round(pair.match.score(), 6),
            "behaviour": None if shared is None else round(shared.score, 6),
            "behaviour_on": None if shared is None else shared.evidence_json(),
            "unknown": [{"name": name, "why": why} for name, why in pair.unknown],
            "evidence": {"source": sides, "behaviour": None if shared is None else
                         [trait_json(*found, shared.of) for found in shared.traits[:SHOWN]]}}
