"""The Settings sheet: one row per setting (label, value), read into the profile's settings, naming each bad cell."""

from __future__ import annotations

from dataclasses import replace

from ..model.profile import Settings, default_gpu_counts
from ..model.quantities import same_currency
from ..model.units import ParseError, TimeUnit, convert, format_number, parse_unit
from .cells import SETTING_PARSERS, cell_time, column_decimal
from .grid import CellValue, Grid, as_text, is_empty, shown
from .headers import HEADER_SCAN_ROWS, SETTING_KEYS, SETTING_NAMES, header_key
from .tables import TableReader


def read_settings(reader: TableReader, grid: Grid | None) -> tuple[Settings, TimeUnit | None, dict[str, CellValue]]:
    """Settings sheet rows; times are resolved later, once the profile's unit is known."""
    if grid is None:
        return Settings(), None, {}
    start = 0
    for r in range(min(len(grid.rows), HEADER_SCAN_ROWS)):
        if header_key(grid.cell(r, 0))[0] in ("setting", "settings", "key", "name"):
            start = r + 1
            break
    reader.resolve_formulas(grid, start, [1])
    reader.settings_decimal = column_decimal(grid, start, 1)
    values: dict[str, CellValue] = {}
    kwargs: dict[str, object] = {}
    unit = None
    for r in range(start, len(grid.rows)):
        key_cell, value = grid.cell(r, 0), grid.cell(r, 1)
        if is_empty(key_cell):
            continue
        key = header_key(key_cell)[0]
        fld = SETTING_KEYS.get(key)
        where = grid.where(r, 1)
        if fld is None:
            reader.warn(
                grid.where(r, 0),
                f'unknown setting "{shown(key_cell)}" ignored; the known settings are ' + ", ".join(SETTING_NAMES),
            )
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
                    reader.warn(
                        where,
                        f"a bandwidth of {format_number(parsed)} bytes/s is implausibly "
                        'low; write a unit, like "100 GB/s"',
                    )
        except ParseError as exc:
            reader.problem(where, str(exc))
    if "max_gpus" in kwargs:
        max_gpus = kwargs.pop("max_gpus")
        if "gpu_counts" not in kwargs:
            kwargs["gpu_counts"] = default_gpu_counts(int(max_gpus))  # type: ignore[call-overload]
    settings = Settings(**kwargs)  # type: ignore[arg-type]
    return settings, unit, values


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
            reader.problem(where, str(exc))
            continue
        if fld == "target_time":
            settings = replace(settings, target_time=convert(number, written, unit) if written else number)
        else:
            settings = replace(settings, ring_latency=convert(number, written or unit, TimeUnit.S))
    return settings
