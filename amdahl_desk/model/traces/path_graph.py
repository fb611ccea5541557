"""The dependency graph of profiler steps, as arrays: chains of time points (one per CPU thread and GPU stream)
joined by cross edges (a launch, a wait), with every weight an observed duration or gap.

Each point is a moment of the step: an event's start or end, or the moment a blocking call's wait ended.
Along a chain, a point's time is its predecessor's plus the segment's weight; a cross edge says a point
comes no earlier than its source's time plus the edge's weight. Points are stored in an order in which
every edge runs forward, so one pass over them computes any what-if (:mod:`.critical_path`).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .events import FloatArray, IntArray

# kinds of time on the critical path (the contract's names, in its order)
KINDS = ("cpu", "gpu_compute", "gpu_communication", "gpu_memory", "launch_overhead", "gpu_idle_or_gap")
CPU, GPU_COMPUTE, GPU_COMMUNICATION, GPU_MEMORY, LAUNCH, GPU_GAP = range(6)
NO_WEIGHT = -np.inf  # the weight of a chain's first point that nothing releases: only its cross edges set it
CPU_SIDE, GPU_SIDE = 0, 1


@dataclass
class ChainBuilder:
    """Points of one step appended chain by chain; :meth:`freeze` orders them for the one-pass schedule."""

    time: list[FloatArray] = field(default_factory=list)  # observed time of each point (µs since the trace start)
    phase: list[IntArray] = field(default_factory=list)  # tie-break at equal times: 0 an end, 1 a start, 2 a wait
    side: list[IntArray] = field(default_factory=list)
    weight: list[FloatArray] = field(default_factory=list)  # the segment from the chain's previous point
    owner: list[IntArray] = field(default_factory=list)  # the item whose time that segment is (-1: none)
    kind: list[IntArray] = field(default_factory=list)
    chain: list[IntArray] = field(default_factory=list)
    lane: list[IntArray] = field(default_factory=list)  # a CPU chain's thread, or -1 - a GPU chain's stream id
    size: int = 0
    chains: int = 0
    edges: list[tuple[IntArray, IntArray, FloatArray, IntArray]] = field(default_factory=list)

    def add_chain(
        self,
        time: FloatArray,
        phase: IntArray,
        side: int,
        weight: FloatArray,
        owner: IntArray,
        kind: IntArray,
        lane: int,
    ) -> int:
        """Append one chain's points (in chain order); returns the index of its first point."""
        first = self.size
        n = len(time)
        self.time.append(time)
        self.phase.append(_carried_phase(time, phase))
        self.side.append(np.full(n, side, dtype=np.int64))
        self.weight.append(weight)
        self.owner.append(owner)
        self.kind.append(kind)
        self.chain.append(np.full(n, self.chains, dtype=np.int64))
        self.lane.append(np.full(n, lane, dtype=np.int64))
        self.size += n
        self.chains += 1
        return first

    def add_edges(self, src: IntArray, dst: IntArray, weight: FloatArray, kind: IntArray) -> None:
        if len(src):
            self.edges.append((src, dst, weight, kind))


def _carried_phase(time: FloatArray, phase: IntArray) -> IntArray:
    """Phases made non-decreasing within each run of equal times, so a chain's order survives the sort."""
    if len(time) < 2:
        return phase.astype(np.int64)
    run = np.concatenate(([0], np.cumsum(time[1:] != time[:-1])))
    return np.asarray(np.maximum.accumulate(phase + run * 8) - run * 8, dtype=np.int64)


@dataclass(frozen=True)
class PathGraph:
    """Every step's points in schedule order (step by step); ``step_ptr[k]:step_ptr[k+1]`` are step k's.

    ``prev`` is the chain predecessor (-1 at a chain's start, whose ``weight`` is then the time from the
    step's start at which something outside the step releases it, or ``NO_WEIGHT``). In-edges are in CSR
    form by destination: ``edge_ptr[j]:edge_ptr[j+1]``.
    """

    windows: FloatArray  # (steps, 2): each step's start and end, µs since the trace's start
    step_ptr: IntArray
    time: FloatArray
    prev: IntArray
    weight: FloatArray
    owner: IntArray
    kind: IntArray
    edge_ptr: IntArray
    edge_src: IntArray
    edge_weight: FloatArray
    edge_kind: IntArray
    chain_order: IntArray  # every point, chain after chain, each chain in its order (chains start with prev -1)
    lane: IntArray  # per point: its CPU thread, or -1 - its GPU stream's id
    items: int  # owners are 0 … items-1: CPU rows, then the trace's GPU events after them
    cpu_rows: int
    counts: dict[str, int]
    bounds_step: np.ndarray  # per point: whether it bounds its step's length (the step's thread, the GPU)

    @property
    def steps(self) -> int:
        return len(self.windows)

    @property
    def step_of_point(self) -> IntArray:
        return np.repeat(np.arange(self.steps), np.diff(self.step_ptr))

    @property
    def segment_start(self) -> FloatArray:
        """The observed time each point's segment starts (its predecessor's time; the step's start at a chain's)."""
        start: FloatArray = self.windows[self.step_of_point, 0]
        has = self.prev >= 0
        start[has] = self.time[self.prev[has]]
        return start


@dataclass
class StepPoints:
    """One step's points and edges, ordered for the schedule."""

    time: FloatArray
    prev: IntArray
    weight: FloatArray
    owner: IntArray
    kind: IntArray
    edge_src: IntArray
    edge_dst: IntArray
    edge_weight: FloatArray
    edge_kind: IntArray
    dropped: int
    chain_order: IntArray  # the points chain after chain, each chain in its order
    lane: IntArray


def freeze(b: ChainBuilder, start: float) -> StepPoints:
    """Sort the points so that every chain runs forward and, at equal times, ends come before starts, starts
    on the CPU before the GPU starts they launch, and waits after the ends they wait for — and after the points
    their edges leave at that instant (a zero-length event's end); edges that would still run backward (a clock
    that disagrees with itself) are dropped and counted; a chain's first point that no edge then reaches starts
    when it was seen to."""
    if b.size == 0:
        e = np.empty(0, dtype=np.int64)
        f = np.empty(0, dtype=np.float64)
        return StepPoints(f, e, f, e, e, e, e, f, e, 0, e, e)
    time = np.concatenate(b.time)
    phase, side, chain = np.concatenate(b.phase), np.concatenate(b.side), np.concatenate(b.chain)
    pos = np.arange(b.size)
    order = np.lexsort((pos, side, phase, time))
    same_chain = np.concatenate(([False], chain[1:] == chain[:-1]))
    prev_old = np.where(same_chain, pos - 1, -1)
    if len(b.edges):
        src_b, dst_b = np.concatenate([e[0] for e in b.edges]), np.concatenate([e[1] for e in b.edges])
        order = _same_instant_order(order, time, prev_old, src_b, dst_b)
    rank = np.empty(b.size, dtype=np.int64)
    rank[order] = pos
    prev = np.where(prev_old >= 0, rank[np.maximum(prev_old, 0)], -1)[order]
    if len(b.edges):
        src, dst = rank[src_b], rank[dst_b]
        ew = np.concatenate([e[2] for e in b.edges])
        ek = np.concatenate([e[3] for e in b.edges])
        forward = src < dst
        dropped = int(np.count_nonzero(~forward))
        src, dst, ew, ek = src[forward], dst[forward], ew[forward], ek[forward]
    else:
        src = dst = ek = np.empty(0, dtype=np.int64)
        ew = np.empty(0, dtype=np.float64)
        dropped = 0
    weight = np.concatenate(b.weight)[order]
    # a chain's first point whose every edge was dropped starts when it was seen to
    lonely = (prev < 0) & (weight == NO_WEIGHT) & (np.bincount(dst, minlength=b.size) == 0)
    weight[lonely] = time[order][lonely] - start
    return StepPoints(
        time[order],
        prev,
        weight,
        np.concatenate(b.owner)[order],
        np.concatenate(b.kind)[order],
        src,
        dst,
        ew,
        ek,
        dropped,
        rank,
        np.concatenate(b.lane)[order],
    )


def _same_instant_order(order: IntArray, time: FloatArray, prev: IntArray, src: IntArray, dst: IntArray) -> IntArray:
    """``order`` with the points of each instant that an edge between two of them runs backward in put in an order
    every edge at that instant runs forward in, as near to ``order`` as that allows.

    At equal times the sort puts ends before starts, but a zero-length event's end, which follows its own start
    on its chain, sorts among the starts: a start on another stream that waits for it can come first, and the
    edge between them would be dropped — the wait, and the gap before it, lost. ``prev`` is each point's chain
    predecessor (-1: none), ``src`` and ``dst`` the edges, all as the builder numbers points.
    """
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    at_once = time[src] == time[dst]
    backward = at_once & (rank[src] > rank[dst])
    if not backward.any():
        return order
    order = order.copy()
    sorted_time = time[order]
    src, dst = src[at_once], dst[at_once]
    by_time = np.argsort(time[src], kind="stable")
    src, dst = src[by_time], dst[by_time]
    edge_time = time[src]
    for t in np.unique(time[src[backward[at_once][by_time]]]).tolist():
        lo, hi = int(np.searchsorted(sorted_time, t, "left")), int(np.searchsorted(sorted_time, t, "right"))
        a, c = int(np.searchsorted(edge_time, t, "left")), int(np.searchsorted(edge_time, t, "right"))
        # each point by its place among this instant's, in ``order``
        before = [int(rank[p]) - lo if p >= 0 and time[p] == t else -1 for p in prev[order[lo:hi]].tolist()]
        edges = list(zip((rank[src[a:c]] - lo).tolist(), (rank[dst[a:c]] - lo).tolist(), strict=True))
        order[lo:hi] = order[lo:hi][_topological(before, edges)]
    return order


def _topological(before: list[int], edges: list[tuple[int, int]]) -> list[int]:
    """Points 0 … n-1 (their order so far) in an order that keeps each chain's (``before``: a point's predecessor on
    its chain, -1: none here) and every edge's, taking the earliest point free to go at each turn; where the edges
    make a cycle (clocks that disagree), the earliest point its chain lets go goes, and an edge stays backward."""
    n = len(before)
    succ: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n
    for a, c in [(p, i) for i, p in enumerate(before) if p >= 0] + edges:
        if a != c:
            succ[a].append(c)
            waiting[c] += 1
    ready = [i for i in range(n) if waiting[i] == 0]
    placed = [False] * n
    out: list[int] = []
    while len(out) < n:
        if ready:
            i = heapq.heappop(ready)
            if placed[i]:
                continue
        else:
            i = next(j for j in range(n) if not placed[j] and (before[j] < 0 or placed[before[j]]))
        placed[i] = True
        out.append(i)
        for j in succ[i]:
            waiting[j] -= 1
            if waiting[j] == 0 and not placed[j]:
                heapq.heappush(ready, j)
    return out


def join(
    steps: Sequence[StepPoints],
    windows: Sequence[tuple[float, float]],
    items: int,
    cpu_rows: int,
    counts: dict[str, int],
    threads: Sequence[int],
) -> PathGraph:
    """One graph of several steps' points, step after step, edges in CSR form by destination; ``threads`` are
    the steps' own threads (a step ends when its thread and the GPU are done: another thread that the step's
    thread never waits for does not hold it back)."""
    sizes = [len(s.time) for s in steps]
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)

    def cat(values: list[np.ndarray], dtype: type) -> np.ndarray:
        return np.concatenate(values).astype(dtype) if values else np.empty(0, dtype=dtype)

    prev = cat([np.where(s.prev >= 0, s.prev + o, -1) for s, o in zip(steps, offsets, strict=False)], np.int64)
    src = cat([s.edge_src + o for s, o in zip(steps, offsets, strict=False)], np.int64)
    dst = cat([s.edge_dst + o for s, o in zip(steps, offsets, strict=False)], np.int64)
    by_dst = np.argsort(dst, kind="stable")
    n = int(offsets[-1])
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
    counts = {**counts, "dropped": counts.get("dropped", 0) + sum(s.dropped for s in steps)}
    return PathGraph(
        windows=np.array(windows, dtype=np.float64).reshape(-1, 2),
        step_ptr=offsets,
        time=cat([s.time for s in steps], np.float64),
        prev=prev,
        weight=cat([s.weight for s in steps], np.float64),
        owner=cat([s.owner for s in steps], np.int64),
        kind=cat([s.kind for s in steps], np.int64),
        edge_ptr=ptr,
        edge_src=src[by_dst],
        edge_weight=cat([s.edge_weight for s in steps], np.float64)[by_dst],
        edge_kind=cat([s.edge_kind for s in steps], np.int64)[by_dst],
        chain_order=cat([s.chain_order + o for s, o in zip(steps, offsets, strict=False)], np.int64),
        lane=cat([s.lane for s in steps], np.int64),
        items=items,
        cpu_rows=cpu_rows,
        counts=counts,
        bounds_step=cat([(s.lane == t) | (s.lane < 0) for s, t in zip(steps, threads, strict=True)], np.bool_),
    )
