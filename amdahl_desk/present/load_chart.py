"""Latency against load as a chart shows it: mean response and p99 wait against the arrival rate, before and after."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..model.laws import FloatArray
from ..model.load_view import load_curve
from ..model.outcomes import profile_outcomes
from .chart_parts import LegendEntry, Mark, Series
from .colours import BLUE, GREEN, GREY, RED
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases

WALL = "Saturation wall"
LEGEND = (
    LegendEntry(GREY, "line", "Mean response, before"),
    LegendEntry(BLUE, "line", "after the plan"),
    LegendEntry(GREY, "dash", "p99 wait, before"),
    LegendEntry(BLUE, "dash", "after"),
    LegendEntry(RED, "line", WALL),
    LegendEntry(GREEN, "dot", "Target"),
)


@dataclass(frozen=True)
class LoadView:
    """Curves in plot coordinates (requests per second, the profile's time unit); NaN is a gap past a wall.

    ``points`` are the operating points before and after (None: saturated, no number), each with its label.
    """

    title: str
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    before: Series | None = None
    after: Series | None = None
    before_p99: Series | None = None
    after_p99: Series | None = None
    wall_before: Mark | None = None  # vertical lines at x
    wall_after: Mark | None = None
    now: Mark | None = None
    target: Mark | None = None  # a horizontal line at y
    points: tuple[Mark | None, Mark | None] = (None, None)
    saturated: tuple[str, str] = ("", "")  # what a saturated side says instead of a number
    y_axis: str = "Time"
    x_axis: str = "Arrival rate (requests/s)"
    legend: tuple[LegendEntry, ...] = LEGEND
    needs: str = ""  # what it needs where it draws nothing

    @property
    def nothing(self) -> str:
        """What the chart needs when it draws nothing ("" when it draws): an export of it is refused with this."""
        return "" if self.before is not None else self.needs or self.title


def _capped(values: FloatArray, cap: float) -> FloatArray:
    """NaN (saturated) stays NaN, a gap in the line; a value past the top of the view is drawn at the top edge."""
    return np.where(np.isfinite(values), np.minimum(values, cap), np.nan)


def needs(inputs: ChartInputs) -> str:
    """What the chart needs before it draws anything: an arrival rate ("" once there is one)."""
    return "set an arrival rate (Objectives, load and cost)" if inputs.profile.settings.arrival_rate is None else ""


def load_chart(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> LoadView:
    profile, analysis = inputs.profile, inputs.analysis
    if analysis is None:
        return LoadView("Latency against load — no data")
    outcomes = inputs.outcomes
    if outcomes is None:
        from .trace_plan import COMPUTING, current_answer

        answer = current_answer(inputs.trace, profile, analysis)  # a traced profile's step: on its critical path
        if answer == COMPUTING:
            return LoadView("Latency against load — computing the step on the trace's critical path …")
        outcomes = profile_outcomes(profile, analysis, answer=None if isinstance(answer, str) else answer)
    load = outcomes.load
    if load is None:
        said = needs(inputs)
        return LoadView(f"Latency against load — {said or 'no load'}", legend=(), needs=said)
    unit = profile.unit
    curve = load_curve(load)
    top = curve.y_max
    x = curve.rates
    x_range = (0.0, float(x[-1]) if len(x) else 1.0)
    y_range = (0.0, top)

    def series(values: FloatArray) -> Series:
        return Series(x, _capped(values, top), x_range, y_range)

    def wall(rate: float, side: str) -> Mark | None:
        return Mark(rate, 0.0, f"wall {side}: {n.number(rate)}/s") if math.isfinite(rate) else None

    points: list[Mark | None] = []
    saturated: list[str] = []
    for q, side in ((load.before, "before"), (load.after, "after")):
        if q.saturated or q.mean_response is None or not math.isfinite(q.mean_response):
            points.append(None)  # no number at all past the wall: the queue grows without bound
            saturated.append(f"{side}: saturated")
        else:
            points.append(Mark(curve.current_rate, min(q.mean_response, top), n.time(q.mean_response, unit)))
            saturated.append("")
    replicas = f"{n.count(load.servers)} replica{'s' if load.servers != 1 else ''}"
    # the walls' rates in the legend too: a plot too narrow to label its walls beside them still names them
    sides = ((curve.wall_before, "before"), (curve.wall_after, "after"))
    walls = [f"{n.number(r)}/s {side}" for r, side in sides if math.isfinite(r)]
    goal = f"Target {n.time(curve.target, unit)}" if curve.target is not None else "Target"
    legend = tuple(
        replace(e, name=f"{e.name}: {', '.join(walls)}")
        if e.name == WALL and walls
        else replace(e, name=goal)
        if e.name == "Target"
        else e
        for e in LEGEND
    )
    # the operating points' figures in the title too: where no place beside a point is clear, its label is left out
    figures = [p.text if p is not None else s for p, s in zip(points, saturated, strict=True)]
    at = f"at {n.number(curve.current_rate)}/s, {figures[0]} → {figures[1]}"
    return LoadView(
        inputs.of_rank(phrases(f"Latency against load: {load.objective} on {replicas};", at)),
        x_range,
        y_range,
        series(curve.before_response),
        series(curve.after_response),
        series(curve.before_p99_wait),
        series(curve.after_p99_wait),
        wall(curve.wall_before, "before"),
        wall(curve.wall_after, "after"),
        Mark(curve.current_rate, 0.0, f"now {n.number(curve.current_rate)}/s"),
        Mark(0.0, curve.target, f"target {n.time(curve.target, unit)}") if curve.target is not None else None,
        (points[0], points[1]),
        (saturated[0], saturated[1]),
        f"Time ({unit.label})",
        legend=legend,
    )
