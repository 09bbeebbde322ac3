"""pywar play --html FILE: the page of the game (pywar.step.page), its file opened before the
game (outputs.OutputFile) and written after it.  Exit status 3, after one line on
stderr, when it cannot be."""

from ..step import page
from .inputs import InputError


def write_page(output, collector):
    """Write the page of the trace the collector kept to the OutputFile and close it; the
    one-line InputError (exit 3) if it cannot be, leaving the path as it was."""
    try:
        page.write(output, collector.text())
        output.close()
    except InputError:
        output.discard()
        raise
