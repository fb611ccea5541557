"""What an import adds for the what-if: each annotation's GPU time, and the critical path of the steps with each
component's time on it and its slack."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .component_events import component_masks
from .dependencies import GraphTrace
from .events import CPU_ANNOTATION, CPU_STEP, MS_PER_US, TraceEvents
from .intervals import union_length
from .path_components import ComponentPath, component_paths
from .result import ImportedComponent, ImportOptions, ImportResult
from .steps import Step
from .whatif import PathTrace, prepare


@dataclass(frozen=True)
class ImportPath:
    """The steps' critical path (ms, means over the steps the import kept) and each component's share of it."""

    steps: int
    baseline: float
    by_kind: dict[str, float]
    components: tuple[ComponentPath, ...]
    dependencies: dict[str, int]


def part_events(group_by: str, name: str, unattributed: bool, other: bool) -> str:
    """The matcher of a component of the annotation or op grouping (see :mod:`.component_events`)."""
    if group_by == "annotation":
        return "outside-annotations" if unattributed else "other:annotation" if other else f"annotation:{name}"
    if group_by == "op":
        return "idle" if unattributed else "other:op" if other else f"op:{name}"
    return ""


def grouping_text(group_by: str, options: ImportOptions, rank: int | None) -> str:
    """The options that made an import's components, as the Settings sheet keeps them:
    ``annotation; rank 3; top 15; device 0; total; exclude ProfilerStep#1, ProfilerStep#2``."""
    parts = [group_by]
    if rank is not None:
        parts.append(f"rank {rank}")
    if options.top is not None:
        parts.append(f"top {options.top}")
    if options.device is not None:
        parts.append(f"device {options.device}")
    if options.total:
        parts.append("total")
    if options.exclude_flagged:
        parts.append("exclude flagged")
    if options.exclude_steps:
        parts.append("exclude " + ", ".join(sorted(options.exclude_steps)))
    return "; ".join(parts)


def grouping_options(text: str) -> tuple[ImportOptions, int | None]:
    """The options (and rank) a Settings sheet's *Trace grouping* names, as :func:`grouping_text` wrote them.

    Raises :class:`~.errors.TraceError` naming the part it cannot read."""
    from .errors import TraceError

    parts = [p.strip() for p in text.split(";")]
    values: dict[str, Any] = {"group_by": parts[0] or None, "top": None}
    rank: int | None = None
    for part in parts[1:]:
        word, _, rest = part.partition(" ")
        if word in ("rank", "top", "device"):
            try:
                number = int(rest)
            except ValueError:
                raise TraceError(f'the trace grouping says "{part}"; expected {word} and a whole number') from None
            if word == "rank":
                rank = number
            else:
                values[word] = number
        elif part == "total":
            values["total"] = True
        elif part == "exclude flagged":
            values["exclude_flagged"] = True
        elif word == "exclude":
            values["exclude_steps"] = frozenset(s.strip() for s in rest.split(",") if s.strip())
        elif part:
            raise TraceError(f'the trace grouping says "{part}", which is none of rank, top, device, total, exclude')
    return ImportOptions(**values, rank=rank), rank


def phase_gpu_times(events: TraceEvents, thread: int, steps: Sequence[Step], names: Sequence[str]) -> dict[str, float]:
    """Per annotation name: the GPU time (µs, union over the GPU's timeline, mean per step) of the kernels, copies
    and memsets launched while one of its outermost instances ran on ``thread`` in the step (any thread's launch)."""
    if not events.has_gpu or not steps:
        return {}
    order = np.argsort(events.launch_corr, kind="stable")
    corr, launch_ts = events.launch_corr[order], events.launch_ts[order]
    at = np.clip(np.searchsorted(corr, events.gpu_corr), 0, max(len(corr) - 1, 0))
    known = (events.gpu_corr >= 0) & (corr[at] == events.gpu_corr) if len(corr) else events.gpu_corr < -1
    launched = np.where(known, launch_ts[at] if len(corr) else 0.0, np.nan)
    rows = np.flatnonzero((events.cpu_kind == CPU_ANNOTATION) & (events.cpu_thread == thread))
    rows = rows[np.lexsort((-events.cpu_dur[rows], events.cpu_ts[rows]))]
    totals = dict.fromkeys(names, 0.0)
    wanted = {events.names.index(n) if n in events.names else -1: n for n in names}
    for s in steps:
        inside = rows[(events.cpu_ts[rows] < s.end) & (events.cpu_ts[rows] + events.cpu_dur[rows] > s.start)]
        outer_end = -np.inf
        spans: dict[int, list[tuple[float, float]]] = {}
        for r in inside.tolist():
            start = float(events.cpu_ts[r])
            if start < outer_end:
                continue
            end = start + float(events.cpu_dur[r])
            outer_end = end
            if int(events.cpu_name[r]) in wanted:
                spans.setdefault(int(events.cpu_name[r]), []).append((max(start, s.start), min(end, s.end)))
        for name_id, windows in spans.items():
            lo = np.array([w[0] for w in windows])
            hi = np.array([w[1] for w in windows])
            k = np.searchsorted(lo, launched, side="right") - 1
            hit = (k >= 0) & (launched < hi[np.maximum(k, 0)])
            totals[wanted[name_id]] += union_length(events.gpu_ts[hit], events.gpu_ts[hit] + events.gpu_dur[hit])
    return {n: t / len(steps) for n, t in totals.items()}


def import_path(
    trace: GraphTrace, kept: Sequence[str], components: Sequence[ImportedComponent]
) -> tuple[ImportPath, PathTrace] | None:
    """The critical path of the kept steps and each component's time on it; None without steps or events."""
    if not kept or not (trace.events.has_gpu or len(trace.events.cpu_ts)):
        return None
    pt = prepare(trace, only=frozenset(kept))
    masks = component_masks(pt, [(c.name, c.events) for c in components if c.events])
    paths = tuple(component_paths(pt, masks))
    by_kind = pt.baseline.by_kind(pt.graph).mean(axis=0) * MS_PER_US
    from .path_graph import KINDS

    figures = ImportPath(
        steps=len(pt.steps),
        baseline=pt.mean(pt.baseline.length),
        by_kind={k: float(v) for k, v in zip(KINDS, by_kind, strict=True)},
        components=paths,
        dependencies=dict(pt.graph.counts),
    )
    return figures, pt


def enrich(
    result: ImportResult,
    events: TraceEvents,
    graph: GraphTrace | None,
    thread: int | None,
    steps: Sequence[Step],
    critical_path: bool,
) -> ImportResult:
    """The import's result with each annotation's GPU time and, when asked and the dependencies were read, the
    critical path and each component's time on it."""
    comps = list(result.components)
    if result.group_by == "annotation" and thread is not None and events.has_gpu:
        names = [c.events.removeprefix("annotation:") for c in comps if c.events.startswith("annotation:")]
        gpu = phase_gpu_times(events, thread, steps, names)
        comps = [
            replace(c, gpu_time=gpu.get(c.events.removeprefix("annotation:"), 0.0) * MS_PER_US)
            if c.events.startswith("annotation:")
            else c
            for c in comps
        ]
    path = None
    if critical_path and graph is not None and steps and any(events.cpu_kind == CPU_STEP):
        found = import_path(graph, [s.name for s in steps], comps)
        if found is not None:
            path = found[0]
            on = {p.name: p.on_path for p in path.components}
            comps = [replace(c, path_time=on.get(c.name)) for c in comps]
    return replace(result, components=tuple(comps), critical_path=path)
