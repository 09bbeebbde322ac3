"""python -m pywar: the pywar command."""

import sys

from .cli import main

if __name__ == "__main__":        # Dask's worker processes import this module again
    sys.exit(main())
