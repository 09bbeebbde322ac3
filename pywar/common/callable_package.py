"""A package that can be called as its main function: pywar.check(...) and
pywar.exact(...) are calls, while pywar.check.judge and pywar.exact.enumeration stay
the packages' modules.

A facade that bound the name pywar.check to the function would hide the package from
attribute access (`import pywar.check.judge` then `pywar.check.judge` fails), so the
package's module object takes a class that forwards a call to the function instead, as
the Python docs show for customizing a module (sys.modules[name].__class__).
"""

import inspect
import sys
from types import ModuleType


class CallablePackage(ModuleType):
    """A package module whose call is its main function's (__main_function__)."""

    def __call__(self, *args, **kwargs):
        return self.__main_function__(*args, **kwargs)


def callable_as(package_name, function):
    """Make the package named package_name callable as function, with its signature."""
    package = sys.modules[package_name]
    package.__class__ = CallablePackage
    package.__main_function__ = function
    package.__signature__ = inspect.signature(function)
