"""GPU scaling as a chart shows it: ideal, Amdahl, with overhead, Gustafson, the ceiling and efficiency, on log axes
(a CPU job's over its ranks: ``present/counted``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model.analysis import ScalingFigures
from ..model.profile import OverheadModel
from ..model.units import TimeUnit
from .axes import log2_ticks, log10_ticks
from .chart_parts import LegendEntry, Mark, Series
from .colours import BLUE, GREEN, GREY, ORANGE, RED
from .counted import GPUS, Counted, counted
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases

# Curves closer than this everywhere (relative) are drawn as one line by a screen: the legend says so.
COINCIDE = 0.01
EFFICIENCY_TOP = 1.05  # the right axis runs from 0 to 105%


@dataclass(frozen=True)
class ScalingView:
    """Curves in plot coordinates (x = log₂ N, y = log₁₀ S; efficiency on its own 0–1.05 axis)."""

    title: str
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    ideal: Series | None = None
    gustafson: Series | None = None
    amdahl: Series | None = None
    overhead: Series | None = None
    efficiency: Series | None = None  # from N0 up: below it efficiency says nothing useful
    ceiling: Mark | None = None  # a horizontal line at y
    best: Mark | None = None  # the star and its callout
    efficient: Mark | None = None  # the last N with efficiency ≥ 50%, on the efficiency axis
    x_ticks: tuple[tuple[float, str], ...] = ()
    y_ticks: tuple[tuple[float, str], ...] = ()
    efficiency_ticks: tuple[tuple[float, str], ...] = ()
    legend: tuple[LegendEntry, ...] = ()
    x_axis: str = "GPUs N (log₂ scale)"
    y_axis: str = "Speedup vs baseline (log scale)"
    efficiency_axis: str = "Efficiency (dotted)"


def _legend(coinciding: bool, overhead: str = "With communication overhead") -> tuple[LegendEntry, ...]:
    amdahl = "Amdahl (strong scaling)" + ("; here the same as with overhead" if coinciding else "")
    return (
        LegendEntry(GREY, "dash", "Ideal N/N0"),
        LegendEntry(BLUE, "line", amdahl),
        LegendEntry(RED, "line", overhead),
        LegendEntry(GREEN, "dash", "Gustafson (weak scaling)"),
        LegendEntry(ORANGE, "dot", "Efficiency (right axis)"),
        LegendEntry(RED, "star", "Best N"),
        LegendEntry(ORANGE, "point", "Last N with efficiency ≥ 50%"),
    )


def scaling_title(
    s: ScalingFigures, model: OverheadModel, n: Numbers = POINT, lead: str = "GPU scaling:", c: Counted = GPUS
) -> str:
    """The exported chart's title as a sentence: "… without communication overhead the best is …" (N counts ``c``)."""
    overhead = (
        "without communication overhead"
        if model is OverheadModel.NONE
        else f"with {'ring all-reduce' if model is OverheadModel.RING else model.value} communication overhead"
    )
    efficient = (
        f"efficiency stays at 50% or more up to {c.count(s.last_efficient_gpus, n)}"
        if s.last_efficient_gpus
        else "efficiency is below 50% everywhere"
    )
    return phrases(
        lead,
        f"P = {n.percent(s.parallel_fraction)} parallel,",
        f"ceiling {n.speedup(s.ceiling)};",
        overhead,
        f"the best is {n.speedup(s.best_speedup)} at {c.count(s.best_gpus, n)};",
        efficient,
    )


def scaling(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> ScalingView:
    analysis, counts = inputs.analysis, counted(inputs.profile.settings)
    if analysis is None:
        return ScalingView(f"{counts.scaling} — no data", legend=_legend(False), x_axis=counts.axis)
    s = analysis.scaling
    overhead_name, job_words = "With communication overhead", ""
    if inputs.job is not None:  # a job: its ranks' measured transfer at N0 is what grows
        from ..model.job.scaling import job_overhead, job_scaling

        job, rank = inputs.job.job, inputs.rank
        s = job_scaling(inputs.profile, analysis, job, rank)
        c = n.time(job_overhead(job), TimeUnit.MS)
        overhead_name = f"With the job's communication ({c} at N0) as overhead"
        # the given ranks' waiting for ranks not given is in their transfer: none is left out then
        excluded = "" if job.missing else " (waiting excluded)"
        job_words = f"communication{excluded}, {c} at N0"
        if rank is not None and job.straggler is not None and rank != job.straggler:
            job_words += f"; rank {rank}'s waiting for rank {job.straggler} counted serial"
    x = np.log2(s.gpus.astype(float))
    curves = [s.ideal, s.gustafson, s.amdahl, s.with_overhead]
    finite = np.concatenate([v[np.isfinite(v) & (v > 0)] for v in curves])
    lo, hi = float(finite.min()), float(finite.max())
    logs = [np.log10(np.clip(values, 1e-12, None)) for values in curves]
    both = np.isfinite(s.amdahl) & np.isfinite(s.with_overhead) & (s.amdahl > 0)
    gap = np.abs(s.with_overhead[both] / s.amdahl[both] - 1)
    coinciding = bool(len(gap)) and float(gap.max()) < COINCIDE
    top = max(hi, s.ceiling) if math.isfinite(s.ceiling) else hi
    # Whole tenths of a decade: the view (and so the axes) moves only when a curve needs more room.
    y_range = (math.floor((math.log10(lo) - 0.05) * 10) / 10, math.ceil((math.log10(top) + 0.1) * 10) / 10)
    pad = 0.04 * max(float(x[-1] - x[0]), 1.0)
    x_range = (float(x[0] - pad), float(x[-1] + pad))
    out = s.gpus >= s.baseline_gpus
    eff_range = (0.0, EFFICIENCY_TOP)
    best = (math.log2(s.best_gpus), math.log10(max(s.best_speedup, 1e-12)))
    efficient = None
    if s.last_efficient_gpus is not None:
        i = int(np.flatnonzero(s.gpus == s.last_efficient_gpus)[0])
        efficient = Mark(float(x[i]), float(s.efficiency[i]), "", (x_range, eff_range))
    ideal, gustafson, amdahl, overhead = (Series(x, y, x_range, y_range) for y in logs)
    # a job's P is the job's (its ranks' transfer as its communication), not the P of the profile's own rank
    lead = f"{counts.scaling} of the job:" if job_words else f"{counts.scaling}:"
    title = (
        phrases(
            lead,
            f"P = {n.percent(s.parallel_fraction)},",
            f"ceiling {n.speedup(s.ceiling)},",
            f"best {n.speedup(s.best_speedup)} at {counts.count(s.best_gpus, n)}",
        )
        if brief
        else scaling_title(s, inputs.profile.settings.overhead_model, n, lead, counts)
    )
    if job_words and not brief:
        title += " " + phrases("— overhead:", "the job's measured", job_words)
    return ScalingView(
        title,
        x_range,
        y_range,
        ideal,
        gustafson,
        amdahl,
        overhead,
        Series(x[out], np.clip(s.efficiency[out], 0, EFFICIENCY_TOP), x_range, eff_range),
        Mark(0.0, math.log10(s.ceiling), f"Amdahl ceiling {n.speedup(s.ceiling)}", (x_range, y_range))
        if math.isfinite(s.ceiling)
        else None,
        Mark(best[0], best[1], f"best {n.speedup(s.best_speedup)} at {n.count(s.best_gpus)}", (x_range, y_range)),
        efficient,
        log2_ticks(int(s.gpus.min()), int(s.gpus.max()), n=n),
        log10_ticks(10 ** y_range[0], 10 ** y_range[1], n),
        tuple((v, n.percent(v)) for v in (0, 0.25, 0.5, 0.75, 1.0)),
        _legend(coinciding, overhead_name),
        x_axis=counts.axis,
    )
