"""Cells as model values: times, speedups, yes/no, counts, shares and physical settings, each with its reason when refused."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from ..model.errors import Problem, Refusal
from ..model.load_settings import SETTING_PARSERS as LOAD_COST_PARSERS
from ..model.numbers import Decimal, decide_decimal
from ..model.profile import OverheadModel
from ..model.trace_link import parse_trace_events
from ..model.units import MAX_VALUE_CHARS, TimeUnit, check_speedup, check_time, to_seconds
from ..model.values import (
    AmbiguousNumberError,
    ParseError,
    check_fraction,
    parse_bandwidth,
    parse_bytes,
    parse_count,
    parse_fraction,
    parse_gpu_counts,
    parse_speedup,
    parse_targets,
    parse_time_text,
)
from .grid import CellValue, Grid, StoredDuration, as_text, is_empty, shown

SPREADSHEET_ERROR = re.compile(r"^#(?:[A-Z0-9/]+[!?]|N/A)$")


def cell_time(value: CellValue, decimal: Decimal | None = None) -> tuple[float, TimeUnit | None]:
    """A time cell as (number, unit written in it); raises ParseError with the reason.

    ``decimal`` is the column's decimal separator, when the column or file decided it.
    """
    if isinstance(value, bool):
        raise ParseError(f'"{shown(value)}" is not a time; expected a number or a value like "120 ms"')
    if isinstance(value, (int, float)):
        return check_time(float(value), shown(value)), None
    if type(value) is StoredDuration:
        if not value.elapsed and value.days >= 1:
            raise ParseError(
                f"holds {value.days:.15g} days in a time-of-day format, which shows only the time past whole days; "
                "format the cell as a duration ([h]:mm:ss.000) or type the time with its unit"
            )
        # 15 significant digits, as a spreadsheet keeps: the day's fraction times 86,400,000 adds a last-bit error.
        return check_time(float(f"{value.days * 86_400_000.0:.15g}"), shown(value)), TimeUnit.MS
    if isinstance(value, (dt.timedelta, dt.time)):
        # calamine's reading of a time-formatted cell, rounded to the millisecond: only the stored number is exact.
        raise ParseError(
            f'"{shown(value)}" is a time-formatted cell whose stored number could not be read exactly; '
            'format the cell as a number and write the unit in the header, like "Time (ms)"'
        )
    if isinstance(value, (dt.date, dt.datetime)):
        raise ParseError(f'"{shown(value)}" is a date, not a time; format the cell as a number')
    text = as_text(value)
    if SPREADSHEET_ERROR.match(text):
        raise ParseError(f"the cell shows the spreadsheet error {text}; fix its formula and save again")
    return parse_time_text(text, decimal)


def scale_bare_times(grid: Grid, first_row: int, col: int, scale: int) -> None:
    """A column headed in minutes or hours (``scale`` 60 or 3600): its bare numbers made seconds, exactly.

    A cell with its own unit (``90 s``) or a stored duration keeps it; a cell that does not read is left
    for the reader to refuse with its own message.
    """
    decimal = column_decimal(grid, first_row, col)
    for r in range(first_row, len(grid.rows)):
        cells = grid.rows[r]
        if col >= len(cells):
            continue
        value = cells[col]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number: float | None = float(value)
        elif isinstance(value, str) and value.strip():
            try:
                found, written = parse_time_text(value, decimal)
            except ParseError:
                continue
            number = found if written is None else None
        else:
            number = None
        if number is not None:
            if not isinstance(cells, list):
                cells = list(cells)
                grid.rows[r] = cells  # type: ignore[index]
            cells[col] = to_seconds(number, scale)


def bounded_text(value: CellValue, what: str) -> str:
    """A cell's text for a number parser; a text too long to be a number is refused here, quoted short."""
    text = as_text(value)
    if len(text) > MAX_VALUE_CHARS:
        raise ParseError(f'"{shown(value)}" ({len(text):,} characters) is not {what}')
    return text


def column_decimal(grid: Grid, first_row: int, col: int) -> Decimal | None:
    """The decimal separator a column's text numbers use, decided once from the cells that show it."""
    texts = [cell for cells in grid.rows[first_row:] if len(cells) > col and isinstance(cell := cells[col], str)]
    return decide_decimal(texts, grid.decimal_hint) if texts else None


def cell_refusal(exc: ParseError, csv: bool) -> str | Problem:
    """Why a cell was refused (``csv``: the cell is a CSV file's). A number that reads two ways is typed with both
    readings as numbers, worded by present in the view's numbers; any other refusal is the parser's words."""
    if isinstance(exc, AmbiguousNumberError):
        return Problem.typed(Refusal.AMBIGUOUS_NUMBER, exc.text, *exc.readings, exc.separator, csv)
    return str(exc)


def parse_enabled(value: CellValue) -> bool:
    """TRUE/FALSE, yes/no, x, 1/0, on/off; empty is not enabled."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if value in (0, 1):
            return bool(value)
        raise ParseError(f'"{shown(value)}" is not yes or no; expected TRUE/FALSE, yes/no, x or 1/0')
    text = as_text(value).lower()
    if text in ("", "false", "no", "n", "0", "off", "-", "no."):
        return False
    if text in ("true", "yes", "y", "x", "1", "on", "✓", "✔", "☑", "enabled"):
        return True
    raise ParseError(f'"{shown(value)}" is not yes or no; expected TRUE/FALSE, yes/no, x or 1/0')


def parse_speedup_cell(value: CellValue, decimal: Decimal | None = None) -> float:
    if isinstance(value, bool) or is_empty(value):
        return check_speedup(None, shown(value))  # refused: no number was read
    if isinstance(value, (int, float)):
        return check_speedup(float(value), shown(value))
    return parse_speedup(bounded_text(value, "a speedup"), decimal)


def split_targets(value: CellValue) -> tuple[str, ...]:
    return parse_targets(as_text(value))


def _count(value: CellValue, what: str) -> int:
    """A whole-number cell: a number as it is, text through the model's count parser."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ParseError(f'"{shown(value)}" is not a valid {what}; expected a whole number of 1 or more')
    # A number cell is shown as a spreadsheet shows it (8, not 8.0), then read like typed text.
    return parse_count(bounded_text(value, f"a {what}"), what)


def _gpu_counts(value: CellValue) -> tuple[int, ...]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (_count(value, "GPU count"),)
    return parse_gpu_counts(as_text(value))


def _fraction(value: CellValue, decimal: Decimal | None) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return check_fraction(float(value), shown(value))
    return parse_fraction(bounded_text(value, "a fraction"), decimal)


def _physical(value: CellValue, parse: Callable[[str, Decimal | None], float], decimal: Decimal | None) -> float:
    """A bare number as is (bytes, bytes/s); text through ``parse``, which knows the units."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return parse(repr(float(value)), ".")
    return parse(bounded_text(value, "a size or a bandwidth"), decimal)


# Each setting's parser: (cell, the column's decimal separator) → value.
SETTING_PARSERS: dict[str, Callable[[CellValue, Decimal | None], object]] = {
    "boundary": lambda v, d: as_text(v),
    "trace_source": lambda v, d: as_text(v),
    "trace_grouping": lambda v, d: as_text(v),
    "trace_events": lambda v, d: parse_trace_events(as_text(v)),
    "trace_gpu_events": lambda v, d: parse_enabled(v),
    "baseline_gpus": lambda v, d: _count(v, "baseline GPU count"),
    "gpu_counts": lambda v, d: _gpu_counts(v),
    "max_gpus": lambda v, d: _count(v, "maximum GPU count"),
    "parallel_fraction": _fraction,
    "overhead_model": lambda v, d: OverheadModel.parse(as_text(v)),
    "ring_message_bytes": lambda v, d: _physical(v, parse_bytes, d),
    "ring_bandwidth": lambda v, d: _physical(v, parse_bandwidth, d),
    "arrival_rate": lambda v, d: _load_cost("arrival_rate", v, d),
    "servers": lambda v, d: _load_cost("servers", v, d),
    "load_objective": lambda v, d: as_text(v),
    "gpu_price_per_hour": lambda v, d: _load_cost("gpu_price_per_hour", v, d),
    "watts_per_gpu": lambda v, d: _load_cost("watts_per_gpu", v, d),
    "energy_price_per_kwh": lambda v, d: _load_cost("energy_price_per_kwh", v, d),
    "plan_confidence": lambda v, d: _load_cost("plan_confidence", v, d),
}
"""Prices come back as (amount, currency): the reader puts the currency into the currency field."""


def _load_cost(fld: str, value: CellValue, decimal: Decimal | None) -> object:
    """A load or cost setting: a number cell as it is (checked like typed text), text through the model's parser."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return LOAD_COST_PARSERS[fld](repr(float(value)), ".")
    return LOAD_COST_PARSERS[fld](bounded_text(value, "a value of this setting"), decimal)
