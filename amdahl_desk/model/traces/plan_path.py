"""A profile's plan on its trace's critical path: each enabled optimization's k applied to the events its targets
stand for, every step's path recomputed — the window's answer with the trace's dependencies.

A :class:`TracePlanner` holds one trace made ready (:func:`~.whatif.prepare`) with each imported component's
events as a mask over its graph (:func:`~.component_events.component_masks`, built once). :meth:`~TracePlanner.plan`
answers a whole plan, :meth:`~TracePlanner.alone` one optimization on its own; both are one scheduler pass per
answer not seen before (the free ceilings are kept per set of targets, each optimization's own answer per k).
A component's matched events are what ``whatif --speedup`` would scale for the same pattern, so the plan's
figures are ``what_if``'s on the same events (``tests/traces/test_plan_path.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..names import name_key
from ..profile import Optimization
from .component_events import component_masks
from .critical_path import Schedule
from .events import MS_PER_US, FloatArray
from .path_components import ComponentPath, component_path
from .path_graph import KINDS
from .whatif import PathTrace

if TYPE_CHECKING:
    from .plan_curves import KCurve

# An enabled optimization as the plan sees it: (its targets, its k); a plan is the enabled ones, in order.
PlanKey = tuple[tuple[tuple[str, ...], float], ...]


def plan_of(optimizations: Sequence[Optimization]) -> PlanKey:
    """The plan the enabled ``optimizations`` make: what an answer is computed for, and compared with."""
    return tuple((o.targets, float(o.speedup)) for o in optimizations if o.enabled)


@dataclass(frozen=True)
class PathFigures:
    """One schedule's critical path (ms, mean per step): its length, its split by kind (adding up to it), and
    the time of each component on it (each point counted for the first component listed that holds it), in the
    order of the profile's components, those with time on the path only."""

    length: float
    by_kind: tuple[tuple[str, float], ...]
    components: tuple[tuple[str, float], ...]

    def kind(self, key: str) -> float:
        return dict(self.by_kind).get(key, 0.0)


@dataclass(frozen=True)
class PlanPath:
    """A plan on the trace: the path before and after, and the plan's ceiling (its targets' events free)."""

    key: PlanKey
    baseline: PathFigures
    predicted: PathFigures
    ceiling: float | None

    @property
    def speedup(self) -> float:
        return self.baseline.length / self.predicted.length if self.predicted.length > 0 else float("inf")


@dataclass(frozen=True)
class OptionPath:
    """One optimization on its own on the trace: its speedup and its ceiling (its targets free)."""

    speedup: float
    ceiling: float | None


class TracePlanner:
    """A trace and its components' events, ready for plans; the answers already computed are kept.

    Its answers only read the trace; what it keeps is two dictionaries filled one entry at a time, so the window's
    trace thread and its decision threads (the odds, the cheapest plan) may ask it at once — at worst an answer
    is computed twice.
    """

    def __init__(self, pt: PathTrace, matchers: Sequence[tuple[str, str]]) -> None:
        self.pt = pt
        self.matchers = tuple(matchers)
        self.masks = component_masks(pt, self.matchers)
        self._by_key = {name_key(n): m for n, m in self.masks.items()}
        self.names = tuple(self.masks)
        claim = np.full(len(pt.graph.time), -1, dtype=np.int64)
        for i, mask in enumerate(self.masks.values()):
            claim[(claim < 0) & mask] = i
        self._claim = claim
        self.baseline = self.figures(pt.baseline)
        self._free: dict[frozenset[str], float | None] = {}
        self._alone: dict[tuple[tuple[str, ...], float], OptionPath] = {}

    # -- which events ----------------------------------------------------------------
    @property
    def claim(self) -> np.ndarray:
        """Per point of the graph: the index (in :attr:`names`) of the first component holding it, -1 none."""
        return self._claim

    def unknown(self, targets: Sequence[str]) -> tuple[str, ...]:
        """The targets whose events the trace does not name (a component added or renamed after the import)."""
        return tuple(t for t in targets if name_key(t) not in self._by_key)

    def mask(self, name: str) -> np.ndarray | None:
        return self._by_key.get(name_key(name))

    def factors(self, plan: PlanKey) -> FloatArray:
        """Per point of the graph: the product of the k of every enabled optimization whose targets hold it."""
        factor = np.ones(len(self.pt.graph.time))
        for targets, k in plan:
            for t in targets:
                mask = self.mask(t)
                if mask is not None:
                    factor[mask] *= k
        return factor

    # -- answers -----------------------------------------------------------------------
    def figures(self, schedule: Schedule) -> PathFigures:
        """The critical path of ``schedule`` in milliseconds per step, by kind and by component."""
        g, pt = self.pt.graph, self.pt
        steps = max(g.steps, 1)
        kinds = schedule.by_kind(g).mean(axis=0) * MS_PER_US if g.steps else np.zeros(len(KINDS))
        on = schedule.on_path & (self._claim >= 0)
        per = np.bincount(self._claim[on], weights=schedule.weight[on], minlength=len(self.names)) / steps
        comps = tuple((n, float(t) * MS_PER_US) for n, t in zip(self.names, per.tolist(), strict=True) if t > 0)
        return PathFigures(
            pt.mean(schedule.length),
            tuple((k, float(v)) for k, v in zip(KINDS, kinds.tolist(), strict=True)),
            comps,
        )

    def _free_ceiling(self, targets: frozenset[str]) -> float | None:
        """The step's speedup with every event of ``targets`` at 0 (kept per set of targets)."""
        if targets not in self._free:
            free = np.zeros(len(self.pt.graph.time), dtype=bool)
            for t in targets:
                mask = self.mask(t)
                if mask is not None:
                    free |= mask
            length = self.pt.mean(self.pt.scheduler.run(np.where(free, np.inf, 1.0)).length)
            self._free[targets] = self.baseline.length / length if length > 0 else None
        return self._free[targets]

    def plan(self, plan: PlanKey) -> PlanPath:
        """Every step's path with the plan applied, and the plan's ceiling."""
        schedule = self.pt.scheduler.run(self.factors(plan)) if plan else self.pt.baseline
        targets = frozenset(name_key(t) for ts, _ in plan for t in ts)
        ceiling = self._free_ceiling(targets) if plan else 1.0
        return PlanPath(plan, self.baseline, self.figures(schedule), ceiling)

    def alone(self, targets: tuple[str, ...], k: float) -> OptionPath:
        """One optimization on its own: the step's speedup with ``targets`` ``k``× faster, and its ceiling."""
        key = (tuple(name_key(t) for t in targets), float(k))
        found = self._alone.get(key)
        if found is None:
            length = self.pt.mean(self.pt.scheduler.run(self.factors(((targets, k),))).length)
            speedup = self.baseline.length / length if length > 0 else float("inf")
            found = self._alone[key] = OptionPath(speedup, self._free_ceiling(frozenset(key[0])))
        return found

    def required(self, plan: PlanKey, needs: Sequence[float]) -> dict[float, float | None]:
        """For each step speedup in ``needs``, the least k that gives it with every event of the plan's targets k×
        faster at once (one k for all, as a target's "the optimized components must get k× faster"): 1 for a
        speedup of 1 or less, ``inf`` for one only their events free reach, None for one beyond even that.

        The step's length falls as k grows (every path through the targets' events shortens), so k is found on a
        log grid from 1 to 10⁶ and then twice on a finer grid inside the bracket that holds it: all in three
        vectorised passes (:meth:`~.critical_path.Scheduler.run_many`), k within 0.05% of the least one.
        """
        union = np.zeros(len(self.pt.graph.time), dtype=bool)
        for targets, _ in plan:
            for t in targets:
                mask = self.mask(t)
                if mask is not None:
                    union |= mask
        ceiling = self._free_ceiling(frozenset(name_key(t) for ts, _ in plan for t in ts)) if plan else 1.0
        point_class = union.astype(np.int64)
        base = self.baseline.length

        def speedups(ks: FloatArray) -> FloatArray:
            factors = np.column_stack([np.ones(len(ks)), ks])
            lengths = self.pt.scheduler.run_many(point_class, factors).mean(axis=1) * MS_PER_US
            with np.errstate(divide="ignore"):
                return np.asarray(np.where(lengths > 0, base / lengths, np.inf), dtype=float)

        out: dict[float, float | None] = {}
        open_needs = []
        for need in needs:
            if need <= 1.0:
                out[need] = 1.0
            elif ceiling is not None and ceiling < need * (1 - 1e-12):
                out[need] = None
            else:
                open_needs.append(need)
        if not open_needs:
            return out
        grid = np.logspace(0.0, 6.0, 49)
        coarse = speedups(grid)
        for need in open_needs:
            reached = np.flatnonzero(coarse >= need * (1 - 1e-12))
            if not reached.size:
                out[need] = np.inf
                continue
            hi = int(reached[0])
            k = float(grid[hi])
            if hi > 0:
                lo_k = float(grid[hi - 1])
                for _ in range(2):
                    fine = np.logspace(np.log10(lo_k), np.log10(k), 33)
                    at = np.flatnonzero(speedups(fine) >= need * (1 - 1e-12))
                    first = int(at[0]) if at.size else len(fine) - 1
                    k, lo_k = float(fine[first]), float(fine[max(first - 1, 0)])
            out[need] = k
        return out

    def components(self, stale: Callable[[], bool] = lambda: False) -> dict[str, ComponentPath] | None:
        """Each component's time on the path, slack and the k where the path moves (None: ``stale`` said stop)."""
        out: dict[str, ComponentPath] = {}
        for name, mask in self.masks.items():
            if stale():
                return None
            out[name] = component_path(self.pt, name, mask)
        return out


def answers(
    planner: TracePlanner,
    plan: PlanKey,
    options: Sequence[tuple[tuple[str, ...], float]],
    needs: Sequence[float] = (),
) -> PlanAnswers:
    """The plan's answer and each of ``options`` on its own (those naming events the trace does not know: None);
    with ``needs`` (step speedups targets ask for: :func:`needed_speedups`), the least k of the plan's events
    that gives each the plan misses (:meth:`TracePlanner.required`)."""
    unknown = tuple(dict.fromkeys(u for targets, _ in plan for u in planner.unknown(targets)))
    path = None if unknown else planner.plan(plan)
    alone: dict[tuple[tuple[str, ...], float], OptionPath | None] = {}
    for targets, k in options:
        if (targets, k) not in alone:
            alone[(targets, k)] = None if planner.unknown(targets) else planner.alone(targets, k)
    short = [need for need in needs if path is not None and plan and path.speedup < need]  # the plan misses them
    required = planner.required(plan, short) if short else {}
    return PlanAnswers(plan, path, unknown, alone, required=required)


def needed_speedups(total: float, goals: Sequence[float | None]) -> tuple[float, ...]:
    """The step speedups that target times ``goals`` ask of a step of ``total`` (same unit), those above 1."""
    return tuple(sorted({total / g for g in goals if g is not None and 0 < g < total}))


@dataclass(frozen=True)
class PlanAnswers:
    """What one request of the window gets: the plan's path (None when a target is unknown to the trace, named in
    ``unknown``) and each optimization's own figures, by (targets, k)."""

    key: PlanKey
    path: PlanPath | None
    unknown: tuple[str, ...]
    alone: Mapping[tuple[tuple[str, ...], float], OptionPath | None]
    # Each optimization's speedup against k on the path (the window's chart; :func:`.plan_curves.plan_curves`),
    # by (targets, k); empty where they were not asked for.
    curves: Mapping[tuple[tuple[str, ...], float], KCurve | None] = field(default_factory=dict)
    # The least k of the plan's events that gives each step speedup a target asks (:meth:`TracePlanner.required`),
    # by that speedup; empty where none was asked for.
    required: Mapping[float, float | None] = field(default_factory=dict)
