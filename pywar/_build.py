"""The cffi builder: compiles csrc/ into the extension module pywar._core.

Out-of-line API mode: setup.py names this file in cffi_modules, and pip builds
the module at install time.  cffi reads only csrc/pywar.h, between its cdef markers.

Two switches in the environment change the build (README, "Installing"):

    PYWAR_REQUIRE_C=1   a core that fails to build fails the install; without it the
                        extension is optional, and pywar installs with its Python engines
                        only (setup.py prints the warning)
    PYWAR_SANITIZE=1    build the core with AddressSanitizer and UBSan, stopping at the
                        first report; Python must then load libasan first (LD_PRELOAD)

The module tells how it was built: lib.PYWAR_SANITIZED is 1 under PYWAR_SANITIZE.
"""

import os
import sys
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
PARTS = ("common", "engine", "port")      # shared code, then the two editions
SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
              "-fno-omit-frame-pointer"]


def switch(name):
    """True when the environment variable name is set to something other than '' or 0."""
    return os.environ.get(name, "").strip() not in ("", "0")


def sources(absolute=False):
    """Every C file of the core, as paths relative to the project (as setuptools wants),
    or absolute ones."""
    files = [path for part in PARTS for path in sorted((CSRC / part).glob("*.c"))]
    files.append(CSRC / "pywar.c")
    return [str(path if absolute else path.relative_to(ROOT)) for path in files]


def cdef_text():
    """The declarations between '/* cdef begin */' and '/* cdef end */' in pywar.h."""
    header = (CSRC / "pywar.h").read_text()
    start = header.index("/* cdef begin */")
    end = header.index("/* cdef end */")
    return header[start:end]


def compile_args(sanitize=False):
    """The flags that make the core fast, after Python's own CFLAGS:
    -O2 (gcc's -O3 vectorizes the generator's recurrence badly); -fno-wrapv (Python
    builds with -fwrapv, which costs the core a quarter of its speed); and link-time
    inlining across the one-type-per-file sources, which -fPIC allows only with hidden
    symbols and no semantic interposition.  With sanitize: ASan and UBSan at -O1, with
    debug information and no link-time optimization (which only slows the build)."""
    if sys.platform == "win32":
        return [], []
    if sanitize:
        common = ["-O1", "-g", "-fno-wrapv", *SANITIZERS]
    else:
        common = ["-O2", "-fno-wrapv", "-flto", "-fvisibility=hidden",
                  "-fno-semantic-interposition"]
    return common + ["-std=c11", "-Wall", "-Wextra"], common


def builder(sanitize=None, optional=None, extra_cdef="", extra_source=""):
    """An FFI for pywar._core.  sanitize and optional default to the environment's
    PYWAR_SANITIZE and the absence of PYWAR_REQUIRE_C.  extra_cdef and extra_source add
    declarations and C to the module (the tests' fault-injection build uses them)."""
    sanitize = switch("PYWAR_SANITIZE") if sanitize is None else sanitize
    optional = not switch("PYWAR_REQUIRE_C") if optional is None else optional
    ffi = FFI()
    ffi.cdef(cdef_text() + 'extern "Python" void pywar_text_sink(void *, const char *, size_t);'
             "\n#define PYWAR_SANITIZED ...\n" + extra_cdef)
    compile_flags, link_flags = compile_args(sanitize)
    ffi.set_source(
        "pywar._core",
        f'#include "pywar.h"\n#define PYWAR_SANITIZED {int(bool(sanitize))}\n{extra_source}',
        sources=sources(),
        include_dirs=["csrc", "csrc/common"],
        extra_compile_args=compile_flags,
        extra_link_args=link_flags,
        optional=optional,                  # setup.py's build_ext warns or fails
    )
    return ffi


ffibuilder = builder()

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
