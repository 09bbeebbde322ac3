"""How this pywar was installed, so that a hint to add an extra (plot, dask) says the
command that fits: from a checkout, `pip install '/path/to/pywar[plot]'` (with -e for an
editable install, as the README's `pip install -e '.[test]'` makes); otherwise, from an
index or a wheel, `pip install 'pywar[plot]'`.  pip records where it installed a package
from in the distribution's direct_url.json (PEP 610)."""

import json
import os
from importlib import metadata
from urllib.parse import unquote, urlparse


def version():
    """pywar's version as installed ('0.1.0'), or 'unknown' where no installation's
    metadata can be read (a checkout on sys.path, never installed)."""
    try:
        return metadata.version("pywar")
    except metadata.PackageNotFoundError:
        return "unknown"


def source():
    """(directory, editable) of the checkout pywar was installed from, or None when it
    came from an index or a wheel (or its metadata cannot be read)."""
    try:
        recorded = [distribution.read_text("direct_url.json")     # a checkout's own
                    for distribution in metadata.distributions(name="pywar")]  # egg-info has none
    except OSError:
        return None
    return recorded_source(next(filter(None, recorded), None))


def recorded_source(text):
    """(directory, editable) of a direct_url.json's text that names a folder, else None."""
    try:
        where = json.loads(text or "null")
    except ValueError:
        return None
    if not isinstance(where, dict) or not isinstance(where.get("dir_info"), dict):
        return None
    url = urlparse(str(where.get("url", "")))
    if url.scheme != "file":
        return None
    return unquote(url.path), bool(where["dir_info"].get("editable"))


def installations():
    """(folder, editable) of each pywar that Python's path holds, in the path's order:
    the folder its package is imported from (an editable install's, the checkout it
    names).  A checkout's own pywar.egg-info, which `pip install .` writes there and
    which is no installation, comes as the checkout, not editable."""
    for distribution in metadata.distributions(name="pywar"):
        try:
            found = recorded_source(distribution.read_text("direct_url.json"))
            if found is not None and found[1]:
                yield os.path.abspath(found[0]), True
            else:
                yield os.path.dirname(os.path.abspath(str(distribution.locate_file("pywar")))), False
        except OSError:
            continue


def install_hint(extra):
    """The pip command that adds an extra to this installation."""
    found = source()
    if found is None:
        return f"pip install 'pywar[{extra}]'"
    directory, editable = found
    return f"pip install {'-e ' if editable else ''}'{directory}[{extra}]'"
