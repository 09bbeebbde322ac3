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


def needs_tools(*tools):
    """A skip for a test module when a program it runs is missing (a failure where
    PYWAR_REQUIRE_GRADE is set, as in CI)."""
    import os
    import shutil
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing and os.environ.get("PYWAR_REQUIRE_GRADE"):
        pytest.fail(f"{', '.join(missing)} missing (apt-get install g++ valgrind)", pytrace=False)
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} missing")
