"""python -m pywar: the pywar command."""

import sys

from .cli import main

sys.exit(main())
