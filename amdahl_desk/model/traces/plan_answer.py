"""The answer of a profile that carries its trace: the enabled plan with the trace's dependencies, in the profile's
own terms — the one home every output (window, slide, workbook, ``report``, ``whatif PROFILE``) reads.

:func:`plan_answer` turns a :class:`~.plan_path.PlanAnswers` (the plan and each optimization on the trace's
critical path) into the figures the desk decides by: the plan's speedup, its new total in the profile's unit
(the profile's baseline divided by the speedup on the path), its ceiling (the targets' events free) and each
optimization's own speedup and ceiling; the sum's figures stay beside them. When the trace does not know a
target's events, :attr:`TraceAnswer.usable` is false and the figures are the sum's (``problem`` says why).

:func:`dependency_draws` runs the Monte Carlo through the dependency model: each draw's k of every enabled
optimization scales its targets' events and the steps' critical paths are recomputed, for all draws at once
(:meth:`~.critical_path.Scheduler.run_many`). :func:`trace_uncertainty` gives the plan under uncertainty
(odds, spread, bounds, What matters) from those draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..analysis import Analysis, TargetFigures, plan_pairs
from ..draws import Draws, component_classes, time_bounds
from ..names import name_key
from ..profile import Profile
from ..uncertainty import PERCENTILES, Sensitivity, Spread, UncertaintyFigures, meets
from ..units import TimeUnit, convert
from .critical_path import Scheduler
from .events import MS_PER_US, FloatArray
from .plan_path import PlanAnswers, PlanKey, TracePlanner, answers, needed_speedups, plan_of

EDITED = 0.005  # the table's baseline this far from the trace's step: the times were edited since the import


@dataclass(frozen=True)
class OptionAnswer:
    """One optimization alone: its speedup and its ceiling with the trace's dependencies (None: not known)."""

    speedup: float | None
    ceiling: float | None


@dataclass(frozen=True)
class TraceAnswer:
    """The enabled plan's answer. With ``usable``, ``speedup``/``new_total``/``ceiling`` are the dependency-aware
    figures; otherwise they are the sum's and ``problem`` says why. The sum's own are always beside them."""

    usable: bool
    problem: str
    speedup: float
    new_total: float
    ceiling: float
    sum_speedup: float
    sum_new_total: float
    sum_ceiling: float
    step_before: float  # ms per step on the critical path, as measured (0 when not usable)
    step_after: float  # ms per step with the plan (0 when not usable)
    by_kind_before: tuple[tuple[str, float], ...]
    by_kind_after: tuple[tuple[str, float], ...]
    options: tuple[OptionAnswer, ...]  # per optimization of the profile, in order
    baseline: float  # the profile's baseline total (its unit)
    unknown: tuple[str, ...] = ()
    trace_total: float = 0.0  # the trace's step as measured, in the profile's unit (0 when not usable)
    # (step speedup a target asks, the least k of the plan's events at once that gives it): those computed
    required: tuple[tuple[float, float | None], ...] = ()

    @property
    def edited(self) -> bool:
        """The profile's times no longer add up to the step its trace measured (edited since the import): the
        speedups, ceilings and odds still rest on the trace as measured; the new total applies them to the
        table's baseline."""
        return self.usable and times_edited(self.baseline, self.trace_total)

    @property
    def time_saved(self) -> float:
        return self.baseline - self.new_total


def times_edited(table_total: float, trace_total: float) -> bool:
    """Whether the table's baseline (``table_total``) is no longer the step its trace measured (same unit)."""
    return abs(table_total - trace_total) > EDITED * max(trace_total, 1e-300)


def _ratio(a: float, b: float) -> float:
    return a / b if b > 0 else math.inf


def plan_answer(profile: Profile, analysis: Analysis, found: PlanAnswers) -> TraceAnswer:
    """The profile's answer from ``found`` (the planner's answers for the profile's plan as it is now)."""
    c = analysis.combined
    base = analysis.baseline_total
    sums = analysis.optimizations
    sum_options = [
        OptionAnswer(float(sums.overall_speedup[i]), float(sums.ceiling[i])) for i in range(len(profile.optimizations))
    ]
    if found.key != plan_of(profile.optimizations):
        raise ValueError("the answers are of another plan than the profile's")
    if found.path is None:
        names = ", ".join(f"“{u}”" for u in found.unknown)
        why = f"the trace does not know which events {names} stand for (a component added or renamed after the import)"
        return replace(sum_answer(profile, analysis, why), unknown=found.unknown)
    path = found.path
    speedup = path.speedup
    options = []
    for o, summed in zip(profile.optimizations, sum_options, strict=True):
        alone = found.alone.get((o.targets, float(o.speedup)))
        options.append(summed if alone is None else OptionAnswer(alone.speedup, alone.ceiling))
    ceiling = path.ceiling if path.ceiling is not None else math.inf
    return TraceAnswer(
        True,
        "",
        speedup,
        base / speedup if speedup > 0 else math.inf,
        ceiling,
        c.overall_speedup,
        c.new_total,
        c.ceiling,
        path.baseline.length,
        path.predicted.length,
        path.baseline.by_kind,
        path.predicted.by_kind,
        tuple(options),
        base,
        trace_total=convert(path.baseline.length, TimeUnit.MS, profile.unit),
        required=tuple(found.required.items()),
    )


def target_on_path(t: TargetFigures, total: float, answer: TraceAnswer) -> TargetFigures:
    """Target ``t`` of a step of ``total`` (the answer's baseline) with the trace's dependencies: met when the
    plan's new total on the path reaches it, within reach when its targets' events free do, and the least k of
    those events at once that gets there (None while it is not known); the sum's figures kept in ``sum``. A
    target already seen so, or an answer that is not usable, is returned as it is."""
    if not answer.usable or t.sum is not None or total <= 0:
        return t
    tolerance = 1 + 1e-12
    new_total = total / answer.speedup if answer.speedup > 0 else math.inf
    floor = total / answer.ceiling if answer.ceiling > 0 else total
    met = new_total <= t.time * tolerance or t.time >= total
    feasible = met or floor <= t.time * tolerance
    k: float | None = 1.0 if t.time >= total else None
    if k is None and feasible:
        need = total / t.time
        k = next((v for n, v in answer.required if abs(n - need) <= 1e-9 * need), None)
    return TargetFigures(t.time, t.fraction, k, feasible, floor, met, sum=t)


def sum_answer(profile: Profile, analysis: Analysis, problem: str) -> TraceAnswer:
    """The sum's figures, for a profile whose trace cannot be used (``problem`` says why)."""
    c = analysis.combined
    sums = analysis.optimizations
    options = tuple(
        OptionAnswer(float(sums.overall_speedup[i]), float(sums.ceiling[i])) for i in range(len(profile.optimizations))
    )
    return TraceAnswer(
        False,
        problem,
        c.overall_speedup,
        c.new_total,
        c.ceiling,
        c.overall_speedup,
        c.new_total,
        c.ceiling,
        0.0,
        0.0,
        (),
        (),
        options,
        analysis.baseline_total,
    )


def answer_profile(profile: Profile, analysis: Analysis, planner: TracePlanner) -> TraceAnswer:
    """The profile's answer on ``planner``'s trace, computed now (a command, an export, a test)."""
    key = plan_of(profile.optimizations)
    options = [(o.targets, float(o.speedup)) for o in profile.optimizations]
    return plan_answer(profile, analysis, answers(planner, key, options, profile_needs(profile)))


def profile_needs(profile: Profile) -> tuple[float, ...]:
    """The step speedups the profile's target times ask (its own and its objectives'): what the answers find the
    least k for."""
    goals = [profile.settings.target_time, *(o.target_time for o in profile.objectives)]
    return needed_speedups(profile.total, goals)


# -- the Monte Carlo through the dependency model ---------------------------------------------------------------
def point_classes(
    planner: TracePlanner, plan: PlanKey, group: np.ndarray | None = None
) -> tuple[np.ndarray, list[tuple[int, tuple[int, ...]]]]:
    """Per point of the graph, its class, and each class as (its ``group``, its members): ``group`` (per point,
    -1 none) says whose drawn time scales it; the members are the plan's optimizations (indices into ``plan``)
    whose targets hold the point."""
    n = len(planner.pt.graph.time)
    cover = np.zeros((n, len(plan) + 1), dtype=np.int64)
    cover[:, 0] = -1 if group is None else group
    for j, (targets, _) in enumerate(plan):
        for t in targets:
            mask = planner.mask(t)
            if mask is not None:
                cover[mask, j + 1] = 1
    if not n:
        return np.zeros(0, dtype=np.int64), [(-1, ())]
    rows, inverse = np.unique(cover, axis=0, return_inverse=True)
    classes = [(int(r[0]), tuple(int(j) for j in np.flatnonzero(r[1:]))) for r in rows]
    return np.asarray(inverse, dtype=np.int64).reshape(-1), classes


class DrawsStoppedError(Exception):
    """The draws were stopped: their answer is no longer wanted."""


Stop = Callable[[], bool]


def step_lengths(
    scheduler: Scheduler, point_class: np.ndarray, class_factor: FloatArray, stop: Stop | None = None
) -> FloatArray:
    """``(draws, steps)``: every step's length with each point's segment divided by its class's factor in each
    draw (``inf``: free), in one vectorised pass (:meth:`Scheduler.run_many`; ``stop`` is asked before it:
    :class:`DrawsStoppedError` once it says so)."""
    if stop is not None and stop():
        raise DrawsStoppedError
    return scheduler.run_many(point_class, class_factor)


def class_factors(classes: Sequence[tuple[int, tuple[int, ...]]], ks: FloatArray, ratios: FloatArray) -> FloatArray:
    """``(draws, classes)``: per draw, each class's factor — the product of its members' k (``ks``: draws × the
    plan's optimizations) over its group's drawn time as a share of its measured time (``ratios``: draws ×
    groups; a class of no group keeps its time)."""
    out = np.ones((ks.shape[0], len(classes)))
    with np.errstate(divide="ignore"):
        for c, (group, members) in enumerate(classes):
            for j in members:
                out[:, c] *= ks[:, j]
            if group >= 0:
                out[:, c] /= ratios[:, group]
    return out


def _time_ratios(profile: Profile, draws: Draws) -> tuple[np.ndarray, FloatArray]:
    """Each component's class of the draws, and per draw each class's drawn time over its measured time."""
    classes, _ = component_classes(profile, plan_pairs(profile))
    measured = np.bincount(classes, weights=profile.arrays()[0], minlength=len(draws.class_times))
    ratios = np.ones((draws.count, len(draws.class_times)))
    for c, drawn in enumerate(draws.class_times):
        if not isinstance(drawn, float) and measured[c] > 0:
            ratios[:, c] = np.asarray(drawn, dtype=float) / measured[c]
    return classes, ratios


def dependency_draws(
    profile: Profile, planner: TracePlanner, draws: Draws, stop: Stop | None = None
) -> tuple[FloatArray, FloatArray]:
    """Per draw, the step's mean length (ms) with each enabled optimization at its drawn k (1 where it failed),
    and without them (the baseline of that draw): each component's events scaled by its drawn time over its
    measured time (components whose time has a range; components drawn together as one sum share that sum's
    ratio). Without time ranges every draw's baseline is the step as measured."""
    enabled = [j for j, o in enumerate(profile.optimizations) if o.enabled]
    comp_class, ratios = _time_ratios(profile, draws)
    ks = np.ones((draws.count, len(enabled)))
    with np.errstate(divide="ignore"):
        for col, j in enumerate(enabled):
            ks[:, col] = 1.0 / np.broadcast_to(np.asarray(draws.reciprocal[j], dtype=float), (draws.count,))
    varied = bool(np.any(ratios != 1.0))
    if varied:  # the draws' own baselines, in the same pass
        ks, ratios = np.vstack([ks, np.ones_like(ks)]), np.vstack([ratios, ratios])
    lengths = _dependency_lengths(profile, planner, comp_class, ks, ratios, stop)
    with_plan = np.asarray(lengths[: draws.count], dtype=np.float64)
    if varied:
        return with_plan, np.asarray(lengths[draws.count :], dtype=np.float64)
    return with_plan, np.full(draws.count, planner.baseline.length)


def dependency_cases(
    profile: Profile, planner: TracePlanner, best_k: Sequence[float], worst_k: Sequence[float]
) -> tuple[float, float, float]:
    """The step's mean length (ms) in the best and the worst case and at the floor: the enabled optimizations at
    ``best_k`` with every time at its low, at ``worst_k`` with every time at its high, and free with every time at
    its low. As a draw scales them: each class of components (those the same optimizations target) by its low or
    high sum over its measured sum."""
    times = profile.arrays()[0]
    bounds = time_bounds(profile)
    low, high = bounds if bounds is not None else (times, times)
    comp_class, members = component_classes(profile, plan_pairs(profile))
    groups = len(members)
    measured = np.bincount(comp_class, weights=times, minlength=groups)
    ratios = np.ones((3, groups))
    for row, edge in enumerate((low, high, low)):
        summed = np.bincount(comp_class, weights=edge, minlength=groups)
        ratios[row] = np.where(measured > 0, summed / np.where(measured > 0, measured, 1.0), 1.0)
    ks = np.asarray([best_k, worst_k, [math.inf] * len(best_k)], dtype=float).reshape(3, -1)
    best, worst, floor = _dependency_lengths(profile, planner, comp_class, ks, ratios)
    return float(best), float(worst), float(floor)


def _dependency_lengths(
    profile: Profile,
    planner: TracePlanner,
    comp_class: np.ndarray,
    ks: FloatArray,
    ratios: FloatArray,
    stop: Stop | None = None,
) -> FloatArray:
    """Per row of ``ks`` (rows × the enabled optimizations) and ``ratios`` (rows × the components' classes), the
    step's mean length (ms) with each enabled optimization at its k and each class's events scaled by its ratio."""
    plan = plan_of(profile.optimizations)
    index = {name_key(c.name): i for i, c in enumerate(profile.components)}
    named = [comp_class[index[name_key(n)]] if name_key(n) in index else -1 for n in planner.names]
    group = np.asarray([*named, -1], dtype=np.int64)[planner.claim]  # a point no component holds: -1
    point_class, classes = point_classes(planner, plan, group)
    factors = class_factors(classes, ks, ratios)
    lengths: FloatArray = step_lengths(planner.pt.scheduler, point_class, factors, stop).mean(axis=1) * MS_PER_US
    return lengths


def _plan_length(planner: TracePlanner, plan: PlanKey) -> float:
    return planner.plan(plan).predicted.length


def trace_uncertainty(
    profile: Profile,
    analysis: Analysis,
    figures: UncertaintyFigures,
    planner: TracePlanner,
    stop: Stop | None = None,
) -> UncertaintyFigures:
    """``figures`` (the plan under uncertainty on the sums) with the plan's figures through the dependency model:
    the spread and the odds from the same draws, the bounds (every enabled optimization at its low or high k)
    and What matters (one at its low or high k, the others at their likely k) on the trace's critical path.

    The bounds and What matters hold the times as measured; the best and worst cases and the floor take every time
    at its low and at its high, as the sums' do. The ranking (time saved per engineer-day) is each optimization's
    alone on the critical path (:func:`.plan_choice.trace_ranking`)."""
    from .plan_choice import trace_ranking

    base = analysis.baseline_total
    before = planner.baseline.length
    lengths, baselines = dependency_draws(profile, planner, figures.common, stop)
    with np.errstate(divide="ignore"):
        speedups = np.where(lengths > 0, baselines / lengths, np.inf)
        totals = base * lengths / before if before > 0 else np.full_like(lengths, base)
    opts = profile.optimizations
    enabled = [o for o in opts if o.enabled]

    def at(ks: Sequence[float]) -> float:
        return _plan_length(planner, tuple((o.targets, float(k)) for o, k in zip(enabled, ks, strict=True)))

    likely = [o.speedup for o in enabled]
    low_len = at([o.speedup_range[0] for o in enabled])
    high_len = at([o.speedup_range[1] for o in enabled])
    conf = [o.confidence for o in enabled]
    best_k = [
        o.speedup_range[1] if c >= 1 else 1.0 if c <= 0 else max(o.speedup_range[1], 1.0)
        for o, c in zip(enabled, conf, strict=True)
    ]
    worst_k = [
        o.speedup_range[0] if c >= 1 else 1.0 if c <= 0 else min(o.speedup_range[0], 1.0)
        for o, c in zip(enabled, conf, strict=True)
    ]
    # the best and worst cases count the times' ranges too, as the sums' do (each time at its low, at its high)
    best_len, worst_len, floor_len = dependency_cases(profile, planner, best_k, worst_k)
    best, worst = base * best_len / before, base * worst_len / before
    rows = []
    for i, (j, o) in enumerate((j, o) for j, o in enumerate(opts) if o.enabled):
        low, high = o.speedup_range
        if not high > low:
            continue
        s = []
        for k in (low, high):
            ks = list(likely)
            ks[i] = k
            s.append(_ratio(before, at(ks)))
        rows.append(Sensitivity(j, o.name, s[0], s[1]))
    rows.sort(key=lambda s: -s.swing)

    def spread(low: float, high: float, values: FloatArray) -> Spread:
        p5, p50, p95 = (float(v) for v in np.percentile(values, PERCENTILES))
        return Spread(low, high, p5, p50, p95, float(np.mean(values)))

    target = profile.settings.target_time
    return replace(
        figures,
        overall_speedup=spread(_ratio(before, low_len), _ratio(before, high_len), speedups),
        new_total=spread(base * high_len / before, base * low_len / before, totals),
        probability_target=None if target is None else meets(totals, target),
        best_case=best,
        worst_case=worst,
        floor=base * floor_len / before,
        sensitivity=tuple(rows),
        ranking=trace_ranking(profile, analysis, planner, figures.ranking),
        new_total_draws=totals,
        speedup_draws=speedups,
    )
