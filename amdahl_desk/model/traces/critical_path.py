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
    """A graph's arrays as Python lists, made once, for the pass each what-if takes."""

    def __init__(self, graph: PathGraph) -> None:
        self.graph = graph
        self._prev = graph.prev.tolist()
        self._ptr = graph.edge_ptr.tolist()
        self._src = graph.edge_src.tolist()
        self._edge_weight = graph.edge_weight.tolist()
        self._has_edges = (np.diff(graph.edge_ptr) > 0).tolist()

    def run(self, factor: FloatArray | None = None) -> Schedule:
        """The schedule with each segment's weight divided by ``factor`` (per point; None: as observed)."""
        g = self.graph
        weight = g.weight.copy()
        if factor is not None:
            scaled = g.prev >= 0  # a release is a time outside the step: never scaled
            with np.errstate(divide="ignore", invalid="ignore"):
                weight[scaled] = np.where(np.isinf(factor[scaled]), 0.0, weight[scaled] / factor[scaled])
        w = weight.tolist()
        prev, ptr, src, ew, has = self._prev, self._ptr, self._src, self._edge_weight, self._has_edges
        n = len(w)
        t = [0.0] * n
        via = [CHAIN] * n
        for j in range(n):
            p = prev[j]
            if p >= 0:
                v = t[p] + w[j]
                how = CHAIN
            else:
                v = w[j]
                how = RELEASE
            if has[j]:
                for e in range(ptr[j], ptr[j + 1]):
                    c = t[src[e]] + ew[e]
                    if c > v:
                        v = c
                        how = e
            t[j] = v
            via[j] = how
        times = np.array(t, dtype=np.float64)
        return self._path(times, via, weight)

    def _path(self, times: FloatArray, via: list[int], weight: FloatArray) -> Schedule:
        g = self.graph
        ptr = g.step_ptr
        lengths = np.zeros(g.steps)
        on_path = np.zeros(len(times), dtype=bool)
        edges = np.zeros(len(g.edge_src), dtype=bool)
        prev, src = self._prev, self._src
        for k in range(g.steps):
            lo, hi = int(ptr[k]), int(ptr[k + 1])
            if hi == lo:
                continue
            j = lo + int(np.argmax(times[lo:hi]))
            lengths[k] = times[j]
            while True:
                how = via[j]
                if how == CHAIN:
                    on_path[j] = True
                    j = prev[j]
                elif how == RELEASE:
                    on_path[j] = True
                    break
                else:
                    edges[how] = True
                    j = src[how]
        return Schedule(times, lengths, on_path, edges, weight)
