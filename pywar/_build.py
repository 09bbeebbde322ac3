"""The cffi builder: compiles csrc/ into the extension module pywar._core.

Out-of-line API mode: setup.py names this file in cffi_modules, and pip builds
the module at install time.  cffi reads only csrc/pywar.h, between its cdef markers,
and the result structs that this file writes from the table of pywar/common/fields.py.

The C side of that table is generated, here, when the core is built: csrc/fields.h
(not tracked) holds struct PywarResult, struct PywarBatch and PYWAR_COLUMNS(X), the
batch's columns in the table's order, which Pywar_Store (csrc/pywar.c), bench/driver.c
and tests/threads_driver.c loop over.  `python pywar/_build.py --header` writes it alone,
for building the C drivers by hand.

Two switches in the environment change the build (docs/installing.md):

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


HEADER = CSRC / "fields.h"
C_TYPES = {"int8": "int8_t", "int32": "int32_t", "uint64": "uint64_t"}   # a dtype's C type
RESULT_ARRAYS = {"piles": "int32_t {name}[PYWAR_MAX_PLAYERS][2]",        # a kind's C field
                 "depths": "int32_t {name}[PYWAR_WAR_DEPTHS]",
                 "record": "int32_t {name}[PYWAR_MAX_PLAYERS][3]"}
RESULT_INTS = ("winner", "outcome")     # ints in the result, bytes (int8) in the batch


def fields_module():
    """pywar/common/fields.py, imported from this checkout: the build has none of
    pywar's dependencies, and needs none (the facade imports nothing)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from pywar.common import fields
    return fields


def table():
    """The rows of pywar/common/fields.py."""
    return fields_module().FIELDS


def result_field(row):
    """A row's field of struct PywarResult, with its meaning as a comment."""
    if row.kind in RESULT_ARRAYS:
        declaration = RESULT_ARRAYS[row.kind].format(name=row.name)
    else:
        declaration = f"{'int' if row.kind in RESULT_INTS else C_TYPES[row.dtype]} {row.name}"
    return f"    {declaration};\n        /* {row.meaning} */"


def structs(rows):
    """struct PywarResult and struct PywarBatch, as cffi and the compiler read them."""
    result = "\n".join(result_field(row) for row in rows)
    columns = "\n".join(f"    {C_TYPES[row.dtype]} *{row.name};" for row in rows if row.dtype)
    return (f"typedef struct PywarResult {{\n{result}\n}} PywarResult;\n\n"
            "/* Arrays that the caller owns, n entries each, for pywar_play_batch.  If stop is\n"
            " * not NULL, the batch checks it before each game and ends early once it is\n"
            " * nonzero; finished then says how many games (from the first) were played. */\n"
            "typedef struct PywarBatch {\n    volatile int32_t *stop;\n    int64_t finished;\n"
            f"{columns}\n"
            "    int64_t war_depths[PYWAR_WAR_DEPTHS];   /* summed over the batch's games */\n"
            "} PywarBatch;\n")


def header_text(rows=None):
    """csrc/fields.h: the structs, PYWAR_COLUMNS(X), X(name, type) for each column, and
    PYWAR_SEATLESS(rules)."""
    rows = table() if rows is None else rows
    columns = " \\\n".join(f"    X({row.name}, {C_TYPES[row.dtype]})" for row in rows if row.dtype)
    return ("/* fields.h: written by pywar/_build.py from pywar/common/fields.py (FIELDS and\n"
            " * SEATLESS_PICKUPS) when the core is built.  Do not edit it: change the table. */\n"
            "#ifndef PYWAR_FIELDS_H\n#define PYWAR_FIELDS_H\n\n"
            f"{structs(rows)}\n"
            "/* The batch's columns in the table's order: X(name, C type) for each. */\n"
            f"#define PYWAR_COLUMNS(X) \\\n{columns}\n"
            f"#define PYWAR_COLUMN_COUNT {sum(1 for row in rows if row.dtype)}\n\n"
            f"{seatless_text()}\n#endif\n")


def enum_name(prefix, value):
    """A rules value's C enum name: PYWAR_PICKUP_WINNER_FIRST for ('PICKUP', 'winner-first')."""
    return f"PYWAR_{prefix}_{value.upper().replace('-', '_')}"


def seatless_text():
    """PYWAR_SEATLESS(rules), from the table's SEATLESS_PICKUPS and its neighbours."""
    fields = fields_module()
    pickups = [f"(rules)->pickup == {enum_name('PICKUP', pickup)}"
               for pickup in fields.SEATLESS_PICKUPS]
    pickups += [f"((rules)->pickup == {enum_name('PICKUP', pickup)} && (rules)->face_down == 0)"
                for pickup in fields.SEATLESS_WITHOUT_FACE_DOWN]
    wars = [f"(rules)->short_war != {enum_name('SHORT', war)}"
            for war in fields.SEATED_SHORT_WARS]
    either = " \\\n      || ".join(pickups)
    return ("/* 1 when swapping the players maps every game to its mirror image (docs/rules.md\n"
            " * section 14), from SEATLESS_PICKUPS of pywar/common/fields.py. */\n"
            f"#define PYWAR_SEATLESS(rules) \\\n    (({either}) \\\n     && "
            + " && ".join(wars) + ")\n")


def write_header():
    """Write csrc/fields.h from the table, unless it already says the same (so that an
    unchanged table rebuilds nothing); return its path."""
    text = header_text()
    if not HEADER.exists() or HEADER.read_text() != text:
        HEADER.write_text(text)
    return HEADER


def cdef_text():
    """The declarations between each '/* cdef begin */' and '/* cdef end */' of pywar.h,
    with the table's structs where pywar.h includes fields.h."""
    header = (CSRC / "pywar.h").read_text()
    parts = [part.split("/* cdef end */")[0] for part in header.split("/* cdef begin */")[1:]]
    return parts[0] + structs(table()) + "".join(parts[1:])


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
    write_header()
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
    if sys.argv[1:] == ["--header"]:
        print(write_header().relative_to(ROOT))
    else:
        ffibuilder.compile(verbose=True)
