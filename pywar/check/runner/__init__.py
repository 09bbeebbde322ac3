"""The one runner of untrusted code (sandbox), the seed clock (seedclock.c) that makes
an unchanged srand(time(NULL)) read the seed, and what a child of the runner that runs a
student's Python boots from (pychild)."""
