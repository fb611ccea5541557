"""What every subcommand shares: exit codes, the input-error type, printing a file's warnings and JSON."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..model.errors import BadInputError, ProfileError

if TYPE_CHECKING:
    from ..files import Loaded
    from ..model.analysis import Analysis

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_UNEXPECTED",
    "BadInputError",
    "analyse_loaded",
    "print_warnings",
    "write_json",
]


def analyse_loaded(loaded: Loaded, source: str) -> Analysis:
    """The analysis of a profile read from ``source``; a refusal (all times 0) names the file and the time cells."""
    from ..model.analysis import analyse

    try:
        return analyse(loaded.profile)
    except ProfileError as exc:
        raise ProfileError([p if p.where else p.located(loaded.time_cells) for p in exc.problems], source) from None


def print_warnings(source: str, warnings: Iterable[object]) -> None:
    """Each warning of reading ``source`` on stderr, named by the file."""
    for w in warnings:
        print(f"{source}: warning: {w}", file=sys.stderr)


def write_json(data: Any, indent: int | None = None) -> None:
    """``data`` as UTF-8 JSON on stdout: indented for a person at a terminal (or by ``indent`` spaces),
    otherwise on one line with json's usual ", " and ": " (scripts matching "key": value keep working).

    msgspec encodes in C at any indentation; Python's json module falls back to its pure-Python encoder
    whenever it indents, and even compact it took 0.15 s of a 50,000-component report. Values are the
    same JSON numbers (1e-05 may be written 0.00001); no value here is NaN or infinite (unbounded
    figures are null by contract).
    """
    import msgspec

    out = sys.stdout
    if indent is None and out.isatty():
        indent = 2
    text = msgspec.json.format(msgspec.json.encode(data), indent=indent or 0)
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(text)  # the newline apart: joining it would copy megabytes
        buffer.write(b"\n")
        buffer.flush()
    else:  # a text-only stream (a test's capture, an IDE's console)
        out.write(text.decode("utf-8") + "\n")
