"""How large a submission may be: what a copy of it takes (copying), what is listed of it
(files) and hashed (pywar grade's receipt), at most."""

MIB = 2 ** 20
COPY_DEPTH = 32                      # folders deep, at most, in a submission's copy
COPY_FILES = 10_000                  # files in it, at most
COPY_BYTES = 256 * MIB               # bytes in it, at most


class TooLarge(Exception):
    """A submission past its bounds (too deep, too many files or bytes): not copied, listed
    or hashed."""
