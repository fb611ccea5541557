"""Trace events kept as columns of numbers, never as one dict per event: what the grouping needs, no more.

A reader fills a :class:`TraceBuilder` (appending to typed arrays, names interned once) and
calls :meth:`TraceBuilder.finish`; everything after works on the numpy columns of :class:`TraceEvents`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

MS_PER_US = 1e-3  # every trace time is in microseconds; every figure a person reads, in milliseconds

# kinds of CPU-side complete events
CPU_OP, CPU_ANNOTATION, CPU_STEP, CPU_RUNTIME = 0, 1, 2, 3
# kinds of GPU events
GPU_COMPUTE, GPU_COMMUNICATION, GPU_MEMCPY, GPU_MEMSET = 0, 1, 2, 3

_CPU_CATEGORIES = {
    "cpu_op": CPU_OP,
    "operator": CPU_OP,
    "python_function": CPU_OP,
    "user_annotation": CPU_ANNOTATION,
    "cuda_runtime": CPU_RUNTIME,
    "cuda_driver": CPU_RUNTIME,
    "runtime": CPU_RUNTIME,
    "hip_runtime": CPU_RUNTIME,
}
_GPU_CATEGORIES = {"kernel": GPU_COMPUTE, "gpu_memcpy": GPU_MEMCPY, "memcpy": GPU_MEMCPY}
_GPU_CATEGORIES.update({"gpu_memset": GPU_MEMSET, "memset": GPU_MEMSET})
# complete events that are not work: the profiler's own span, GPU copies of CPU annotations
IGNORED_CATEGORIES = frozenset({"trace", "gpu_user_annotation", "overhead", "cpu_instant_event"})


def cpu_kind(category: str) -> int | None:
    """The CPU kind of a category (None for a GPU or ignored category); unknown categories count as ops."""
    key = category.lower()
    if key in _GPU_CATEGORIES or key in IGNORED_CATEGORIES:
        return None
    return _CPU_CATEGORIES.get(key, CPU_OP)


def gpu_kind(category: str) -> int | None:
    """The GPU kind of a category (compute for kernels; the name decides communication later)."""
    return _GPU_CATEGORIES.get(category.lower())


@dataclass
class TraceEvents:
    """The events of one trace (one rank) as columns; times in microseconds since the trace's start."""

    names: list[str]
    threads: list[str]
    origin: float
    cpu_ts: FloatArray
    cpu_dur: FloatArray
    cpu_name: IntArray
    cpu_thread: IntArray
    cpu_kind: IntArray
    launch_corr: IntArray
    launch_ts: FloatArray
    gpu_ts: FloatArray
    gpu_dur: FloatArray
    gpu_device: IntArray
    gpu_stream: IntArray
    gpu_kind: IntArray
    gpu_corr: IntArray
    gpu_name: IntArray
    info: dict[str, Any] = field(default_factory=dict)
    complete_events: int = 0

    @property
    def has_gpu(self) -> bool:
        return len(self.gpu_ts) > 0


# The columns a builder fills and freezes, in TraceEvents' order: the "d" arrays are times (µs), the "q" ids.
_COLUMNS = tuple(f.name for f in fields(TraceEvents) if f.name.startswith(("cpu_", "launch_", "gpu_")))


class TraceBuilder:
    """Append-only columns that a reader fills in its loop (attributes, not methods, for speed)."""

    def __init__(self) -> None:
        self.name_ids: dict[str, int] = {}
        self.thread_ids: dict[tuple[object, object], int] = {}
        self.cpu_ts, self.cpu_dur = array("d"), array("d")
        self.cpu_name, self.cpu_thread, self.cpu_kind = array("q"), array("q"), array("q")
        self.launch_corr, self.launch_ts = array("q"), array("d")
        self.gpu_ts, self.gpu_dur = array("d"), array("d")
        self.gpu_device, self.gpu_stream, self.gpu_kind = array("q"), array("q"), array("q")
        self.gpu_corr, self.gpu_name = array("q"), array("q")
        self.info: dict[str, Any] = {}
        self.complete_events = 0

    def name_id(self, name: str) -> int:
        found = self.name_ids.get(name)
        if found is None:
            found = self.name_ids[name] = len(self.name_ids)
        return found

    def thread_id(self, pid: object, tid: object) -> int:
        key = (pid, tid)
        found = self.thread_ids.get(key)
        if found is None:
            found = self.thread_ids[key] = len(self.thread_ids)
        return found

    def finish(self) -> TraceEvents:
        """Freeze into numpy columns, times shifted to start at 0 (the origin is kept).

        Each column is copied and its array emptied before the next: the columns of a huge trace are held once
        and one column twice, not all of them twice (a 1.3 GB trace took the window 0.5 GB past what it keeps)."""
        starts = [float(np.frombuffer(a, dtype=np.float64).min()) for a in (self.cpu_ts, self.gpu_ts) if a]
        origin = min(starts) if starts else 0.0

        columns: dict[str, Any] = {}
        for name in _COLUMNS:
            a = getattr(self, name)
            column: NDArray[Any] = np.array(a, dtype=np.float64 if a.typecode == "d" else np.int64)
            setattr(self, name, array(a.typecode))  # the builder's copy goes now, before the next column
            if name.endswith("_ts"):  # times since the trace's start
                column -= origin
            columns[name] = column
        names = [""] * len(self.name_ids)
        for n, k in self.name_ids.items():
            names[k] = n
        threads = [""] * len(self.thread_ids)
        for (p, t), k in self.thread_ids.items():
            threads[k] = f"{p}/{t}"
        return TraceEvents(
            names=names,
            threads=threads,
            origin=origin,
            **columns,
            info=self.info,
            complete_events=self.complete_events,
        )
