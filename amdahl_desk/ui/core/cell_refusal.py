"""A typed edit refused at its cell: which cell, why, and the text typed there (the view gives it back)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import SignalInstance

from ...model.errors import ProfileError
from ...present.refusals import refusal_text
from .locale_text import locale_numbers

Edits = Sequence[tuple[int, int, str]]  # (row, column, typed text)
Check = Callable[[int, int, str], bool]  # does this one cell, alone, take this text?
NAMED = 3  # refused cells a message names; the rest are counted
QUOTED_MAX = 40  # characters of a quoted text a message shows (a paste can put a whole page in one cell)
_QUOTED = re.compile(r'"([^"]*)"')


class CellError(ValueError):
    """A value refused for a cell, with the reason for the person who typed it."""

    def __init__(self, row: int, column: int, message: str) -> None:
        super().__init__(message)
        self.row, self.column = row, column


def brief(message: str) -> str:
    """``message`` with each quoted text on one line and cut to :data:`QUOTED_MAX` characters."""

    def cut(match: re.Match[str]) -> str:
        text = " ".join(match.group(1).split())
        return f'"{text[: QUOTED_MAX - 1]}…"' if len(text) > QUOTED_MAX else f'"{text}"'

    return _QUOTED.sub(cut, message)


def also_refused(cells: Sequence[tuple[int, int]], header: Callable[[int], str]) -> str:
    """`` Also refused: row 5 (Time), row 9 (Time) and 12 more cells.`` for the refused cells after the first."""
    if not cells:
        return ""
    named = [f"row {r + 1} ({header(c)})" for r, c in cells[:NAMED]]
    more = len(cells) - len(named)
    if more:
        return (
            f" Also refused: {', '.join(named)} and {locale_numbers().count(more)} more cell{'s' if more > 1 else ''}."
        )
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f" Also refused: {listed}."


def refuse_edit(
    rejected: SignalInstance,
    edits: Edits,
    exc: CellError | ProfileError,
    column_of: Callable[[str | None], int],
    check: Check | None = None,
    header: Callable[[int], str] = str,
) -> None:
    """Emit ``rejected(row, column, message, text refused, single-cell edit)`` for ``exc``.

    A :class:`CellError` names its cell; a model-level :class:`ProfileError` names a row and a field,
    which ``column_of`` turns into the table's column (its first edited row when it names none).
    For an edit of several cells (a paste) the message names the first refused cell and, with ``check``,
    the others that would be refused on their own, the first few by row and the rest counted.
    """
    if isinstance(exc, ProfileError):
        problem = exc.problems[0]
        row = problem.row if problem.row is not None else (edits[0][0] if edits else 0)
        col, message = column_of(problem.field), refusal_text(problem, locale_numbers())
    else:
        row, col, message = exc.row, exc.column, str(exc)
    refused = next((t for r, c, t in edits if (r, c) == (row, col)), "")
    message = brief(message)
    if len(edits) > 1:
        others = [(r, c) for r, c, t in edits if (r, c) != (row, col) and check is not None and not check(r, c, t)]
        message = f"Row {row + 1} ({header(col)}): {message}{also_refused(others, header)}"
    rejected.emit(row, col, message, refused, len(edits) == 1)
