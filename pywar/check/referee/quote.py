"""How a one-line message quotes a piece of a file or of a program's output: cut short,
so that a line of 100 MB makes a report of one short line."""

LIMIT = 60                   # characters of the piece shown
LINE = 200                   # characters of a file's line shown whole: more than any line
                             # of a transcript (the longest is under 100)


def cut(text, limit=LIMIT):
    """The text, or its first limit characters and '...'."""
    return text if len(text) <= limit else text[:limit] + "..."


def shown(text, limit=LIMIT):
    """A piece of a file, quoted and cut short: 'Card 3, ...'."""
    return repr(cut(text, limit))


def line_shown(text):
    """A line of a file, quoted, whole unless it is longer than any transcript's line."""
    return shown(text, LINE)
