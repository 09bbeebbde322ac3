"""Benchmark fixtures: the plain-C driver, built with the extension's own flags."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pywar"))
from _build import compile_args  # noqa: E402  (the builder: the flags the extension uses)

sys.path.pop(0)


def build(tmp_path_factory, name, sources):
    """A program of bench/ compiled as the extension is: Python's CFLAGS, then the
    builder's flags, and -fPIC."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    compile_flags, link_flags = compile_args()
    binary = tmp_path_factory.mktemp(name) / name
    python_flags = (sysconfig.get_config_var("CFLAGS") or "").split()
    subprocess.run([compiler, *python_flags, *compile_flags, *link_flags, "-fPIC",
                    f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}", *sources,
                    "-o", str(binary)], check=True)
    return binary


@pytest.fixture(scope="session")
def tight(tmp_path_factory):
    """The single-purpose loops by preset, built as the engine is: bench/tight_iofall.c,
    and bench/tight_smu.c, the naive smu loop (its own rand(), so no csrc/common/rng.c)."""
    return {"iofall": build(tmp_path_factory, "tight_iofall",
                            [str(ROOT / "bench" / "tight_iofall.c"),
                             str(ROOT / "csrc" / "common" / "rng.c")]),
            "smu": build(tmp_path_factory, "tight_smu", [str(ROOT / "bench" / "tight_smu.c")])}


@pytest.fixture(scope="session")
def driver(tmp_path_factory):
    """bench/driver.c and csrc/: the engine's batch in plain C, built as the extension is."""
    sources = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    return build(tmp_path_factory, "driver", [str(ROOT / "bench" / "driver.c"), *sources])


LOAD_AT_START = os.getloadavg()        # the machine's load before the first benchmark


def pytest_benchmark_update_machine_info(config, machine_info):
    """Keep the load average (1, 5 and 15 minutes) before the run and after it in the
    JSON file, so that bench/report.py can say whether the machine was loaded."""
    machine_info["load_average"] = {"start": list(LOAD_AT_START),
                                    "end": list(os.getloadavg()),
                                    "cores": os.cpu_count()}
