"""A zip read as untrusted input (an LMS's download, a student's own zip): each entry's
name checked before anything is written, its bytes bounded as they are read, and only
regular files and folders made, new, under a folder of pywar's (docs/grading.md,
"From the LMS and back").

An entry is refused, in one line naming it, for a name that would leave its folder (a
'..' part, an absolute name, a drive letter; a backslash is a separator, as Windows
writes it), a NUL in its name, a link or a special file (its Unix mode says so), or
encryption.  A name is its bytes as UTF-8 where they are UTF-8, flagged or not; bytes that
are not are kept as bytes (a report spells them \\xff), never guessed as cp437, which
turns every accent into two wrong letters.  Two names that one file system folding case
and Unicode's forms would take for one (War.cpp and war.cpp, an NFC é and an NFD é) are
one name: the later is left out (Names).
"""

import os
import stat
import unicodedata
import zipfile
import zlib

from .bounds import MIB, TooLarge

UTF8_NAMES = 0x800                  # the general purpose flag: the name is UTF-8
ENCRYPTED = 0x1                     # the general purpose flag: the entry is encrypted
CHUNK = 1 << 16                     # bytes read at once
SKIPPED = ("__MACOSX",)             # what a zip made on macOS holds beside the files


class Refused(Exception):
    """A zip or one of its entries refused: its words are one line."""


def is_zip(path):
    """Whether the regular file at path starts as a zip does (a local header, or the end
    of an empty zip)."""
    with open(path, "rb") as file:
        return file.read(4) in (b"PK\x03\x04", b"PK\x05\x06")


def entry_name(info):
    """An entry's name as pywar holds a file's (str, a byte that is not UTF-8 as a lone
    surrogate, as os gives it): UTF-8 where its bytes are."""
    if info.flag_bits & UTF8_NAMES:
        return info.orig_filename           # zipfile decoded it as UTF-8, strictly
    raw = info.orig_filename.encode("cp437")    # zipfile's decoding, undone byte for byte
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return os.fsdecode(raw)


def name_parts(name):
    """The folders and file of an entry's name, '/' or '\\' between them (no '.' or empty
    part), or Refused saying why it may not be written."""
    if "\0" in name:
        return refuse(name, "a NUL in its name")
    if name[:1] in ("/", "\\") or (len(name) > 1 and name[1] == ":" and name[0].isalpha()):
        return refuse(name, "an absolute name (it would be written outside its folder)")
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
    if ".." in parts:
        return refuse(name, "a '..' part (it would be written outside its folder)")
    return parts


def refuse(name, why):
    """Raise Refused for an entry's name."""
    raise Refused(f"{shown(name)}: {why}")


def shown(name):
    """An entry's name in a line of words: quoted, every byte and character readable."""
    return repr(name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))


def entry_kind(info):
    """'file' or 'folder', or Refused for a link, a special file or an encrypted entry."""
    mode = info.external_attr >> 16
    name = entry_name(info)
    if stat.S_ISLNK(mode):
        refuse(name, "a symbolic link (pywar makes regular files and folders alone)")
    if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        refuse(name, "a special file (pywar makes regular files and folders alone)")
    if info.flag_bits & ENCRYPTED:
        refuse(name, "encrypted")
    return "folder" if info.is_dir() or stat.S_ISDIR(mode) else "file"


def opened(path):
    """The zip at path, open, or Refused in one line for one Python cannot read."""
    try:
        return zipfile.ZipFile(path)
    except UnicodeDecodeError:
        raise Refused("a name flagged UTF-8 is not UTF-8") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError,
            ValueError) as error:
        raise Refused(f"not a zip Python can read ({error})") from None


def members(archive, most_files):
    """[(parts, info)] of each file of the zip, its name and kind checked (a folder is
    made where a file needs it; __MACOSX's left aside), or Refused at the first entry
    that may not be written; TooLarge past most_files entries."""
    found = []
    for info in archive.infolist():
        if len(found) >= most_files:
            raise TooLarge(f"more than {most_files:,} files")
        parts = name_parts(entry_name(info))
        if entry_kind(info) == "file" and parts and parts[0] not in SKIPPED:
            found.append((parts, info))
    return found


class Budget:
    """What may still be written: files and bytes, shared by everything unpacked for one
    submission (TooLarge past either)."""

    def __init__(self, files, size):
        self.files, self.size = files, size

    def take(self, files=0, size=0):
        """Count files and bytes written; TooLarge once either is past its bound."""
        self.files -= files
        self.size -= size
        if self.files < 0:
            raise TooLarge("too many files")
        if self.size < 0:
            raise TooLarge("more bytes than a submission may hold")


def folded(part):
    """A name as a file system that ignores case and Unicode's forms sees it (macOS's,
    Windows'): its case folded, in NFC."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", part).casefold())


class Names:
    """The names written under one folder, by their folded form: a second spelling of one
    name (War.cpp beside war.cpp, a folder beside a file of one name) is a collision."""

    def __init__(self):
        self.spelled = {}                   # folded path -> (its spelling, 'file'/'folder')

    def claim(self, parts):
        """Take a file's name: None, or the name already written that it collides with."""
        for depth in range(1, len(parts) + 1):
            path = "/".join(parts[:depth])
            kind = "file" if depth == len(parts) else "folder"
            key = folded(path)
            had = self.spelled.get(key)
            if had is not None and (had != (path, kind) or kind == "file"):
                return had[0]
        for depth in range(1, len(parts) + 1):
            path = "/".join(parts[:depth])
            self.spelled[folded(path)] = (path, "file" if depth == len(parts) else "folder")
        return None

    def release(self, parts):
        """Give back a file's name (a zip unpacked in its place)."""
        self.spelled.pop(folded("/".join(parts)), None)


def write_file(source, target, budget, size_said):
    """Copy an open file's bytes into a new file at target (its folders made), at most the
    size it said and within the budget; Refused where it holds more than it said."""
    os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as out:
        budget.take(files=1)
        written = 0
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                break
            written += len(chunk)
            if written > size_said:
                raise Refused(f"{os.path.basename(target)!r}: more bytes than it said")
            budget.take(size=len(chunk))
            out.write(chunk)


def copy_member(archive, info, target, budget):
    """Write one file of the zip at target, bounded: Refused for a corrupt entry (an
    OSError of the disk's is the caller's)."""
    if info.file_size > budget.size:
        raise TooLarge(f"{shown(entry_name(info))} says it holds {info.file_size // MIB:,} "
                       "MiB, more than a submission may")
    try:
        with archive.open(info) as source:
            write_file(source, target, budget, info.file_size)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
            RuntimeError) as error:
        raise Refused(f"{shown(entry_name(info))}: cannot be read ({error})") from None


def unpack(path, folder, names, budget, prefix=()):
    """Unpack the zip at path into folder (a folder of pywar's), each file under prefix
    (its parts), its names claimed in names: the notes of the files left out (a name
    that collides with one already there).  Refused or TooLarge before anything is
    written for a zip or entry that may not be, or past the budget; a corrupt entry once
    met (the caller removes what was written)."""
    with opened(path) as archive:
        files = members(archive, budget.files)
        declared = sum(info.file_size for _, info in files)
        if declared > budget.size:
            raise TooLarge(f"its files say they hold {declared // MIB:,} MiB, more than a "
                           "submission may")
        notes = []
        for parts, info in files:
            parts = [*prefix, *parts]
            other = names.claim(parts)
            if other is not None:
                notes.append(collision_note("/".join(parts), other))
                continue
            copy_member(archive, info, os.path.join(folder, *parts), budget)
        return notes


def collision_note(name, other):
    """The note of a file left out for a name that another took."""
    return (f"left out {shown(name)}: the same name as {shown(other)} on a file system "
            "that ignores case or Unicode's forms (macOS, Windows)")
