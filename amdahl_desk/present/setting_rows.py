"""How the settings of the load, cost and plans, and of an imported trace, are written in a Settings sheet and
shown in the window: each row's label and what it means (the spellings a reader also accepts are the files'
business: ``files/headers.SETTING_ALIASES``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.objective_specs import END_TO_END

LOAD_AND_COST, PLANS = "load and cost", "plans"


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
        'cost: price of one GPU for an hour, with its currency ("$2.50", "2.5 EUR")',
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
        'plans: the probability a plan must reach to meet the target ("80%" or 0.8; default 80%)',
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
