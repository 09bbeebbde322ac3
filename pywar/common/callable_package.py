"""The compatibility path for pywar.check(...) and pywar.exact(...), the calls of two
packages: their functions are pywar.compare and pywar.exact_counts now, and the packages
are plain packages (pywar.check.judge, pywar.exact.enumeration are their modules).

A call of the package still works, through the one class a package module can take for
that (sys.modules[name].__class__, as the Python docs show for customizing a module),
and warns once where it is called (DeprecationWarning) naming the function to call.
"""

import inspect
import sys
import warnings
from types import ModuleType


class CallablePackage(ModuleType):
    """A package module whose call is a function's, with a DeprecationWarning."""

    def __call__(self, *args, **kwargs):
        warnings.warn(f"calling the package {self.__name__}(...) is kept for old code: "
                      f"call {self.__replacement__}(...)", DeprecationWarning, stacklevel=2)
        return self.__main_function__(*args, **kwargs)


def callable_as(package_name, function, replacement):
    """Let the package named package_name be called as function, which is now named
    replacement (e.g. 'pywar.compare')."""
    package = sys.modules[package_name]
    package.__class__ = CallablePackage
    package.__main_function__ = function
    package.__replacement__ = replacement
    package.__signature__ = inspect.signature(function)
