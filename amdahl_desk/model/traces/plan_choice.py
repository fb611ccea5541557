"""What to build, for a profile that carries its trace: the cheapest plan and the ranking by time saved, both
through the dependency model (the odds' draws, :mod:`.plan_answer`).

:func:`trace_cheapest_plan` is the search of :mod:`~amdahl_desk.model.plan_search` with each set's probability of
meeting the target taken from the dependency model's draws: each draw's k of the set's optimizations (1 where
one fails) and each component's drawn time scale their events, and every step's critical path is recomputed
(:meth:`~.critical_path.Scheduler.run_many`). A draw's new total is the profile's baseline times the step's
length over its length as measured — the odds' own figure, so the plan that is also the ticked one gets the
odds' probability. Sets are tried by effort, least first (ties as the sum's search breaks them: the more
probable, then the fewer optimizations, then the first in the checklist); the first effort at which some set
reaches the level holds the answer. When no optimization can slow a run the path only shortens as a set grows,
so every candidate together not reaching the level means no set does (one pass). Each set costs a pass over the
draws; beyond ``EVALUATIONS`` sets the search stops, and says so with the least effort it had not yet ruled out.

:func:`trace_ranking` is each optimization's expected time saved alone, with its events on the trace's critical
path: ``confidence`` × (the step as measured − the mean step over its k's distribution, read at ``QUANTILES``
points of its PERT), in the profile's unit — times held as measured, as the bounds and What matters hold them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..analysis import Analysis
from ..draws import Draws
from ..names import name_key
from ..pert import Pert
from ..plan_search import Plan, PlanSearch, SearchStoppedError
from ..profile import Profile
from ..profile_values import Optimization
from ..uncertainty import TOLERANCE, Value
from .events import MS_PER_US, FloatArray
from .plan_answer import _time_ratios, class_factors, point_classes
from .plan_path import TracePlanner

EVALUATIONS = 64  # sets tried at most (a pass over 10,000 draws each: about half a second on the 1-GPU trace)
QUANTILES = 64  # points of a k's PERT the ranking reads


def _effort_key(value: float) -> float:
    return round(value, 9)


class TracePlanDraws:
    """The common draws of ``profile`` on its trace: any set of its optimizations' new totals, per draw."""

    def __init__(self, profile: Profile, analysis: Analysis, planner: TracePlanner, draws: Draws) -> None:
        self.profile, self.planner, self.draws = profile, planner, draws
        comp_class, self.ratios = _time_ratios(profile, draws)
        index = {name_key(c.name): i for i, c in enumerate(profile.components)}
        named = [comp_class[index[name_key(n)]] if name_key(n) in index else -1 for n in planner.names]
        self.group = np.asarray([*named, -1], dtype=np.int64)[planner.claim]
        self.base = analysis.baseline_total
        self.before = planner.baseline.length

    def k_rows(self, subset: Sequence[int]) -> FloatArray:
        ks = np.ones((self.draws.count, len(subset)))
        with np.errstate(divide="ignore"):
            for col, j in enumerate(subset):
                reciprocal = np.asarray(self.draws.reciprocal[j], dtype=float)
                ks[:, col] = 1.0 / np.broadcast_to(reciprocal, (self.draws.count,))
        return ks

    def totals(self, subset: Sequence[int]) -> FloatArray:
        """Per draw, the new total (the profile's unit) with the optimizations ``subset`` (indices) at their drawn
        k and the components at their drawn times."""
        opts = self.profile.optimizations
        plan = tuple((opts[j].targets, float(opts[j].speedup)) for j in subset)
        point_class, classes = point_classes(self.planner, plan, self.group)
        factors = class_factors(classes, self.k_rows(subset), self.ratios)
        lengths = self.planner.pt.scheduler.run_many(point_class, factors).mean(axis=1) * MS_PER_US
        if self.before <= 0:
            return np.full(self.draws.count, self.base)
        return np.asarray(self.base * lengths / self.before, dtype=np.float64)


def usable_for(profile: Profile, planner: TracePlanner, indices: Sequence[int]) -> bool:
    """Whether the trace knows the events of every target of these optimizations."""
    return not any(planner.unknown(profile.optimizations[j].targets) for j in indices)


def _by_effort(candidates: Sequence[int], efforts: Sequence[float]) -> Iterator[tuple[float, tuple[int, ...]]]:
    """Every set of ``candidates`` (non-negative ``efforts``), by total effort, least first (the empty set too)."""
    order = sorted(range(len(candidates)), key=lambda i: (efforts[i], i))
    cost = [efforts[i] for i in order]
    yield 0.0, ()
    if not order:
        return
    heap: list[tuple[float, tuple[int, ...]]] = [(cost[0], (0,))]
    while heap:
        total, chosen = heapq.heappop(heap)
        yield total, tuple(sorted(candidates[order[i]] for i in chosen))
        last = chosen[-1]
        if last + 1 < len(order):
            heapq.heappush(heap, (total + cost[last + 1], (*chosen, last + 1)))
            heapq.heappush(heap, (total - cost[last] + cost[last + 1], (*chosen[:-1], last + 1)))


def trace_cheapest_plan(
    profile: Profile,
    analysis: Analysis,
    planner: TracePlanner,
    draws: Draws,
    target: float,
    confidence: float,
    budget: int = EVALUATIONS,
    stop: Callable[[], bool] | None = None,
) -> PlanSearch | None:
    """The least-effort set of the optimizations with an effort that meets ``target`` with probability ≥
    ``confidence`` on ``draws`` through the trace's dependency model (see the module's note); None when the trace
    does not know some candidate's targets (the sum's search answers then). ``stop``, asked before each set,
    ends the search with :class:`~amdahl_desk.model.plan_search.SearchStoppedError`."""
    opts = profile.optimizations
    candidates = [j for j, o in enumerate(opts) if o.effort is not None]
    if not usable_for(profile, planner, candidates):
        return None
    efforts = [float(opts[j].effort or 0.0) for j in candidates]
    count = draws.count
    threshold = target * (1 + TOLERANCE)
    needed = max(math.ceil(confidence * count - 1e-9), 0)
    pd = TracePlanDraws(profile, analysis, planner, draws)
    seen: dict[tuple[int, ...], FloatArray] = {}
    evaluations = 0

    def totals(subset: tuple[int, ...]) -> FloatArray:
        nonlocal evaluations
        if subset not in seen:
            if stop is not None and stop():
                raise SearchStoppedError
            evaluations += 1
            seen[subset] = pd.totals(subset)
        return seen[subset]

    def met(subset: tuple[int, ...]) -> int:
        return int(np.count_nonzero(totals(subset) <= threshold))

    everything = tuple(candidates)
    met_all = met(everything)
    probability_all = met_all / count
    monotone = all(bool(np.all(np.asarray(draws.reciprocal[j], dtype=float) <= 1.0)) for j in candidates)
    if monotone and met_all < needed:  # the path only shortens as a set grows: no set reaches the level
        return PlanSearch(confidence, target, everything, None, True, None, probability_all, evaluations)
    failed: list[frozenset[int]] = []  # sets found short of the level (with monotone: their subsets are too)
    best: tuple[int, int, tuple[int, ...]] | None = None  # (−met, size, set) at the effort of the answer
    best_effort = math.inf
    lower: float | None = None
    finished = True
    for effort, subset in _by_effort(candidates, efforts):
        key = _effort_key(effort)
        if best is not None and key > best_effort:
            break
        if monotone and any(set(subset) <= f for f in failed):
            continue
        if evaluations >= budget and subset not in seen:
            finished, lower = False, effort
            break
        n = met(subset)
        if n >= needed:
            candidate = (-n, len(subset), subset)
            if best is None or candidate < best:
                best, best_effort = candidate, key
        else:
            failed.append(frozenset(subset))
    plan = None
    if best is not None:
        chosen = best[2]
        found = totals(chosen)
        plan = Plan(
            chosen,
            tuple(opts[j].name for j in chosen),
            math.fsum(float(opts[j].effort or 0.0) for j in chosen),
            float(np.count_nonzero(found <= threshold)) / count,
            float(np.percentile(found, 50.0)),
        )
        lower = plan.effort if finished else min(plan.effort, lower if lower is not None else plan.effort)
    return PlanSearch(confidence, target, everything, plan, finished, lower, probability_all, evaluations)


def _k_points(o: Optimization) -> tuple[FloatArray, float]:
    low, high = o.speedup_range
    pert = Pert(low, o.speedup, high)
    u = (np.arange(QUANTILES) + 0.5) / QUANTILES
    return (np.array([o.speedup]) if pert.is_point else pert.draw(u)), o.confidence


def saved_alone(profile: Profile, analysis: Analysis, planner: TracePlanner, j: int) -> float | None:
    """The time optimization ``j`` saves alone on the trace's critical path, expected over its k (its PERT) and
    its confidence, in the profile's unit; None when the trace does not know its targets."""
    o = profile.optimizations[j]
    if planner.unknown(o.targets):
        return None
    before = planner.baseline.length
    if before <= 0:
        return 0.0
    ks, confidence = _k_points(o)
    point_class, classes = point_classes(planner, ((o.targets, float(o.speedup)),))
    factors = class_factors(classes, ks.reshape(-1, 1), np.ones((len(ks), 0)))
    lengths = planner.pt.scheduler.run_many(point_class, factors).mean(axis=1) * MS_PER_US
    saved = before - float(np.mean(lengths))
    return confidence * saved * analysis.baseline_total / before


def trace_ranking(
    profile: Profile, analysis: Analysis, planner: TracePlanner, sums: Sequence[Value]
) -> tuple[Value, ...]:
    """``sums`` (the sum's ranking) with each optimization's expected time saved alone on the trace's critical
    path (the sum's where the trace does not know its targets), most per engineer-day first, as the sum's."""
    values = []
    for v in sums:
        saved = saved_alone(profile, analysis, planner, v.index)
        if saved is None:
            values.append(v)
            continue
        per_day = None
        if v.effort is not None:
            per_day = saved / v.effort if v.effort > 0 else (math.inf if saved > 0 else 0.0)
        values.append(Value(v.index, v.name, saved, v.effort, per_day))
    values.sort(key=lambda v: (v.saved_per_day is None, -(v.saved_per_day or 0.0)))
    return tuple(values)
