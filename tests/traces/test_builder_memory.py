"""Freezing a trace's columns holds each event once: a huge trace's import does not need its columns twice over
at the end of the read, past the window's memory check (which runs as bytes are read)."""

from __future__ import annotations

import tracemalloc
from array import array

import numpy as np

from amdahl_desk.model.traces.events import TraceBuilder

N = 200_000  # events per column: 1.6 MB a column, 22 MB in all


def _filled() -> TraceBuilder:
    b = TraceBuilder()
    for value in vars(b).values():
        if isinstance(value, array):
            value.extend(array(value.typecode, range(1, N + 1)))
    return b


def test_finish_holds_the_columns_about_once_not_twice():
    tracemalloc.start()  # before the columns are filled: freeing them counts only if their making was traced
    try:
        b = _filled()
        held = sum(a.itemsize * len(a) for a in vars(b).values() if isinstance(a, array))
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        events = b.finish()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    # the numpy columns replace the arrays one at a time: one column is held twice at most, never all of them
    assert peak < held * 0.5, f"finishing took {peak / 1e6:.1f} MB more at its peak for {held / 1e6:.1f} MB of columns"
    assert len(events.cpu_ts) == N and events.origin == 1.0
    assert events.cpu_ts[0] == 0.0 and events.gpu_ts[-1] == N - 1 and events.launch_ts[0] == 0.0
    assert events.cpu_ts.dtype == np.float64 and events.gpu_name.dtype == np.int64 and events.gpu_name[-1] == N
