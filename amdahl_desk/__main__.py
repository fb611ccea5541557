"""``python -m amdahl_desk``: the same as the ``amdahl-desk`` command."""

import sys

from .cli import main

sys.exit(main())
