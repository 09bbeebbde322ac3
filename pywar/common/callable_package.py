"""The compatibility path for pywar.check(...) and pywar.exact(...), the calls of two
packages: their functions are pywar.compare and pywar.exact_counts now, and the packages
are plain packages (pywar.check.referee.judge, pywar.exact.enumeration are their modules).

A call of the package still works, through the one class a package module can take for
that (sys.modules[name].__class__, as the Python docs show for customizing a module),
and warns once where it is called (DeprecationWarning) naming the function to call.
The function is named by its module and name, and imported at the first call (or when
its signature is asked for), so that importing the package loads nothing more.
"""

import importlib
import inspect
import sys
import warnings
from types import ModuleType


class CallablePackage(ModuleType):
    """A package module whose call is a function's, with a DeprecationWarning."""

    @property
    def __main_function__(self):
        """The function a call of the package calls, imported now."""
        module, _, name = self.__function_path__.partition(":")
        return getattr(importlib.import_module(module), name)

    @property
    def __signature__(self):
        """The function's signature, for inspect.signature(package)."""
        return inspect.signature(self.__main_function__)

    def __call__(self, *args, **kwargs):
        warnings.warn(f"calling the package {self.__name__}(...) is kept for old code: "
                      f"call {self.__replacement__}(...)", DeprecationWarning, stacklevel=2)
        return self.__main_function__(*args, **kwargs)


def callable_as(package_name, function_path, replacement):
    """Let the package named package_name be called as the function at function_path
    ('module:name', imported at the first call), which is now named replacement (e.g.
    'pywar.compare')."""
    package = sys.modules[package_name]
    package.__class__ = CallablePackage
    package.__function_path__ = function_path
    package.__replacement__ = replacement
