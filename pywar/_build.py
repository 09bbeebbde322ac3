"""The cffi builder: compiles csrc/ into the extension module pywar._core.

Out-of-line API mode: setup.py names this file in cffi_modules, and pip builds
the module at install time.  cffi reads only csrc/pywar.h, between its cdef markers.
"""

import sys
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
PARTS = ("common", "engine", "port")      # shared code, then the two editions


def sources():
    """Every C file of the core, as paths relative to the project (as setuptools wants)."""
    files = [path for part in PARTS for path in sorted((CSRC / part).glob("*.c"))]
    return [str(path.relative_to(ROOT)) for path in files + [CSRC / "pywar.c"]]


def cdef_text():
    """The declarations between '/* cdef begin */' and '/* cdef end */' in pywar.h."""
    header = (CSRC / "pywar.h").read_text()
    start = header.index("/* cdef begin */")
    end = header.index("/* cdef end */")
    return header[start:end]


def compile_args():
    """The flags that make the core fast, after Python's own CFLAGS:
    -O2 (gcc's -O3 vectorizes the generator's recurrence badly); -fno-wrapv (Python
    builds with -fwrapv, which costs the core a quarter of its speed); and link-time
    inlining across the one-type-per-file sources, which -fPIC allows only with hidden
    symbols and no semantic interposition."""
    if sys.platform == "win32":
        return [], []
    common = ["-O2", "-fno-wrapv", "-flto", "-fvisibility=hidden",
              "-fno-semantic-interposition"]
    return common + ["-std=c11", "-Wall", "-Wextra"], common


ffibuilder = FFI()
ffibuilder.cdef(cdef_text() + 'extern "Python" void pywar_text_sink(void *, const char *, size_t);')
compile_flags, link_flags = compile_args()
ffibuilder.set_source(
    "pywar._core",
    '#include "pywar.h"',
    sources=sources(),
    include_dirs=["csrc", "csrc/common"],
    extra_compile_args=compile_flags,
    extra_link_args=link_flags,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
