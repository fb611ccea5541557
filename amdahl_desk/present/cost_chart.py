"""Cost per run against the GPU count as a chart shows it: money (or GPU-hours without a price), the cheapest N."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..model.cost import CostFigures, analyse_cost
from .axes import log2_ticks, log10_ticks
from .chart_parts import LegendEntry, Mark, Series
from .colours import BLUE, GREEN, ORANGE
from .inputs import ChartInputs
from .numbers import POINT, Numbers

LEGEND = (
    LegendEntry(BLUE, "line", "Per run at N GPUs"),
    LegendEntry(GREEN, "star", "Cheapest N"),
    LegendEntry(ORANGE, "point", "Cheapest N that meets the target"),
)


@dataclass(frozen=True)
class CostView:
    """The curve in plot coordinates (x = log₂ N, y = log₁₀ of the cost or GPU-hours per run)."""

    title: str
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    line: Series | None = None
    cheapest: Mark | None = None
    on_target: Mark | None = None
    x_ticks: tuple[tuple[float, str], ...] = ()
    y_ticks: tuple[tuple[float, str], ...] = ()
    y_axis: str = ""
    x_axis: str = "GPUs N (log₂ scale)"
    legend: tuple[LegendEntry, ...] = LEGEND

    @property
    def nothing(self) -> str:
        """What the chart needs when it draws nothing ("" when it draws): an export of it is refused with this."""
        if self.line is not None:
            return ""
        return "no GPU count costs anything above 0: set a GPU price per hour above 0, or none for GPU-hours"


def per_run(cost: CostFigures) -> tuple[np.ndarray, str, str]:
    """What is drawn per GPU count: money when priced, GPU-hours otherwise; its axis label and what it is."""
    if cost.cost is not None:
        return np.asarray(cost.cost, dtype=float), f"Cost per run ({cost.currency or 'money'}, log scale)", "Cost"
    return np.asarray(cost.gpu_hours, dtype=float), "GPU-hours per run (log scale)", "GPU-hours"


def cost_chart(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> CostView:
    profile, analysis = inputs.profile, inputs.analysis
    if analysis is None:
        return CostView("Cost per run — no data")
    cost = analyse_cost(analysis, profile.settings)
    values, axis, what = per_run(cost)
    gpus = np.asarray(cost.gpus, dtype=float)
    ok = np.isfinite(values) & (values > 0)
    x = np.log2(gpus)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log10(np.where(ok, values, np.nan))
    price = f" at {n.money(cost.rate, cost.currency)} per GPU-hour" if cost.rate is not None else ""
    title = inputs.of_rank(f"{what} per run against GPUs{price}")  # a job: the profile's rank's cost
    if not ok.any():
        return CostView(title, y_axis=axis, legend=())
    lo, hi = float(np.nanmin(values[ok])), float(np.nanmax(values[ok]))
    y_range = (math.floor((math.log10(lo) - 0.2) * 10) / 10, math.ceil((math.log10(hi) + 0.3) * 10) / 10)
    pad = 0.06 * max(float(x[-1] - x[0]), 1.0)
    x_range = (float(x[0]) - pad, float(x[-1]) + pad)

    def value(v: float) -> str:
        return n.money(v, cost.currency) if cost.cost is not None else f"{n.number(v)} GPU-h"

    def figure(count: int | None) -> tuple[int, str, str] | None:
        """The mark's index on the curve, its count ("32") and its figure ("0.0061 GPU-h"), or None."""
        i = np.flatnonzero(cost.gpus == count) if count is not None else np.array([], dtype=int)
        if len(i) == 0 or not ok[i[0]]:
            return None
        j = int(i[0])
        return j, n.count(int(count or 0)), value(float(values[j]))

    found = [figure(cost.cheapest_gpus), figure(cost.cheapest_meeting_target_gpus)]
    cheapest, on_target = (
        None if f is None else Mark(float(x[f[0]]), float(y[f[0]]), f"{what} {f[1]}: {f[2]}")
        for f, what in zip(found, ("cheapest", "on target"), strict=True)
    )
    # each mark's figure in the legend too: a label with no clear place beside its point (half a slide) is left out;
    # a mark not drawn (no target, or no GPU count on it) has no entry: a legend names only what the chart shows
    entries = LEGEND[1:]
    if cost.plan_meets_target is not None:  # a plan ticked: the curve is the times as measured, as the sentence says
        entries = (entries[0], replace(entries[1], name=f"{entries[1].name} as measured"))
    legend = (LEGEND[0],) + tuple(
        replace(e, name=f"{e.name}: {f[1]} ({f[2]})") for e, f in zip(entries, found, strict=True) if f is not None
    )
    return CostView(
        title,
        x_range,
        y_range,
        Series(x[ok], y[ok], x_range, y_range),
        cheapest,
        on_target,
        log2_ticks(int(gpus.min()), int(gpus.max()), n=n),
        log10_ticks(10 ** y_range[0], 10 ** y_range[1], n),
        axis,
        legend=legend,
    )
