"""What the port and the engine share, in Python as in C (csrc/common/): glibc's
generator (rng), the trace's lines (trace), the digest (digest) and the observer that
counts, digests and traces the port's games (observer).  Pure standard library."""
