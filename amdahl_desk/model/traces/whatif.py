"""What a speedup buys with a trace's dependencies: the critical path before and after scaling events, beside
what Amdahl's law on sums says for the same change.

:func:`prepare` builds the steps' graph once; :func:`what_if` answers a set of ``PATTERN=K``; figures are
means over the steps, in milliseconds. :mod:`.path_components` answers, for groups of events, their time on
the critical path and how far they can shrink before the path moves elsewhere.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..names import STEP_PREFIX
from ..units import TimeUnit
from .critical_path import Schedule, Scheduler
from .dependencies import ANNOTATION, OP, RUNTIME, GraphTrace
from .errors import Remedy, TraceError
from .events import GPU_COMMUNICATION, MS_PER_US, FloatArray
from .path_graph import CPU, KINDS, PathGraph
from .patterns import Speedup, item_factors, refuse_unmatched
from .step_graph import build_paths
from .trace_index import StepWindow, TraceIndex, find_step_windows, index_trace

IDLE_NAMES = {CPU: "CPU time between events"}
GAP_NAME = "GPU waiting (gaps, launch latency)"


@dataclass(frozen=True)
class PathTrace:
    """One rank's steps as a dependency graph, ready for what-ifs."""

    trace: GraphTrace
    steps: tuple[StepWindow, ...]
    graph: PathGraph
    scheduler: Scheduler
    baseline: Schedule
    index: TraceIndex

    def point_factors(self, item_factor: FloatArray) -> FloatArray:
        """Per point, the K of its segment's owner (1 for segments that are no event's)."""
        owner = self.graph.owner
        return np.where(owner >= 0, item_factor[np.maximum(owner, 0)], 1.0)

    def mean(self, per_step: FloatArray) -> float:
        return float(np.mean(per_step)) * MS_PER_US

    def on_path_items(self, schedule: Schedule, top: int = 5) -> list[tuple[str, float]]:
        """The largest items on a schedule's critical path (mean ms per step), by name; idle and gaps by kind."""
        g, ev = self.graph, self.trace.events
        sel = np.flatnonzero(schedule.on_path)
        owner, weight = g.owner[sel], schedule.weight[sel]
        totals: dict[str, float] = defaultdict(float)
        cpu = owner >= 0
        cpu &= owner < g.cpu_rows
        gpu = owner >= g.cpu_rows
        own = self.trace.deps.cpu_class
        annotation = np.zeros(len(ev.names), dtype=bool)
        annotation[ev.cpu_name[np.flatnonzero(own == ANNOTATION)]] = True
        # Each step is an annotation of its own name: their own times are one item ("ProfilerStep#…"), not each
        # step's time divided over all the steps.
        names = {st.name for st in self.steps}
        common = os.path.commonprefix(sorted(names)).rstrip("0123456789")  # #11 to #15: "ProfilerStep#…", not "#1…"
        steps = common + "…" if len(names) > 1 else next(iter(names), "")
        for on_cpu, name_ids, w in (
            (True, ev.cpu_name[owner[cpu]], weight[cpu]),
            (False, ev.gpu_name[owner[gpu] - g.cpu_rows], weight[gpu]),
        ):
            if not len(name_ids):
                continue
            sums = np.bincount(name_ids, weights=w, minlength=len(ev.names))
            for i in np.flatnonzero(sums):
                name = steps if on_cpu and ev.names[i] in names else ev.names[i]
                label = f"{name} (outside its ops)" if on_cpu and annotation[i] else name
                totals[label] += float(sums[i])
        idle = owner < 0
        kinds = g.kind[sel][idle]
        totals[IDLE_NAMES[CPU]] += float(weight[idle][kinds == CPU].sum())
        totals[GAP_NAME] += float(weight[idle][kinds != CPU].sum())
        edges = schedule.edges_on_path
        totals[GAP_NAME] += float(g.edge_weight[edges][g.edge_kind[edges] != CPU].sum())
        totals[IDLE_NAMES[CPU]] += float(g.edge_weight[edges][g.edge_kind[edges] == CPU].sum())
        n = max(self.graph.steps, 1)
        ranked = sorted(((k, v / n * MS_PER_US) for k, v in totals.items() if v > 0), key=lambda kv: -kv[1])
        return ranked[:top]


def prepare(
    trace: GraphTrace, step: str = STEP_PREFIX, source: str | None = None, only: frozenset[str] | None = None
) -> PathTrace:
    """The graph of every step of ``trace`` (annotations named ``step…``, the last included; with ``only``,
    the steps of those names); ``source`` names the trace in a refusal."""
    steps = [s for s in find_step_windows(trace, step) if only is None or s.name in only]
    if not steps:
        raise TraceError(
            f'the trace has no steps: no user annotation whose name starts with "{step}"',
            source,
            remedy=Remedy.NAME_STEP,
        )
    index = index_trace(trace)
    graph = build_paths(trace, steps, index)
    scheduler = Scheduler(graph)
    return PathTrace(trace, tuple(steps), graph, scheduler, scheduler.run(), index)


@dataclass(frozen=True)
class PatternFigures:
    """One pattern: its K, and the events it matched (mean per step: all, and GPU kernels, GPU copies and
    memsets, CPU operators, runtime calls among them) with their summed own time (ms)."""

    pattern: str
    k: float
    events: float
    time: float
    kernels: float = 0.0
    copies: float = 0.0
    operators: float = 0.0
    calls: float = 0.0
    # a component's import matcher (annotation:NAME, op:NAME, gpu:…): its segments as measured, their waiting
    # included, rather than the own time of the events a name pattern matched
    component: bool = False


@dataclass(frozen=True)
class WhatIf:
    """The answer for one set of speedups; times in ``unit`` (ms), means over ``steps``."""

    steps: tuple[str, ...]
    baseline: float
    by_kind: dict[str, float]
    predicted: float
    predicted_by_kind: dict[str, float]
    matched_events: float
    matched_time: float
    matched_on_path: float  # of the matched time, how much lay on the baseline's critical path
    patterns: tuple[PatternFigures, ...]
    sum_speedup: float | None
    ceiling: float | None
    largest_on_path: tuple[tuple[str, float], ...]  # the baseline's
    largest_when_free: tuple[tuple[str, float], ...]  # the critical path's with the matched events at 0
    step_figures: tuple[tuple[str, float, float], ...]  # (name, baseline, predicted) per step
    dependencies: dict[str, int]
    unit: TimeUnit = TimeUnit.MS

    @property
    def speedup(self) -> float:
        return self.baseline / self.predicted if self.predicted > 0 else float("inf")

    @property
    def overlapping_patterns(self) -> bool:
        return self.sum_speedup is None


def share_points(g: PathGraph, mask: np.ndarray, span: bool, thread: int) -> np.ndarray:
    """The points whose time is a speedup's share in Amdahl's law on sums: a pattern's events; a component's (a
    ``span``) as the import's table has it, on the steps' ``thread`` (a phase's other threads and GPU work run
    beside it), a GPU kind's on the GPU. A job's rank takes the same share (``model/job/rank_graph``)."""
    if not span:
        return mask
    main = mask & (g.lane == thread)
    return main if bool(np.any(main)) else mask


def share_time(g: PathGraph, own: np.ndarray, span: bool) -> FloatArray:
    """Per step, the time (µs) of ``own`` (:func:`share_points`): events' own time; a component's segments as
    measured, the waiting in them included."""
    weight = g.time - g.segment_start if span else g.weight
    return np.bincount(g.step_of_point[own], weights=weight[own], minlength=g.steps).astype(float)


def sum_speedup(baseline: float, times: Sequence[float], ks: Sequence[float], overlap: bool) -> float | None:
    """Amdahl on sums: 1/((1 − Σf) + Σ f/K), f = matched time / baseline; None when the shares overlap or pass 1."""
    if overlap or baseline <= 0:
        return None
    f = [t / baseline for t in times]
    if sum(f) > 1 + 1e-9:
        return None
    rest = max(1 - sum(f), 0.0)
    return 1 / (rest + sum(fi / k for fi, k in zip(f, ks, strict=True)))


def what_if(pt: PathTrace, speedups: Sequence[Speedup]) -> WhatIf:
    """Scale the matched events' durations by 1/K and recompute every step's critical path.

    A speedup's pattern matches events by name (:mod:`.patterns`), or names a component's events by its import
    matcher (``annotation:NAME``, ``op:NAME``, ``gpu:compute``…: :mod:`.component_events`), as the window's
    component and a job's speedup do. Raises :class:`~amdahl_desk.model.errors.BadInputError` when a pattern
    matches no event in the steps.
    """
    from .component_events import component_masks, is_component_matcher

    g = pt.graph
    spans = [is_component_matcher(sp.pattern) for sp in speedups]  # a component's events, not a name pattern's
    named = [sp for sp, span in zip(speedups, spans, strict=True) if not span]
    factors = item_factors(pt.trace, named, np.array([s.row for s in pt.steps], dtype=np.int64))
    point_k = pt.point_factors(factors.factor)
    events = g.owner >= 0
    by_name = iter(factors.matched)
    matchers = [(sp.pattern, sp.pattern) for sp, span in zip(speedups, spans, strict=True) if span]
    components = component_masks(pt, matchers) if matchers else {}
    masks, timed = [], []  # per speedup: the points it scales, and those its time (the sum's share) is of
    thread = pt.steps[0].thread if pt.steps else -1
    for sp, span in zip(speedups, spans, strict=True):
        if span:  # as the window's component: its idle time within a phase too
            mask = components[sp.pattern]
            point_k = np.where(mask, point_k * sp.k, point_k)
        else:
            mask = events & next(by_name)[np.maximum(g.owner, 0)]
        timed.append(share_points(g, mask, span, thread))
        masks.append(mask)
    per_pattern = _matched(pt, masks, timed, spans)
    for sp, figures in zip(speedups, per_pattern, strict=True):
        if figures[0] == 0:
            cls, names = pt.trace.deps.cpu_class, pt.trace.events.names
            annotations = sorted({names[i] for i in pt.trace.events.cpu_name[cls == ANNOTATION].tolist()})
            refuse_unmatched(sp, sp.text, len(pt.steps), "", annotations)
    hits = np.sum(masks, axis=0) if masks else np.zeros(len(g.owner), dtype=np.int64)
    matched_points = hits > 0
    predicted = pt.scheduler.run(point_k)
    free = pt.scheduler.run(np.where(matched_points, np.inf, 1.0))
    base = pt.baseline
    steps_n = g.steps
    step = g.step_of_point
    # a pattern's time is its events' own time; a component's, as the import's table counts it (a phase's time on
    # the steps' thread, waiting inside it included)
    by_weight, by_length = np.zeros_like(events), np.zeros_like(events)
    for own, span in zip(timed, spans, strict=True):
        if span:
            by_length |= own
        else:
            by_weight |= own
    length = np.where(by_length & ~by_weight, g.time - g.segment_start, g.weight)
    own_points = by_weight | by_length
    matched_time = np.bincount(step[own_points], weights=length[own_points], minlength=steps_n).astype(float)
    events_n = _distinct_per_step(g, matched_points)
    overlap = bool(hits.max(initial=0) > 1)
    baseline_ms, predicted_ms = pt.mean(base.length), pt.mean(predicted.length)
    free_ms = pt.mean(free.length)
    return WhatIf(
        steps=tuple(s.name for s in pt.steps),
        baseline=baseline_ms,
        by_kind=_kinds(base, g),
        predicted=predicted_ms,
        predicted_by_kind=_kinds(predicted, g),
        matched_events=float(events_n),
        matched_time=pt.mean(matched_time),
        matched_on_path=pt.mean(base.path_time(g, matched_points)),
        patterns=tuple(
            PatternFigures(sp.pattern, sp.k, f[0], f[1], f[2], f[3], f[4], f[5], component=span)
            for sp, f, span in zip(speedups, per_pattern, spans, strict=True)
        ),
        sum_speedup=sum_speedup(baseline_ms, [f[1] for f in per_pattern], [s.k for s in speedups], overlap),
        ceiling=baseline_ms / free_ms if free_ms > 0 else None,
        largest_on_path=tuple(pt.on_path_items(base)),
        largest_when_free=tuple(pt.on_path_items(free)),
        step_figures=tuple(
            (s.name, b * MS_PER_US, p * MS_PER_US)
            for s, b, p in zip(pt.steps, base.length.tolist(), predicted.length.tolist(), strict=True)
        ),
        dependencies=dict(g.counts),
    )


def _kinds(schedule: Schedule, g: PathGraph) -> dict[str, float]:
    per_step = schedule.by_kind(g)
    return {k: float(v) * MS_PER_US for k, v in zip(KINDS, per_step.mean(axis=0), strict=True)}


def _matched(
    pt: PathTrace, masks: Sequence[np.ndarray], timed: Sequence[np.ndarray], spans: Sequence[bool]
) -> list[tuple[float, ...]]:
    """Per pattern's points: (matched events, their own time in ms, kernels, copies, operators, calls), means per
    step."""
    g, ev, deps = pt.graph, pt.trace.events, pt.trace.deps
    owner = np.maximum(g.owner, 0)
    gpu = g.owner >= g.cpu_rows
    gpu_kind = np.where(gpu, ev.gpu_kind[np.where(gpu, owner - g.cpu_rows, 0)], -1) if len(ev.gpu_kind) else gpu * 0
    cpu = (g.owner >= 0) & ~gpu
    cls = np.where(cpu, deps.cpu_class[np.where(cpu, owner, 0)], -1) if len(deps.cpu_class) else cpu * 0
    out: list[tuple[float, ...]] = []
    for pts, own, span in zip(masks, timed, spans, strict=True):
        time = share_time(g, own, span)
        out.append(
            (
                _distinct_per_step(g, pts),
                pt.mean(time),
                _distinct_per_step(g, pts & gpu & (gpu_kind <= GPU_COMMUNICATION)),
                _distinct_per_step(g, pts & gpu & (gpu_kind > GPU_COMMUNICATION)),
                _distinct_per_step(g, pts & (cls == OP)),
                _distinct_per_step(g, pts & (cls == RUNTIME)),
            )
        )
    return out


def _distinct_per_step(g: PathGraph, points: np.ndarray) -> float:
    """The mean number of distinct owners (events) of ``points`` per step (a phase's idle time is no event)."""
    points = points & (g.owner >= 0)
    keys = np.unique(g.step_of_point[points] * (g.items + 1) + g.owner[points])
    return float(len(keys)) / max(g.steps, 1)
