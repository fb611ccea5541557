"""The columns of estimates: Speedup low/high, Effort and Confidence on Optimizations, Time low/high on
Components — read by header, refused at their cell, written only when some row has one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.errors import Problem
from ..model.numbers import Decimal
from ..model.profile import Component, Optimization, Profile
from ..model.units import TimeUnit, convert
from ..model.values import ParseError, check_confidence, check_effort, parse_confidence, parse_effort
from ..present.columns import component_titles
from .cells import cell_refusal, cell_time, column_decimal, parse_speedup_cell
from .grid import CellValue, Grid, as_text, is_empty, shown
from .headers import header_key

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.worksheet import Worksheet

    from ..model.decision import Decision

ESTIMATE_FIELDS = ("speedup_low", "speedup_high", "effort", "confidence")
RANGE_FIELDS = ("time_low", "time_high")
ESTIMATE_HEADERS = {
    "speedup_low": "Speedup low",
    "speedup_high": "Speedup high",
    "effort": "Effort (days)",
    "confidence": "Confidence",
}

ProblemAt = Callable[[str, str | Problem], None]  # (where, what: words or a typed problem)


def _effort(value: CellValue, decimal: Decimal | None) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return check_effort(float(value), shown(value))
    return parse_effort(as_text(value), decimal)


def _confidence(value: CellValue, decimal: Decimal | None) -> float:
    """``80%`` or ``0.8``; a cell formatted as a percentage holds 0.8 already."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return check_confidence(float(value), shown(value))
    return parse_confidence(as_text(value), decimal)


def _speedup(value: CellValue, decimal: Decimal | None) -> float:
    return parse_speedup_cell(value, decimal)


_PARSERS: dict[str, Callable[[CellValue, Decimal | None], float]] = {
    "speedup_low": _speedup,
    "speedup_high": _speedup,
    "effort": _effort,
    "confidence": _confidence,
}


class EstimateCells:
    """The estimate columns an Optimizations header has, each with its decimal separator."""

    def __init__(self, grid: Grid, first_row: int, cols: dict[str, int]) -> None:
        self.grid = grid
        self.columns = {f: cols[f] for f in ESTIMATE_FIELDS if f in cols}
        self.decimals = {f: column_decimal(grid, first_row, c) for f, c in self.columns.items()}

    def read(self, row: int, problem: ProblemAt) -> dict[str, float]:
        """Row ``row``'s estimates (an empty cell: no range, no effort, 100%); a bad cell is refused at itself."""
        found: dict[str, float] = {}
        for fld, col in self.columns.items():
            value = self.grid.cell(row, col)
            if is_empty(value):
                why = self.grid.why_empty(row, col)
                if why:
                    problem(self.grid.where(row, col), why)
                continue
            try:
                found[fld] = _PARSERS[fld](value, self.decimals[fld])
            except ParseError as exc:
                problem(self.grid.where(row, col), cell_refusal(exc, self.grid.csv))
        return found


def read_time_ranges(
    grid: Grid,
    header: int,
    cols: dict[str, int],
    rows: Sequence[int],
    components: list[Component],
    units: tuple[TimeUnit, TimeUnit],
    problem: ProblemAt,
) -> list[Component]:
    """``components`` with the Time low and Time high of their grid ``rows``; ``units``: (the profile's unit, the
    unit of a bare number when the column's header names none). An empty cell is no range on that side."""
    columns = {f: cols[f] for f in RANGE_FIELDS if f in cols}
    if not columns:
        return components
    unit, bare = units
    result = list(components)
    for fld, col in columns.items():
        written = header_key(grid.cell(header, col))[1] or bare
        decimal = column_decimal(grid, header + 1, col)
        for i, r in enumerate(rows):
            value = grid.cell(r, col)
            if is_empty(value):
                why = grid.why_empty(r, col)
                if why:
                    problem(grid.where(r, col), why)
                continue
            try:
                number, cell_unit = cell_time(value, decimal)
            except ParseError as exc:
                problem(grid.where(r, col), cell_refusal(exc, grid.csv))
                continue
            time = convert(number, cell_unit or written, unit)
            result[i] = result[i]._replace(time_low=time) if fld == "time_low" else result[i]._replace(time_high=time)
    return result


def optimization_with(opt: Optimization, estimates: dict[str, float]) -> Optimization:
    """``opt`` with the estimates read for it (the model's rules check them against its k)."""
    return replace(opt, **estimates) if estimates else opt  # type: ignore[arg-type]


def write_estimate_columns(
    ws: Worksheet, profile: Profile, first: int, header: Format, formats: dict[str, Format]
) -> int:
    """Optimizations' Speedup low, Speedup high, Effort (days) and Confidence from column ``first`` on, each only
    when some optimization has one (``formats``: "k" and "share"); the last column written (``first`` − 1: none)."""
    opts = profile.optimizations
    col = first
    for fld in ESTIMATE_FIELDS:
        values = [getattr(o, fld) for o in opts]
        if fld == "confidence":
            values = [None if v == 1.0 else v for v in values]
        if all(v is None for v in values):
            continue
        ws.set_column(col, col, 14)
        ws.write_string(0, col, ESTIMATE_HEADERS[fld], header)
        fmt = formats["share"] if fld == "confidence" else formats["k"] if fld.startswith("speedup") else None
        fmt = formats.get("effort") if fld == "effort" else fmt
        for row, value in enumerate(values, start=1):
            if value is not None:
                ws.write_number(row, col, value, fmt)
        col += 1
    return col - 1


def write_time_ranges(ws: Worksheet, profile: Profile, first: int, header: Format, time: Format | None = None) -> int:
    """Components' Time low and Time high (in the profile's unit, in the ``time`` format of the Time column) from
    column ``first`` on, when some has one; the last column written (``first`` − 1: none)."""
    col = first
    for fld in ("time_low", "time_high"):
        values = [getattr(c, fld) for c in profile.components]
        if all(v is None for v in values):
            continue
        ws.set_column(col, col, 14)
        ws.write_string(0, col, component_titles([fld], profile.unit.value)[0], header)
        for row, value in enumerate(values, start=1):
            if value is not None:
                ws.write_number(row, col, value, time)
        col += 1
    return col - 1


def decision_rows(
    profile: Profile, analysis: Analysis, decision: Decision | None = None, job: bool = False
) -> list[tuple[str, float | None, str]]:
    """The Summary sheet's rows about uncertainty and plans: (label, a probability or None, a sentence, or the
    probability's note), worded as the window's summary words them. ``decision``: as the caller computed it
    (through a trace's dependencies, or a job's ranks: ``job``), else the sum's, worked out here — never for a
    job, whose odds are its own or none."""
    from ..model.decision import decide
    from ..present.decision import decision_view

    if decision is None and not job:
        decision = decide(profile, analysis)
    if decision is None:
        return []
    view = decision_view(profile, analysis, decision.figures, decision.search, job=job)
    rows: list[tuple[str, float | None, str]] = []
    u = decision.figures
    if u is not None:
        rows.append(("", None, f"Under uncertainty: {view.odds.text}"))
        if u.probability_target is not None:
            rows.append(("Probability of meeting the target", u.probability_target, ""))
        if view.likelier:
            rows.append(("", None, view.likelier))
    if job and view.plan.text:
        rows.append(("", None, f"Cheapest plan: {view.plan.text}"))
    if decision.search is not None:
        plan = decision.search.cheapest
        rows.append(("", None, f"Cheapest plan: {view.plan.text}"))
        if plan is not None:
            # The names go beside the figure: in its label they would run past the label column.
            rows.append(("Cheapest plan's probability", plan.probability_target, " + ".join(plan.names) or "baseline"))
    return rows
