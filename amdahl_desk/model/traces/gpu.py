"""A GPU's timeline as Amdahl components: compute, exposed communication, memory, idle — never double-counted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .events import GPU_COMMUNICATION, GPU_COMPUTE, TraceEvents
from .intervals import FloatArray, union_length


@dataclass(frozen=True)
class GpuSplit:
    """One device's time (µs) split so that compute + exposed communication + memory + idle = span.

    ``overlapped_communication`` is communication hidden under compute: not part of the sum,
    it is what overlapping communication with compute has already won.
    """

    device: int
    compute: float
    exposed_communication: float
    overlapped_communication: float
    memory: float
    idle: float
    span: float

    def scaled(self, factor: float) -> GpuSplit:
        return GpuSplit(
            self.device,
            self.compute * factor,
            self.exposed_communication * factor,
            self.overlapped_communication * factor,
            self.memory * factor,
            self.idle * factor,
            self.span * factor,
        )


def split_intervals(
    device: int,
    compute: tuple[FloatArray, FloatArray],
    communication: tuple[FloatArray, FloatArray],
    memory: tuple[FloatArray, FloatArray],
    window: tuple[float, float] | None = None,
) -> GpuSplit:
    """The split of intervals (starts, ends) by kind; the span is ``window``, else first start to last end."""
    everything = [p for p in (compute, communication, memory) if len(p[0])]
    if not everything:
        empty = 0.0 if window is None else window[1] - window[0]
        return GpuSplit(device, 0.0, 0.0, 0.0, 0.0, empty, empty)
    starts = np.concatenate([p[0] for p in everything])
    ends = np.concatenate([p[1] for p in everything])
    span = float(ends.max() - starts.min()) if window is None else window[1] - window[0]
    c = union_length(*compute)
    cm = union_length(np.concatenate([compute[0], communication[0]]), np.concatenate([compute[1], communication[1]]))
    m = union_length(*communication)
    busy = union_length(starts, ends)
    exposed = cm - c
    return GpuSplit(device, c, exposed, max(m - exposed, 0.0), busy - cm, max(span - busy, 0.0), span)


def split_device(events: TraceEvents, device: int, window: tuple[float, float] | None = None) -> GpuSplit:
    """The split of ``device``'s timeline: the whole of it, or ``window`` (events clipped to it, span = window)."""
    rows = np.flatnonzero(events.gpu_device == device)
    ts, end, kind = events.gpu_ts[rows], events.gpu_ts[rows] + events.gpu_dur[rows], events.gpu_kind[rows]
    if window is not None:
        lo, hi = window
        ts, end = np.maximum(ts, lo), np.minimum(end, hi)
        inside = end > ts
        ts, end, kind = ts[inside], end[inside], kind[inside]

    def pick(mask: np.ndarray) -> tuple[FloatArray, FloatArray]:
        return ts[mask], end[mask]

    return split_intervals(
        device,
        pick(kind == GPU_COMPUTE),
        pick(kind == GPU_COMMUNICATION),
        pick(kind > GPU_COMMUNICATION),
        window,
    )


def mean_split(splits: Sequence[GpuSplit]) -> GpuSplit:
    """The mean of per-step splits."""
    n = len(splits)
    if n == 0:
        raise ValueError("no splits to average")
    return GpuSplit(
        splits[0].device,
        sum(s.compute for s in splits) / n,
        sum(s.exposed_communication for s in splits) / n,
        sum(s.overlapped_communication for s in splits) / n,
        sum(s.memory for s in splits) / n,
        sum(s.idle for s in splits) / n,
        sum(s.span for s in splits) / n,
    )


def devices(events: TraceEvents) -> list[int]:
    """Devices that have GPU events, busiest first."""
    if not events.has_gpu:
        return []
    ids, inverse = np.unique(events.gpu_device, return_inverse=True)
    busy = np.bincount(inverse, weights=events.gpu_dur)
    return [int(ids[i]) for i in np.argsort(-busy, kind="stable")]
