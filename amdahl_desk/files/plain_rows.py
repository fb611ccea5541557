"""A components table of plain cells, read column by column at C speed: the usual big sheet.

Plain means: every row filled to the table's width, every name a printable text, every time a
number ≥ 0 (no unit written beside it), every scaling one of the scaling words (or empty), and
groups, notes and objectives texts. Anything else — an empty row, a time typed as text, a name
with a line break, a number in the Group column — is left to the row-by-row reader, which names
the cell of each problem; both readers give the same components for a plain table.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from ..model.objective_specs import parse_objectives
from ..model.profile import SCALING_WORDS, Scaling
from ..model.units import times_ok
from .grid import CellValue


class PlainColumns(NamedTuple):
    """The table's columns from its first row on, one list per field, all of one length."""

    names: list[str]
    times: list[float]
    scalings: Sequence[Scaling]
    groups: Sequence[str]
    notes: Sequence[str]
    objectives: Sequence[tuple[str, ...]]


_SCALINGS = {**SCALING_WORDS, "": Scaling.SERIAL}


def _texts(body: Sequence[Sequence[CellValue]], col: int) -> list[str] | None:
    """Column ``col``'s cells stripped, or ``None`` when one is not a text."""
    try:
        return list(map(str.strip, map(itemgetter(col), body)))
    except TypeError:  # a number, a date or a truth value
        return None


def plain_columns(rows: Sequence[Sequence[CellValue]], first: int, cols: dict[str, int]) -> PlainColumns | None:
    """The columns of ``rows[first:]`` when every cell is plain (see the module's docstring), else ``None``."""
    body = rows[first:]
    n = len(body)
    if n == 0 or min(map(len, body)) < max(cols.values()) + 1:
        return None
    names = _texts(body, cols["name"])
    if names is None or not all(names) or not all(map(str.isprintable, names)):
        return None
    times: list[float] = list(map(itemgetter(cols["time"]), body))
    if not times_ok(times):
        return None
    scalings: Sequence[Scaling] = [Scaling.SERIAL] * n
    if "scaling" in cols:
        words = _texts(body, cols["scaling"])
        if words is None:
            return None
        found = list(map(_SCALINGS.get, words))
        if None in found:
            found = list(map(_SCALINGS.get, map(str.lower, words)))
            if None in found:
                return None
        scalings = found  # type: ignore[assignment]
    texts: dict[str, Sequence[str]] = {}
    for key in ("group", "notes", "objectives"):
        if key in cols:
            values = _texts(body, cols[key])
            if values is None:
                return None
            texts[key] = values
        else:
            texts[key] = [""] * n
    objectives: Sequence[tuple[str, ...]] = [()] * n
    if any(texts["objectives"]):
        objectives = [parse_objectives(t) if t else () for t in texts["objectives"]]
    return PlainColumns(names, times, scalings, texts["group"], texts["notes"], objectives)
