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

import contextlib
import html
import http.server
import json
import os
import shutil
import stat
import urllib.parse
import zipfile

from .. import atomic
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
FOLDER_MODE = 0o755                  # OUT and OUT/pyodide, made by pywar page


class NotOurs(ValueError):
    """An OUT that pywar page may not write into or serve: one line saying what OUT may
    be."""


def check_out(out):
    """NotOurs unless out is new, or an empty folder or one pywar page wrote (MARKER), of
    pywar's own user, and no link: pywar replaces no file it did not write."""
    if os.path.lexists(out):
        os.close(opened_out(out))


def opened_out(out, made=False):
    """A descriptor of OUT, opened once (no link followed), to work in relative to it
    alone: a folder of pywar's own user, empty or holding MARKER (a regular file); else
    NotOurs (issue 47: another user's OUT, its MARKER and files made links, had root
    overwrite the links' targets).  made: OUT is made first where it is not."""
    may_be = "give a new folder, an empty one, or one that pywar page wrote before"
    if made:
        with contextlib.suppress(FileExistsError):
            os.mkdir(out, FOLDER_MODE)
    if os.path.islink(out):
        raise NotOurs(f"{out!r} is a link: {may_be} (pywar follows no link)")
    try:
        fd = os.open(out, atomic.FOLDER)
    except NotADirectoryError:
        raise NotOurs(f"{out!r} is not a folder: {may_be}") from None
    try:
        why = strange(fd)
        if why:
            raise NotOurs(f"{out!r} {why}: {may_be}")
    except BaseException:
        os.close(fd)
        raise
    return fd


def strange(fd):
    """Why the folder open as fd is not one pywar page may write into (None if it is):
    another user's, or holding files but no MARKER of pywar's (a regular file)."""
    owner = os.fstat(fd).st_uid
    if owner != os.geteuid():
        return (f"belongs to user {owner}, not to pywar's ({os.geteuid()}): another user "
                "could swap what is in it")
    if os.listdir(fd) and not is_ours(fd, MARKER):
        return "holds files that pywar page did not write"
    return None


def is_ours(fd, name):
    """Whether name in the folder open as fd is a regular file of pywar's own user, not
    followed if it is a link."""
    try:
        found = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except OSError:
        return False
    return stat.S_ISREG(found.st_mode) and found.st_uid == os.geteuid()


def holds_page(out):
    """True when out is a folder that pywar page wrote, its page in it (what --serve alone
    serves as it is): MARKER and index.html regular files, no link followed."""
    try:
        fd = os.open(out, atomic.FOLDER)
    except OSError:
        return False
    try:
        return all(is_ours(fd, name) for name in (MARKER, "index.html"))
    finally:
        os.close(fd)


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
    """Write the folder into out (made if need be; NotOurs for a folder pywar page may not
    write into, opened_out), through one descriptor of it: each file written beside
    itself and renamed over its name (atomic.written_in: a link in its place is replaced,
    never followed): the paths written.  pyodide: a copy of npm's pyodide package to put
    in it (NotPyodide if it is not one)."""
    version = PYODIDE_VERSION if pyodide is None else pyodide_version(pyodide)
    top = opened_out(out, made=True)
    try:
        contents = [(MARKER, "written by pywar page: its files here are replaced when it "
                     "writes again\n"),
                    ("index.html", index_html(pyodide is not None, version)),
                    ("worker.js", asset("worker.js"))]
        for name, text in contents:
            with atomic.written_in(top, name, binary=False) as file:
                file.write(text)
        with atomic.written_in(top, "pywar.zip") as stream:
            write_zip(stream)
        paths = [os.path.join(out, name) for name in ("index.html", "worker.js", "pywar.zip")]
        if pyodide is not None:
            paths += copy_pyodide(pyodide, top, os.path.join(out, PYODIDE_FOLDER))
    finally:
        os.close(top)
    return paths


def copy_pyodide(pyodide, top, shown):
    """npm's pyodide package's PYODIDE_FILES into PYODIDE_FOLDER of the folder open as top
    (made there, no link followed): their paths, under shown."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(PYODIDE_FOLDER, FOLDER_MODE, dir_fd=top)
    inside = os.open(PYODIDE_FOLDER, atomic.FOLDER, dir_fd=top)
    try:
        if os.fstat(inside).st_uid != os.geteuid():
            raise NotOurs(f"{shown!r} belongs to another user")
        for name in PYODIDE_FILES:
            with open(os.path.join(pyodide, name), "rb") as source, \
                    atomic.written_in(inside, name) as copy:
                shutil.copyfileobj(source, copy)
    finally:
        os.close(inside)
    return [os.path.join(shown, name) for name in PYODIDE_FILES]


PYODIDE_FOLDER = "pyodide"
SERVED = {"/": "index.html", "/index.html": "index.html", "/worker.js": "worker.js",
          "/pywar.zip": "pywar.zip", **{f"/{PYODIDE_FOLDER}/{name}": f"{PYODIDE_FOLDER}/{name}"
                                        for name in PYODIDE_FILES}}
TYPES = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
         ".wasm": "application/wasm", ".json": "application/json",
         ".zip": "application/zip"}


def open_served(top, name):
    """A file that pywar page wrote, opened for reading from the folder open as top (its
    folders and itself never followed if links, a regular file of pywar's own user), or
    None."""
    folder, _, base = name.rpartition("/")
    inside = os.open(folder, atomic.FOLDER, dir_fd=top) if folder else top
    try:
        fd = os.open(base, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=inside)
    except OSError:
        return None
    finally:
        if inside != top:
            os.close(inside)
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode) or found.st_uid != os.geteuid():
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


class Handler(http.server.BaseHTTPRequestHandler):
    """The files that pywar page writes (SERVED) and nothing else, from the folder's one
    descriptor (the server's), with the types a browser needs for modules and
    WebAssembly, and no log line per request: a link, or any other file put in the
    folder, is not served (issue 47: a link to a file only root may read was)."""

    def do_GET(self):
        """Serve a file of the page."""
        self.answer(body=True)

    def do_HEAD(self):
        """Its headers alone."""
        self.answer(body=False)

    def answer(self, body):
        """200 and the file, or 404 for anything that is not one of SERVED."""
        name = SERVED.get(urllib.parse.urlsplit(self.path).path)
        try:
            file = name and open_served(self.server.folder, name)
        except OSError:
            file = None
        if not file:
            self.send_error(404)
            return
        with file:
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(name)[1],
                                                       "application/octet-stream"))
            self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
            self.end_headers()
            if body:
                shutil.copyfileobj(file, self.wfile)

    def log_message(self, format, *args):
        """Say nothing of each request."""


class PageServer(http.server.ThreadingHTTPServer):
    """An HTTP server of one folder, held by its descriptor (opened_out's), closed with
    the server."""

    def __init__(self, address, out):
        self.folder = opened_out(out)
        try:
            super().__init__(address, Handler)
        except BaseException:
            os.close(self.folder)
            raise

    def server_close(self):
        """Close the socket and the folder's descriptor."""
        super().server_close()
        os.close(self.folder)


def server(out, port=0):
    """An HTTP server of the folder on 127.0.0.1 (port 0: any free one), not started:
    its address is http://127.0.0.1:{server.server_port}/.  NotOurs for a folder that is
    not pywar page's (opened_out)."""
    return PageServer(("127.0.0.1", port), out)
