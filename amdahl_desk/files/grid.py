"""A sheet's cells as rows of Python values, and how to name a cell in a message."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..present.text import quoted

if TYPE_CHECKING:
    from .formula_cells import WorkbookFormulas

CellValue = object
NEVER_CALCULATED = (
    "holds a formula that was never calculated (the file has no saved value for it); open the "
    "workbook in Excel or LibreOffice, recalculate, save it, and open it again"
)


class StoredDuration:
    """A time- or duration-formatted cell's stored number: ``days``, the exact fraction of a day the file holds.

    ``elapsed``: its format shows every hour (``[h]:mm:ss``), not only the time of day past whole days.
    Not a number for the readers of counts, speedups or settings (they refuse it), only for times and formulas.
    """

    __slots__ = ("days", "elapsed")

    def __init__(self, days: float, elapsed: bool = True) -> None:
        self.days, self.elapsed = days, elapsed

    def __float__(self) -> float:
        return self.days

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredDuration) and (self.days, self.elapsed) == (other.days, other.elapsed)

    def __hash__(self) -> int:
        return hash((self.days, self.elapsed))

    def __repr__(self) -> str:
        return f"StoredDuration({self.days!r}, elapsed={self.elapsed})"

    def __str__(self) -> str:
        """As a spreadsheet shows it: ``0:00:00.0425`` (hours, minutes, seconds to the microsecond)."""
        total = abs(self.days) * 86_400
        hours, rest = divmod(total, 3600)
        minutes, seconds = divmod(rest, 60)
        text = f"{int(hours)}:{int(minutes):02d}:{seconds:09.6f}".rstrip("0").rstrip(".")
        return ("-" if self.days < 0 else "") + text


def column_letter(col: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


@dataclass
class Grid:
    """Rows of cell values; ``row0``/``col0`` place ``rows[0][0]`` on the sheet (0-based)."""

    sheet: str
    rows: Sequence[Sequence[CellValue]]
    row0: int = 0
    col0: int = 0
    csv: bool = False
    # Asked for a cell's A1 reference: does it hold a formula that was never calculated?
    uncomputed: Callable[[str], bool] | None = None
    # The decimal separator the file suggests (a ;-separated CSV: ","), used only when a column does not say.
    decimal_hint: Literal[".", ","] | None = None
    # The workbook's formulas, computed for the cells the reader uses (None for CSV).
    formulas: WorkbookFormulas | None = None
    # Cells emptied because their formula could not be computed nor its saved value trusted: why.
    refused: dict[tuple[int, int], str] = field(default_factory=dict)
    # Merged ranges as (top, left, bottom, right), in the grid's rows and columns (files/sheet_layout.py).
    merged: Sequence[tuple[int, int, int, int]] = ()

    def ref(self, row: int, col: int) -> str:
        return f"{column_letter(self.col0 + col)}{self.row0 + row + 1}"

    def never_calculated(self, row: int, col: int) -> bool:
        return self.uncomputed is not None and self.uncomputed(self.ref(row, col))

    def why_empty(self, row: int, col: int) -> str | None:
        """Why a cell that looks empty is not simply empty: a formula refused or never calculated."""
        refused = self.refused.get((row, col))
        if refused is not None:
            return refused
        return NEVER_CALCULATED if self.never_calculated(row, col) else None

    def where(self, row: int, col: int | None = None) -> str:
        """``Components!B7`` for a cell, ``Components!7:7`` for a whole row; CSV says row and column."""
        r = self.row0 + row + 1
        if self.csv:
            return f"row {r}" if col is None else f"row {r}, column {self.col0 + col + 1}"
        if col is None:
            return f"{self.sheet}!{r}:{r}"
        return f"{self.sheet}!{column_letter(self.col0 + col)}{r}"

    def span(self, first: int, last: int, col: int) -> str:
        """``Components!B2:B6`` for part of a column; CSV says rows and column."""
        r1, r2 = self.row0 + first + 1, self.row0 + last + 1
        if self.csv:
            return (
                f"rows {r1}–{r2}, column {self.col0 + col + 1}"
                if r2 > r1
                else f"row {r1}, column {self.col0 + col + 1}"
            )
        letter = column_letter(self.col0 + col)
        return f"{self.sheet}!{letter}{r1}:{letter}{r2}" if r2 > r1 else f"{self.sheet}!{letter}{r1}"

    def cell(self, row: int, col: int) -> CellValue:
        cells = self.rows[row]
        return cells[col] if col < len(cells) else ""


def is_empty(value: CellValue) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def as_text(value: CellValue) -> str:
    """A cell as text the way a spreadsheet shows it: 100.0 as "100", TRUE as "TRUE"."""
    if type(value) is str:
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return str(value).strip()


def shown(value: CellValue) -> str:
    """A cell quoted for a message, shortened if long."""
    return quoted(as_text(value))
