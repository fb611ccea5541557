"""The header vocabulary of the three tables: which column is which, in the words people use."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.units import TimeUnit
from ..model.values import ParseError, parse_header_unit
from ..present.setting_rows import SETTING_ROWS, TRACE_ROWS
from .grid import CellValue, Grid, as_text

HEADER_SCAN_ROWS = 50

COMPONENT_HEADERS = {
    "name": {"component", "stage", "name", "component name", "stage name"},
    "time": {"time", "baseline time", "duration", "baseline duration", "baseline"},
    "scaling": {"scaling", "scaling class", "class"},
    "group": {"group", "category"},
    "notes": {"notes", "note", "comment", "comments"},
    "objectives": {"objectives", "objective", "boundaries"},
    "scaling_guessed": {"scaling guessed", "scaling is a guess", "guessed scaling"},
    "time_low": {"time low", "low time", "time (low)", "min time", "time min", "fastest", "fastest time"},
    "time_high": {"time high", "high time", "time (high)", "max time", "time max", "slowest", "slowest time"},
}
OPTIMIZATION_HEADERS = {
    "enabled": {"enabled", "on", "active", "use", "apply"},
    "name": {"optimization", "optimisation", "name", "optimization name"},
    "targets": {"targets", "target", "target components", "components"},
    "speedup": {
        "speedup",
        "speed-up",
        "local speedup",
        "k",
        "speedup k",
        "factor",
        "speedup (likely)",
        "likely speedup",
        "speedup likely",
        "k (likely)",
        "likely k",
        "k likely",
    },
    "notes": {"notes", "note", "comment", "comments"},
    "speedup_low": {"speedup low", "k low", "low k", "low speedup", "speedup (low)", "k (low)", "speedup min"},
    "speedup_high": {"speedup high", "k high", "high k", "high speedup", "speedup (high)", "k (high)", "speedup max"},
    "effort": {"effort", "effort (days)", "effort days", "engineer-days", "engineer days", "effort (engineer-days)"},
    "confidence": {"confidence", "confidence (%)", "odds", "probability it works", "chance it works"},
    "built": {"built", "done", "built already"},
}
UNIT_IN_HEADER = re.compile(r"^(?P<base>.*?)\s*(?:[(\[]\s*(?P<a>[^)\]]+?)\s*[)\]]|,\s*(?P<b>\S+))\s*$")
# No header is longer: a longer cell is not looked at for a unit (the pattern above is quadratic in it).
MAX_HEADER_CHARS = 200


def unit_in_header(text: str) -> re.Match[str] | None:
    """``"time (ms)"`` split into its base and unit by :data:`UNIT_IN_HEADER`; ``None`` for a cell too long to be one."""
    return UNIT_IN_HEADER.match(text) if len(text) <= MAX_HEADER_CHARS else None


def header_key(value: CellValue) -> tuple[str, TimeUnit | None]:
    """``"Time (ms)"`` → ``("time", MS)``; headers compare case- and space-insensitively.

    ``"Time (min)"`` and ``"Time (h)"`` give seconds (their numbers are scaled: :func:`header_scale`);
    ``"Time (ms/step)"`` is in ms.
    """
    found = _split_unit(value)
    if found is not None:
        try:
            return found[0], parse_header_unit(found[1])[0]
        except ParseError:
            pass
    return _words(value), None


def header_scale(value: CellValue) -> int:
    """What a header's bare numbers are multiplied by to be in its unit: 60 for minutes, 3600 for hours, else 1."""
    found = _split_unit(value)
    try:
        return parse_header_unit(found[1])[1] if found is not None else 1
    except ParseError:
        return 1


def unknown_unit(value: CellValue, names: set[str]) -> str | None:
    """The unit written in a header that would be one of ``names`` but for a unit that is not a time unit."""
    found = _split_unit(value)
    if found is None or found[0] not in names:
        return None
    try:
        parse_header_unit(found[1])
    except ParseError:
        return found[1]
    return None


def _words(value: CellValue) -> str:
    return " ".join(as_text(value).replace("_", " ").lower().split())


def _split_unit(value: CellValue) -> tuple[str, str] | None:
    match = unit_in_header(_words(value))
    return (match.group("base"), match.group("a") or match.group("b") or "") if match else None


def find_header(
    grid: Grid, wanted: dict[str, set[str]], required: tuple[str, ...]
) -> tuple[int, dict[str, int], TimeUnit | None] | None:
    """First row (of the first 50) that holds every required header; its column for each field."""
    for r in range(min(len(grid.rows), HEADER_SCAN_ROWS)):
        columns: dict[str, int] = {}
        unit = None
        for c, value in enumerate(grid.rows[r]):
            key, cell_unit = header_key(value)
            for fld, names in wanted.items():
                if key in names and fld not in columns:
                    columns[fld] = c
                    if fld == "time":
                        unit = cell_unit
                    break
        if all(f in columns for f in required):
            return r, columns, unit
    return None


def header_field(value: CellValue, wanted: dict[str, set[str]]) -> str | None:
    """The field a header cell names (``"Duration (ms)"`` → ``"time"``), or ``None``."""
    key = header_key(value)[0]
    return next((fld for fld, names in wanted.items() if key in names), None)


def component_header(cells: Sequence[CellValue]) -> tuple[dict[str, int], TimeUnit | None] | None:
    """The columns (name, time, …) and time unit of a components header row, e.g. a pasted block's first row."""
    found = find_header(Grid("header", [list(cells)]), COMPONENT_HEADERS, ("name", "time"))
    return (found[1], found[2]) if found is not None else None


# The spellings a Settings sheet may give each row of present/setting_rows besides its label (lower case).
SETTING_ALIASES: dict[str, tuple[str, ...]] = {
    "arrival_rate": ("arrival rate", "request rate", "arrivals", "lambda", "λ"),
    "servers": ("servers", "replicas", "c"),
    "load_objective": ("load objective", "service objective"),
    "gpu_price_per_hour": (
        "gpu price per hour",
        "gpu price",
        "price per gpu-hour",
        "price per gpu hour",
        "gpu-hour price",
    ),
    "watts_per_gpu": ("watts per gpu", "power per gpu", "watts"),
    "energy_price_per_kwh": ("energy price per kwh", "energy price", "price per kwh", "electricity price"),
    "plan_confidence": ("plan confidence", "confidence level", "confidence", "required confidence"),
    "trace_source": ("trace", "trace file", "source trace"),
    "trace_grouping": ("trace grouping",),
    "trace_events": ("trace events", "component events"),
    "trace_gpu_events": ("trace gpu events",),
}
SETTING_KEYS = {
    "unit": "unit",
    "time unit": "unit",
    "boundary": "boundary",
    "objective": "boundary",
    "target time": "target_time",
    "target": "target_time",
    "slo": "target_time",
    "baseline gpus": "baseline_gpus",
    "n0": "baseline_gpus",
    "gpu counts": "gpu_counts",
    "max gpus": "max_gpus",
    "parallel fraction": "parallel_fraction",
    "overhead model": "overhead_model",
    "ring latency": "ring_latency",
    "all-reduce latency": "ring_latency",
    "ring message size": "ring_message_bytes",
    "message size": "ring_message_bytes",
    "ring bandwidth": "ring_bandwidth",
    "bandwidth": "ring_bandwidth",
    **{
        alias: row.field
        for row in (*SETTING_ROWS, *TRACE_ROWS)
        for alias in (row.label.lower(), *SETTING_ALIASES[row.field])
    },
}
SETTING_NAMES = [
    "Unit",
    "Boundary",
    "Target time",
    "Baseline GPUs",
    "GPU counts",
    "Max GPUs",
    "Parallel fraction",
    "Overhead model",
    "Ring latency",
    "Ring message size",
    "Ring bandwidth",
    *(row.label for row in SETTING_ROWS),
    *(row.label for row in TRACE_ROWS),
]
OBJECTIVE_HEADERS = {
    "name": {"objective", "objectives", "name", "boundary"},
    "target_time": {"target time", "target", "slo", "target (slo)"},
    "notes": {"notes", "note", "comment", "comments"},
}
