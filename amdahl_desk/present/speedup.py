"""Speedup against k for one optimization: the Amdahl curve, the plan's curve, the ceiling and where k is now."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..model.analysis import Analysis
from ..model.laws import FloatArray, amdahl_speedup
from ..model.profile import Profile
from .axes import log10_ticks, nice_ceiling
from .chart_parts import LegendEntry, Mark, Series
from .colours import BLUE, GREEN, GREY, RED
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases, shorten
from .trace_plan import option_curve, option_on_path, trace_based

ALONE = LegendEntry(BLUE, "line", "This optimization alone")
WITH_OTHERS = LegendEntry(GREEN, "dash", "With the other enabled ones")
CEILING = LegendEntry(RED, "dash", "Ceiling 1/(1−f)")
LEGEND = (ALONE, WITH_OTHERS, CEILING)
# A traced profile: the curves are the step on the trace's critical path; the sum's curve stays, lighter.
ALONE_ON_PATH = LegendEntry(BLUE, "line", "Alone, with the trace's dependencies")
BY_SUM = LegendEntry(GREY, "line", "Alone, by the sum")
TRACED_CEILING = LegendEntry(RED, "dash", "Ceiling")
TRACED_LEGEND = (ALONE_ON_PATH, WITH_OTHERS, BY_SUM, TRACED_CEILING)
EMPTY = "Add an optimization to see its speedup against k"


@dataclass(frozen=True)
class SpeedupView:
    """S(k) in plot coordinates: x is log₁₀ k. ``empty`` is the text shown when there is nothing to draw."""

    title: str
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    alone: Series | None = None
    combined: Series | None = None
    marker: Mark | None = None  # k now, and its callout
    ceiling: Mark | None = None  # a horizontal line at y, with its label
    ticks: tuple[tuple[float, str], ...] = ()
    empty: str = ""
    by_sum: Series | None = None  # a traced profile: the sum's curve of the optimization alone, beside
    x_axis: str = "Local speedup k (log scale)"
    y_axis: str = "End-to-end speedup S"
    legend: tuple[LegendEntry, ...] = LEGEND

    @property
    def nothing(self) -> str:
        """What the chart needs when it draws nothing ("" when it draws): an export of it is refused with this."""
        return self.empty


def combined_curve(profile: Profile, analysis: Analysis, row: int, grid: FloatArray) -> FloatArray:
    """The plan's speedup with optimization ``row``'s k set to each of ``grid`` and the others as they are."""
    opt = profile.optimizations[row]
    idx = [i for i in (profile.index_of(t) for t in opt.targets) if i >= 0]
    times = analysis.times[idx]
    k_all = analysis.component_speedup[idx]
    k_others = k_all / opt.speedup if opt.enabled else k_all
    rest = analysis.combined.new_total - float(np.sum(analysis.new_times[idx]))
    new_totals = rest + np.sum(times[None, :] / (k_others[None, :] * grid[:, None]), axis=1)
    result: FloatArray = analysis.baseline_total / new_totals
    return result


def needs(inputs: ChartInputs) -> str:
    """What the chart needs before it draws anything: an optimization ("" once there is one)."""
    return EMPTY if inputs.analysis is None or not inputs.profile.optimizations else ""


def speedup(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> SpeedupView:
    """The speedup against k of the current optimization (with a job, the profile's own rank's, said so)."""
    view = _speedup(inputs, n, brief)
    return replace(view, title=inputs.of_rank(view.title))


def _speedup(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> SpeedupView:
    """The view for the selected optimization (or the first enabled one), its axis named for the objective the
    analysis is seen through ("TTFT speedup S")."""
    profile, analysis, row = inputs.profile, inputs.analysis, inputs.selected
    opts = profile.optimizations
    if analysis is None or needs(inputs):
        return SpeedupView("Speedup against k", empty=EMPTY)
    if not 0 <= row < len(opts):
        row = next((i for i, o in enumerate(opts) if o.enabled), 0)
    opt = opts[row]
    f = float(analysis.optimizations.fraction[row])
    k_now = opt.speedup
    k_hi, k_lo = max(100.0, k_now * 2), min(1.0, k_now / 2)
    grid = np.logspace(math.log10(k_lo), math.log10(k_hi), 300)
    x = np.log10(grid)
    alone = amdahl_speedup(f, grid)
    ceiling = 1 / (1 - f) if f < 1 else math.inf
    top = float(np.max(alone))
    others = any(o.enabled and i != row for i, o in enumerate(opts))
    combined = combined_curve(profile, analysis, row, grid) if others else None
    if combined is not None:
        combined_top = float(np.max(combined))
        top = max(top, combined_top if math.isfinite(combined_top) else top)
    s_now = float(amdahl_speedup(f, k_now))
    if math.isfinite(ceiling):
        top = max(top, ceiling)
    # Ranges in coarse steps, so that nudging one time in the table does not move the axes.
    y_range = (math.floor(min(0.9, float(np.min(alone)) * 0.95) * 10) / 10, nice_ceiling(top * 1.12 + 0.05))
    span = x[-1] - x[0]
    x_range = (float(x[0] - 0.02 * span), float(x[-1] + 0.02 * span))
    name = shorten(opt.name, 60)  # two title lines hold a long name whole
    if not inputs.objective and trace_based(inputs.trace):
        return _traced(inputs, row, grid, alone, s_now, f, ceiling, n, brief)
    # The optimization alone on the trace's critical path is said beside the sum's curve.
    on_path = None if inputs.objective else option_on_path(inputs.trace, opt)
    sum_tag = " (sum)" if on_path is not None else ""
    title = (
        f"Speedup against k: {name}"
        if brief
        else f"{name}: "
        + phrases(
            f"f = {n.percent(f)};",
            f"k = {n.speedup(k_now)} gives {n.speedup(s_now)} end to end by the sum,"
            if on_path is not None
            else f"k = {n.speedup(k_now)} gives {n.speedup(s_now)} end to end,",
            *((f"{n.close_speedup(on_path)} with the trace's dependencies,",) if on_path is not None else ()),
            f"ceiling {n.speedup(ceiling)}{sum_tag}",
        )
    )
    return SpeedupView(
        title,
        x_range,
        y_range,
        Series(x, alone, x_range, y_range),
        Series(x, combined, x_range, y_range) if combined is not None else None,
        Mark(math.log10(k_now), s_now, f"k = {n.speedup(k_now)} → {n.speedup(s_now)}{sum_tag}", (x_range, y_range)),
        Mark(0.0, ceiling, f"ceiling 1/(1−f) = {n.speedup(ceiling)}", (x_range, y_range))
        if math.isfinite(ceiling)
        else None,
        log10_ticks(k_lo, k_hi, n),
        y_axis=f"{inputs.objective} speedup S" if inputs.objective else "End-to-end speedup S",
        legend=_drawn(LEGEND, {WITH_OTHERS: combined is not None, CEILING: math.isfinite(ceiling)}),
    )


def _drawn(legend: tuple[LegendEntry, ...], drawn: dict[LegendEntry, bool]) -> tuple[LegendEntry, ...]:
    """The entries of ``legend`` whose line is drawn (``drawn`` says it for those that may not be): a legend names
    no curve the chart leaves out, as the other enabled ones' when no other is enabled."""
    return tuple(e for e in legend if drawn.get(e, True))


def _traced(
    inputs: ChartInputs,
    row: int,
    grid: FloatArray,
    by_sum: FloatArray,
    sum_now: float,
    f: float,
    sum_ceiling: float,
    n: Numbers,
    brief: bool,
) -> SpeedupView:
    """A traced profile's view: the optimization's speedup against k on the trace's critical path (alone, and with
    the other enabled ones), the sum's curve beside it lighter; while the curves are computed, the sum's alone,
    said so — never a curve of another plan."""
    profile = inputs.profile
    opt = profile.optimizations[row]
    k_now = opt.speedup
    curve = option_curve(inputs.trace, profile, opt)
    on_path = option_on_path(inputs.trace, opt) if curve is not None else None
    name = shorten(opt.name, 60)
    x_sum = np.log10(grid)
    lo, hi = float(x_sum[0]), float(x_sum[-1])
    span = hi - lo
    x_range = (lo - 0.02 * span, hi + 0.02 * span)
    values = [float(np.max(by_sum)), sum_ceiling if math.isfinite(sum_ceiling) else 1.0]
    ceiling = None
    if curve is not None:
        values += [float(np.max(curve.alone[np.isfinite(curve.alone)], initial=1.0))]
        if curve.combined is not None:
            values += [float(np.max(curve.combined[np.isfinite(curve.combined)], initial=1.0))]
        ceiling = curve.ceiling
        if ceiling is not None and math.isfinite(ceiling):
            values.append(ceiling)
    top = max(values)
    bottom = min(0.9, float(np.min(by_sum)) * 0.95)
    if curve is not None:
        bottom = min(bottom, float(np.min(curve.alone)) * 0.95)
    y_range = (math.floor(bottom * 10) / 10, nice_ceiling(top * 1.12 + 0.05))
    frame = (x_range, y_range)
    k_text = n.speedup(k_now)
    if curve is None or on_path is None:
        title = (
            f"Speedup against k: {name}"
            if brief
            else f"{name}: "
            + phrases(
                f"f = {n.percent(f)};",
                f"k = {k_text} gives {n.speedup(sum_now)} by the sum;",
                "with the trace's dependencies: computing …",
            )
        )
        return SpeedupView(
            title,
            x_range,
            y_range,
            by_sum=Series(x_sum, by_sum, x_range, y_range),
            marker=Mark(math.log10(k_now), sum_now, f"k = {k_text} → {n.speedup(sum_now)} (sum)", frame),
            ticks=log10_ticks(float(grid[0]), float(grid[-1]), n),
            legend=TRACED_LEGEND,
        )
    x = np.log10(curve.ks)
    limit = "no ceiling" if ceiling is None or not math.isfinite(ceiling) else f"ceiling {n.close_speedup(ceiling)}"
    title = (
        f"Speedup against k: {name}"
        if brief
        else f"{name}: "
        + phrases(
            f"k = {k_text} gives {n.close_speedup(on_path)} with the trace's dependencies,",
            f"{limit};",
            f"the sum says {n.speedup(sum_now)}, ceiling {n.speedup(sum_ceiling)}",
        )
    )
    return SpeedupView(
        title,
        x_range,
        y_range,
        Series(x, curve.alone, x_range, y_range),
        Series(x, curve.combined, x_range, y_range) if curve.combined is not None else None,
        Mark(math.log10(k_now), on_path, f"k = {k_text} → {n.close_speedup(on_path)} with deps", frame),
        Mark(0.0, ceiling, f"ceiling with deps = {n.close_speedup(ceiling)}", frame)
        if ceiling is not None and math.isfinite(ceiling)
        else None,
        log10_ticks(float(grid[0]), float(grid[-1]), n),
        by_sum=Series(x_sum, by_sum, x_range, y_range),
        legend=_drawn(
            TRACED_LEGEND,
            {WITH_OTHERS: curve.combined is not None, TRACED_CEILING: ceiling is not None and math.isfinite(ceiling)},
        ),
    )
