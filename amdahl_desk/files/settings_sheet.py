"""The Settings sheet: one row per setting (label, value), read into the profile's settings, naming each bad cell."""

from __future__ import annotations

from dataclasses import replace

from ..model.errors import Problem, Refusal
from ..model.profile import Settings, default_gpu_counts
from ..model.quantities import same_currency
from ..model.units import TimeUnit, convert
from ..model.values import ParseError, parse_unit
from .cells import SETTING_PARSERS, cell_refusal, cell_time, column_decimal
from .grid import CellValue, Grid, as_text, is_empty, shown
from .headers import HEADER_SCAN_ROWS, SETTING_KEYS, SETTING_NAMES, header_field, header_key
from .sheet_layout import check_table
from .tables import TableReader


def read_settings(reader: TableReader, grid: Grid | None) -> tuple[Settings, TimeUnit | None, dict[str, CellValue]]:
    """Settings sheet rows; times are resolved later, once the profile's unit is known."""
    if grid is None:
        return Settings(), None, {}
    start, label_col, value_col = _columns(reader, grid)
    reader.resolve_formulas(grid, start, [value_col])
    reader.settings_decimal = column_decimal(grid, start, value_col)
    values: dict[str, CellValue] = {}
    kwargs: dict[str, object] = {}
    unit = None
    seen: dict[str, tuple[int, CellValue]] = {}  # field → the row that gave it, and its value
    for r in range(start, len(grid.rows)):
        key_cell, value = grid.cell(r, label_col), grid.cell(r, value_col)
        if is_empty(key_cell):
            continue
        key = header_key(key_cell)[0]
        fld = SETTING_KEYS.get(key)
        where = grid.where(r, value_col)
        if fld is not None and fld in seen:
            first, before = seen[fld]
            if as_text(before) != as_text(value):
                reader.problem(
                    f"{grid.where(first, label_col)}, {grid.where(r, label_col)}",
                    f'the setting "{shown(key_cell)}" is given twice, as "{shown(before)}" and "{shown(value)}"; '
                    "delete one of the rows",
                )
            continue
        if fld is not None:
            seen[fld] = (r, value)
        if fld is None:
            unknown = (as_text(key_cell), tuple(SETTING_NAMES))
            reader.warn(grid.where(r, label_col), Problem("", why=Refusal.UNKNOWN_SETTING, values=unknown))
            continue
        reader.where_of[("settings", None, fld)] = where
        if is_empty(value):
            why = grid.why_empty(r, 1)
            if why:
                reader.problem(where, why)
            continue
        try:
            if fld == "unit":
                unit = parse_unit(as_text(value))
            elif fld in ("target_time", "ring_latency"):
                values[fld] = value  # needs the unit
            else:
                parsed = SETTING_PARSERS[fld](value, reader.settings_decimal)
                if isinstance(parsed, tuple) and fld in ("gpu_price_per_hour", "energy_price_per_kwh"):
                    parsed, currency = parsed  # a price: its currency is kept for display
                    kwargs["currency"] = same_currency(str(kwargs.get("currency", "")), currency)
                    reader.where_of[("settings", None, "currency")] = where
                kwargs[fld] = parsed
                if fld == "ring_bandwidth" and isinstance(parsed, float) and parsed < 1e6:
                    reader.note(Problem.of(Refusal.LOW_BANDWIDTH, "settings", None, fld, parsed).located(where))
        except ParseError as exc:
            reader.problem(where, cell_refusal(exc, grid.csv))
    if "max_gpus" in kwargs:
        max_gpus = kwargs.pop("max_gpus")
        if "gpu_counts" not in kwargs:
            kwargs["gpu_counts"] = default_gpu_counts(int(max_gpus))  # type: ignore[call-overload]
    settings = Settings(**kwargs)  # type: ignore[arg-type]
    return settings, unit, values


_LABEL_HEADERS = {"setting", "settings", "key", "name", "parameter"}
_VALUE_HEADERS = {"value", "values", "setting value"}


def _columns(reader: TableReader, grid: Grid) -> tuple[int, int, int]:
    """The first row of settings, the label column and the value column, found by their headers.

    A header row holds ``Setting`` (or Key, Name, Parameter) and, optionally, ``Value``; without a
    Value header the value is the column right of the labels. Without a header row the labels are the
    first column that names a known setting, so a leading index column (pandas ``to_excel``) is skipped.
    """
    fields = {"setting": _LABEL_HEADERS, "value": _VALUE_HEADERS}
    for r in range(min(len(grid.rows), HEADER_SCAN_ROWS)):
        row = grid.rows[r]
        cols: dict[str, int] = {}
        for c, cell in enumerate(row):
            fld = header_field(cell, fields)
            if fld is not None and fld not in cols:
                cols[fld] = c
        if "setting" in cols:
            cols.setdefault("value", cols["setting"] + 1)
            check_table(grid, r, cols, lambda v: header_field(v, fields), reader.problem, reader.warn)
            return r + 1, cols["setting"], cols["value"]
    width = max((len(row) for row in grid.rows), default=0)
    for c in range(width):
        if any(header_key(grid.cell(r, c))[0] in SETTING_KEYS for r in range(len(grid.rows))):
            return 0, c, c + 1
    return 0, 0, 1


def resolve_setting_times(
    reader: TableReader, settings: Settings, values: dict[str, CellValue], unit: TimeUnit
) -> Settings:

    for fld in ("target_time", "ring_latency"):
        if fld not in values:
            continue
        value = values[fld]
        where = reader.where_of.get(("settings", None, fld), "Settings")
        try:
            number, written = cell_time(value, reader.settings_decimal)
        except ParseError as exc:
            reader.problem(where, cell_refusal(exc, csv=False))  # a Settings sheet is a workbook's
            continue
        if fld == "target_time":
            settings = replace(settings, target_time=convert(number, written, unit) if written else number)
        else:
            settings = replace(settings, ring_latency=convert(number, written or unit, TimeUnit.S))
    return settings
