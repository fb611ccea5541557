"""What a trace says about dependencies, beside the import's columns: correlations, CUDA sync events, GPU annotations.

A reader that fills :class:`TraceEvents` for the import can fill a :class:`DependencyBuilder` in the same pass;
:class:`DependencyColumns` then holds, aligned with the CPU rows of the events, each row's correlation and
category class, and apart from them the ``cuda_sync`` events (what a synchronisation waited for) and the
``gpu_user_annotation`` spans. Times are microseconds since the trace's start, like the events'.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from .events import FloatArray, IntArray, TraceEvents

# the class of a CPU row, by its category: what a what-if may scale and what the graph leaves out
OP, RUNTIME, ANNOTATION, OTHER, SYNC_RECORD = 0, 1, 2, 3, 4
_CLASSES = {
    "cpu_op": OP,
    "operator": OP,
    "cuda_runtime": RUNTIME,
    "cuda_driver": RUNTIME,
    "runtime": RUNTIME,
    "hip_runtime": RUNTIME,
    "user_annotation": ANNOTATION,
    "cuda_sync": SYNC_RECORD,
}
# cuda_sync events: device (context) sync, stream sync, event sync, a stream waiting on an event (the Kineto
# reader knows their names: files/traces/kineto_graph.SYNC_KINDS)
CONTEXT_SYNC, STREAM_SYNC, EVENT_SYNC, STREAM_WAIT_EVENT = 0, 1, 2, 3
SYNC_CATEGORY = "cuda_sync"
GPU_ANNOTATION_CATEGORY = "gpu_user_annotation"


def cpu_class(category: str) -> int:
    """The class of a CPU row of this category (python functions and unknown categories: OTHER)."""
    return _CLASSES.get(category.lower(), OTHER)


@dataclass
class DependencyColumns:
    """Columns beside a :class:`TraceEvents`: ``cpu_*`` aligned with its CPU rows, ``sync_*`` one per
    ``cuda_sync`` event, ``gpu_ann_*`` one per ``gpu_user_annotation`` span (names index ``events.names``)."""

    cpu_corr: IntArray
    cpu_class: IntArray
    sync_kind: IntArray
    sync_ts: FloatArray
    sync_corr: IntArray
    sync_device: IntArray
    sync_stream: IntArray
    sync_wait_stream: IntArray
    sync_record_corr: IntArray
    gpu_ann_ts: FloatArray
    gpu_ann_dur: FloatArray
    gpu_ann_name: IntArray
    gpu_ann_device: IntArray
    gpu_ann_stream: IntArray


@dataclass
class GraphTrace:
    """One rank's events with what the critical path needs besides them."""

    events: TraceEvents
    deps: DependencyColumns


class DependencyBuilder:
    """Append-only columns a reader fills as it reads (attributes, for speed)."""

    def __init__(self) -> None:
        self.cpu_corr, self.cpu_class = array("q"), array("q")
        self.sync_kind, self.sync_ts, self.sync_corr = array("q"), array("d"), array("q")
        self.sync_device, self.sync_stream = array("q"), array("q")
        self.sync_wait_stream, self.sync_record_corr = array("q"), array("q")
        self.gpu_ann_ts, self.gpu_ann_dur, self.gpu_ann_name = array("d"), array("d"), array("q")
        self.gpu_ann_device, self.gpu_ann_stream = array("q"), array("q")

    def finish(self, events: TraceEvents) -> DependencyColumns:
        """Freeze into numpy columns, times shifted by the events' origin."""
        if len(self.cpu_corr) != len(events.cpu_ts):
            raise ValueError("the dependency columns are not aligned with the CPU rows")

        def i(a: array[int]) -> IntArray:
            return np.array(a, dtype=np.int64)

        def t(a: array[float]) -> FloatArray:
            return np.array(a, dtype=np.float64) - events.origin

        return DependencyColumns(
            cpu_corr=i(self.cpu_corr),
            cpu_class=i(self.cpu_class),
            sync_kind=i(self.sync_kind),
            sync_ts=t(self.sync_ts),
            sync_corr=i(self.sync_corr),
            sync_device=i(self.sync_device),
            sync_stream=i(self.sync_stream),
            sync_wait_stream=i(self.sync_wait_stream),
            sync_record_corr=i(self.sync_record_corr),
            gpu_ann_ts=t(self.gpu_ann_ts),
            gpu_ann_dur=np.array(self.gpu_ann_dur, dtype=np.float64),
            gpu_ann_name=i(self.gpu_ann_name),
            gpu_ann_device=i(self.gpu_ann_device),
            gpu_ann_stream=i(self.gpu_ann_stream),
        )
