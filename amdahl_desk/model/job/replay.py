"""The matched ranks' graphs joined at their collectives, and the joined graph replayed.

**The join.** A collective cannot end on any rank before the last rank has reached it. Each matched instance
gets a meeting point, after every member's start (edges of weight 0), and a transfer point after it (its
weight: the transfer, the shortest time any rank measured from the meeting to its end); each member's end
comes after the transfer point by what that rank measured beyond the shortest. The member's own segment
into its end (its measured duration, waiting included) becomes 0: waiting is what the edge says it is.
With every weight as measured, the replay gives back each rank's measured times; :attr:`Replay.error`
says how far it is from them.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..traces.critical_path import Scheduler
from ..traces.events import FloatArray, IntArray
from ..traces.path_graph import GPU_COMMUNICATION, NO_WEIGHT, PathGraph
from .join import JobGraph


@dataclass(frozen=True)
class Replayed:
    """One replay: (ranks, steps) each rank's step start and predicted end (µs, on the job's clock, from the
    step's earliest start), and each step's job time (latest end minus earliest start)."""

    start: FloatArray
    end: FloatArray

    @property
    def job(self) -> FloatArray:
        return np.asarray(self.end.max(axis=0) - self.start.min(axis=0), dtype=np.float64)

    @property
    def rank_time(self) -> FloatArray:
        return np.asarray(self.end - self.start, dtype=np.float64)


class Replay:
    """A job's joined graph, one per step (steps are replayed each from its measured starts), built once;
    :meth:`run` replays them with any per-rank factors. Each step's scheduler lives only while it runs."""

    def __init__(self, job: JobGraph) -> None:
        self.job = job
        start, end = job.windows()
        self.origin = start.min(axis=0)  # per step: the job's earliest start
        self.start = start - self.origin
        self.measured_end = end - self.origin
        self.parts = [self._build([k]) for k in range(job.steps)]
        self.dropped = sum(p.dropped for p in self.parts)
        base = self.run()
        self.baseline = base
        self.error = float(np.max(np.abs(base.end - self.measured_end), initial=0.0))

    def _build(self, steps: Sequence[int]) -> _Part:
        """The joined graph of ``steps`` (each rank's points of those steps and the collectives' points)."""
        job = self.job
        part = _Part()
        part.steps = list(steps)
        part.meet = {}
        times: list[FloatArray] = []
        flags: list[IntArray] = []
        prevs: list[IntArray] = []
        weights: list[FloatArray] = []
        kinds: list[IntArray] = []
        lanes: list[IntArray] = []
        orders: list[IntArray] = []
        bounds: list[np.ndarray] = []  # as built: whether a point bounds its rank's step (its thread, the GPU)
        e_src: list[IntArray] = []
        e_dst: list[IntArray] = []
        e_w: list[FloatArray] = []
        e_k: list[IntArray] = []
        part.base = np.zeros((job.size, job.steps), dtype=np.int64)
        part.count = np.zeros((job.size, job.steps), dtype=np.int64)
        part.local_lo = np.zeros((job.size, job.steps), dtype=np.int64)
        zero_end: list[int] = []
        gid = 0
        by_step: dict[int, list[int]] = defaultdict(list)
        for n, inst in enumerate(job.instances):
            by_step[inst.step].append(n)
        for k in steps:
            o = self.origin[k]
            for i, r in enumerate(job.ranks):
                g: PathGraph = r.graph
                s = int(job.step_index[i, k])
                lo, hi = int(g.step_ptr[s]), int(g.step_ptr[s + 1])
                off = job.offset[i] - o
                n = hi - lo
                times.append(g.time[lo:hi] + off)
                flags.append(np.zeros(n, dtype=np.int64))
                p = g.prev[lo:hi]
                prevs.append(np.where(p >= 0, p - lo + gid, -1))
                w = g.weight[lo:hi].copy()
                release = (p < 0) & np.isfinite(w)
                w[release] += g.windows[s, 0] + off
                weights.append(w)
                kinds.append(g.kind[lo:hi])
                lanes.append(g.lane[lo:hi])
                bounds.append(g.bounds_step[lo:hi])
                orders.append(g.chain_order[lo:hi] - lo + gid)
                e0, e1 = int(g.edge_ptr[lo]), int(g.edge_ptr[hi])
                e_dst.append(np.repeat(np.arange(n), np.diff(g.edge_ptr[lo : hi + 1])) + gid)
                e_src.append(g.edge_src[e0:e1] - lo + gid)
                e_w.append(g.edge_weight[e0:e1])
                e_k.append(g.edge_kind[e0:e1])
                part.base[i, k], part.count[i, k], part.local_lo[i, k] = gid, n, lo
                gid += n
            for n_inst in by_step.get(k, []):
                inst = job.instances[n_inst]
                s_gid = np.array(
                    [
                        part.base[m, k] + job.ranks[m].coll_start[c] - part.local_lo[m, k]
                        for m, c in zip(inst.members.tolist(), inst.index.tolist(), strict=True)
                    ],
                    dtype=np.int64,
                )
                end_gid = np.array(
                    [
                        part.base[m, k] + job.ranks[m].coll_end[c] - part.local_lo[m, k]
                        for m, c in zip(inst.members.tolist(), inst.index.tolist(), strict=True)
                    ],
                    dtype=np.int64,
                )
                meet_t = float(inst.start.max() - o)
                after = inst.end - inst.start.max()  # each member's time from the last arrival to its end
                transfer = float(max(after.min(), 0.0))
                extra = np.maximum(after - transfer, 0.0)
                times.append(np.array([meet_t, meet_t]))
                flags.append(np.array([1, 2], dtype=np.int64))
                prevs.append(np.array([-1, gid], dtype=np.int64))
                weights.append(np.array([NO_WEIGHT, transfer]))
                kinds.append(np.array([GPU_COMMUNICATION, GPU_COMMUNICATION], dtype=np.int64))
                lanes.append(np.array([-(1 << 40), -(1 << 40)], dtype=np.int64))
                bounds.append(np.zeros(2, dtype=bool))
                orders.append(np.array([gid, gid + 1], dtype=np.int64))
                m_n = len(s_gid)
                e_src.append(np.concatenate((s_gid, np.full(m_n, gid + 1, dtype=np.int64))))
                e_dst.append(np.concatenate((np.full(m_n, gid, dtype=np.int64), end_gid)))
                e_w.append(np.concatenate((np.zeros(m_n), extra)))
                e_k.append(np.full(2 * m_n, GPU_COMMUNICATION, dtype=np.int64))
                zero_end.extend(end_gid.tolist())
                part.meet[n_inst] = gid + 1
                gid += 2
        total = gid
        time = np.concatenate(times) if times else np.empty(0)
        flag = np.concatenate(flags) if flags else np.empty(0, dtype=np.int64)
        order = np.lexsort((np.arange(total), flag, time))
        pos = np.empty(total, dtype=np.int64)
        pos[order] = np.arange(total)
        part.pos = pos
        prev_old = np.concatenate(prevs) if prevs else np.empty(0, dtype=np.int64)
        prev = np.where(prev_old >= 0, pos[np.maximum(prev_old, 0)], -1)[order]
        weight = np.concatenate(weights) if weights else np.empty(0)
        weight[np.array(zero_end, dtype=np.int64)] = 0.0
        src = pos[np.concatenate(e_src)] if e_src else np.empty(0, dtype=np.int64)
        dst = pos[np.concatenate(e_dst)] if e_dst else np.empty(0, dtype=np.int64)
        ew = np.concatenate(e_w) if e_w else np.empty(0)
        ek = np.concatenate(e_k) if e_k else np.empty(0, dtype=np.int64)
        forward = src < dst
        part.dropped = int(np.count_nonzero(~forward))
        src, dst, ew, ek = src[forward], dst[forward], ew[forward], ek[forward]
        by_dst = np.argsort(dst, kind="stable")
        ptr = np.zeros(total + 1, dtype=np.int64)
        np.cumsum(np.bincount(dst, minlength=total), out=ptr[1:])
        step_ptr = np.array([0, total], dtype=np.int64)
        part.graph = PathGraph(
            windows=np.array([[0.0, float(time.max(initial=0.0))]]),
            step_ptr=step_ptr,
            time=time[order],
            prev=prev,
            weight=weight[order],
            owner=np.broadcast_to(np.int64(-1), (total,)),  # the replay reads no owner: a view, no memory
            kind=(np.concatenate(kinds) if kinds else np.empty(0, dtype=np.int64))[order],
            edge_ptr=ptr,
            edge_src=src[by_dst],
            edge_weight=ew[by_dst],
            edge_kind=ek[by_dst],
            chain_order=pos[np.concatenate(orders)] if orders else np.empty(0, dtype=np.int64),
            lane=np.broadcast_to(np.int64(0), (total,)),  # nor lanes
            items=0,
            cpu_rows=0,
            counts={"dropped": part.dropped},
            bounds_step=np.ones(total, dtype=bool),  # the replay reads each rank's end from ``part.bounds``
        )
        part.bounds = np.concatenate(bounds) if bounds else np.empty(0, dtype=bool)
        part.bounds_sorted = part.bounds[order]
        return part

    @staticmethod
    def _per_point(
        part: _Part,
        per_rank: Sequence[np.ndarray | None],
        per_instance: Sequence[float] | Sequence[int] | None,
        fill: np.ndarray,
    ) -> np.ndarray:
        """Per point of one part (``fill`` as it starts): each rank's per-point values (None: left as filled) and
        each matched collective's value for its transfer point."""
        for i, values in enumerate(per_rank):
            if values is None:
                continue
            for k in part.steps:
                lo = int(part.local_lo[i, k])
                n = int(part.count[i, k])
                gid = int(part.base[i, k])
                fill[part.pos[gid : gid + n]] = values[lo : lo + n]
        if per_instance is not None:
            for n, gid in part.meet.items():
                fill[part.pos[gid]] = per_instance[n]
        return fill

    def _factors(
        self,
        part: _Part,
        rank_factor: Sequence[FloatArray | None],
        instance_factor: Sequence[float] | None,
    ) -> FloatArray:
        """Per point of one part: the K of its segment, from each rank's per-point factors (None: 1)."""
        return self._per_point(part, rank_factor, instance_factor, np.ones(len(part.pos)))

    def run_many(
        self, rank_class: Sequence[IntArray | None], instance_class: Sequence[int] | None, class_factor: FloatArray
    ) -> FloatArray:
        """``(draws, steps)``: each step's job time (µs) in many draws at once — every point's segment divided by
        its class's factor in each draw. ``rank_class[i]`` gives the class of each point of rank i's graph (None:
        class 0), ``instance_class`` that of each matched collective's transfer (None: 0), and
        ``class_factor[d, c]`` class c's factor in draw d (``inf``: free), as
        :meth:`~..traces.critical_path.Scheduler.run_many` takes them. At factor 1 it is :meth:`run`'s job time."""
        factors = np.atleast_2d(np.asarray(class_factor, dtype=np.float64))
        out = np.zeros((factors.shape[0], self.job.steps))
        for part in self.parts:
            classes = self._per_point(part, rank_class, instance_class, np.zeros(len(part.pos), dtype=np.int64))
            ends = dataclasses.replace(part.graph, bounds_step=part.bounds_sorted)  # a rank's step ends on them
            lengths = Scheduler(ends).run_many(classes, factors)
            out[:, part.steps] = lengths[:, : len(part.steps)]
        return out

    def run(
        self, rank_factor: Sequence[FloatArray | None] | None = None, instance_factor: Sequence[float] | None = None
    ) -> Replayed:
        """Replay with each rank's segments divided by its factors (None: as measured)."""
        job = self.job
        end = np.zeros((job.size, job.steps))
        for part in self.parts:
            factor = None
            if rank_factor is not None or instance_factor is not None:
                factor = self._factors(part, rank_factor or [None] * job.size, instance_factor)
            times = Scheduler(part.graph).run(factor).time
            for k in part.steps:
                for i in range(job.size):
                    gid, n = int(part.base[i, k]), int(part.count[i, k])
                    mine = part.pos[gid : gid + n][part.bounds[gid : gid + n]]
                    end[i, k] = times[mine].max(initial=self.start[i, k])
        return Replayed(self.start.copy(), end)


class _Part:
    """The joined graph of some steps, and where each rank's points of each step went in it."""

    steps: list[int]
    graph: PathGraph
    pos: IntArray  # per point as built: its place in the graph
    base: IntArray  # (ranks, steps): the first point as built of each rank's step
    count: IntArray
    local_lo: IntArray  # (ranks, steps): that step's first point in the rank's own graph
    meet: dict[int, int]  # instance → its transfer point as built
    dropped: int
    bounds: np.ndarray  # per point as built: it bounds its rank's step (the rank's step thread, its GPU)
    bounds_sorted: np.ndarray  # the same, in the graph's order
