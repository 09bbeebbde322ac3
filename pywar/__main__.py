"""python -m pywar: the pywar command (pywar_command.main, which imports pywar.cli)."""

import sys

from pywar_command import main

if __name__ == "__main__":        # Dask's worker processes import this module again
    sys.exit(main())
