"""The header vocabulary of the three tables: which column is which, in the words people use."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.load_settings import SETTING_ROWS
from ..model.trace_link import TRACE_ROWS
from ..model.units import ParseError, TimeUnit, parse_unit
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
}
UNIT_IN_HEADER = re.compile(r"^(?P<base>.*?)\s*(?:[(\[]\s*(?P<a>[^)\]]+?)\s*[)\]]|,\s*(?P<b>\S+))\s*$")


def header_key(value: CellValue) -> tuple[str, TimeUnit | None]:
    """``"Time (ms)"`` → ``("time", MS)``; headers compare case- and space-insensitively."""
    text = " ".join(as_text(value).replace("_", " ").lower().split())
    match = UNIT_IN_HEADER.match(text)
    if match:
        unit_text = match.group("a") or match.group("b") or ""
        try:
            return match.group("base"), parse_unit(unit_text)
        except ParseError:
            pass
    return text, None


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


def component_header(cells: Sequence[CellValue]) -> tuple[dict[str, int], TimeUnit | None] | None:
    """The columns (name, time, …) and time unit of a components header row, e.g. a pasted block's first row."""
    found = find_header(Grid("header", [list(cells)]), COMPONENT_HEADERS, ("name", "time"))
    return (found[1], found[2]) if found is not None else None


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
    **{alias: row.field for row in SETTING_ROWS for alias in (row.label.lower(), *row.aliases)},
    **{alias: row.field for row in TRACE_ROWS for alias in (row.label.lower(), *row.aliases)},
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
