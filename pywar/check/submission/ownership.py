"""What a submission's owner could not read themselves, and so pywar (as root, able to
read anything) must not read for them."""

import stat


def unreadable(found, owner):
    """Why the student could not read a file or folder themselves (None if they could):
    one the submission's owner does not own must be readable by all (a folder, and
    searchable), and a file must have one name alone (a hard link may be a second name
    of a file that is another's: pywar, as root, could read it)."""
    if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
        return f"a hard link ({found.st_nlink} names of one file)"
    wanted = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(found.st_mode) else 0)
    if found.st_uid != owner and found.st_mode & wanted != wanted:
        return (f"owned by user {found.st_uid}, not by the submission's owner {owner}, "
                "and not readable by all")
    return None
