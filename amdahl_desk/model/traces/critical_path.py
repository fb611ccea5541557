"""The longest path of a step's dependency graph, with any events' durations scaled: one pass over the points.

The points are stored in an order in which every edge runs forward (:mod:`.path_graph`), so one pass sets
each point's time to the latest of its chain predecessor plus the (scaled) segment and its cross edges'
sources plus their weights — the longest path from the step's start to it. The step's length is its latest
point; walking back along the choices that set each time gives the critical path, which the by-kind
breakdown and the time each event spends on it are read from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .events import FloatArray, IntArray
from .path_graph import KINDS, PathGraph

CHAIN, RELEASE = -1, -2


@dataclass(frozen=True)
class Schedule:
    """One what-if's times: each point's (µs from its step's start), each step's length, and its critical path."""

    time: FloatArray
    length: FloatArray  # per step
    on_path: np.ndarray  # per point: its segment (or release) is on its step's critical path
    edges_on_path: np.ndarray  # per edge: on the critical path
    weight: FloatArray  # the scaled segment weights the schedule used

    def by_kind(self, graph: PathGraph) -> FloatArray:
        """(steps, kinds): each step's critical path split by kind; each row adds up to the step's length."""
        out = np.zeros((graph.steps, len(KINDS)))
        step = graph.step_of_point
        seg = self.on_path
        np.add.at(out, (step[seg], graph.kind[seg]), self.weight[seg])
        if self.edges_on_path.any():
            dst = np.repeat(np.arange(len(graph.time)), np.diff(graph.edge_ptr))
            e = self.edges_on_path
            np.add.at(out, (step[dst[e]], graph.edge_kind[e]), graph.edge_weight[e])
        return out

    def path_time(self, graph: PathGraph, mask: np.ndarray) -> FloatArray:
        """Per step: the scaled time of the segments in ``mask`` (per point) that lie on the critical path."""
        out = np.zeros(graph.steps)
        sel = self.on_path & mask
        np.add.at(out, graph.step_of_point[sel], self.weight[sel])
        return out


class Scheduler:
    """A graph made ready, once, for the pass each what-if takes.

    Only the points an edge leaves or reaches (and each chain's first and last) need the pass; between two of
    them a chain's times are its weights' running sum, which numpy adds up. The pass walks those points in
    schedule order with Python lists — a few per GPU event, not one per CPU event.
    """

    def __init__(self, graph: PathGraph) -> None:
        g = graph
        n = len(g.time)
        self.graph = g
        co = g.chain_order
        self._co = co
        pos = np.empty(n, dtype=np.int64)
        pos[co] = np.arange(n)
        self._pos = pos
        starts = g.prev < 0
        self._starts_c = starts[co]
        ends = np.zeros(n, dtype=bool)
        if n:
            ends[co[np.append(self._starts_c[1:], True)]] = True
        self._chain_end = ends
        has_in = np.diff(g.edge_ptr) > 0
        is_src = np.zeros(n, dtype=bool)
        is_src[g.edge_src] = True
        special = starts | has_in | is_src | ends
        self._special = special
        self._special_pts = np.flatnonzero(special)  # in schedule order
        self._index_of = np.full(n, -1, dtype=np.int64)
        self._index_of[self._special_pts] = np.arange(len(self._special_pts))
        # per chain position: the latest special point at or before it (a chain starts with one)
        self._last_special = np.maximum.accumulate(np.where(special[co], np.arange(n), -1)) if n else pos
        q = pos[self._special_pts]
        first = starts[self._special_pts]
        self._q = q
        self._prev_q = np.where(first, -1, self._last_special[np.maximum(q - 1, 0)])
        self._anchor = np.where(self._prev_q >= 0, co[np.maximum(self._prev_q, 0)], -1).tolist()
        self._sp = self._special_pts.tolist()
        self._ptr = g.edge_ptr.tolist()
        self._src = g.edge_src.tolist()
        self._edge_weight = g.edge_weight.tolist()
        self._has = has_in[self._special_pts].tolist()

    def run(self, factor: FloatArray | None = None) -> Schedule:
        """The schedule with each segment's weight divided by ``factor`` (per point; None: as observed)."""
        g = self.graph
        weight = g.weight.copy()
        if factor is not None:
            scaled = g.prev >= 0  # a release is a time outside the step: never scaled
            with np.errstate(divide="ignore", invalid="ignore"):
                weight[scaled] = np.where(np.isinf(factor[scaled]), 0.0, weight[scaled] / factor[scaled])
        chain_w = weight[self._co]
        chain_w[self._starts_c] = 0.0
        cum = np.cumsum(chain_w)
        step = np.where(self._prev_q >= 0, cum[self._q] - cum[np.maximum(self._prev_q, 0)], weight[self._special_pts])
        span = step.tolist()
        sp, anchor, ptr, src, ew, has = self._sp, self._anchor, self._ptr, self._src, self._edge_weight, self._has
        t = [0.0] * len(weight)
        via = [CHAIN] * len(sp)
        for k in range(len(sp)):
            a = anchor[k]
            if a >= 0:
                v = t[a] + span[k]
                how = CHAIN
            else:
                v = span[k]
                how = RELEASE
            if has[k]:
                j = sp[k]
                for e in range(ptr[j], ptr[j + 1]):
                    c = t[src[e]] + ew[e]
                    if c > v:
                        v = c
                        how = e
            t[sp[k]] = v
            via[k] = how
        known = np.array(t, dtype=np.float64)
        times = np.empty(len(weight))
        if len(weight):
            last = self._last_special
            times[self._co] = known[self._co[last]] + (cum - cum[last])
        return self._path(times, via, weight)

    def run_many(self, point_class: IntArray, class_factor: FloatArray, block: int = 512) -> FloatArray:
        """Each step's length for many draws at once: ``(draws, steps)``.

        ``point_class`` gives every point a class (0 … C-1) and ``class_factor[d, c]`` the factor its segments'
        weights are divided by in draw ``d`` (``inf``: free) — a plan's optimizations drawn from their ranges,
        each class the points one set of them covers. The pass is the one :meth:`run` takes, over vectors of
        draws: the spans between the points an edge touches are sums per class, times each draw's 1/K.
        """
        g = self.graph
        factors = np.atleast_2d(np.asarray(class_factor, dtype=np.float64))
        draws, classes = factors.shape
        with np.errstate(divide="ignore"):
            inverse = np.where(np.isinf(factors), 0.0, 1.0 / factors)  # (draws, classes)
        co = self._co
        chain_w = g.weight[co].copy()
        chain_w[self._starts_c] = 0.0
        cls_c = np.asarray(point_class, dtype=np.int64)[co]
        q, prev_q = self._q, self._prev_q
        chained = prev_q >= 0
        sums = np.zeros((len(q), classes))  # per special point: its span's weight in each class
        for c in range(classes):
            cum = np.cumsum(np.where(cls_c == c, chain_w, 0.0))
            sums[chained, c] = cum[q[chained]] - cum[prev_q[chained]]
        release = np.where(chained, 0.0, g.weight[self._special_pts])  # a chain's start: outside the step
        # when each special point's time is last needed: by the next special point of its chain, or by an edge
        last_use = np.arange(len(q))
        index_of = self._index_of
        anchor_k = np.where(np.array(self._anchor) >= 0, index_of[np.maximum(np.array(self._anchor), 0)], -1)
        has_anchor = anchor_k >= 0
        np.maximum.at(last_use, anchor_k[has_anchor], np.flatnonzero(has_anchor))
        dst_k = index_of[np.repeat(np.arange(len(g.time)), np.diff(g.edge_ptr))]
        src_k = index_of[g.edge_src]
        if len(src_k):
            np.maximum.at(last_use, src_k, dst_k)
        ends = np.zeros(len(q), dtype=bool)
        ends[: len(q)] = self._chain_end[self._special_pts] & g.bounds_step[self._special_pts]
        step_of = g.step_of_point[self._special_pts]
        lengths = np.zeros((g.steps, draws))
        frees: list[list[int]] = [[] for _ in range(len(q))]
        for k, last in enumerate(last_use.tolist()):
            frees[last].append(k)
        ins: list[list[tuple[int, float]]] = [[] for _ in range(len(q))]  # per special point: (source, weight)
        for d, s_, w in zip(dst_k.tolist(), src_k.tolist(), g.edge_weight.tolist(), strict=True):
            ins[d].append((s_, w))
        live: dict[int, FloatArray] = {}
        anchor_list, end_list, step_list = anchor_k.tolist(), ends.tolist(), step_of.tolist()
        for lo in range(0, len(q), block):
            hi = min(lo + block, len(q))
            spans = sums[lo:hi] @ inverse.T  # (block, draws): one row a span, contiguous
            spans += release[lo:hi, None]
            for k in range(lo, hi):
                a = anchor_list[k]
                t = live[a] + spans[k - lo] if a >= 0 else spans[k - lo]
                for s_, w in ins[k]:
                    np.maximum(t, live[s_] + w, out=t)
                if end_list[k]:
                    row = lengths[step_list[k]]
                    np.maximum(row, t, out=row)
                live[k] = t
                for done in frees[k]:
                    del live[done]
        return lengths.T.copy()

    def _path(self, times: FloatArray, via: list[int], weight: FloatArray) -> Schedule:
        g = self.graph
        ptr = g.step_ptr
        lengths = np.zeros(g.steps)
        marks = np.zeros(len(times) + 1, dtype=np.int64)
        edges = np.zeros(len(g.edge_src), dtype=bool)
        co, pos, last, prev_q = self._co, self._pos, self._last_special, self._prev_q
        special, index_of, src = self._special, self._index_of, self._src
        for k in range(g.steps):
            lo, hi = int(ptr[k]), int(ptr[k + 1])
            if hi == lo:
                continue
            bounds = np.flatnonzero(g.bounds_step[lo:hi])
            if not len(bounds):
                continue
            j = lo + int(bounds[np.argmax(times[lo:hi][bounds])])
            lengths[k] = times[j]
            while True:
                q = int(pos[j])
                if not special[j]:
                    a = int(last[q])
                    marks[a + 1] += 1
                    marks[q + 1] -= 1
                    j = int(co[a])
                    continue
                i = int(index_of[j])
                how = via[i]
                if how == CHAIN:
                    p = int(prev_q[i])
                    marks[p + 1] += 1
                    marks[q + 1] -= 1
                    j = int(co[p])
                elif how == RELEASE:
                    marks[q] += 1
                    marks[q + 1] -= 1
                    break
                else:
                    edges[how] = True
                    j = src[how]
        on_path = np.zeros(len(times), dtype=bool)
        on_path[co] = np.cumsum(marks[:-1]) > 0
        return Schedule(times, lengths, on_path, edges, weight)
