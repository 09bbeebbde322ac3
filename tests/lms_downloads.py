"""Downloads built by each LMS's own rules, for the tests of pywar grade DOWNLOAD
(docs/grading.md, "From the LMS and back", which cites each rule):

- Canvas's "Download Submissions" (instructure/canvas-lms lib/content_zipper.rb): a flat
  zip, every name `<sortable name, lowercased, non-word characters removed>_[LATE_]<user
  id>_<attachment id>_<display name>`, the UTF-8 flag (0x800) on every entry, as rubyzip
  with Zip.unicode_names writes it (config/initializers/rubyzip.rb);
- Moodle's "Download all submissions" (mod/assign/classes/downloader.php, 4.1 and later):
  `<Full Name>_<participant id>_assignsubmission_file/<path>`, streamed by ZipStream-PHP,
  the flag on names that are not ASCII alone; its flat form and its form before 4.1;
- Gradescope's "Export Submissions": `assignment_<id>_export/submission_metadata.yml` and
  `submission_<id>/` folders (instructors' tools read it so; Gradescope documents none).

Each class holds a late one, a student's zip inside the download, and a student of two
files (war.cpp including Pile.h).  The hostile downloads are built by hand: what no LMS
writes, as someone who edited a download, or a student's own zip, can.
"""

import io
import stat
import zipfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
FAITHFUL = (DATA / "class" / "faithful" / "war.cpp").read_bytes()
TWO_FILES = b'#include "Pile.h"\n' + FAITHFUL          # needs Pile.h to build
PILE_H = b"#pragma once\n// the student's pile, included by war.cpp\n"
TINY = b"int main() { return 0; }\n"                  # builds and runs, plays no game
UTF8_FLAG = 0x800


class FlaggedInfo(zipfile.ZipInfo):
    """An entry whose name carries the UTF-8 flag even in ASCII, as rubyzip writes every
    entry with Zip.unicode_names (zipfile resets flag_bits as it opens an entry to
    write, so the flag goes in through the name's encoding, a private hook: the test
    of the built zip pins it)."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits | UTF8_FLAG


def write_zip(path, entries, flagged=False):
    """A zip at path (or its bytes, path None) of (name, bytes) entries, each a regular
    file; flagged: every name UTF-8 flagged (Canvas's)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = FlaggedInfo(name) if flagged else zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, data)
    if path is None:
        return out.getvalue()
    Path(path).write_bytes(out.getvalue())
    return Path(path)


def student_zip(top="War", macos=True):
    """A student's own zip of a folder, as macOS's Finder makes it: the folder, and
    __MACOSX beside it (AppleDouble files)."""
    entries = [(f"{top}/war.cpp", TWO_FILES), (f"{top}/Pile.h", PILE_H)]
    if macos:
        entries.append((f"__MACOSX/{top}/._war.cpp", b"\0\5\26\7 AppleDouble"))
    return write_zip(None, entries)


# Canvas ---------------------------------------------------------------------------

CANVAS = [      # (entry, what it models): recipe 5.1 of the LMS research
    ("doejane_1001_50001_war.cpp", TWO_FILES),           # "Doe, Jane": two files
    ("doejane_1001_50002_Pile.h", PILE_H),
    ("smithjohn_LATE_1002_50010_war.cpp", TWO_FILES),    # late
    ("smithjohn_LATE_1002_50011_Pile-1.h", PILE_H),      # numbered by Canvas
    ("obrienpat_1003_50020_War.zip", None),              # "O'Brien, Pat": a zip in the zip
    ("müllerjürgen_1004_50030_war.cpp", TINY),           # "Müller, Jürgen": not ASCII
    ("o_neilsean_1005_50040_war.cpp", TINY),             # "O_Neil, Sean": '_' in the name
    ("leeann_1006_text.html", b"<html>my answer</html>"),   # an online text entry
    ("teamred_1007_50050_war.cpp", TINY),                # a group: its representative
]
CANVAS_IDS = {"doejane": "1001", "smithjohn": "1002", "obrienpat": "1003",
              "müllerjürgen": "1004", "o_neilsean": "1005", "leeann": "1006",
              "teamred": "1007"}


def canvas_zip(path, entries=None):
    """Canvas's download of the class (entries: (name, bytes), None: the student zip)."""
    entries = CANVAS if entries is None else entries
    return write_zip(path, [(name, student_zip() if data is None else data)
                            for name, data in entries], flagged=True)


# Moodle ---------------------------------------------------------------------------

MOODLE = [
    ("Jane Doe_412345_assignsubmission_file/war.cpp", TWO_FILES),
    ("Jane Doe_412345_assignsubmission_file/Pile.h", PILE_H),
    ("John Smith_412346_assignsubmission_file/war.cpp", TINY),     # late: the worksheet says
    ("Pat OBrien_412347_assignsubmission_file/War.zip", None),    # a zip in the zip
    ("Jürgen Müller_412348_assignsubmission_file/war.cpp", TINY),
    ("Ann Lee_412349_assignsubmission_onlinetext/onlinetext.html",
     b'<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>my answer</body></html>'),
    ("Sam Park_412350_assignsubmission_file/src/war.cpp", TINY),   # a sub-folder kept
]
MOODLE_IDS = {"Jane Doe": "412345", "John Smith": "412346", "Pat OBrien": "412347",
              "Jürgen Müller": "412348", "Ann Lee": "412349", "Sam Park": "412350"}


def moodle_entries(form="folders"):
    """The class's entries in one of Moodle's forms: folders (4.1 on), flat, or old
    (folders ending in '_', before 4.1)."""
    made = []
    for name, data in MOODLE:
        top, _, rest = name.partition("/")
        if form == "flat":
            name = f"{top}_{rest.rsplit('/', 1)[-1]}"       # the base name alone
        elif form == "old":
            name = f"{top}_/{rest}"
        made.append((name, student_zip() if data is None else data))
    return made


def moodle_zip(path, form="folders", entries=None):
    """Moodle's download: ZipStream-PHP's flag on names that are not ASCII alone
    (zipfile does the same)."""
    return write_zip(path, moodle_entries(form) if entries is None else entries)


WORKSHEET_HEADER = ('Identifier,"Full name","Email address",Status,Grade,"Maximum Grade",'
                    '"Grade can be changed","Last modified (submission)",'
                    '"Last modified (grade)","Feedback comments"')


def moodle_worksheet(path, maximum="100.00"):
    """The assignment's grading worksheet as Moodle 4.4 writes it (gradingtable.php
    through OpenSpout: a UTF-8 byte-order mark, ',', fputcsv's quoting, LF), one row per
    participant; John Smith's Status says late, and a newline inside Ann Lee's, as the
    2013 worksheet of asayler/moodle-offline-grading has."""
    rows = [WORKSHEET_HEADER]
    for name, number in MOODLE_IDS.items():
        late = " - 1 day 2 hours late" if name == "John Smith" else ""
        status = (f'"Submitted for grading{late}"' if name != "Ann Lee" else
                  '"Submitted for grading\n"')
        rows.append(f'"Participant {number}","{name}",{name.split()[0].lower()}@example.org,'
                    f'{status},,{maximum},Yes,"Friday, 3 May 2024, 9:12 AM",-,')
    rows.append('"Participant 412399","Zoe Absent",zoe@example.org,"No submission",,'
                f"{maximum},Yes,-,-,")
    Path(path).write_bytes("\ufeff".encode() + ("\n".join(rows) + "\n").encode())
    return Path(path)


# Gradescope -----------------------------------------------------------------------

GRADESCOPE_METADATA = """\
---
submission_9001:
  :submitters:
  - :name: Jane Doe
    :sid: '1001'
    :email: jane@example.org
  :created_at: 2024-05-01 10:00:00.000000000 Z
  :score: 0.0
  :history: []
submission_9002:
  :submitters:
  - :name: John Smith
    :sid: '1002'
    :email: john@example.org
  :created_at: 2024-05-03 09:12:00.000000000 Z
  :score: 0.0
  :history:
  - :id: 8990
    :created_at: 2024-04-30 08:00:00.000000000 Z
    :score: 0.0
submission_9003:
  :submitters:
  - :name: Pat O'Brien
    :sid: '1003'
    :email: pat@example.org
  - :name: Ann Lee
    :sid: '1006'
    :email: ann@example.org
  :created_at: 2024-05-01 11:00:00.000000000 Z
  :score: 0.0
  :history: []
submission_9004:
  :submitters:
  - :name: Jürgen Müller
    :sid: '1004'
  :created_at: 2024-05-01 12:00:00.000000000 Z
  :score: 0.0
"""
GRADESCOPE_DUE = "2024-05-02T23:59:00+00:00"       # 9002 is late against it


def gradescope_entries(metadata=True, root="assignment_4242_export/"):
    """The export's entries (9004's record has no :history:: a reader takes both)."""
    made = [(f"{root}submission_metadata.yml", GRADESCOPE_METADATA.encode())] if metadata \
        else []
    return made + [(f"{root}submission_9001/war.cpp", TWO_FILES),
                   (f"{root}submission_9001/Pile.h", PILE_H),
                   (f"{root}submission_9002/war.cpp", TINY),
                   (f"{root}submission_9003/War.zip", student_zip()),
                   (f"{root}submission_9004/war.cpp", TINY)]


def gradescope_zip(path, metadata=True):
    """Gradescope's export."""
    return write_zip(path, gradescope_entries(metadata))


# Hostile ----------------------------------------------------------------------------

def link_entry(name, target=b"/etc/passwd"):
    """A symbolic link as a zip holds one: its Unix mode in the external attributes,
    its target as its data."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target


def write_infos(path, infos):
    """A zip of (ZipInfo or name, bytes) entries, written as given."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info, data in infos:
            archive.writestr(info, data)
    if path is None:
        return out.getvalue()
    Path(path).write_bytes(out.getvalue())
    return Path(path)


def renamed_bytes(data, placeholder, raw):
    """A zip's bytes with an entry's ASCII placeholder name replaced by raw bytes of the
    same length in both its headers (names are outside the CRC): a name in a legacy
    encoding (cp1252, cp437), no UTF-8 flag, or bytes that are not UTF-8."""
    assert len(placeholder) == len(raw)
    assert data.count(placeholder) == 2            # the local and the central header
    return data.replace(placeholder, raw)


def bomb_zip(size=1 << 30):
    """A zip of one entry of size zero bytes (1 GiB deflates to about 1 MiB), written
    streamed so that it is never whole in memory."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("War/war.cpp", "w", force_zip64=True) as entry:
            block = bytes(1 << 20)
            for _ in range(size >> 20):
                entry.write(block)
    return out.getvalue()


def nested_zip(depth):
    """A zip in a zip ... depth deep, the innermost holding war.cpp."""
    data = write_zip(None, [("war.cpp", TINY)])
    for level in range(depth):
        data = write_zip(None, [(f"level{level}.zip", data)])
    return data


def lying_zip():
    """A zip whose central directory says its entry holds fewer bytes than it does."""
    data = write_zip(None, [("War/war.cpp", TINY * 100)])
    archive = zipfile.ZipFile(io.BytesIO(data))
    info = archive.infolist()[0]
    said = info.file_size.to_bytes(4, "little")
    assert data.count(said) >= 2
    return data.replace(said, (10).to_bytes(4, "little"))
