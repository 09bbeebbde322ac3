"""Checks of the arguments the library's functions take, before any work: each a
TypeError that names the argument and says what it may be (a file descriptor is not a
path).  The seed and count checks live with the seed limit, in pywar/common/fields.py."""


def progress_function(progress, label):
    """The progress(done, total) a long call reports to: the caller's function, tqdm's bar
    on stderr for True, or None for False or None (the flag tqdm's users pass)."""
    if progress is True:
        from tqdm import tqdm
        bar = tqdm(desc=label, unit=" games", leave=False)

        def draw(done, total):
            bar.total = total
            bar.update(done - bar.n)
            if done >= total:
                bar.close()
        return draw
    if progress is False or progress is None:
        return None
    if not callable(progress):
        raise TypeError("progress must be a function, True, False or None, not "
                        f"{type(progress).__name__}")
    return progress


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
