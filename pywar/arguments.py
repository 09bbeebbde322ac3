"""Checks of the arguments the library's functions take, before any work: each a
TypeError that names the argument and says what it may be (a file descriptor is not a
path).  The seed and count checks live with the seed limit, in pywar/common/fields.py."""


def check_callable(name, value):
    """A TypeError naming the argument unless value is None or callable."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a function or None, not {type(value).__name__}")


def check_client(client):
    """A TypeError unless client is None or a distributed.Client (as far as pywar uses
    one: it submits tasks and names its scheduler)."""
    if client is not None and not all(hasattr(client, name) for name in ("submit", "scheduler")):
        raise TypeError(f"client must be a distributed.Client or None, not "
                        f"{type(client).__name__}")


def check_text_target(name, target):
    """A TypeError naming the argument unless target is False, True or a text stream
    (with a write method)."""
    if target is not False and target is not True and not hasattr(target, "write"):
        raise TypeError(f"{name} must be False, True or a text stream (with write), not "
                        f"{type(target).__name__}")
    return target


def check_binary_file(name, target):
    """target if it is a path (as a str) or a binary file, or a TypeError naming the
    argument (a text file, a file descriptor), before any work."""
    from .atomic import check_path
    if not hasattr(target, "write"):
        return check_path(name, target, "a path or a binary file")
    try:
        target.write(b"")
    except TypeError:
        raise TypeError(f"{name} must be a path or a binary file (open(path, 'wb')), not "
                        f"the text file {type(target).__name__}") from None
    return target
