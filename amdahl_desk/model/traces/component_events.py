"""Which events an imported component stands for: a matcher per component, and its time in a step graph.

An import writes each component's matcher beside its name (the workbook keeps them in its Settings sheet),
so a what-if can find the component's events in the trace again. The matchers, by grouping:

=========================  =====================================================================================
``annotation:NAME``        the time inside the outermost annotations named NAME on the steps' thread: every
                           CPU thread's time while one runs, and the GPU work launched then (any thread)
``outside-annotations``    the steps' thread's time in no such annotation (the grouping's *Unattributed*)
``other:annotation``       the time inside outermost annotations no listed component names (*Other*)
``op:NAME``                the own time of the CPU events named NAME on the steps' thread
``idle``                   the steps' thread's time in no event but its step (the op grouping's *Unattributed*)
``other:op``               the own time of the events on the steps' thread no listed component names
``gpu:compute``            GPU kernels that are not communication (``gpu:communication``: NCCL/RCCL/gloo
                           kernels, the import's spelling list), ``gpu:memory`` copies and memsets,
                           ``gpu:idle`` the GPU's gaps
``pattern:PATTERN``        what ``whatif --speedup PATTERN=K`` matches
=========================  =====================================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .dependencies import ANNOTATION
from .events import GPU_COMMUNICATION, GPU_COMPUTE, FloatArray, IntArray
from .path_graph import CPU, GPU_GAP
from .patterns import item_factors, parse_pattern_speedup
from .whatif import PathTrace

ANNOTATION_PREFIX, OP_PREFIX, PATTERN_PREFIX = "annotation:", "op:", "pattern:"
OUTSIDE_ANNOTATIONS, IDLE = "outside-annotations", "idle"
OTHER_ANNOTATIONS, OTHER_OPS = "other:annotation", "other:op"


def outermost_annotations(pt: PathTrace) -> tuple[FloatArray, FloatArray, IntArray]:
    """(starts, ends, name ids) of the outermost annotations on the steps' thread that are not steps, by start."""
    ev, deps = pt.trace.events, pt.trace.deps
    if not pt.steps:
        e = np.empty(0)
        return e, e, np.empty(0, dtype=np.int64)
    thread = pt.steps[0].thread
    steps = {s.row for s in pt.steps}
    rows = np.flatnonzero((deps.cpu_class == ANNOTATION) & (ev.cpu_thread == thread))
    rows = rows[~np.isin(rows, list(steps))]
    step_names = {ev.cpu_name[s.row] for s in pt.steps}
    rows = rows[~np.isin(ev.cpu_name[rows], list(step_names))]  # a nested step is part of its step
    rows = rows[np.lexsort((-ev.cpu_dur[rows], ev.cpu_ts[rows]))]
    starts, ends = ev.cpu_ts[rows], ev.cpu_ts[rows] + ev.cpu_dur[rows]
    before = np.maximum.accumulate(np.concatenate(([-np.inf], ends[:-1]))) if len(rows) else ends
    outer = starts >= before
    return starts[outer], ends[outer], ev.cpu_name[rows[outer]]


def _inside(t: FloatArray, starts: FloatArray, ends: FloatArray, names: IntArray) -> IntArray:
    """Per time: the name id of the outermost annotation running then (-1: none)."""
    k = np.searchsorted(starts, t, side="right") - 1
    ok = (k >= 0) & (t < ends[np.maximum(k, 0)]) if len(starts) else np.zeros(len(t), dtype=bool)
    return np.where(ok, names[np.maximum(k, 0)] if len(names) else -1, -1)


COMPONENT_MATCHERS = (ANNOTATION_PREFIX, OP_PREFIX)
RANK_MATCHERS = ("gpu:compute", "gpu:communication", "gpu:memory")


def is_component_matcher(pattern: str) -> bool:
    """Whether a speedup names a component's events by its import matcher (``annotation:NAME``, ``op:NAME``,
    ``gpu:compute``, ``gpu:communication``, ``gpu:memory``) rather than by a pattern of event names."""
    return pattern.startswith(COMPONENT_MATCHERS) or pattern in RANK_MATCHERS


def component_masks(pt: PathTrace, matchers: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    """Per component name: the points (segments) of ``pt.graph`` its matcher stands for. Unknown matchers
    match nothing; ``other:…`` are the complement of the listed components of the same grouping."""
    g, ev = pt.graph, pt.trace.events
    ix_launch = pt.index.launch_ts
    owner = g.owner
    cpu_owner = (owner >= 0) & (owner < g.cpu_rows)
    gpu_owner = owner >= g.cpu_rows
    gpu_event = np.where(gpu_owner, owner - g.cpu_rows, 0)
    thread = pt.steps[0].thread if pt.steps else -1
    main = g.lane == thread
    cpu_seg = g.lane >= 0
    starts, ends, names = outermost_annotations(pt)
    when = np.where(gpu_owner, ix_launch[gpu_event] if len(ix_launch) else 0.0, g.segment_start)
    phase = np.where(cpu_seg | gpu_owner, _inside(when, starts, ends, names), -1)
    own_name = np.where(cpu_owner, ev.cpu_name[np.where(cpu_owner, owner, 0)], -1) if len(ev.cpu_name) else owner
    gpu_kind = ev.gpu_kind[gpu_event] if len(ev.gpu_kind) else np.zeros(len(owner), dtype=np.int64)
    name_id = {n: i for i, n in enumerate(ev.names)}
    listed_annotations = {
        name_id.get(m[len(ANNOTATION_PREFIX) :], -2) for _, m in matchers if m.startswith(ANNOTATION_PREFIX)
    }
    listed_ops = {name_id.get(m[len(OP_PREFIX) :], -2) for _, m in matchers if m.startswith(OP_PREFIX)}
    step_rows = np.array([s.row for s in pt.steps], dtype=np.int64)  # a step's own time is in no op
    masks: dict[str, np.ndarray] = {}
    for name, m in matchers:
        if m.startswith(ANNOTATION_PREFIX):
            mask = phase == name_id.get(m[len(ANNOTATION_PREFIX) :], -2)
        elif m == OUTSIDE_ANNOTATIONS:
            mask = main & (phase < 0)
        elif m == OTHER_ANNOTATIONS:
            mask = (phase >= 0) & ~np.isin(phase, list(listed_annotations))
        elif m.startswith(OP_PREFIX):
            mask = main & (own_name == name_id.get(m[len(OP_PREFIX) :], -2))
        elif m == IDLE:
            mask = main & (~cpu_owner | np.isin(owner, step_rows)) & (g.kind == CPU)
        elif m == OTHER_OPS:
            mask = main & cpu_owner & ~np.isin(own_name, list(listed_ops)) & ~np.isin(owner, step_rows)
        elif m == "gpu:compute":
            mask = gpu_owner & (gpu_kind == GPU_COMPUTE)
        elif m == "gpu:communication":
            mask = gpu_owner & (gpu_kind == GPU_COMMUNICATION)
        elif m == "gpu:memory":
            mask = gpu_owner & (gpu_kind > GPU_COMMUNICATION)
        elif m == "gpu:idle":
            mask = (g.lane < 0) & ~gpu_owner & (g.kind == GPU_GAP)
        elif m.startswith(PATTERN_PREFIX):
            hit = item_factors(pt.trace, [parse_pattern_speedup(m[len(PATTERN_PREFIX) :] + "=2")]).matched[0]
            mask = (owner >= 0) & hit[np.maximum(owner, 0)]
        else:
            mask = np.zeros(len(owner), dtype=bool)
        masks[name] = mask & (g.prev >= 0)  # a chain's release is time outside the step: nobody's
    return masks
