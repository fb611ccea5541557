"""Is more hardware, or an optimization, worth it? GPU-hours and money per run at each GPU count."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .analysis import Analysis, ScalingFigures
from .laws import FloatArray
from .load_settings import LoadCostFields, hourly_rate
from .units import TimeUnit

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
    # A traced profile: the saving above is the plan's on the trace's critical path, and this the sum's (None:
    # the saving above is the sum's).
    sum_saved_gpu_hours_per_run: float | None = None
    # Whether the plan's time at N0 meets the target; None without a target or a plan. The costs above are the
    # times as measured: a plan can meet the target on fewer GPUs than the cheapest count that meets it as measured.
    plan_meets_target: bool | None = None

    @property
    def priced(self) -> bool:
        return self.rate is not None

    @property
    def sum_saved_per_run(self) -> float | None:
        """The sum's saving per run in money (None without a price or without a critical path's saving)."""
        if self.rate is None or self.sum_saved_gpu_hours_per_run is None:
            return None
        return self.sum_saved_gpu_hours_per_run * self.rate


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
    sum_time_saved: float | None = None,
) -> CostFigures:
    """Cost of one run at each GPU count of ``scaling``; ``time_saved`` is the plan's saving per run at N0 (in ``unit``),
    ``sum_time_saved`` the sum's beside it when ``time_saved`` is the saving on a trace's critical path."""
    rate = hourly_rate(settings)
    energy_rate = None
    if settings.watts_per_gpu is not None and settings.energy_price_per_kwh is not None:
        energy_rate = settings.watts_per_gpu / 1000.0 * settings.energy_price_per_kwh
    gpus = scaling.gpus
    time = np.asarray(scaling.time, dtype=float)
    hours = gpu_hours(gpus, time, unit)
    cost = hours * rate if rate is not None else None
    cheapest = int(gpus[int(np.argmin(hours))])  # the first, so the fewest GPUs among equals
    meeting = plan_meets = None
    if target is not None:
        reach = target * (1 + 1e-12)  # a time meets the target up to float rounding
        ok = np.flatnonzero(time <= reach)
        if ok.size:
            meeting = int(gpus[ok[int(np.argmin(hours[ok]))]])
        at = np.flatnonzero(gpus == scaling.baseline_gpus)
        if time_saved > 0 and at.size:
            plan_meets = bool(time[at[0]] - time_saved <= reach)
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

    def hours_of(saved: float) -> float:
        return float(gpu_hours(np.asarray([scaling.baseline_gpus]), np.asarray([saved]), unit)[0])

    saved_hours = hours_of(time_saved)
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
        sum_saved_gpu_hours_per_run=None if sum_time_saved is None else hours_of(sum_time_saved),
        plan_meets_target=plan_meets,
    )


def analyse_cost(analysis: Analysis, settings: LoadCostFields, time_saved: float | None = None) -> CostFigures:
    """:func:`cost_figures` for a whole analysis: its scaling, its target time, and the plan's saving at N0 — the
    sum's, or ``time_saved`` (a traced profile's plan on its critical path, in the analysis's unit) with the sum's
    beside it."""
    target = analysis.target.time if analysis.target is not None else None
    summed = analysis.combined.time_saved
    if time_saved is None:
        return cost_figures(analysis.scaling, analysis.unit, settings, target, summed)
    return cost_figures(analysis.scaling, analysis.unit, settings, target, time_saved, summed)
