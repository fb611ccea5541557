"""What a run costs, in words: the cheapest and fastest GPU counts, the target, and what the plan saves."""

from __future__ import annotations

import math

import numpy as np

from ..model.cost import MILLION, CostFigures, Step
from ..model.units import TimeUnit
from .numbers import POINT, Numbers


def _gpus(count: int, n: Numbers) -> str:
    return f"{n.count(count)} GPU{'s' if count != 1 else ''}"


def step_sentence(step: Step, priced: bool = True, n: Numbers = POINT) -> str:
    """``going from 256 to 512 GPUs buys 4% for 96% more money`` (GPU-hours when there is no price)."""
    what = "money" if priced else "GPU-hours"
    more = "∞" if math.isinf(step.cost_increase) else n.percent(step.cost_increase)
    change = "more" if step.cost_increase >= 0 else "less"
    if step.cost_increase < 0:
        more = n.percent(-step.cost_increase)
    head = f"going from {n.count(step.from_gpus)} to {_gpus(step.to_gpus, n)}"
    if step.speedup_gain > 0:
        return f"{head} buys {n.percent(step.speedup_gain)} for {more} {change} {what}"
    if step.speedup_gain == 0:
        return f"{head} buys nothing for {more} {change} {what}"
    slower = 1.0 / (1.0 + step.speedup_gain) - 1.0  # how much longer a run takes
    return f"{head} makes a run {n.percent(slower)} slower and costs {more} {change} {what}"


def cost_sentence(figures: CostFigures, unit: TimeUnit, n: Numbers = POINT) -> str:
    """What a run costs now, where it is cheapest and fastest, what meets the target, and what the plan saves."""
    c = figures

    def price(gpus: int) -> str:
        i = int(np.flatnonzero(c.gpus == gpus)[0])
        if c.cost is not None:
            return n.money(float(c.cost[i]), c.currency) + " a run"
        return f"{n.number(float(c.gpu_hours[i]))} GPU-hours a run"

    if c.rate is not None:
        head = f"At {n.money(c.rate, c.currency)} per GPU-hour"
        if c.energy_rate:
            head += f" (energy {n.money(c.energy_rate, c.currency)} of it)"
    else:
        head = "Without a GPU price, in GPU-hours"
    parts = [
        f"{head}, the cheapest is {_gpus(c.cheapest_gpus, n)} ({price(c.cheapest_gpus)}) "
        f"and the fastest {_gpus(c.fastest_gpus, n)} ({price(c.fastest_gpus)})"
    ]
    if c.target is not None:
        goal = n.time(c.target, unit)
        # With a plan, the counts are the times as measured; the plan's own answer at N0 beside them.
        measured = "" if c.plan_meets_target is None else " as measured"
        if c.cheapest_meeting_target_gpus is None:
            parts.append(f"no GPU count evaluated meets {goal}{measured}")
        else:
            parts.append(f"the cheapest that meets {goal}{measured} is {_gpus(c.cheapest_meeting_target_gpus, n)}")
        if c.plan_meets_target:
            parts[-1] += f", and the plan meets it on {_gpus(c.baseline_gpus, n)}"
    text = "; ".join(parts) + "."
    if c.saved_gpu_hours_per_run > 0:
        at = f"on {_gpus(c.baseline_gpus, n)}"
        path = " on the trace's critical path" if c.sum_saved_gpu_hours_per_run is not None else ""
        if c.saved_per_run is not None and c.saved_per_million_runs is not None:
            beside = (
                "" if c.sum_saved_per_run is None else f"; the sum promises {n.money(c.sum_saved_per_run, c.currency)}"
            )
            text += (
                f" The plan saves {n.money(c.saved_per_run, c.currency)} a run {at}{path}, "
                f"{n.money(c.saved_per_million_runs, c.currency)} per million runs{beside}."
            )
        else:
            sum_hours = c.sum_saved_gpu_hours_per_run
            beside = "" if sum_hours is None else f"; the sum promises {n.number(sum_hours * MILLION)}"
            text += (
                f" The plan saves {n.number(c.saved_gpu_hours_per_run * MILLION)} GPU-hours per million runs "
                f"{at}{path}{beside}."
            )
    return text
