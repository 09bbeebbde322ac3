"""The one table of a game's result fields (pywar.common.fields) against the C structs
that cffi reads from csrc/pywar.h, and the places that are built from it."""

import dataclasses
import re
from pathlib import Path

import pytest

import pywar
from pywar.common import fields
from pywar.rules import PRESETS, c_numbers

PACKAGE = Path(pywar.__file__).parent
C_TYPES = {"int8": "int8_t", "int32": "int32_t", "uint64": "uint64_t"}


@pytest.fixture(scope="module")
def ffi():
    """The compiled core's ffi (the test is skipped without it)."""
    return pytest.importorskip("pywar._core").ffi


def test_the_table_is_the_result_struct(ffi):
    """Every PywarResult field is a row, in struct order, and no row is missing."""
    struct = [name for name, _ in ffi.typeof("PywarResult").fields]
    assert struct == [row.name for row in fields.FIELDS]


def test_the_batch_arrays_are_the_batch_struct(ffi):
    """The batch arrays are PywarBatch's pointers, with the element types of the table's
    dtypes; the war depths are the batch's summed array."""
    pointers = {name: field.type.item.cname for name, field in ffi.typeof("PywarBatch").fields
                if field.type.kind == "pointer" and name != "stop"}
    assert pointers == {name: C_TYPES[dtype] for name, dtype in fields.BATCH_FIELDS.items()}
    assert "war_depths" in dict(ffi.typeof("PywarBatch").fields)


def test_result_field_types_match_the_c_types(ffi):
    """A row with a batch dtype is a C field of that width in PywarResult (the winner and
    the outcome are ints in the result, bytes in the batch)."""
    struct = dict(ffi.typeof("PywarResult").fields)
    for row in fields.FIELDS:
        if row.dtype in ("int32", "uint64"):
            assert struct[row.name].type.cname == C_TYPES[row.dtype], row.name


def test_c_numbers_are_the_rules_struct_by_name(ffi):
    """c_numbers names every PywarRules field, in struct order (the drivers read them so),
    but the last, rng_path, which is no rule (pywar._checked.c_rules adds it)."""
    struct = [name for name, _ in ffi.typeof("PywarRules").fields]
    assert struct[-1] == "rng_path"
    for rules in PRESETS.values():
        assert list(c_numbers(rules)) == struct[:-1]


def test_game_result_has_every_field_and_the_game():
    """GameResult, written out, holds the table's fields between what was played and the
    texts: those that every engine has always given first, in the table's order, then
    the statistics, each with a default."""
    result = dataclasses.fields(pywar.GameResult)
    names = [field.name for field in result]
    assert names[:3] == ["rules", "seed", "engine"] and names[-2:] == ["transcript", "trace"]
    assert sorted(names[3:-2]) == sorted(row.name for row in fields.FIELDS)
    order = {row.name: i for i, row in enumerate(fields.FIELDS)}
    required = [name for name, field in zip(names, result) if field.default is dataclasses.MISSING]
    later = [name for name in names[3:-2] if name not in required]
    assert required[3:] == sorted(required[3:], key=order.get)
    assert later == sorted(later, key=order.get)


def test_counts_are_the_table_in_order():
    """Counts, written out, has one field a row, in the table's order, each starting as
    C's zeroed struct does (pywar_play zeroes PywarResult; the digest starts at FNV-1a's
    offset basis, no cycle is -1)."""
    names = [field.name for field in dataclasses.fields(fields.Counts)]
    assert names == [row.name for row in fields.FIELDS]
    zero = fields.Counts()
    assert [getattr(zero, row.name) for row in fields.FIELDS if row.kind == "count"] == \
        [0] * len(fields.COUNTS)
    assert (zero.winner, zero.outcome, zero.cycle_start, zero.digest) == \
        (None, "win", None, 0xcbf29ce484222325)


def test_the_c_header_is_written_from_the_table():
    """csrc/fields.h is what pywar/_build.py writes from the table now: a column per row
    with a batch dtype, in order, and the count of them."""
    from pywar import _build
    text = _build.write_header().read_text()
    assert text == _build.header_text()
    columns = re.findall(r"X\((\w+), (\w+)\)", text)
    assert columns == [(name, C_TYPES[dtype]) for name, dtype in fields.BATCH_FIELDS.items()]
    assert f"#define PYWAR_COLUMN_COUNT {len(columns)}" in text
    seatless = text.split("#define PYWAR_SEATLESS(rules)")[1]
    assert re.findall(r"PYWAR_PICKUP_(\w+)", seatless) == [
        "WINNER_FIRST", "LOSER_FIRST", "SORTED", "NATURAL"]
    assert re.findall(r"PYWAR_SHORT_(\w+)", seatless) == ["IOFALL"]


def test_the_seatless_rules_are_named_as_the_rules_name_them():
    """Each pickup and short war of the seatless table is a value of its dimension."""
    from pywar.rules import PICKUPS, SHORT_WARS
    assert set(fields.SEATLESS_PICKUPS + fields.SEATLESS_WITHOUT_FACE_DOWN) <= set(PICKUPS)
    assert set(fields.SEATED_SHORT_WARS) <= set(SHORT_WARS)


def test_the_statistics_are_listed_in_three_files_at_most():
    """The per-game statistics are listed (two or more of them named) in the table, the
    twin's count and the port's observer's count, and in no other module: the rest is
    built from the table."""
    newest = [row.name for row in fields.FIELDS if row.spread]
    names = [re.compile(rf"""[."']{name}\b(?!\()""") for name in newest]   # x.name, "name"
    listing = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                     if sum(bool(name.search(path.read_text())) for name in names) >= 2)
    assert "common/fields.py" in listing
    assert len(listing) <= 3, listing
