"""A name a submission gave (a folder, a file, a line it printed) as pywar writes it: in
a report, where a byte that is not UTF-8 is spelled \\xff (readable); before a person, on
a terminal or a page, where a control or format character is spelled as Python spells
it (terminal_name); and as a folder of pywar grade --keep's DIR (kept_name).  A name is
untrusted: none of these raises, and none lets a name split a line or leave a folder."""

import hashlib

NAME_BYTES = 200                    # a kept folder's name at most (a file system's is 255)
HASHED = 12                         # hex digits of the sha256 that end a name cut short


def readable(text):
    """A text as every report writes it: each byte of a file or folder name that is not
    UTF-8 (a lone surrogate, as os gives it) spelled \\xff; never an exception."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:          # a lone surrogate that stands for no byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def readable_value(value):
    """A value of a submission's JSON with each of its texts readable()."""
    if isinstance(value, str):
        return readable(value)
    if isinstance(value, dict):
        return {readable_value(key): readable_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(readable_value(item) for item in value)
    return value


def terminal_name(name):
    """A text as a person reads it (the terminal, the page, Gradescope): as it is, or, with
    a control or format character in it (a newline, an escape sequence, a right-to-left
    mark), spelled as Python spells it ('ann\\n\\x1b[31m'), so that no folder's name can
    split the table, colour the terminal or turn a line around."""
    return name if name.isprintable() else repr(name)[1:-1]


def kept_name(name):
    """A submission's folder name in pywar grade --keep's DIR: its readable name (a byte
    that is not UTF-8 as \\xff), with '%' as %25, '/' as %2F, a leading '.' as %2E (no
    '.', '..' or hidden name), a control character as %XX, the empty name as %00; one
    past NAME_BYTES cut short and ended by a hash of the whole.  Two names differ in DIR
    as they differ in the reports."""
    text = readable(name).replace("%", "%25").replace("/", "%2F")
    text = "".join(ch if ch.isprintable() else "".join(f"%{byte:02X}" for byte in
                                                       ch.encode("utf-8")) for ch in text)
    if text.startswith("."):
        text = "%2E" + text[1:]
    text = text or "%00"
    raw = text.encode("utf-8")
    if len(raw) > NAME_BYTES:
        digest = hashlib.sha256(raw).hexdigest()[:HASHED]
        text = raw[:NAME_BYTES - HASHED - 1].decode("utf-8", "ignore") + "~" + digest
    return text
