"""pywar play --html FILE: the page of the game (pywar.page), its file opened before the
game and written after it.  Exit status 3, after one line on stderr, when it cannot be."""

import os
import sys

from .. import page


class PageFile:
    """The --html file: open before the game, with a collector for the game's trace."""

    def __init__(self, path, stream):
        """The page's path, its open stream, and an empty collector."""
        self.path = path
        self.stream = stream
        self.trace = page.Collector()

    def finish(self):
        """Write the page: 0, or 3 after one line on stderr (and no file left behind)."""
        with self.stream:
            try:
                if self.trace.too_long:
                    raise ValueError(f"the game has more than {page.MAX_EVENTS:,} events, "
                                     "more than a page holds")
                page.write(self.stream, self.trace.text())
                return 0
            except (OSError, ValueError) as error:
                failed(self.path, error)
        os.remove(self.path)
        return 3


def failed(path, error):
    """Say in one line on stderr why the page cannot be written."""
    reason = error.strerror if isinstance(error, OSError) else error
    print(f"pywar play: error: --html: cannot write {path!r}: {reason}", file=sys.stderr)


def open_page(path):
    """The PageFile of a path, opened for writing, or None after one line on stderr."""
    try:
        return PageFile(path, open(path, "w", encoding="utf-8"))
    except OSError as error:
        failed(path, error)
        return None
