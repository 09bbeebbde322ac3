"""Similarity by source: each submission's C, C++ and Python files tokenized by copydetect
(pygments' lexer, then every name one letter, comments, layout and the text of strings
gone), fingerprinted by its k-grams, the starter code's fingerprints left out; a pair's
similarity, for each of the two, is the share of its fingerprinted code that the other
holds too.  Files are read as the grader reads a submission: no link followed, no file
but a regular one, bounded (pywar.check.submission).

    >>> a = code_of_texts("a", [("war.cpp", "int total(int *v, int n) {\\n"
    ...     "  int sum = 0;  // the total\\n  for (int i = 0; i < n; i++) sum += v[i];\\n"
    ...     "  return sum;\\n}\\n")])
    >>> b = code_of_texts("b", [("main.cpp", "int add_up(int *xs, int count) {\\n"
    ...     "  int s = 0;\\n  for (int k = 0; k < count; k++) s += xs[k];\\n  return s;\\n}\\n")])
    >>> found = compare(a, b)
    >>> found.shares, [(r.file, r.first, r.last) for r in found.regions[1]]
    ((1.0, 1.0), [('main.cpp', 1, 5)])
"""

import os
from dataclasses import dataclass

import numpy as np
# copydetect's internals, of the version pyproject pins (copydetect >= 0.5, < 0.6)
from copydetect.utils import get_copied_slices, get_document_fingerprints, get_token_coverage
from pygments import lexers, token

from ..submission.bounds import MIB, TooLarge
from ..submission.files import SOURCES, regular_files
from ..submission.regular import regular_file

K = 25              # copydetect's noise threshold: a match is 25 tokens at least (a token is
                    # one character of the filtered code: a name is 'V', a '{' is '{')
WINDOW = 1          # every k-gram kept (copydetect's default, guarantee = noise): with no
                    # winnowing, which k-grams count does not hang on Python's hash seed,
                    # so a report is the same at every run (tests/test_similar.py)
LANGUAGES = {**{suffix: "cpp" for suffix in SOURCES}, ".py": "python"}   # pygments' names
SEPARATOR = "\0"    # between two files' filtered code: no match runs from one into the next
FILE_BYTES = MIB        # a file's first MiB is compared (a note says so past it)
TOO_MUCH = 2 * MIB      # a submission's files together: 8 MiB of C++ took 40 s
                                # and 320 MB to compare (a War program is some 10 KB), so a
                                # copy's bound, COPY_BYTES (256 MiB), would take 20 minutes


@dataclass
class Code:
    """One submission's code: its files, their filtered text joined, and its fingerprints."""
    name: str
    files: list                 # (file name, its text) in the order of their names
    filtered: str               # every file's filtered code, SEPARATOR between two
    starts: list                # where each file's filtered code starts in filtered
    offsets: list               # copydetect's offsets of each file (filtered -> raw)
    hashes: np.ndarray          # each fingerprint where it starts in filtered, and
    places: np.ndarray          # there (the starter's left out)
    keys: np.ndarray            # its fingerprints, sorted, each once
    coverage: int               # how much of filtered the fingerprints cover
    notes: list                 # what could not be read, or was cut short
    newlines: list = None       # where each file's lines end in its text


@dataclass
class Region:
    """A stretch of a file that the other submission of a pair holds too."""
    file: str
    first: int                  # its lines, from 1
    last: int
    start: int                  # its characters in the file's text, [start, end)
    end: int

    def to_json(self):
        """{"file", "lines": [first, last]}."""
        return {"file": self.file, "lines": [self.first, self.last]}


@dataclass
class Match:
    """What two submissions' code shares: for each, the share of its code held by the
    other (0 to 1) and the regions so held."""
    shares: tuple
    regions: tuple

    def score(self):
        """The pair's one score by source: the mean of the two shares."""
        return sum(self.shares) / 2


def language_of(name):
    """The pygments language of a file name, or None for a file not compared."""
    return next((language for suffix, language in LANGUAGES.items()
                 if name.lower().endswith(suffix)), None)


def read_text(path, notes, name):
    """The text of a regular file, its first FILE_BYTES, no link followed; None (and a
    note) where it cannot be read."""
    try:
        with regular_file(path) as file:
            data = file.read(FILE_BYTES + 1)
    except OSError as error:
        why = error.strerror or ("not a regular file" if "regular" in str(error) else error)
        notes.append(f"{name}: not read ({why})")
        return None
    if len(data) > FILE_BYTES:
        notes.append(f"{name}: only its first {FILE_BYTES // MIB} MiB compared")
        data = data[:FILE_BYTES]
    return data.decode("utf-8", "replace")


def files_of(folder):
    """(name, text) of each file of folder that is compared, in the order of their names,
    and notes on what was not read."""
    notes, found, total = [], [], 0
    try:
        listed = regular_files(folder)
    except TooLarge as error:
        return [], [f"not compared: {error}"]
    for relative in listed:
        name = os.fsdecode(relative)
        if language_of(name) is None:
            continue
        text = read_text(os.path.join(os.fsencode(folder), relative), notes, name)
        if text is None:
            continue
        total += len(text)
        if total > TOO_MUCH:
            notes.append(f"files past {TOO_MUCH // MIB} MiB in all not compared")
            break
        found.append((name, text))
    return found, notes


def code_of(name, folder, starter=frozenset()):
    """A submission folder's Code, the starter's fingerprints left out."""
    files, notes = files_of(folder)
    return code_of_texts(name, files, starter, notes)


def as_lexed(text):
    """A file's text as pygments lexes it: no byte order mark, every line ended by '\\n'
    (a '\\r\\n' or lone '\\r' one), so that places in it are places in what was lexed."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


NAMED = {token.Name, token.Name.Variable, token.Name.Attribute}   # each one 'V'


def qualifiers(tokens):
    """The places of the tokens of every qualifier, 'std::' or '::': a name and the two
    ':' after it, or two ':' alone."""
    found = set()
    for at in range(len(tokens) - 1):
        if tokens[at] == tokens[at + 1] == (token.Operator, ":"):
            found |= {at, at + 1}
            if at and tokens[at - 1][0] in NAMED | {token.Name.Namespace, token.Name.Class}:
                found.add(at - 1)
    return found


# filter_code below is adapted from copydetect 0.5.0's copydetect/utils.py (filter_code),
# under its MIT license, whose notice goes with it:
#
# Copyright (c) 2020 Bryson Lingenfelter
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.

def filter_code(text, language):
    """copydetect's filter_code: text's filtered code (every name one letter, comments and
    layout gone, a string's text 'S'), and its offsets, rows of (a place in the filtered
    code, the characters of text removed before it).  copydetect 0.5's own put a class's
    name's length where the characters removed so far belong, and let pygments strip the
    blank lines a file starts with: a match was shown lines away from its code.  Two
    disguises are undone as well, each as layout: a qualifier ('std::cout' is 'cout',
    0.79 of a copy's score where a copy wrote it) and an empty statement (a ';' after
    ';', '{' or '}': 0.62), docs/instructors.md."""
    lexer = lexers.get_lexer_by_name(language, stripnl=False)
    tokens = list(lexer.get_tokens(text))
    dropped = qualifiers(tokens)
    out, offsets, removed = "", [[0, 0]], 0
    for at, (kind, value) in enumerate(tokens):
        directive = kind in (token.Comment.Preproc, token.Comment.Hashbang)
        if at in dropped or kind in token.Text or (kind in token.Comment and not directive) \
                or (value == ";" and out[-1:] in (";", "{", "}") and out):
            offsets.append([len(out) - 1, removed])
            removed += len(value)
        elif kind in NAMED or kind in token.Name.Function or kind in token.Name.Class or \
                directive:
            out += ("V" if kind in NAMED else "F" if kind in token.Name.Function else
                    "O" if kind in token.Name.Class else "P")
            offsets.append([len(out) - 1, removed])
            removed += len(value) - 1
        elif kind in token.Literal.String and value not in ("'", '"'):
            out += "S"
            offsets.append([len(out) - 1, removed])
            removed += len(value) - 1
        else:                                       # a quote is '"', all else as it is
            out += '"' if kind in token.Literal.String else value
    return out, np.array(offsets)


def code_of_texts(name, files, starter=frozenset(), notes=()):
    """The Code of files given as (name, text), the starter's fingerprints left out."""
    files = [(file_name, as_lexed(text)) for file_name, text in files]
    filtered, starts, offsets = [], [], []
    at = 0
    for file_name, text in files:
        code, offset = filter_code(text, language_of(file_name))
        starts.append(at)
        offsets.append(offset)
        filtered.append(code)
        at += len(code) + len(SEPARATOR)
    joined = SEPARATOR.join(filtered)
    _, where = get_document_fingerprints(joined, K, WINDOW)
    where = {key: places for key, places in where.items()
             if key not in starter and SEPARATOR not in joined[places[0]:places[0] + K]}
    coverage = int(get_token_coverage(where, K, len(joined))) if joined else 0
    hashes = np.array([key for key, places in where.items() for _ in places], dtype=np.int64)
    places = np.array([place for found in where.values() for place in found], dtype=np.int64)
    newlines = [[at for at, ch in enumerate(text) if ch == "\n"] for _, text in files]
    return Code(name, list(files), joined, starts, offsets, hashes, places,
                np.unique(hashes), coverage, list(notes), newlines)


def starter_hashes(folders):
    """The fingerprints of the starter code in folders (the handout), to leave out."""
    found = set()
    for folder in folders:
        found |= set(code_of("starter", folder).keys.tolist())
    return frozenset(found)


def compare(a, b):
    """The Match of two submissions' Code."""
    common = np.intersect1d(a.keys, b.keys, assume_unique=True)
    if len(common) == 0:
        return Match((0.0, 0.0), ([], []))
    slices = tuple(get_copied_slices(code.places[np.isin(code.hashes, common)], K)
                   for code in (a, b))
    shares = tuple(min(1.0, float(np.sum(cut[1] - cut[0])) / code.coverage)
                   for cut, code in zip(slices, (a, b)))
    return Match(shares, tuple(regions(code, cut) for cut, code in zip(slices, (a, b))))


def regions(code, slices):
    """The Regions of the files of code that slices of its filtered text cover (a slice
    never runs from one file into the next: no fingerprint holds a SEPARATOR)."""
    starts, ends = np.asarray(slices[0], dtype=np.int64), np.asarray(slices[1], dtype=np.int64)
    files = np.searchsorted(code.starts, starts, side="right") - 1
    found = []
    for number in np.unique(files):
        mine = files == number
        base = code.starts[number]
        low = raw_places(code.offsets[number], starts[mine] - base)
        high = raw_places(code.offsets[number], ends[mine] - base)
        name, text = code.files[number]
        high = np.minimum(high, len(text))
        newlines = np.asarray(code.newlines[number], dtype=np.int64)
        first = np.searchsorted(newlines, low) + 1
        last = np.searchsorted(newlines, np.maximum(low, high - 1)) + 1
        found += [Region(name, int(a), int(b), int(c), int(d))
                  for a, b, c, d in zip(first, last, low, high)]
    return found


def raw_places(offsets, places):
    """Where places in a file's filtered code are in its text (copydetect's own mapping,
    as its compare_files makes it)."""
    if len(offsets) == 0:
        return places
    found = np.clip(np.searchsorted(offsets[:, 0], places), 0, offsets.shape[0] - 1)
    return places + offsets[found, 1]
