"""The words of a typed refusal (a :class:`~amdahl_desk.model.errors.Problem` with a ``why``): one sentence per rule
a value breaks, for the window's cell, the command line, the workbook's reader and the Python API alike.

Installed into the model when the package is imported (``amdahl_desk/__init__.py``), so a refusal's text is the same
wherever it is read. Numbers are written as the files write them (``1,234.5``, ``2×``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model.errors import Problem, Refusal
from ..model.units import format_number, format_speedup

# A setting's rule, by its field: what a value must be.
_SETTING_RULE = {
    "target_time": "the target time must be a number greater than 0",
    "baseline_gpus": "the baseline GPU count must be a whole number of 1 or more",
    "gpu_counts": "GPU counts must be whole numbers of 1 or more",
    "parallel_fraction": "the parallel fraction must be between 0 and 1 (or a share like 95%)",
    "ring_latency": "the ring latency must be a time of 0 or more",
    "ring_message_bytes": "the message size must be 0 bytes or more",
    "ring_bandwidth": "the bandwidth must be greater than 0",
    "arrival_rate": "the arrival rate must be a number of requests per second greater than 0",
    "servers": "the number of servers must be a whole number from 1 to {0:,}",
    "gpu_price_per_hour": "the GPU price per hour must be a number of 0 or more",
    "watts_per_gpu": "the power per GPU must be a number of 0 or more",
    "energy_price_per_kwh": "the energy price per kWh must be a number of 0 or more",
    "plan_confidence": "the plan confidence must be above 0% and at most 100%",
}
# A count's largest value, by its field.
_SETTING_LIMIT = {
    "baseline_gpus": "the baseline GPU count must be at most {0:,}",
    "gpu_counts": "GPU counts must be at most {0:,}",
}


def _relation(side: str) -> str:
    return "above" if side == "low" else "below"


def _quoted(names: tuple[str, ...]) -> str:
    """``"a", "b"``: names in quotes, comma-separated."""
    return ", ".join(f'"{t}"' for t in names)


def _not_components(names: tuple[str, ...]) -> str:
    listed = _quoted(names)
    return f"{listed} {'is not a component' if len(names) == 1 else 'are not components'}; " + (
        "expected names from the Components table"
    )


_WORDS: dict[Refusal, Callable[..., str]] = {
    Refusal.NO_NAME: lambda: "the component has no name; every component needs a unique name",
    Refusal.DUPLICATE_NAME: lambda name, other: (
        f'"{name}" is a duplicate name (also in {other}); component names must be unique'
    ),
    Refusal.NOT_A_NUMBER: lambda quantity: f"the {quantity} is not a number",
    Refusal.RANGE_END_UNREADABLE: lambda quantity, side, why: (
        f"the {side} {quantity}: {why or _WORDS[Refusal.NOT_A_NUMBER]('speedup' if quantity == 'k' else quantity)}"
    ),
    Refusal.TIME_RANGE_OUTSIDE: lambda side, name, end, time: (
        f'the {side} time of "{name}", {format_number(end)}, is {_relation(side)} its measured time '
        f"{format_number(time)}; a time range must hold the time (low ≤ time ≤ high)"
    ),
    Refusal.K_RANGE_OUTSIDE: lambda side, name, end, likely: (
        f'the {side} k of "{name}", {format_speedup(end)}, is {_relation(side)} its likely k '
        f"{format_speedup(likely)}; expected low ≤ likely ≤ high"
    ),
    Refusal.EFFORT: lambda name: f'the effort of "{name}" must be a number of engineer-days of 0 or more',
    Refusal.CONFIDENCE: lambda name: f'the confidence that "{name}" works must be from 0% to 100% (0 to 1)',
    Refusal.BUILT_AND_TICKED: lambda name: (
        f'"{name}" is built: the times were measured with it, so it cannot be ticked again; clear Built to plan it anew'
    ),
    Refusal.NO_TARGETS: lambda name: f'"{name}" has no targets; expected one or more component names separated by ";"',
    Refusal.NOT_COMPONENTS: lambda *names: _not_components(names),
    Refusal.NO_GPU_COUNTS: lambda: "at least one GPU count is needed",
    Refusal.UNNAMED_LOAD_OBJECTIVE: lambda whole: f'the load objective needs a name; "{whole}" holds every component',
    Refusal.OBJECTIVE_NOT_LISTED: lambda name: (
        f'"{name}" is not in the Objectives sheet; it is analysed without a target of its own'
    ),
    Refusal.OBJECTIVE_EMPTY: lambda name: (
        f'no component belongs to "{name}"; name it in the Objectives column of the components it holds'
    ),
    Refusal.LOAD_OBJECTIVE_UNKNOWN: lambda name, known: (
        f'"{name}" is not an objective of this profile; expected one of {_quoted(known)}'
    ),
    Refusal.LOAD_OBJECTIVE_TAKES_NO_TIME: lambda name: (
        f'"{name}" takes no time, so it cannot be a service time; choose another load objective'
    ),
}


def refusal_text(problem: Problem) -> str:
    """The sentence for ``problem``'s broken rule, its values in place."""
    why, values = problem.why, problem.values
    if why is Refusal.OUT_OF_RANGE:
        return _SETTING_RULE[problem.field or ""].format(*values)
    if why is Refusal.TOO_LARGE:
        return _SETTING_LIMIT[problem.field or ""].format(*values)
    words: Callable[..., Any] = _WORDS[why] if why is not None else str
    return str(words(*values))
