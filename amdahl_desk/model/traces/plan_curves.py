"""Speedup against k on a trace's critical path: each optimization's curve (alone, and with the other enabled
ones as they are) through the dependency model, for the speedup chart.

Every point of every curve is the step's critical path recomputed with the optimization's targets' events k×
faster — the figure :meth:`~.plan_path.TracePlanner.alone` and :meth:`~.plan_path.TracePlanner.plan` give at
that k. All the curves of a plan are one vectorised pass (:meth:`~.critical_path.Scheduler.run_many`): each k of
the grid is a "draw" whose class factors are the optimizations' k.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..profile import Optimization
from .events import MS_PER_US, FloatArray
from .plan_answer import class_factors, point_classes
from .plan_path import TracePlanner

CURVE_POINTS = 41  # k values per curve: the chart joins them on a log axis
OptionKey = tuple[tuple[str, ...], float]  # (targets, k): an optimization as the planner knows it


def k_grid(k_now: float, points: int = CURVE_POINTS) -> FloatArray:
    """The k values a curve is drawn through: from min(1, k/2) to max(100, 2k) on a log scale, k itself among
    them (the chart's marker sits on the curve)."""
    lo, hi = min(1.0, k_now / 2), max(100.0, k_now * 2)
    grid = np.logspace(math.log10(lo), math.log10(hi), points)
    return np.unique(np.append(grid, k_now))


@dataclass(frozen=True, eq=False)  # compared by identity: a plan's answers hold them, and arrays have no ==
class KCurve:
    """One optimization's step speedup against its k on the critical path: ``alone`` (the others off) and
    ``combined`` (the other enabled ones at their k; None when no other is enabled or the trace does not know
    one's events), at each of ``ks``."""

    ks: FloatArray
    alone: FloatArray
    combined: FloatArray | None


def plan_curves(
    planner: TracePlanner, optimizations: Sequence[Optimization], points: int = CURVE_POINTS
) -> Mapping[OptionKey, KCurve | None]:
    """Each optimization's :class:`KCurve`, by (targets, k); None for one whose targets the trace does not know."""
    opts = list(optimizations)
    known = [not planner.unknown(o.targets) for o in opts]
    enabled = [o.enabled and ok for o, ok in zip(opts, known, strict=True)]
    plan_known = all(ok for o, ok in zip(opts, known, strict=True) if o.enabled)
    columns = tuple((o.targets, float(o.speedup)) for o in opts)
    point_class, classes = point_classes(planner, columns)
    k_now = np.array([float(o.speedup) for o in opts])
    rows: list[FloatArray] = []
    layout: list[tuple[int, FloatArray, bool]] = []  # (optimization, its grid, whether a combined curve follows)
    for i, o in enumerate(opts):
        if not known[i]:
            continue
        grid = k_grid(float(o.speedup), points)
        alone = np.ones((len(grid), len(opts)))
        alone[:, i] = grid
        rows.append(alone)
        others = plan_known and any(enabled[j] for j in range(len(opts)) if j != i)
        if others:
            with_others = np.where(np.asarray(enabled)[None, :], k_now[None, :], 1.0).repeat(len(grid), axis=0)
            with_others[:, i] = grid
            rows.append(with_others)
        layout.append((i, grid, others))
    out: dict[OptionKey, KCurve | None] = {columns[i]: None for i in range(len(opts)) if not known[i]}
    if not rows:
        return out
    ks = np.vstack(rows)
    factors = class_factors(classes, ks, np.ones((len(ks), 1)))
    lengths = planner.pt.scheduler.run_many(point_class, factors).mean(axis=1) * MS_PER_US
    before = planner.baseline.length
    with np.errstate(divide="ignore"):
        speedups = np.where(lengths > 0, before / lengths, np.inf)
    at = 0
    for i, grid, others in layout:
        alone_s = speedups[at : at + len(grid)]
        at += len(grid)
        combined = None
        if others:
            combined = speedups[at : at + len(grid)]
            at += len(grid)
        out[columns[i]] = KCurve(grid, alone_s, combined)
    return out
