"""A submission, as every instructor's tool takes it: untrusted files and names, read
without following a link and within bounds.  The runner, the grader, similar and the
exercise stand on this room and it imports none of them:

- bounds: how large a submission may be (folders deep, files, bytes), and TooLarge;
- regular: a regular file opened for reading, no link followed, no FIFO waited on;
- ownership: what a submission's owner could not read themselves (a hard link, another
  user's private file), which pywar, as root, must not read for them;
- copying: a submission copied within its bounds, leaving out what its owner could not read;
- files: the list of a submission's regular files, and which of them are sources;
- names: a name a submission gave, as a report, a terminal, a page and a kept folder write it.
"""
