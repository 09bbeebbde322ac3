"""The one runner of untrusted code (sandbox), and the seed clock (seedclock.c) that makes
an unchanged srand(time(NULL)) read the seed."""
