"""The folder of pywar page, and its server.

    OUT/index.html     the page: pywar/step/assets/page.html around the one front end
                       (page.js, page.css), with the controls and the exercise of assets/
    OUT/worker.js      the Web Worker that holds the page's Python
    OUT/pywar.zip      pywar's pure-Python packages that the page needs (PARTS), and the C
                       port's sources for the code pane's C (csrc/port/, where installed)
    OUT/pyodide/       with --pyodide DIR: Pyodide itself (PYODIDE_FILES of DIR, a copy of
                       npm's pyodide package), so that the page needs no network at all;
                       without it the page loads Pyodide PYODIDE_VERSION from PYODIDE_CDN

A browser runs a Web Worker and WebAssembly only from a page served over HTTP, not from
file://: serve() serves the folder on this machine alone (127.0.0.1).
"""

import functools
import html
import http.server
import json
import os
import shutil
import zipfile

from ..atomic import written
from ..step import page
from ..step.model import PACKAGE_ROOT

PYODIDE_VERSION = "314.0.8"         # Python 3.14: npm's pyodide, pinned (.ci/run installs it)
PYODIDE_CDN = f"https://cdn.jsdelivr.net/npm/pyodide@{PYODIDE_VERSION}/"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")
PARTS = (       # of pywar, what the page's Python imports (tests/test_browser.py proves it),
                # and no process runner: not check/runner/, nor the check's run, portcheck
                # (tests/test_rooms.py)
    "__init__.py", "arguments.py", "engine_choice.py", "one_game.py", "rules.py",
    "stopping.py", "common", "port", "twin", "step", "check/__init__.py", "check/seeds.py",
    "check/exercise/__init__.py", "check/exercise/inprocess.py", "check/exercise/portjudge.py",
    "check/exercise/portplay.py", "check/exercise/skeleton.py", "browser/__init__.py",
    "browser/calls.py")
C_PORT = "csrc/port"                # the code pane's C, beside pywar in a checkout
ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")


MARKER = ".pywar-page"               # in OUT: a folder pywar page wrote, whose files it
                                    # may replace; any other folder must be new or empty


class NotOurs(ValueError):
    """An OUT that pywar page may not write into: one line saying what OUT may be."""


def check_out(out):
    """NotOurs unless out is new, an empty folder or one pywar page wrote (MARKER), and no
    link: pywar replaces no file it did not write."""
    may_be = "give a new folder, an empty one, or one that pywar page wrote before"
    if os.path.islink(out):
        raise NotOurs(f"{out!r} is a link: {may_be} (pywar follows no link)")
    if not os.path.lexists(out):
        return
    if not os.path.isdir(out):
        raise NotOurs(f"{out!r} is not a folder: {may_be}")
    if os.listdir(out) and not os.path.isfile(os.path.join(out, MARKER)):
        raise NotOurs(f"{out!r} holds files that pywar page did not write: {may_be}")


def holds_page(out):
    """True when out is a folder that pywar page wrote, its page in it (what --serve alone
    serves as it is)."""
    return all(os.path.isfile(os.path.join(out, name)) for name in (MARKER, "index.html"))


class NotPyodide(ValueError):
    """A folder given as --pyodide that is not a copy of npm's pyodide package."""


def asset(name):
    """The text of one of the page's own files (pywar/browser/assets/)."""
    with open(os.path.join(ASSETS, name), encoding="utf-8") as file:
        return file.read()


def pyodide_version(folder):
    """The version of a copy of npm's pyodide package, or NotPyodide saying what is
    missing."""
    missing = [name for name in PYODIDE_FILES if not os.path.isfile(os.path.join(folder, name))]
    if missing:
        raise NotPyodide(f"{folder!r} is not a copy of npm's pyodide package (no "
                         f"{', '.join(missing)}): npm install pyodide@{PYODIDE_VERSION} puts "
                         f"one in node_modules/pyodide")
    with open(os.path.join(folder, "package.json"), encoding="utf-8") as file:
        return json.load(file).get("version", "?")


def python_files():
    """pywar's files that the page needs: (path in the zip, path here), the zip's paths
    relative to the folder that holds pywar, as pywar.step.source reads its sources."""
    package = os.path.join(PACKAGE_ROOT, "pywar")
    for part in PARTS:
        path = os.path.join(package, part)
        names = sorted(os.listdir(path)) if os.path.isdir(path) else [""]
        for name in names:
            if name.endswith(".py") or name == "":
                full = os.path.join(path, name) if name else path
                yield os.path.relpath(full, PACKAGE_ROOT), full
    c_port = os.path.join(PACKAGE_ROOT, C_PORT)
    if os.path.isdir(c_port):                       # a checkout, or an sdist: the C too
        for name in sorted(os.listdir(c_port)):
            if name.endswith(".c"):
                yield f"{C_PORT}/{name}", os.path.join(c_port, name)


def write_zip(stream):
    """pywar.zip: python_files(), stored as they are, into a binary stream."""
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for inside, here in python_files():
            archive.write(here, inside)


def pyodide_note(local, version):
    """Where the page's Python comes from, in a sentence on the page."""
    if local:
        return (f"Python (Pyodide {version}, CPython in WebAssembly) is loaded from this "
                "folder: the page works with no network, and nothing leaves this browser.")
    return (f"Python (Pyodide {version}) is loaded from its public CDN, "
            f"{PYODIDE_CDN.split('/')[2]}, once: that needs the network (pywar page OUT "
            "--pyodide DIR puts a copy in the folder). Nothing leaves this browser.")


def index_html(local, version):
    """The page: page.html around the front end, with the controls and the exercise."""
    config = {"pyodide": "pyodide/" if local else PYODIDE_CDN, "version": version,
              "local": local}
    return page.filled(page.asset("page.html"), {
        "TITLE": "War in your browser: pywar's port and twin, in Python",
        "STYLE": page.asset("page.css") + asset("app.css"),
        "SCRIPT": page.embedded(page.asset("page.js")),
        "PANEL": asset("panel.html").replace(
            "{{PYODIDE_NOTE}}", html.escape(pyodide_note(local, version))),
        "WHERE": "Everything runs in this browser's Python; nothing leaves it.",
        "AFTER": asset("exercise.html") + (
            '<script type="application/json" id="config">\n'
            f"{page.embedded(json.dumps(config))}\n</script>\n"
            f"<script>\n{page.embedded(asset('app.js'))}</script>\n"),
    })


def write(out, pyodide=None):
    """Write the folder into out (made if need be; pywar's files in it replaced, each
    written beside itself and renamed into place whole, pywar.atomic; NotOurs for a
    folder of files pywar did not write, check_out): the files written.  pyodide: a copy
    of npm's pyodide package to put in it (NotPyodide if it is not one)."""
    version = PYODIDE_VERSION if pyodide is None else pyodide_version(pyodide)
    check_out(out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, MARKER), "w", encoding="utf-8") as file:
        file.write("written by pywar page: its files here are replaced when it writes again\n")
    paths = [os.path.join(out, name) for name in ("index.html", "worker.js", "pywar.zip")]
    index, worker, archive = paths
    for path, text in ((index, index_html(pyodide is not None, version)),
                       (worker, asset("worker.js"))):
        with written(path, binary=False) as file:
            file.write(text)
    with written(archive) as stream:
        write_zip(stream)
    if pyodide is not None:
        target = os.path.join(out, "pyodide")
        os.makedirs(target, exist_ok=True)
        for name in PYODIDE_FILES:
            with open(os.path.join(pyodide, name), "rb") as source, \
                    written(os.path.join(target, name)) as copy:
                shutil.copyfileobj(source, copy)
            paths.append(os.path.join(target, name))
    return paths


class Handler(http.server.SimpleHTTPRequestHandler):
    """Files of the folder, with the types a browser needs for modules and WebAssembly,
    and no log line per request."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json",
                      ".zip": "application/zip"}

    def log_message(self, format, *args):
        """Say nothing of each request."""


def server(out, port=0):
    """An HTTP server of the folder on 127.0.0.1 (port 0: any free one), not started:
    its address is http://127.0.0.1:{server.server_port}/."""
    handler = functools.partial(Handler, directory=out)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
