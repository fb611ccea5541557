"""Groups of events on the critical path: their time on it, and how far they can shrink before it moves.

A group is any set of segments of the steps' graph (a mask over its points): the events an imported
component stands for, the events a pattern matches. Its time on the critical path is the part of its events on
the step's path as measured (the path the critical-path chart draws: the window's *On path* column, the
import's column and the chart give one figure). With the group's durations divided by K, the mean step length
is a convex, piecewise-linear function of u = 1/K; its slope just below u = 1 is the group's time on the path
that stays critical as it shrinks (where paths tie, the one with the least of it). While that path stays, every
microsecond the group saves is saved; the
**slack** is how much the group can shrink before the path moves elsewhere, at K = ``k_moves``
(None: it never moves — even free, the group's whole time comes off). Each answer takes a few passes:
tangents of the convex function are intersected until the breakpoint next to u = 1 is found.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .events import MS_PER_US
from .whatif import PathTrace

_MAX_PASSES = 12
_NUDGE = 1e-7  # how far below u = 1 the slope is read


@dataclass(frozen=True)
class ComponentPath:
    """One group: its own time per step, the part on the critical path, its slack and the K where the path
    moves (ms, means over steps), and the step's speedup were the group free."""

    name: str
    time: float
    on_path: float
    slack: float
    k_moves: float | None
    ceiling: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "time": self.time,
            "on_path": self.on_path,
            "slack": self.slack,
            "k_moves": self.k_moves,
            "ceiling": self.ceiling,
        }


def _evaluate(pt: PathTrace, mask: np.ndarray, u: float) -> tuple[float, float]:
    """(mean step length, mean unscaled time of the group on the critical path) with the group's weights × u."""
    factor = np.where(mask, np.inf if u == 0 else 1 / u, 1.0)
    schedule = pt.scheduler.run(factor)
    g = pt.graph
    on = schedule.on_path & mask
    slope = float(g.weight[on].sum()) / max(g.steps, 1)
    return float(schedule.length.mean()), slope


def component_path(pt: PathTrace, name: str, mask: np.ndarray) -> ComponentPath:
    """The critical-path figures of the group of segments ``mask`` (per point of ``pt.graph``)."""
    g = pt.graph
    steps = max(g.steps, 1)
    time = float(g.weight[mask].sum()) / steps
    t1 = float(pt.baseline.length.mean())
    # its time on the step's critical path as measured: the path the chart draws (one computation for both)
    walk = float(pt.baseline.path_time(g, mask).mean()) * MS_PER_US
    # the group's time on the path that stays critical as it starts to shrink: where paths tie, the one with
    # the least of it (the slope just below u = 1); what comes off before the path moves is read from it
    _, s1 = _evaluate(pt, mask, 1.0 - _NUDGE) if mask.any() else (t1, 0.0)
    eps = 1e-9 * max(t1, 1.0) + 1e-9
    if s1 <= eps:
        t0, _ = _evaluate(pt, mask, 0.0)
        moves = 1.0 if walk > eps * MS_PER_US else None  # on a tied path: it moves as soon as the group shrinks
        return ComponentPath(name, time * MS_PER_US, walk, 0.0, moves, t1 / t0 if t0 > 0 else None)
    t0, s0 = _evaluate(pt, mask, 0.0)

    def line1(u: float) -> float:
        return t1 - s1 * (1 - u)

    ceiling = t1 / t0 if t0 > 0 else None
    if t0 <= line1(0.0) + eps:
        return ComponentPath(name, time * MS_PER_US, walk, s1 * MS_PER_US, None, ceiling)
    u_lo, t_lo, s_lo = 0.0, t0, s0
    u_star = 1.0
    for _ in range(_MAX_PASSES):
        if s1 - s_lo <= eps:
            u_star = u_lo
            break
        u_x = (t_lo - s_lo * u_lo - t1 + s1) / (s1 - s_lo)
        u_x = min(max(u_x, u_lo), 1.0)
        t_x, s_x = _evaluate(pt, mask, u_x)
        if t_x <= line1(u_x) + eps:
            u_star = u_x
            break
        u_lo, t_lo, s_lo = u_x, t_x, s_x
        u_star = u_x
    slack = s1 * (1 - u_star)
    return ComponentPath(name, time * MS_PER_US, walk, slack * MS_PER_US, 1 / u_star if u_star > 0 else None, ceiling)


def component_paths(pt: PathTrace, masks: Mapping[str, np.ndarray]) -> list[ComponentPath]:
    """:func:`component_path` of each named group, in the mapping's order."""
    return [component_path(pt, name, mask) for name, mask in masks.items()]
