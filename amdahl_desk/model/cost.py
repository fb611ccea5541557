"""Is more hardware, or an optimization, worth it? GPU-hours and money per run at each GPU count."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .analysis import Analysis, ScalingFigures
from .laws import FloatArray
from .load_settings import LoadCostFields, hourly_rate
from .quantities import format_money
from .units import TimeUnit, format_number, format_percent, format_time

MILLION = 1_000_000


@dataclass(frozen=True)
class Step:
    """Going from one GPU count to the next: the speedup it buys against the extra GPU-hours (and money)."""

    from_gpus: int
    to_gpus: int
    speedup_gain: float
    """T(from)/T(to) − 1: 0.04 is 4% faster; negative when the run gets slower."""
    cost_increase: float
    """Cost(to)/Cost(from) − 1, the same for GPU-hours and for money (one price per GPU-hour)."""

    @property
    def is_doubling(self) -> bool:
        return self.to_gpus == 2 * self.from_gpus


@dataclass(frozen=True)
class CostFigures:
    """GPU-hours and cost of one run (one unit of work) at each GPU count of the scaling analysis.

    ``cost`` and every money figure are ``None`` without a price; ``rate`` is money per GPU-hour,
    the GPU price plus its energy when both watts and an energy price are known.
    """

    currency: str
    rate: float | None
    energy_rate: float | None
    baseline_gpus: int
    gpus: NDArray[np.int64]
    time: FloatArray
    gpu_hours: FloatArray
    cost: FloatArray | None
    cheapest_gpus: int
    fastest_gpus: int
    target: float | None
    cheapest_meeting_target_gpus: int | None
    steps: tuple[Step, ...]
    saved_gpu_hours_per_run: float
    saved_per_run: float | None
    saved_per_million_runs: float | None

    @property
    def priced(self) -> bool:
        return self.rate is not None

    def cost_at(self, gpus: int) -> float | None:
        """Money for one run on ``gpus`` GPUs (one of the evaluated counts); ``None`` without a price."""
        if self.cost is None:
            return None
        return float(self.cost[int(np.flatnonzero(self.gpus == gpus)[0])])


def gpu_hours(gpus: NDArray[np.int64] | NDArray[np.float64], time: FloatArray, unit: TimeUnit) -> FloatArray:
    """GPU-hours for one run: N·T(N)/3600 s, with T(N) in ``unit``; ∞ where that passes the largest float."""
    with np.errstate(over="ignore", invalid="ignore"):  # an unbounded T(N) gives ∞ hours, said without a warning
        return np.asarray(gpus, dtype=float) * time * unit.seconds / 3600.0


def cost_figures(
    scaling: ScalingFigures,
    unit: TimeUnit,
    settings: LoadCostFields,
    target: float | None = None,
    time_saved: float = 0.0,
) -> CostFigures:
    """Cost of one run at each GPU count of ``scaling``; ``time_saved`` is the plan's saving per run at N0 (in ``unit``)."""
    rate = hourly_rate(settings)
    energy_rate = None
    if settings.watts_per_gpu is not None and settings.energy_price_per_kwh is not None:
        energy_rate = settings.watts_per_gpu / 1000.0 * settings.energy_price_per_kwh
    gpus = scaling.gpus
    time = np.asarray(scaling.time, dtype=float)
    hours = gpu_hours(gpus, time, unit)
    cost = hours * rate if rate is not None else None
    cheapest = int(gpus[int(np.argmin(hours))])  # the first, so the fewest GPUs among equals
    meeting = None
    if target is not None:
        ok = np.flatnonzero(time <= target * (1 + 1e-12))
        if ok.size:
            meeting = int(gpus[ok[int(np.argmin(hours[ok]))]])
    # Python floats: a ratio of ∞ or of two ∞ is ∞ or NaN as in numpy, without numpy's warnings.
    times, gpu_h = time.tolist(), hours.tolist()
    steps = tuple(
        Step(
            int(gpus[i]),
            int(gpus[i + 1]),
            times[i] / times[i + 1] - 1.0 if times[i + 1] > 0 else math.inf,
            gpu_h[i + 1] / gpu_h[i] - 1.0 if gpu_h[i] > 0 else math.inf,
        )
        for i in range(len(gpus) - 1)
    )
    saved_hours = float(gpu_hours(np.asarray([scaling.baseline_gpus]), np.asarray([time_saved]), unit)[0])
    return CostFigures(
        currency=settings.currency,
        rate=rate,
        energy_rate=energy_rate,
        baseline_gpus=scaling.baseline_gpus,
        gpus=gpus,
        time=time,
        gpu_hours=hours,
        cost=cost,
        cheapest_gpus=cheapest,
        fastest_gpus=scaling.best_gpus,
        target=target,
        cheapest_meeting_target_gpus=meeting,
        steps=steps,
        saved_gpu_hours_per_run=saved_hours,
        saved_per_run=saved_hours * rate if rate is not None else None,
        saved_per_million_runs=saved_hours * rate * MILLION if rate is not None else None,
    )


def analyse_cost(analysis: Analysis, settings: LoadCostFields) -> CostFigures:
    """:func:`cost_figures` for a whole analysis: its scaling, its target time, and the plan's saving at N0."""
    target = analysis.target.time if analysis.target is not None else None
    return cost_figures(analysis.scaling, analysis.unit, settings, target, analysis.combined.time_saved)


def _gpus(n: int) -> str:
    return f"{n:,} GPU{'s' if n != 1 else ''}"


def step_sentence(step: Step, priced: bool = True) -> str:
    """``going from 256 to 512 GPUs buys 4% for 96% more money`` (GPU-hours when there is no price)."""
    what = "money" if priced else "GPU-hours"
    more = "∞" if math.isinf(step.cost_increase) else format_percent(step.cost_increase)
    change = "more" if step.cost_increase >= 0 else "less"
    if step.cost_increase < 0:
        more = format_percent(-step.cost_increase)
    head = f"going from {step.from_gpus:,} to {_gpus(step.to_gpus)}"
    if step.speedup_gain > 0:
        return f"{head} buys {format_percent(step.speedup_gain)} for {more} {change} {what}"
    if step.speedup_gain == 0:
        return f"{head} buys nothing for {more} {change} {what}"
    slower = 1.0 / (1.0 + step.speedup_gain) - 1.0  # how much longer a run takes
    return f"{head} makes a run {format_percent(slower)} slower and costs {more} {change} {what}"


def cost_sentence(figures: CostFigures, unit: TimeUnit) -> str:
    """What a run costs now, where it is cheapest and fastest, what meets the target, and what the plan saves."""
    c = figures

    def price(gpus: int) -> str:
        i = int(np.flatnonzero(c.gpus == gpus)[0])
        if c.cost is not None:
            return format_money(float(c.cost[i]), c.currency) + " a run"
        return f"{format_number(float(c.gpu_hours[i]))} GPU-hours a run"

    if c.rate is not None:
        head = f"At {format_money(c.rate, c.currency)} per GPU-hour"
        if c.energy_rate:
            head += f" (energy {format_money(c.energy_rate, c.currency)} of it)"
    else:
        head = "Without a GPU price, in GPU-hours"
    parts = [
        f"{head}, the cheapest is {_gpus(c.cheapest_gpus)} ({price(c.cheapest_gpus)}) "
        f"and the fastest {_gpus(c.fastest_gpus)} ({price(c.fastest_gpus)})"
    ]
    if c.target is not None:
        goal = format_time(c.target, unit)
        if c.cheapest_meeting_target_gpus is None:
            parts.append(f"no GPU count evaluated meets {goal}")
        else:
            parts.append(f"the cheapest that meets {goal} is {_gpus(c.cheapest_meeting_target_gpus)}")
    text = "; ".join(parts) + "."
    if c.saved_gpu_hours_per_run > 0:
        at = f"on {_gpus(c.baseline_gpus)}"
        if c.saved_per_run is not None and c.saved_per_million_runs is not None:
            text += (
                f" The plan saves {format_money(c.saved_per_run, c.currency)} a run {at}, "
                f"{format_money(c.saved_per_million_runs, c.currency)} per million runs."
            )
        else:
            text += (
                f" The plan saves {format_number(c.saved_gpu_hours_per_run * MILLION)} GPU-hours per million runs {at}."
            )
    return text
