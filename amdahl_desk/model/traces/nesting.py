"""Which event each CPU event is nested in, for a whole step at once, without a loop per event.

Events are sorted by thread, start, longest first. An event's parent is the innermost event still open when
it starts: the nearest earlier event of its thread that ends after that start (had one between them also
been open, it would be nearer). An event that outlasts its parent (two clocks' rounding) is cut at the
parent's end, as a call stack would; that can change which event a later one falls in, so the search is
repeated until nothing changes. The search for "the nearest earlier one that ends after t" runs on a table
of running maxima over blocks of 1, 2, 4 … events, one level per power of two.
"""

from __future__ import annotations

import numpy as np

from .events import FloatArray, IntArray

_ROUNDS = 8


def _parents(first: IntArray, ts: FloatArray, end: FloatArray) -> IntArray:
    """Per event: the nearest earlier event at or after ``first`` (its thread's first) that ends after its start."""
    n = len(ts)
    levels = [end]
    width = 1
    while width * 2 <= n:
        prev = levels[-1]
        nxt = prev.copy()
        nxt[width:] = np.maximum(prev[width:], prev[:-width])  # max over [j - 2·width + 1, j]
        levels.append(nxt)
        width *= 2
    cur = np.arange(n) - 1
    for k in range(len(levels) - 1, -1, -1):
        size = 1 << k
        ok = cur - size + 1 >= first
        block = levels[k][np.maximum(cur, 0)]
        skip = ok & (block <= ts)
        cur = np.where(skip, cur - size, cur)
    found = (cur >= first) & (end[np.maximum(cur, 0)] > ts)
    return np.where(found, cur, -1)


def nest(thread: IntArray, ts: FloatArray, end: FloatArray) -> tuple[IntArray, FloatArray]:
    """(parent index or -1, end cut to the parent's) of events sorted by (thread, start, longest first)."""
    n = len(ts)
    if n == 0:
        return np.empty(0, dtype=np.int64), end.copy()
    starts = np.flatnonzero(np.concatenate(([True], thread[1:] != thread[:-1])))
    first = np.repeat(starts, np.diff(np.append(starts, n)))
    cut = end.copy()
    parent = _parents(first, ts, cut)
    for _ in range(_ROUNDS):
        has = parent >= 0
        bound = np.where(has, cut[np.maximum(parent, 0)], np.inf)
        over = cut > bound
        if not over.any():
            return parent, cut
        cut = np.minimum(cut, bound)
        parent = _parents(first, ts, cut)
    return _nest_loop(thread, ts, end)


def _nest_loop(thread: IntArray, ts: FloatArray, end: FloatArray) -> tuple[IntArray, FloatArray]:
    """The call-stack walk, for the rare step whose overlaps the search does not settle in a few rounds."""
    th, starts, ends = thread.tolist(), ts.tolist(), end.tolist()
    parent = [-1] * len(starts)
    stack: list[int] = []
    current = None
    for i in range(len(starts)):
        if th[i] != current:
            stack.clear()
            current = th[i]
        while stack and ends[stack[-1]] <= starts[i]:
            stack.pop()
        if stack:
            top = stack[-1]
            ends[i] = min(ends[i], ends[top])
            parent[i] = top
        stack.append(i)
    return np.array(parent, dtype=np.int64), np.array(ends, dtype=np.float64)
