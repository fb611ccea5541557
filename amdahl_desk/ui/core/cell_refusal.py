"""A typed edit refused at its cell: which cell, why, and the text typed there (the view gives it back)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import SignalInstance

from ...model.errors import ProfileError

Edits = Sequence[tuple[int, int, str]]  # (row, column, typed text)


class CellError(ValueError):
    """A value refused for a cell, with the reason for the person who typed it."""

    def __init__(self, row: int, column: int, message: str) -> None:
        super().__init__(message)
        self.row, self.column = row, column


def refuse_edit(
    rejected: SignalInstance, edits: Edits, exc: CellError | ProfileError, column_of: Callable[[str | None], int]
) -> None:
    """Emit ``rejected(row, column, message, text refused, single-cell edit)`` for ``exc``.

    A :class:`CellError` names its cell; a model-level :class:`ProfileError` names a row and a field,
    which ``column_of`` turns into the table's column (its first edited row when it names none).
    """
    if isinstance(exc, ProfileError):
        problem = exc.problems[0]
        row = problem.row if problem.row is not None else (edits[0][0] if edits else 0)
        col, message = column_of(problem.field), problem.what
    else:
        row, col, message = exc.row, exc.column, str(exc)
    refused = next((t for r, c, t in edits if (r, c) == (row, col)), "")
    rejected.emit(row, col, message, refused, len(edits) == 1)
