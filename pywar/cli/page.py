"""pywar page: a folder to serve over HTTP whose page plays, steps and checks games in the
browser's own Python (pywar.browser, docs/page.md).

    pywar page war-page --pyodide node_modules/pyodide   # works with no network at all
    pywar page war-page --serve                          # served on 127.0.0.1

--serve serves a folder that pywar page wrote as it is, and writes the folder first only
where DIR holds no page yet, or --pyodide is given: serving a folder never changes what
it serves (the folder of --pyodide, served, kept loading its Pyodide from the folder).
Exit status 2 for a --pyodide that is not a copy of npm's pyodide package, or a DIR of
files pywar page did not write (it replaces none of them); 3 for a folder that cannot be
written (or a port that cannot be served on).
"""

import sys

from ..browser import folder
from .common import examples
from .inputs import cannot


def run_page(args):
    """Write the folder, say what it holds, and serve it if asked; with --serve alone, a
    folder that holds a page already is served as it is."""
    try:
        folder.check_out(args.folder)
    except folder.NotOurs as error:
        args.parser.error(str(error))
    if args.serve and args.pyodide is None and folder.holds_page(args.folder):
        print(f"{args.folder} holds a page already: served as it is (pywar page "
              f"{args.folder}, without --serve, writes it again)", file=sys.stderr)
        return serve(args)
    try:
        written = folder.write(args.folder, args.pyodide)
    except folder.NotPyodide as error:
        args.parser.error(f"--pyodide: {error}")
    except OSError as error:
        raise cannot("write into", repr(args.folder), error) from None
    for path in written:
        print(path)
    where = ("Pyodide is in the folder: the page needs no network" if args.pyodide else
             f"the page loads Pyodide {folder.PYODIDE_VERSION} from {folder.PYODIDE_CDN}")
    serve_it = "" if args.serve else (f"; serve the folder over HTTP (pywar page "
                                      f"{args.folder} --serve) and open its address")
    print(f"{where}{serve_it}", file=sys.stderr)
    return serve(args) if args.serve else 0


def serve(args):
    """Serve the folder on 127.0.0.1 until Ctrl-C."""
    try:
        server = folder.server(args.folder, args.port)
    except OSError as error:
        raise cannot("serve on", f"port {args.port}", error) from None
    with server:
        print(f"Serving {args.folder} at http://127.0.0.1:{server.server_port}/ "
              "(Ctrl-C stops)", flush=True)
        server.serve_forever()
    return 0


def add(subparsers):
    """The page subcommand."""
    parser = subparsers.add_parser(
        "page", help="a page that plays, steps and checks games in the browser's Python",
        description="Write into DIR a folder to serve over HTTP: a page that plays any seed "
                    "of any preset in the browser's own Python (Pyodide), in the port with "
                    "either stack or in the engine's twin, steps through it with the code "
                    "beside the game, and checks a port edited in the page, as pywar "
                    "exercise check does. Nothing leaves the browser. ?seed=S in the "
                    "page's address plays seed S at once.",
        epilog=examples(
            ("npm install pyodide@" + folder.PYODIDE_VERSION,
             "a copy of Pyodide, in node_modules/pyodide"),
            ("pywar page war-page --pyodide node_modules/pyodide --serve",
             "the folder, working with no network, served on 127.0.0.1"),
            ("pywar page war-page",
             "the folder, loading Pyodide from its CDN; serve it with any web server"),
            ("pywar page war-page --serve",
             "serve the folder written before, as it is")))
    parser.add_argument("folder", metavar="DIR", help="the folder to write (made if need "
                        "be; pywar's files in it are replaced)")
    parser.add_argument("--pyodide", metavar="DIR",
                        help="a copy of npm's pyodide package (npm install pyodide puts one "
                             "in node_modules/pyodide), put in the folder")
    parser.add_argument("--serve", action="store_true",
                        help="then serve the folder on 127.0.0.1 until Ctrl-C, printing its "
                             "address; a folder that holds a page already is served as it "
                             "is, unchanged (give --pyodide to write it again)")
    parser.add_argument("--port", type=int, default=0, metavar="N",
                        help="the port to serve on (default: any free one)")
    parser.set_defaults(run=run_page, parser=parser)
    return parser
