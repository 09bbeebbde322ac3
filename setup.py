"""pywar's build: the package, and its C core pywar._core through cffi (pywar/_build.py).

The core is optional.  Without a working C compiler (or Python's headers) the install
goes on without it, printing one warning, and pywar plays with its pure-Python engines;
with PYWAR_REQUIRE_C=1 a core that fails to build is an error (CI sets it).  pip shows a
build's output only when the build fails or with -v: `pywar --version` and
pywar.engines() say afterwards which engines are built.
"""

import re
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

WARNING = """
WARNING: pywar's C core (pywar._core) could not be built: {error}.
pywar is installed without it and will use its pure-Python engines (python,
port-python), which play the same games a few hundred times slower.  For the fast
engines (c, port-c), install a C compiler (gcc or clang) and Python's headers, then
reinstall pywar.  Set PYWAR_REQUIRE_C=1 to make this an error.
"""

REQUIRED = ("pywar's C core (pywar._core) could not be built: {error}.  PYWAR_REQUIRE_C is "
            "set, so the install fails; install a C compiler (gcc or clang) and Python's "
            "headers, or unset PYWAR_REQUIRE_C to install pywar with its Python engines only")


def reason(error):
    """Why the build failed, in one line: the compiler command and its exit status, or
    the error's first line."""
    lines = str(error).strip().splitlines() or [type(error).__name__]
    failed = re.match(r"Command '\['([^']*)'.*' returned non-zero exit status (\d+)", lines[0])
    if failed:
        return f"the compiler command '{failed[1]}' failed with exit status {failed[2]}"
    return lines[0].rstrip(".") if len(lines[0]) <= 200 else lines[0][:197] + "..."


class BuildCore(build_ext):
    """build_ext that always rebuilds the core and turns a failed build into the warning
    (an optional extension) or into one clear error (PYWAR_REQUIRE_C)."""

    def run(self):
        # setuptools skips an extension whose .so is newer than its sources, whatever the
        # flags: a plain build after a PYWAR_SANITIZE one would keep the sanitized core.
        self.force = True
        super().run()

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except (CCompilerError, BaseError) as error:
            if not ext.optional:
                raise BaseError(REQUIRED.format(error=reason(error))) from error
            sys.stderr.write(WARNING.format(error=reason(error)))
            sys.stderr.flush()


if __name__ == "__main__":              # as pip's build backend runs it (tests import it)
    setup(cffi_modules=["pywar/_build.py:ffibuilder"], cmdclass={"build_ext": BuildCore})
