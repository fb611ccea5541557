"""Lengths of unions of time intervals: the one operation the GPU timeline split needs."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


def merge(starts: FloatArray, ends: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The union of intervals [start, end) as disjoint sorted intervals."""
    if len(starts) == 0:
        empty = np.empty(0, dtype=np.float64)
        return empty, empty
    order = np.argsort(starts, kind="stable")
    s = np.asarray(starts, dtype=np.float64)[order]
    e = np.maximum.accumulate(np.asarray(ends, dtype=np.float64)[order])
    # a new merged interval begins where a start lies beyond every end before it
    begins = np.empty(len(s), dtype=bool)
    begins[0] = True
    begins[1:] = s[1:] > e[:-1]
    first = np.flatnonzero(begins)
    last = np.append(first[1:] - 1, len(s) - 1)
    return s[first], e[last]


def union_length(starts: FloatArray, ends: FloatArray) -> float:
    """Total time covered by at least one interval (overlaps counted once)."""
    s, e = merge(starts, ends)
    return float(np.sum(e - s))
