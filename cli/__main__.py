"""``python -m mancala_marl.cli``: the ``mancala-marl`` command."""

import sys

from mancala_marl.cli import main

sys.exit(main())
