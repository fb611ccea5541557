"""One rank's steps as a compact graph: the single-rank step graph (:mod:`..traces.step_graph`) and, beside it,
the collectives found in those steps, with the points where each begins and ends.

A collective is a GPU communication kernel (NCCL) or a CPU operation named ``gloo:…``. Its name is the
``nccl:…``/``gloo:…`` annotation around the call that launched it when there is one (NCCL's kernels are often
all named ``ncclKernel_SendRecv…``), else the kernel's. Several kernels launched inside one annotation are one
collective. Its key, by which ranks are matched, is ``(process group, sequence)`` where ``record_param_comms``
gives them, else ``(stream, name, n)``: the n-th collective of that name on that stream in the step.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..names import STEP_PREFIX
from ..traces.component_events import is_component_matcher
from ..traces.critical_path import Scheduler
from ..traces.dependencies import GraphTrace
from ..traces.errors import TraceError
from ..traces.events import FloatArray, IntArray
from ..traces.names import CPU_COLLECTIVE_PREFIXES
from ..traces.path_graph import CPU, GPU_COMMUNICATION, GPU_COMPUTE, GPU_MEMORY, PathGraph
from ..traces.patterns import Speedup, item_factors
from ..traces.step_graph import build_paths
from ..traces.trace_index import StepWindow, find_step_windows, index_trace
from ..traces.whatif import share_points, share_time
from .compact import compact

CollectiveKey = tuple[str, ...]
SIGNATURE_BITS = 62  # patterns a rank graph can tell apart per point (more: its K cannot change after reading)
NO_WORK, CPU_WORK, GPU_WORK = 0, 1, 2  # the class of a point's segment, for making a rank's work faster
_NUMBER = re.compile(r"(\d+)\s*$")
COLLECTIVE_PREFIXES = ("nccl:", "gloo:", "rccl:")  # annotations that name a collective


@dataclass(frozen=True)
class CommArgs:
    """What ``record_param_comms`` says of one collective (None: not written)."""

    group: str | None
    seq: int | None
    name: str | None


@dataclass(frozen=True)
class RankGraph:
    """One rank's compact graph: what the parent process keeps of a rank's trace (arrays, only the steps asked).

    Times are µs since the trace's start; ``origin`` is that start on the host's clock (µs). Per collective
    instance: its key, name, step (index into ``step_numbers``) and its first and last point in ``graph``.
    ``factor`` is each point's K for the speedups asked (1 everywhere when none), ``matched`` per speedup the
    time (µs, all steps) of its share in Amdahl's law on sums, as the single-rank what-if takes it.
    """

    rank: int
    host: str
    source: str
    origin: float
    step_numbers: tuple[int, ...]
    step_names: tuple[str, ...]
    graph: PathGraph
    coll_key: tuple[CollectiveKey, ...]
    coll_name: tuple[str, ...]
    coll_group: tuple[str | None, ...]
    coll_step: IntArray
    coll_start: IntArray
    coll_end: IntArray
    factor: FloatArray
    matched: tuple[float, ...] = ()
    matched_events: tuple[int, ...] = ()
    compute: FloatArray = field(default_factory=lambda: np.zeros(0))  # per step: GPU compute busy time (µs)
    cpu_work: FloatArray = field(default_factory=lambda: np.zeros(0))  # per step: CPU events' own time (µs)
    gpu_work: FloatArray = field(default_factory=lambda: np.zeros(0))  # per step: GPU compute and memory (µs)
    work_parts: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))  # per point: CPU, GPU work (µs)
    patterns: tuple[str, ...] = ()  # the speedups' patterns the graph was read with, and their K
    ks: tuple[float, ...] = ()
    annotations: tuple[str, ...] = ()  # the user annotations' names: what a pattern that matches nothing may mean
    signature: IntArray | None = None  # per point: bit p set where pattern p matches (None: K cannot change)
    replay_error: float = 0.0  # µs: the single-rank graph's own replay error (largest over steps)
    extra: Mapping[str, int] = field(default_factory=dict)
    world: int | None = None  # the job's size the trace states (``distributedInfo.world_size``), if it does

    @property
    def steps(self) -> int:
        return len(self.step_numbers)

    @property
    def step_times(self) -> FloatArray:
        w = self.graph.windows
        return np.asarray(w[:, 1] - w[:, 0], dtype=np.float64)

    @property
    def is_collective_end(self) -> np.ndarray:
        out = np.zeros(len(self.graph.time), dtype=bool)
        out[self.coll_end] = True
        return out

    def with_ks(self, ks: Sequence[float]) -> RankGraph:
        """The same graph with other K for the patterns it was read with (in their order), no reading again: each
        point's factor is the product of the K of the patterns that match it."""
        if len(ks) != len(self.patterns) or self.signature is None:
            raise ValueError("the rank graph was not read with these patterns")
        factor = np.ones(len(self.signature))
        for bit, k in enumerate(ks):
            factor[(self.signature >> bit) & 1 == 1] *= k
        return dataclasses.replace(self, factor=factor, ks=tuple(float(k) for k in ks))

    def work_factor(self, k_cpu: float, k_gpu: float) -> FloatArray:
        """Per point: the factor that makes the CPU work in its segment ``k_cpu``× and the GPU work ``k_gpu``×
        faster (collectives apart), the rest of the segment as it is."""
        w = self.graph.weight
        cp, gp = self.work_parts[:, 0], self.work_parts[:, 1]
        scaled = w - cp - gp + cp / k_cpu + gp / k_gpu
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((w > 0) & (scaled > 0) & np.isfinite(w), w / scaled, 1.0)


def _work_class(g: PathGraph, coll_end: IntArray) -> IntArray:
    end = np.zeros(len(g.time), dtype=bool)
    end[coll_end] = True
    owned = (g.owner >= 0) & ~end & (g.kind != GPU_COMMUNICATION)
    out = np.full(len(g.time), NO_WORK, dtype=np.int64)
    out[owned & (g.kind == CPU)] = CPU_WORK
    out[owned & np.isin(g.kind, (GPU_COMPUTE, GPU_MEMORY))] = GPU_WORK
    return out


def _busy(g: PathGraph, kinds: Sequence[int]) -> FloatArray:
    """Per step: the time the GPU was busy with segments of ``kinds`` (the union over streams, µs)."""
    out = np.zeros(g.steps)
    sel = np.isin(g.kind, kinds) & (g.owner >= 0)
    if not sel.any():
        return out
    start, end, step = g.segment_start[sel], g.time[sel], g.step_of_point[sel]
    for k in range(g.steps):
        m = step == k
        out[k] = union_length(start[m], end[m])
    return out


def union_length(start: FloatArray, end: FloatArray) -> float:
    """The length of the union of intervals ``[start, end)``."""
    if not len(start):
        return 0.0
    order = np.argsort(start, kind="stable")
    s, e = start[order], end[order]
    reach = np.maximum.accumulate(e)
    prev_reach = np.concatenate(([-np.inf], reach[:-1]))
    return float(np.sum(np.maximum(reach - np.maximum(s, prev_reach), 0.0) * (reach > prev_reach)))


def step_number(name: str, fallback: int) -> int:
    """A step's number from its annotation's name (``ProfilerStep#12`` → 12); else its place."""
    m = _NUMBER.search(name)
    return int(m.group(1)) if m else fallback


def host_of(trace: GraphTrace) -> str:
    """The host a trace names (``host_name``/``hostname``, at the top or in ``distributedInfo``); "" if none."""
    info = trace.events.info
    places: list[Mapping[str, object]] = [info]
    dist = info.get("distributedInfo")
    if isinstance(dist, dict):
        places.append(dist)
    for place in places:
        for key in ("host_name", "hostname", "host"):
            v = place.get(key)
            if isinstance(v, str) and v:
                return v
    return ""


def rank_of(trace: GraphTrace, key: str = "rank") -> int | None:
    """The trace's ``distributedInfo`` entry ``key`` (its rank, or with ``world_size`` the job's size), if whole."""
    dist = trace.events.info.get("distributedInfo")
    v = dist.get(key) if isinstance(dist, dict) else None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _matched_points(
    trace: GraphTrace,
    steps: Sequence[StepWindow],
    graph: PathGraph,
    ix: Any,
    scheduler: Scheduler,
    baseline: Any,
    speedups: Sequence[Speedup],
) -> list[np.ndarray]:
    """Per speedup, the points of ``graph`` it makes faster: a pattern's events (``whatif --speedup``), or — for a
    component's matcher (:func:`is_component_matcher`) — the events the component stands for in the window
    (:func:`~..traces.component_events.component_masks`), so a job's plan scales what the checklist's does."""
    owner = graph.owner
    out: list[np.ndarray | None] = [None] * len(speedups)
    patterns = [(i, sp) for i, sp in enumerate(speedups) if not is_component_matcher(sp.pattern)]
    if patterns:
        f = item_factors(trace, [sp for _, sp in patterns], np.array([s.row for s in steps], dtype=np.int64))
        for (i, _), hit in zip(patterns, f.matched, strict=True):
            out[i] = (owner >= 0) & hit[np.maximum(owner, 0)]
    components = [(i, sp.pattern) for i, sp in enumerate(speedups) if is_component_matcher(sp.pattern)]
    if components:
        from ..traces.component_events import component_masks
        from ..traces.whatif import PathTrace

        pt = PathTrace(trace, tuple(steps), graph, scheduler, baseline, ix)
        masks = component_masks(pt, [(m, m) for _, m in components])
        for i, m in components:
            out[i] = masks[m]
    return [m if m is not None else np.zeros(len(owner), dtype=bool) for m in out]


def build_rank_graph(
    trace: GraphTrace,
    source: str,
    rank: int,
    step: str = STEP_PREFIX,
    speedups: Sequence[Speedup] = (),
    comm_args: Mapping[int, CommArgs] | None = None,
    only_steps: frozenset[int] | None = None,
) -> RankGraph:
    """The compact graph of ``trace``'s steps (annotations named ``step…``; with ``only_steps`` those numbers).

    ``comm_args`` maps the CPU rows of ``record_param_comms`` to their arguments. Raises :class:`TraceError`
    when the trace has no such step.
    """
    windows = find_step_windows(trace, step)
    numbered = [(step_number(w.name, i), w) for i, w in enumerate(windows)]
    if only_steps is not None:
        numbered = [(n, w) for n, w in numbered if n in only_steps]
    if not numbered:
        raise TraceError(f'the trace has no steps: no user annotation whose name starts with "{step}"', source)
    steps: list[StepWindow] = [w for _, w in numbered]
    ix = index_trace(trace)
    graph = build_paths(trace, steps, ix)
    keys, names, groups, c_step, c_start, c_end = _collectives(trace, graph, ix.launch_row, comm_args or {})
    factor = np.ones(len(graph.time))
    signature = np.zeros(len(graph.time), dtype=np.int64)  # per point: which speedups' patterns match (bits)
    matched: list[float] = []
    matched_events: list[int] = []
    scheduler = Scheduler(graph)
    baseline = scheduler.run()
    if speedups:
        for bit, pts in enumerate(_matched_points(trace, steps, graph, ix, scheduler, baseline, speedups)):
            factor[pts] *= speedups[bit].k
            if len(speedups) <= SIGNATURE_BITS:
                signature[pts] |= 1 << bit
            span = is_component_matcher(speedups[bit].pattern)
            matched.append(float(share_time(graph, share_points(graph, pts, span, steps[0].thread), span).sum()))
            events = graph.step_of_point[pts] * (graph.items + 2) + graph.owner[pts] + 1
            matched_events.append(len(np.unique(events)))
    err = float(np.max(np.abs(baseline.length - (graph.windows[:, 1] - graph.windows[:, 0])), initial=0.0))
    coll_end = np.array(c_end, dtype=np.int64)
    work = _work_class(graph, coll_end)
    point_step = graph.step_of_point
    compute = _busy(graph, [GPU_COMPUTE])
    parts = np.zeros((len(graph.time), 2))
    finite = np.isfinite(graph.weight)
    parts[:, 0] = np.where((work == CPU_WORK) & finite, graph.weight, 0.0)
    parts[:, 1] = np.where((work == GPU_WORK) & finite, graph.weight, 0.0)
    cpu_work = np.bincount(point_step, weights=parts[:, 0], minlength=graph.steps).astype(np.float64)
    gpu_work = np.bincount(point_step, weights=parts[:, 1], minlength=graph.steps).astype(np.float64)
    keep = np.concatenate((np.array(c_start, dtype=np.int64), coll_end))
    # runs merge where the patterns that match are the same (then any K keeps them one), else where K is
    rescalable = 0 < len(speedups) <= SIGNATURE_BITS
    key = signature.astype(np.float64) if rescalable else factor
    small, key, parts, new_of = compact(graph, key, parts, keep)
    factor = factor[new_of >= 0] if rescalable else key
    small = narrow(small)
    return RankGraph(
        rank=rank,
        host=host_of(trace),
        world=rank_of(trace, "world_size"),
        source=source,
        origin=trace.events.origin,
        step_numbers=tuple(n for n, _ in numbered),
        step_names=tuple(w.name for w in steps),
        graph=small,
        coll_key=tuple(keys),
        coll_name=tuple(names),
        coll_group=tuple(groups),
        coll_step=np.array(c_step, dtype=np.int64),
        coll_start=new_of[np.array(c_start, dtype=np.int64)],
        coll_end=new_of[coll_end],
        factor=factor,
        compute=compute,
        cpu_work=cpu_work,
        gpu_work=gpu_work,
        work_parts=parts,
        matched=tuple(matched),
        matched_events=tuple(matched_events),
        patterns=tuple(sp.pattern for sp in speedups),
        ks=tuple(float(sp.k) for sp in speedups),
        annotations=_annotation_names(trace),
        signature=key.astype(np.int64) if rescalable else None,
        replay_error=err,
        extra=dict(graph.counts),
    )


def _annotation_names(trace: GraphTrace) -> tuple[str, ...]:
    from ..traces.dependencies import ANNOTATION

    names, rows = trace.events.names, trace.events.cpu_name[trace.deps.cpu_class == ANNOTATION]
    return tuple(sorted({names[i] for i in rows.tolist()}))


_NARROW: dict[str, type[np.signedinteger[Any]]] = {"prev": np.int32, "owner": np.int32, "chain_order": np.int32, "lane": np.int32, "edge_ptr": np.int32,
           "edge_src": np.int32, "kind": np.int8, "edge_kind": np.int8}  # fmt: skip


def narrow(g: PathGraph) -> PathGraph:
    """The graph with its index columns in 32 bits and its kinds in 8 where they hold the values: a job keeps
    a thousand ranks' graphs, and each travels from a worker process. Indices stay 32 bits however small (an
    offset added to an 8-bit column would overflow); the join's concatenations come out in 64 bits."""
    out: dict[str, IntArray] = {}
    for name, t in _NARROW.items():
        a = getattr(g, name)
        info = np.iinfo(t)
        if len(a) and info.min <= int(a.min()) and int(a.max()) <= info.max:
            out[name] = a.astype(t)
    return dataclasses.replace(g, **out)  # type: ignore[arg-type]


def _collective_name(name: str) -> str:
    """``nccl:all_reduce`` → ``all_reduce``; a kernel's name is kept up to its arguments."""
    low = name
    for p in COLLECTIVE_PREFIXES:
        if low.lower().startswith(p):
            return low[len(p) :]
    return name.split("(")[0]


@dataclass
class _Found:
    """A collective instance while it is collected: its kernels' (or operation's) first and last points."""

    step: int
    time: float
    name: str
    first: int
    last: int
    args: CommArgs | None
    lane: str


def _collectives(
    trace: GraphTrace, g: PathGraph, launch_row: IntArray, comm_args: Mapping[int, CommArgs]
) -> tuple[list[CollectiveKey], list[str], list[str | None], list[int], list[int], list[int]]:
    """The collective instances of the graph's steps: keys, names, process groups, steps, first and last points."""
    ev = trace.events
    names = ev.names
    is_coll_name = np.array([n.lower().startswith(COLLECTIVE_PREFIXES) for n in names], dtype=bool)
    ann_rows = np.flatnonzero(is_coll_name[ev.cpu_name]) if len(ev.cpu_name) else np.empty(0, dtype=np.int64)
    args_rows = np.array(sorted(comm_args), dtype=np.int64)
    owner = g.owner
    cpu_owner = (owner >= 0) & (owner < g.cpu_rows)
    is_gloo = np.array([n.lower().startswith(CPU_COLLECTIVE_PREFIXES) for n in names], dtype=bool)
    gloo = np.zeros(len(owner), dtype=bool)
    if len(ev.cpu_name):
        gloo[cpu_owner] = is_gloo[ev.cpu_name[owner[cpu_owner]]]
    pts = np.flatnonzero(((g.kind == GPU_COMMUNICATION) & (owner >= g.cpu_rows)) | gloo)
    spans: dict[int, list[int]] = {}
    for p in pts.tolist():  # points are in schedule order: the first seen is the first
        o = int(owner[p])
        span = spans.get(o)
        if span is None:
            spans[o] = [p, p]
        else:
            span[1] = p
    step_of = g.step_of_point
    inst: dict[tuple[int, int, int], _Found] = {}
    for o, (first, last) in spans.items():
        k = int(step_of[first])
        if o >= g.cpu_rows:
            e = o - g.cpu_rows
            row = int(launch_row[e])
            ann = _enclosing(trace, ann_rows, row) if row >= 0 else -1
            group = (0, ann) if ann >= 0 else (1, e)
            name = names[ev.cpu_name[ann]] if ann >= 0 else names[ev.gpu_name[e]]
            lane = f"stream {int(ev.gpu_stream[e])}"
            args = _args_before(trace, args_rows, comm_args, row) if row >= 0 else None
        else:
            group, name, lane, args = (2, o), names[ev.cpu_name[o]], "cpu", None
        # In the order the collectives start: the time a point is stored at is its segment's end, which for a gloo
        # op on one of two run-loop threads may wait on its peer, so DDP's second bucket could sort first.
        began = float(g.time[g.prev[first]]) if g.prev[first] >= 0 else float(g.time[first])
        rec = inst.get((k, *group))
        if rec is None:
            inst[(k, *group)] = _Found(k, began, name, first, last, args, lane)
        else:
            rec.first, rec.last, rec.time = min(rec.first, first), max(rec.last, last), min(rec.time, began)
    keys: list[CollectiveKey] = []
    counters: dict[tuple[int, str, str], int] = {}
    out_names: list[str] = []
    groups: list[str | None] = []
    c_step: list[int] = []
    c_start: list[int] = []
    c_end: list[int] = []
    for rec in sorted(inst.values(), key=lambda r: (r.step, r.time)):
        k, name, first, last, args, lane = rec.step, rec.name, rec.first, rec.last, rec.args, rec.lane
        nm = _collective_name(str(name))
        if args is not None and args.group is not None and args.seq is not None:
            key: CollectiveKey = ("pg", args.group, str(args.seq))
            groups.append(args.group)
        else:
            n = counters.get((k, lane, nm), 0)
            counters[(k, lane, nm)] = n + 1
            key = ("order", lane, nm, str(n))
            groups.append(None)
        keys.append(key)
        out_names.append(nm)
        c_step.append(k)
        c_start.append(int(g.prev[first]) if g.prev[first] >= 0 else first)
        c_end.append(last)
    return keys, out_names, groups, c_step, c_start, c_end


def _enclosing(trace: GraphTrace, rows: IntArray, row: int) -> int:
    """The innermost of ``rows`` on ``row``'s thread whose span holds ``row``'s start (-1: none)."""
    if not len(rows):
        return -1
    ev = trace.events
    t, th = ev.cpu_ts[row], ev.cpu_thread[row]
    m = rows[(ev.cpu_thread[rows] == th) & (ev.cpu_ts[rows] <= t) & (ev.cpu_ts[rows] + ev.cpu_dur[rows] >= t)]
    return int(m[np.argmax(ev.cpu_ts[m])]) if len(m) else -1


def _args_before(trace: GraphTrace, rows: IntArray, args: Mapping[int, CommArgs], row: int) -> CommArgs | None:
    """The ``record_param_comms`` arguments of the last such row on ``row``'s thread started before it."""
    if not len(rows):
        return None
    ev = trace.events
    m = rows[(ev.cpu_thread[rows] == ev.cpu_thread[row]) & (ev.cpu_ts[rows] <= ev.cpu_ts[row])]
    return args.get(int(m[np.argmax(ev.cpu_ts[m])])) if len(m) else None
