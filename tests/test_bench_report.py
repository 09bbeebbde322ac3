"""bench/report.py says which targets a run missed and whether the machine was loaded."""

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import report  # noqa: E402

sys.path.pop(0)

TABLE = [("smu over the naive loop", "1.98x (1.79 to 2.43)", ">= 2.0x"),
         ("iofall over the loop", "1.24x (1.11 to 1.43)", ">= 1.1x"),
         ("smu: C core, games/s", "34,158", ">= 35,000 (no slower than before the split)"),
         ("cffi over plain C", "0.927", "<= 1.05"),
         ("cffi over plain C, slow", "1.061", "<= 1.05"),
         ("twin, games/s", "86", "")]


def test_the_missed_targets_are_the_rows_past_their_bound():
    """1.98 < 2.0, 34,158 < 35,000 and 1.061 > 1.05 miss; the rest meet theirs or have none."""
    assert [what for what, _, _ in report.missed(TABLE)] == [
        "smu over the naive loop", "smu: C core, games/s", "cffi over plain C, slow"]


def test_a_number_is_read_with_its_thousands():
    assert report.number("1,234.5x") == 1234.5 and report.number(">= 35,000 (x)") == 35000


def test_the_load_says_loaded_past_half_the_cores():
    """On 2 cores, a load average of 1.3 after the run is loaded; 0.4 and 0.7 are quiet."""
    loaded = {"load_average": {"start": [0.4, 0, 0], "end": [1.3, 0, 0], "cores": 2}}
    quiet = {"load_average": {"start": [0.4, 0, 0], "end": [0.7, 0, 0], "cores": 2}}
    assert report.load_line(loaded).startswith("Load: loaded")
    assert report.load_line(quiet).startswith("Load: quiet")
    assert "not recorded" in report.load_line({})


def test_a_path_faster_than_the_best_is_a_missed_target():
    """Whole games on each generator path: games/s from the median seconds, and a path
    whose time over the best's is under 1.0 (scalar, 0.91) misses; the best's own ratio
    is no row."""
    info = {"games": 1000, "best": "avx2", "seconds": {"scalar": [0.5, 0.4, 0.6],
                                                       "avx2": [0.5, 0.5, 0.5]},
            "over_best": {"scalar": 0.91, "avx2": 1.0}}
    table = report.path_rows({"test_rng_paths[iofall]": (0.0, info)})
    assert table[0] == ("iofall: C core, games/s on each generator path",
                        "scalar 2,000; avx2 2,000", "")
    assert [figure for _, figure, _ in table[1:]] == ["0.91x"]
    assert [what for what, _, _ in report.missed(table)] == [table[1][0]]
