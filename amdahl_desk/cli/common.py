"""What every subcommand shares: exit codes, the input-error type, printing a file's warnings."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..model.analysis import Analysis, analyse
from ..model.errors import BadInputError, ProfileError

if TYPE_CHECKING:
    from ..files import Loaded

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2

__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "EXIT_UNEXPECTED", "BadInputError", "analyse_loaded", "print_warnings"]


def analyse_loaded(loaded: Loaded, source: str) -> Analysis:
    """The analysis of a profile read from ``source``; a refusal (all times 0) names the file and the time cells."""
    try:
        return analyse(loaded.profile)
    except ProfileError as exc:
        raise ProfileError([p if p.where else p.located(loaded.time_cells) for p in exc.problems], source) from None


def print_warnings(source: str, warnings: Iterable[object]) -> None:
    """Each warning of reading ``source`` on stderr, named by the file."""
    for w in warnings:
        print(f"{source}: warning: {w}", file=sys.stderr)
