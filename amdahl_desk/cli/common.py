"""What every subcommand shares: exit codes, the input-error type, printing a file's warnings."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ..model.errors import BadInputError

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2

__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "EXIT_UNEXPECTED", "BadInputError", "print_warnings"]


def print_warnings(source: str, warnings: Iterable[object]) -> None:
    """Each warning of reading ``source`` on stderr, named by the file."""
    for w in warnings:
        print(f"{source}: warning: {w}", file=sys.stderr)
