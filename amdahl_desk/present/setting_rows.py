"""How the settings of the load, cost and plans, and of an imported trace, are written in a Settings sheet and
shown in the window: each row's label and what it means (the spellings a reader also accepts are the files'
business: ``files/headers.SETTING_ALIASES``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.objective_specs import END_TO_END
from .numbers import POINT, Numbers

LOAD_AND_COST, PLANS = "load and cost", "plans"


def _price_meaning(n: Numbers) -> str:
    return f'cost: price of one GPU for an hour, with its currency ("${n.plain(2.5, ".2f")}", "{n.number(2.5)} EUR")'


def confidence_examples(n: Numbers) -> str:
    """How a probability may be typed, in ``n``'s separators: "80%" or 0.8."""
    return f'"80%" or {n.number(0.8)}'


def _confidence_meaning(n: Numbers) -> str:
    return f"plans: the probability a plan must reach to meet the target ({confidence_examples(n)}; default 80%)"


_WITH_NUMBERS = {"gpu_price_per_hour": _price_meaning, "plan_confidence": _confidence_meaning}


@dataclass(frozen=True)
class SettingRow:
    """One row of a Settings sheet: its label, what it means, and how its value is read and written."""

    field: str
    label: str
    meaning: str
    section: str = LOAD_AND_COST  # which settings form shows it


SETTING_ROWS: tuple[SettingRow, ...] = (
    SettingRow(
        "arrival_rate",
        "Arrival rate",
        'load: requests per second arriving (also "7200/min"); empty: no load analysis',
    ),
    SettingRow("servers", "Servers", "load: replicas serving requests in parallel (c)"),
    SettingRow(
        "load_objective",
        "Load objective",
        f"load: the objective whose time is the service time (default {END_TO_END})",
    ),
    SettingRow(
        "gpu_price_per_hour",
        "GPU price per hour",
        _price_meaning(POINT),
    ),
    SettingRow("watts_per_gpu", "Watts per GPU", "cost: power one GPU draws"),
    SettingRow(
        "energy_price_per_kwh",
        "Energy price per kWh",
        "cost: price of a kWh, in the GPU price's currency",
    ),
    SettingRow(
        "plan_confidence",
        "Plan confidence",
        _confidence_meaning(POINT),
        PLANS,
    ),
)
"""The rows the Settings sheet gains, in order. ``currency`` has no row: it is written with the prices."""


TRACE_ROWS: tuple[SettingRow, ...] = (
    SettingRow(
        "trace_source",
        "Trace",
        "the profiler trace (file or folder of ranks) these components were imported from",
    ),
    SettingRow(
        "trace_grouping",
        "Trace grouping",
        "how the import grouped the trace: grouping; rank; top N; device; total; exclude steps",
    ),
    SettingRow(
        "trace_events",
        "Trace events",
        'per component, the events it groups (JSON: {"component": "annotation:NAME" | "op:NAME" | "gpu:compute" …})',
    ),
    SettingRow(
        "trace_gpu_events",
        "Trace GPU events",
        "no: the trace holds no GPU events (a CPU job), so N counts its ranks, not GPUs",
    ),
)
"""The rows a profile imported from a trace adds to its Settings sheet, in order; empty ones are not written."""


def meaning_in(row: SettingRow, n: Numbers) -> str:
    """What a row means, as the window's field says it in its tooltip: capitalised, its examples in ``n``'s
    separators (the sheet writes :attr:`SettingRow.meaning`, in the files' format)."""
    text = _WITH_NUMBERS[row.field](n) if row.field in _WITH_NUMBERS else row.meaning
    return text[:1].upper() + text[1:]
