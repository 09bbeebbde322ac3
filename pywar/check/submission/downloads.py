"""An LMS's download (a zip, or the folder it unzips to) read into one folder per
student, in a scratch folder of pywar's (docs/grading.md, "From the LMS and back").

Which LMS wrote it is told by its names: every name of a download follows one LMS's
rule (canvas_download, moodle_download, gradescope_export), where a student's folder
follows none.  A download is untrusted like any submission: its zip's names are checked
before anything is written (unzip), nothing is written outside the scratch, and a link,
a special file or a name that leaves its folder is refused in one line, as is a
download past DOWNLOAD_BYTES or DOWNLOAD_FILES.  What is a student's own (a zip they
sent, unpacked in its place; two names one file system would take for one; more than a
submission may hold) is bounded for that student alone, and said in their notes.
"""

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field

from . import canvas_download, gradescope_export, moodle_download
from .bounds import COPY_BYTES, COPY_DEPTH, COPY_FILES, MIB, TooLarge
from .regular import regular_file
from .unzip import (SKIPPED, Budget, Names, Refused, collision_note, copy_member, is_zip,
                    members, opened, shown, unpack, write_file)

LAYOUTS = (gradescope_export, moodle_download, canvas_download)   # the likelier last
LMS = {layout.LMS: layout for layout in LAYOUTS}
DOWNLOAD_FILES = 100_000                # files in a download, at most
DOWNLOAD_BYTES = 8 * 1024 * MIB         # bytes it unpacks to, at most
METADATA_BYTES = 16 * MIB               # a file of the download read whole (Gradescope's)
ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".7z", ".rar", ".gz")


class ZipListing:
    """A download that is a zip: its files' paths, each read or copied from the zip."""

    def __init__(self, path):
        self.path = path
        self.archive = opened(path)
        self.members, self.taken = {}, {}   # a name -> its entries (a zip may hold two)
        for parts, info in members(self.archive, DOWNLOAD_FILES):
            self.members.setdefault("/".join(parts), []).append(info)
        self.odd = []                       # a zip's links are refused by members()
        said = sum(info.file_size for infos in self.members.values() for info in infos)
        if said > DOWNLOAD_BYTES:
            raise Refused(f"its files say they hold {said // MIB:,} MiB, more than a "
                          f"download may ({DOWNLOAD_BYTES // MIB:,} MiB)")

    def paths(self):
        """The paths of its files, '/' between folders, a path twice where two entries
        have it."""
        return [path for path, infos in self.members.items() for _ in infos]

    def read(self, path):
        """A file's bytes (at most METADATA_BYTES), the first of its name."""
        with self.archive.open(self.members[path][0]) as file:
            return file.read(METADATA_BYTES)

    def copy(self, path, target, budget):
        """Write a file at target, within the budget: the next entry of its name."""
        taken = self.taken.get(path, 0)
        self.taken[path] = taken + 1
        copy_member(self.archive, self.members[path][taken], target, budget)

    def close(self):
        """Close the zip."""
        self.archive.close()


class FolderListing:
    """A folder: its files' paths (no link followed), each read or copied from it."""

    def __init__(self, path):
        self.path = path
        self.files, self.odd = {}, []
        pending = [("", 0)]
        while pending:
            relative, depth = pending.pop()
            if depth > COPY_DEPTH:
                raise TooLarge(f"folders more than {COPY_DEPTH} deep")
            try:
                entries = list(os.scandir(os.path.join(path, relative)))
            except OSError:                 # a folder pywar cannot read
                self.odd.append(relative.rstrip("/") or ".")
                continue
            for entry in entries:
                name = relative + entry.name
                if entry.is_dir(follow_symlinks=False):
                    pending.append((name + "/", depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    self.files[name] = entry.path
                else:
                    self.odd.append(name)
            if len(self.files) > DOWNLOAD_FILES:
                raise TooLarge(f"more than {DOWNLOAD_FILES:,} files")

    def paths(self):
        """The paths of its files and of what is not one (a link, a FIFO)."""
        return [*self.files, *self.odd]

    def read(self, path):
        """A file's bytes (at most METADATA_BYTES)."""
        with regular_file(self.files[path]) as file:
            return file.read(METADATA_BYTES)

    def copy(self, path, target, budget):
        """Write a file at target, within the budget."""
        with regular_file(self.files[path]) as source:
            write_file(source, target, budget, COPY_BYTES)

    def close(self):
        """Nothing to close."""


def ignored(path):
    """Whether a path is what a desktop adds beside a download's files (.DS_Store,
    __MACOSX), which no rule needs to follow."""
    top = path.split("/", 1)[0]
    return top in SKIPPED or top.startswith(".")


def kind_of(listing, wanted="auto"):
    """The layout (module) whose rule every name of the listing follows, or None where
    none does (a student's own folder); Refused in one line for names that follow an
    LMS's rule in part, or not the LMS asked for (wanted, --lms).  With the LMS asked
    for, the names that do not follow its rule are left out: (layout, those names)."""
    paths = [path for path in listing.paths() if not ignored(path)]
    if wanted == "none":
        return None, []
    if wanted != "auto":
        layout = LMS[wanted]
        stray = [path for path in paths if not layout.follows(path)]
        if len(stray) == len(paths):
            others = [other.LMS for other in LAYOUTS if paths and
                      all(other.follows(path) for path in paths)]
            theirs = f"; its names are {others[0].capitalize()}'s" if others else ""
            raise Refused(f"not {wanted.capitalize()}'s download: "
                          f"{shown(paths[0]) if paths else 'it is empty, and'} does not "
                          f"follow its rule, {layout.RULE}{theirs}")
        return layout, stray
    for layout in LAYOUTS:
        if paths and all(layout.follows(path) for path in paths):
            return layout, []
    best = max(LAYOUTS, key=lambda layout: sum(map(layout.follows, paths)))
    count = sum(map(best.follows, paths))
    if not count:
        return None, []
    stray = next(path for path in paths if not best.follows(path))
    raise Refused(f"{count:,} of its {len(paths):,} names follow {best.LMS.capitalize()}'s "
                  f"rule, {best.RULE}, but {shown(stray)} does not: give --lms "
                  f"{best.LMS} to read it as {best.LMS.capitalize()}'s, the others left "
                  "out, or --lms none to grade a folder as one student's")


@dataclass
class Class:
    """A class's submissions as given: each a student's folder (its path) or a Student of
    a download, written in the scratch; the downloads read, for the receipt; warnings."""
    sources: list = field(default_factory=list)
    downloads: list = field(default_factory=list)   # {"lms", "file", "sha256"} of each
    warnings: list = field(default_factory=list)

    def lms(self):
        """The LMS the class came from, or None (folders of the instructor's)."""
        return self.downloads[0]["lms"] if self.downloads else None


def listing_of(path):
    """The listing of a path given (a zip or a folder), or None for a file that is
    neither; Refused for a zip that cannot be read."""
    if os.path.isdir(path):
        return FolderListing(path)
    if os.path.isfile(path) and is_zip(path):
        return ZipListing(path)
    return None


def file_sha256(path):
    """The sha256 of a download's bytes, in hex; None for a folder."""
    if os.path.isdir(path):
        return None
    digest = hashlib.sha256()
    with regular_file(path) as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_class(given, scratch, wanted="auto"):
    """Each path given, a student's folder or an LMS's download (a zip, or the folder it
    unzips to), read: a Class, each download's students written into a folder of its own
    in scratch.  Refused (its words name the path), with nothing left in scratch, for a
    download that may not be read, for a file that is neither a folder nor a zip, and for
    a class of two LMSs' downloads, or of downloads and folders."""
    folder = tempfile.mkdtemp(prefix="class-", dir=scratch)     # this reading's
    try:
        return class_of(given, folder, wanted)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def class_of(given, scratch, wanted):
    """read_class's work, into a folder of its own."""
    found = Class()
    students = []
    for path in given:
        try:
            listing = listing_of(path)
        except (Refused, TooLarge) as error:
            raise Refused(f"{shown(path)}: {error}") from None
        if listing is None:
            raise Refused(f"{shown(path)} is neither a folder nor a zip: give a folder of "
                          "one student's sources, or an LMS's download (Canvas's, Moodle's "
                          "or Gradescope's zip, or the folder it unzips to)")
        try:
            students += read_download(path, listing, wanted, scratch, found)
        except (Refused, TooLarge) as error:
            raise Refused(f"{shown(path)}: {error}") from None
        finally:
            listing.close()
    kinds = sorted({record["lms"] for record in found.downloads})
    if len(kinds) > 1 or (kinds and found.sources):
        mixed = kinds + (["students' folders"] if found.sources else [])
        raise Refused("a class is graded from one LMS's downloads, or from its students' "
                      f"folders, not from {' and '.join(mixed)} at once")
    if students:
        found.sources = written(students, scratch)
    return found


def read_download(path, listing, wanted, scratch, found):
    """The students of one path given (none for a student's folder, which joins
    found.sources as it is), each written into a folder of the scratch."""
    layout, stray = kind_of(listing, wanted)
    if layout is None:
        if isinstance(listing, ZipListing):
            raise Refused("a zip is read as an LMS's download, and its names follow no "
                          f"LMS's rule ({'; '.join(each.RULE for each in LAYOUTS)}): "
                          "unzip a student's zip into a folder of its own")
        found.sources.append(path)
        return []
    if listing.odd:
        raise Refused(f"{shown(listing.odd[0])} is not a regular file or folder (a link, a "
                      "FIFO, or a folder pywar cannot read): an LMS's download holds none")
    if stray:
        found.warnings.append(f"{shown(path)}: {len(stray):,} names left out, which do not "
                              f"follow {layout.LMS.capitalize()}'s rule ({shown(stray[0])} "
                              "the first)")
    left = set(stray)
    paths = [each for each in listing.paths() if not ignored(each) and each not in left]
    students = layout.students(paths, listing.read)
    found.downloads.append({"lms": layout.LMS,
                            "file": os.path.basename(os.path.normpath(path)),
                            "sha256": file_sha256(path)})
    for number, student in enumerate(students):
        folder = os.path.join(scratch, f"{len(found.downloads)}-{number + 1:05d}")
        write_student(student, listing, folder, scratch)
    return students


def write_student(student, listing, folder, scratch):
    """Write a student's files into folder, each under its name (a later one of a name
    already taken left out), then unpack each zip they sent in its place."""
    student.folder = folder
    os.mkdir(folder, 0o755)
    names, budget = Names(), Budget(COPY_FILES, COPY_BYTES)
    try:
        for source, parts in student.files:
            other = names.claim(parts)
            if other is not None:
                student.notes.append(collision_note("/".join(parts), other))
                continue
            listing.copy(source, os.path.join(folder, *parts), budget)
        unpack_zips(student, names, budget, scratch)
    except TooLarge as error:
        emptied(student, f"past the bounds of a submission ({error}; at most "
                         f"{COPY_FILES:,} files, {COPY_BYTES // MIB} MiB)")
    if student.lms == canvas_download.LMS:
        student.notes += canvas_download.unnumbered(folder)


def emptied(student, why):
    """Leave a student's folder empty, with a note saying why: it is not graded."""
    shutil.rmtree(student.folder)
    os.mkdir(student.folder, 0o755)
    student.notes.append(f"its files were not unpacked: {why}")


def unpack_zips(student, names, budget, scratch):
    """Unpack each zip a student sent in its place (its files beside it, the zip then
    removed; a zip inside it is not unpacked): a zip refused stays as it was, with a
    note saying why; an archive pywar does not unpack, a note."""
    for _, parts in student.files:
        path = os.path.join(student.folder, *parts)
        lower = parts[-1].lower()
        if lower.endswith(ARCHIVES):
            student.notes.append(f"{shown(parts[-1])}: not unpacked (pywar unpacks zips, "
                                 "not other archives)")
        elif lower.endswith(".zip") and os.path.isfile(path):
            student.notes += unpack_one(path, parts, student.folder, names, budget, scratch)


def unpack_one(path, parts, folder, names, budget, scratch):
    """Unpack one zip of a student's in a staging folder, then in its place: the notes
    (what was left out of it; why it was not unpacked)."""
    name = shown("/".join(parts))
    if not is_zip(path):
        return [f"{name}: not unpacked: not a zip"]
    trial_names = Names()
    trial_names.spelled = dict(names.spelled)
    trial_names.release(parts)
    trial = Budget(budget.files + 1, budget.size + os.path.getsize(path))   # its own back
    staging = tempfile.mkdtemp(prefix="unpacking-", dir=scratch)
    try:
        notes = unpack(path, staging, trial_names, trial, parts[:-1])
        os.remove(path)
        inner = moved_in(staging, folder)
    except (Refused, TooLarge) as error:
        return [f"{name}: not unpacked: {error}"]
    finally:
        shutil.rmtree(staging)
    names.spelled = trial_names.spelled
    budget.files, budget.size = trial.files, trial.size
    return [f"{name}: unpacked in its place", *notes,
            *(f"{shown(zip_)}: a zip inside {name}: not unpacked (pywar unpacks the zips "
              "a student sent, not the zips inside them)" for zip_ in inner)]


def moved_in(staging, folder):
    """Move each file of the staging folder to its place in folder (its folders made):
    the paths of the zips among them."""
    zips = []
    for top, _, files in os.walk(staging):
        relative = os.path.relpath(top, staging)
        for name in files:
            target = os.path.normpath(os.path.join(folder, relative, name))
            os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
            os.rename(os.path.join(top, name), target)
            if name.lower().endswith(".zip"):
                zips.append(os.path.relpath(target, folder))
    return sorted(zips)


def written(students, scratch):
    """The students of the class, each with its name in the class: the LMS's name for
    it, or with its id where two share one (or it has none), in the order of their
    names."""
    count = {}
    for student in students:
        count[student.name] = count.get(student.name, 0) + 1
    for student in students:
        alone = student.name and count[student.name] == 1
        student.submission_name = student.name if alone else \
            f"{student.name} ({student.id})" if student.name else str(student.id)
    keys = {}
    for student in students:
        other = keys.setdefault(student.key(), student)
        if other is not student:
            raise Refused(f"{student.lms.capitalize()}'s id {student.id} is in two downloads "
                          f"({other.submission_name!r} and {student.submission_name!r}): "
                          "give each download once")
    return sorted(students, key=lambda s: (s.submission_name.casefold(), s.submission_name))
