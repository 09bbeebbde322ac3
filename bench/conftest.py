"""Benchmark fixtures: the plain-C driver, built with the extension's own flags."""

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


@pytest.fixture(scope="session")
def driver(tmp_path_factory):
    """bench/driver.c and csrc/, compiled as the extension is: Python's CFLAGS, then
    the builder's flags, and -fPIC."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    compile_flags, link_flags = compile_args()
    binary = tmp_path_factory.mktemp("driver") / "driver"
    sources = sorted(str(path) for path in (ROOT / "csrc").rglob("*.c"))
    python_flags = (sysconfig.get_config_var("CFLAGS") or "").split()
    subprocess.run([compiler, *python_flags, *compile_flags, *link_flags, "-fPIC",
                    f"-I{ROOT / 'csrc'}", f"-I{ROOT / 'csrc' / 'common'}",
                    str(ROOT / "bench" / "driver.c"), *sources, "-o", str(binary)], check=True)
    return binary
