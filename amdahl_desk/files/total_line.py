"""A table's last row read as its total line: labelled so, or the sum of the rows above within rounding."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import NamedTuple

from ..model.errors import Problem, Refusal
from ..model.profile import Scaling
from ..model.units import TimeUnit, convert
from .grid import Grid, shown

_TOTAL_LABEL = re.compile(r"^\s*(total|sum|grand total)\b", re.IGNORECASE)
TOTAL_TOLERANCE = 0.005


class Row(NamedTuple):
    """One row of a components table as read: its grid row, its cells' values and the refusal of its time."""

    grid_row: int
    name: str
    time: tuple[float, TimeUnit | None] | None
    scaling: Scaling
    group: str
    notes: str
    error: tuple[str, str | Problem] | None = None  # where, and what is wrong (words, or a typed problem)
    objectives: tuple[str, ...] = ()


def drop_total_line(
    grid: Grid,
    cols: dict[str, int],
    rows: list[Row],
    unit: TimeUnit,
    bare_unit: TimeUnit,
    ambiguous: dict[int, tuple[tuple[float, float], TimeUnit | None]],
    warn: Callable[[Problem], None],
) -> list[Row]:
    """``rows`` without their last when it is a total line (labelled so, or the sum of the rows above
    within rounding), with a warning that states the gap; a last row read two ways is settled by the sum."""
    last = rows[-1]
    if last.time is None and last.grid_row in ambiguous:
        last = settle_by_total(rows, last, unit, bare_unit, ambiguous)
        rows = rows[:-1] + [last]

    def in_unit(row: Row) -> float:
        assert row.time is not None
        return convert(row.time[0], row.time[1] or bare_unit, unit)

    same = bare_unit is unit
    others = [t[0] if same and t[1] is None else in_unit(r) for r in rows[:-1] if (t := r.time) is not None]
    last_time = in_unit(last) if last.time is not None else math.nan
    if is_total_line(grid, cols, last, last_time, math.fsum(others), len(others), unit, warn):
        return rows[:-1]
    return rows


def is_total_line(
    grid: Grid,
    cols: dict[str, int],
    last: Row,
    last_time: float,
    above: float,
    count_above: int,
    unit: TimeUnit,
    warn: Callable[[Problem], None],
) -> bool:
    """Is ``last`` (its time ``last_time`` in ``unit``, NaN when it has none) the total line of the
    ``count_above`` times above it that add up to ``above``? Labelled so, or their sum within rounding;
    a warning states the gap when there is one."""
    labelled = bool(_TOTAL_LABEL.match(last.name))
    gap = last_time - above
    within = last.time is not None and above > 0 and abs(gap) <= TOTAL_TOLERANCE * above
    matches = count_above >= 2 and within
    if not (labelled or matches):
        return False
    exact = abs(gap) <= 1e-9 * above
    if labelled and last.time is not None and above > 0 and not exact:
        figures = (last_time, above, unit, TOTAL_TOLERANCE, within)
        gap_note = Problem.of(Refusal.TOTAL_LINE_GAP, "components", None, "time", *figures)
        warn(gap_note.located(grid.where(last.grid_row, cols["time"])))
    elif not labelled:
        time = None if exact else last_time  # None: the rows above add up to it exactly
        figures_read = (shown(last.name), time, above, unit, TOTAL_TOLERANCE)
        read = Problem.of(Refusal.TOTAL_LINE_READ, "components", None, "name", *figures_read)
        warn(read.located(grid.where(last.grid_row, cols["name"])))
    return True


def settle_by_total(
    rows: list[Row],
    last: Row,
    unit: TimeUnit,
    bare_unit: TimeUnit,
    ambiguous: dict[int, tuple[tuple[float, float], TimeUnit | None]],
) -> Row:
    """A last row that reads two ways (1,500 ms) is the total line when exactly one reading is the sum above."""
    readings, written = ambiguous[last.grid_row]
    above = math.fsum(convert(t[0], t[1] or bare_unit, unit) for r in rows[:-1] if (t := r.time) is not None)
    fits = [
        x
        for x in readings
        if above > 0 and abs(convert(x, written or bare_unit, unit) - above) <= TOTAL_TOLERANCE * above
    ]
    if len(fits) != 1 or any(r.time is None for r in rows[:-1]):
        return last
    return last._replace(time=(fits[0], written), error=None)
