"""The sheets and columns objectives, load, cost and measured runs add to a workbook Amdahl Desk writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..model.measurements import Measurements
from ..model.objective_specs import objectives_text
from ..model.profile import Profile, Settings
from ..model.trace_link import trace_events_text
from ..present.setting_rows import SETTING_ROWS, TRACE_ROWS
from .measurements import measurement_rows
from .print_layout import print_sheet

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.workbook import Workbook
    from xlsxwriter.worksheet import Worksheet

OBJECTIVES, MEASUREMENTS = "Objectives", "Measurements"


def objectives_column(
    ws: Worksheet, profile: Profile, col: int, header: Format, printable: Callable[[str], str]
) -> bool:
    """The Components sheet's Objectives column, written only when some component names an objective (then True)."""
    if not any(c.objectives for c in profile.components):
        return False
    ws.set_column(col, col, 24)
    ws.write_string(0, col, "Objectives", header)
    for row, c in enumerate(profile.components, start=1):
        if c.objectives:
            ws.write_string(row, col, printable(objectives_text(c.objectives)))
    return True


def load_cost_rows(profile: Profile) -> list[tuple[str, object, str]]:
    """The Settings sheet's load and cost rows (label, value, meaning); unset fields are left out.

    Rates, replicas and watts are numbers; a price keeps its currency as text ("$2.5", "0.12 EUR/kWh").
    """
    s = profile.settings
    values: dict[str, object] = {
        "arrival_rate": s.arrival_rate,
        "servers": s.servers if s.arrival_rate is not None or s.servers != 1 else None,
        "load_objective": s.load_objective if s.arrival_rate is not None else None,
        "gpu_price_per_hour": _price(s.gpu_price_per_hour, s.currency, ""),
        "watts_per_gpu": s.watts_per_gpu,
        "energy_price_per_kwh": _price(s.energy_price_per_kwh, s.currency, "/kWh"),
        "plan_confidence": s.plan_confidence if s.plan_confidence != Settings().plan_confidence else None,
    }
    return [(r.label, values[r.field], r.meaning) for r in SETTING_ROWS if values[r.field] is not None]


def trace_rows(profile: Profile) -> list[tuple[str, object, str]]:
    """The Settings sheet's rows of a profile imported from a trace: the trace, its grouping, each component's events,
    and "no" GPU events for a CPU job's (its N counts ranks)."""
    s = profile.settings
    values: dict[str, object] = {
        "trace_source": s.trace_source or None,
        "trace_grouping": s.trace_grouping or None,
        "trace_events": trace_events_text(s.trace_events) if s.trace_events else None,
        "trace_gpu_events": "no" if s.trace_gpu_events is False else None,  # a CPU job's: N counts its ranks
    }
    return [(r.label, values[r.field], r.meaning) for r in TRACE_ROWS if values[r.field] is not None]


def _price(amount: float | None, currency: str, per: str) -> object:
    from ..model.quantities import price_text

    if amount is None:
        return None
    return price_text(amount, currency) + per if currency else amount


def write_objectives_sheet(
    book: Workbook,
    profile: Profile,
    header: Format,
    printable: Callable[[str], str],
    time: Format | None = None,
) -> None:
    """Objective | Target time (unit, in the ``time`` format) | Notes, when the profile has objective rows."""
    if not profile.objectives:
        return
    ws = book.add_worksheet(OBJECTIVES)
    for col, width in enumerate([24, 18, 50]):
        ws.set_column(col, col, width)
    ws.write_row(0, 0, ["Objective", f"Target time ({profile.unit.value})", "Notes"], header)
    for row, spec in enumerate(profile.objectives, start=1):
        ws.write_string(row, 0, printable(spec.name))
        if spec.target_time is not None:
            ws.write_number(row, 1, spec.target_time, time)
        if spec.notes:
            ws.write_string(row, 2, printable(spec.notes))
    print_sheet(ws, len(profile.objectives), 2)


def write_measurements_sheet(
    book: Workbook, m: Measurements | None, header: Format, printable: Callable[[str], str]
) -> None:
    """The measured runs, as :func:`~amdahl_desk.files.measurements.read_grid` reads them back."""
    if m is None or not m.rows:
        return
    ws = book.add_worksheet(MEASUREMENTS)
    for col, width in enumerate([10, 18, 24, 40]):
        ws.set_column(col, col, width)
    rows = measurement_rows(m)
    ws.write_row(0, 0, [str(v) for v in rows[0]], header)
    for r, cells in enumerate(rows[1:], start=1):
        for col, value in enumerate(cells):
            if isinstance(value, str):
                if value:
                    ws.write_string(r, col, printable(value))
            elif isinstance(value, (int, float)):
                ws.write_number(r, col, value)
    print_sheet(ws, len(rows) - 1, 3)
