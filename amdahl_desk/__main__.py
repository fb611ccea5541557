"""``python -m amdahl_desk``: the same as the ``amdahl-desk`` command."""

from .cli import entry

entry()
