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

from .events import FloatArray
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
            j = lo + int(np.argmax(times[lo:hi]))
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
