"""Shared test helpers: where the reference data lies, and which engines exist."""

from pathlib import Path

import pytest

from pywar import _checked

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parent.parent

needs_c = pytest.mark.skipif(not _checked.available(), reason="the C core is not built")


def reference_transcript(seed):
    """The SMU reference program's transcript of a seed, as captured."""
    return (DATA / f"seed-{seed}.txt").read_text()


def reference_digests():
    """(seed, sha256, rounds) rows of digests-0-100.tsv."""
    lines = (DATA / "digests-0-100.tsv").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in lines]
    return [(int(seed), sha, int(rounds)) for seed, sha, rounds in rows]
