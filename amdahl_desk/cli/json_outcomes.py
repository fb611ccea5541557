"""The JSON fragments ``report --json`` gains for objectives, load and cost: plain dicts, null where not applicable."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..model.analysis import TargetFigures
from ..model.cost import CostFigures
from ..model.load_settings import LoadCostFields
from ..model.objectives import ObjectiveFigures
from ..model.queueing import LoadFigures, QueueFigures


def _num(value: float | None) -> float | None:
    """JSON has no infinity or NaN: such a figure is ``null``."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def target_json(target: TargetFigures) -> dict[str, Any]:
    """A target verdict, as in the top-level ``"target"`` of the contract; one on a trace's critical path keeps
    the sum's beside (``sum_*``)."""
    entry = {
        "time": target.time,
        "required_speedup": _num(target.required_speedup),
        "feasible": target.feasible,
        "floor": target.floor,
        "met_by_plan": target.met_by_plan,
    }
    if target.sum is not None:
        entry |= {f"sum_{key}": value for key, value in target_json(target.sum).items() if key != "time"}
    return entry


def objectives_json(objectives: Sequence[ObjectiveFigures]) -> list[dict[str, Any]]:
    """``"objectives"``: one entry per objective, End to end first; ``"target"`` only when the objective has one."""
    result = []
    for o in objectives:
        entry: dict[str, Any] = {
            "name": o.name,
            "components": list(o.components),
            "baseline_total": o.baseline_total,
            "new_total": o.new_total,
            "overall_speedup": _num(o.overall_speedup),
            "ceiling": _num(o.ceiling),
        }
        if o.dependencies:
            entry["dependencies"] = True
            entry["sum_new_total"] = _num(o.sum_new_total)
            entry["sum_speedup"] = _num(o.sum_speedup)
        if o.target is not None:
            entry["target"] = target_json(o.target)
        result.append(entry)
    return result


def queue_json(q: QueueFigures | None) -> dict[str, Any]:
    """One side of ``"load"``: times in the profile's unit, null where saturated."""
    if q is None:
        keys = ("service_time", "utilization", "saturated", "wait_probability", "mean_wait", "mean_response")
        return dict.fromkeys((*keys, "p99_wait", "in_system"))
    return {
        "service_time": _num(q.service_time),
        "utilization": _num(q.utilization),
        "saturated": q.saturated,
        "wait_probability": _num(q.wait_probability),
        "mean_wait": _num(q.mean_wait),
        "mean_response": _num(q.mean_response),
        "p99_wait": _num(q.p99_wait),
        "in_system": _num(q.in_system),
    }


def load_json(figures: LoadFigures | None, settings: LoadCostFields) -> dict[str, Any] | None:
    """``"load"``: ``None`` without an arrival rate; before/after null when the load objective is not analysable."""
    if settings.arrival_rate is None:
        return None
    return {
        "arrival_rate": settings.arrival_rate,
        "servers": settings.servers,
        "objective": figures.objective if figures is not None else settings.load_objective,
        "before": queue_json(figures.before if figures is not None else None),
        "after": queue_json(figures.after if figures is not None else None),
        "max_arrival_rate": {
            "before": _num(figures.max_rate_before) if figures is not None else None,
            "after": _num(figures.max_rate_after) if figures is not None else None,
        },
    }


def cost_points(cost: CostFigures) -> list[dict[str, Any]]:
    """What each scaling point gains, in the order of ``scaling.gpus``: ``{"gpu_hours", "cost"}``."""
    return [
        {
            "gpu_hours": _num(float(cost.gpu_hours[i])),
            "cost": _num(float(cost.cost[i])) if cost.cost is not None else None,
        }
        for i in range(len(cost.gpus))
    ]


def add_cost_to_points(points: list[dict[str, Any]], cost: CostFigures) -> list[dict[str, Any]]:
    """The ``"points"`` of ``scaling_dict`` with ``gpu_hours`` and ``cost`` added (matched by GPU count)."""
    by_gpus = {int(n): extra for n, extra in zip(cost.gpus, cost_points(cost), strict=True)}
    return [{**p, **by_gpus.get(int(p["gpus"]), {"gpu_hours": None, "cost": None})} for p in points]


def cost_json(cost: CostFigures) -> dict[str, Any]:
    """``"cost"``: currency and money figures are null without a price; GPU counts are known from GPU-hours alone."""
    return {
        "currency": cost.currency if cost.priced else None,
        "price_per_gpu_hour": _num(cost.rate),
        "cheapest_gpus": cost.cheapest_gpus,
        "fastest_gpus": cost.fastest_gpus,
        "cheapest_meeting_target_gpus": cost.cheapest_meeting_target_gpus,
        "saved_gpu_hours_per_run": _num(cost.saved_gpu_hours_per_run),
        "saved_per_run": _num(cost.saved_per_run),
        "saved_per_million_runs": _num(cost.saved_per_million_runs),
        **(
            {}
            if cost.sum_saved_gpu_hours_per_run is None
            else {
                "sum_saved_gpu_hours_per_run": _num(cost.sum_saved_gpu_hours_per_run),
                "sum_saved_per_run": _num(cost.sum_saved_per_run),
            }
        ),
    }
