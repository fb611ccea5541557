"""Who waits for whom in one step: blocking CUDA calls that wait for GPU work, and GPU streams that wait for
an event recorded on another stream.

A trace with ``cuda_sync`` events says so exactly: a device or stream synchronisation waits for the last work
on the device or stream, an event synchronisation (``cudaEventSynchronize``) and a stream's wait
(``cudaStreamWaitEvent``) for the GPU work launched on the recorded stream before its ``cudaEventRecord``;
the waiting stream's next launch is what waits. Without them, a wait is inferred only where the trace shows
it: a synchronising call returned after GPU work ended (on its stream, or every stream for a device
synchronisation), a synchronous copy returned after its copy ended, and any runtime call that took longer than
its name's unblocked calls do returned right after GPU work ended (a launch or copy behind a full launch queue, a
free that synchronised): it waited for that work. A blocked call keeps as its own time what its name's calls
take unblocked; the rest of its duration is the wait.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dependencies import CONTEXT_SYNC, EVENT_SYNC, STREAM_WAIT_EVENT
from .dependencies import STREAM_SYNC as STREAM_SYNC_EVENT
from .events import FloatArray, IntArray
from .trace_index import TraceIndex
from .wait_calls import BLOCK_SLACK_US, COPY, DEVICE_SYNC, RETURN_RATIO, RETURN_US, STREAM_SYNC


@dataclass(frozen=True)
class StepGpu:
    """A step's GPU events (local numbering), sorted by stream then start, times clipped to the step."""

    event: IntArray  # the trace's GPU event of each
    stream: IntArray  # stream id
    start: FloatArray
    end: FloatArray
    launch_ts: FloatArray  # the launching call's start (the event's start when unknown)
    stream_ptr: dict[int, tuple[int, int]]  # stream id → [first, last + 1) of its events


@dataclass(frozen=True)
class Waits:
    """``call[i]`` (a local CPU row) waited for ``event[i]`` (a local GPU event), keeping ``own[i]`` µs of its own
    work before the wait ended; ``dst[j]`` (a GPU event) waited for ``src[j]``."""

    call: IntArray
    event: IntArray
    own: FloatArray
    src: IntArray
    dst: IntArray
    counts: dict[str, int]


def _unexplained(counts: dict[str, int], took: float, typical: float) -> None:
    """A call that took ``took`` µs where its name's calls take ``typical`` unblocked, with nothing ending as it
    returned: counted when it ran long (past the slack a blocked call exceeds its typical time by), with the time
    beyond its typical."""
    if took < typical + BLOCK_SLACK_US:
        return
    counts["unexplained_blocks"] += 1
    counts["unexplained_block_us"] += int(round(took - typical))


def _last_ended_by(g: StepGpu, stream: int, t: float) -> int:
    """The last event on ``stream`` that ended by ``t`` (-1: none)."""
    lo, hi = g.stream_ptr.get(stream, (0, 0))
    k = int(np.searchsorted(g.end[lo:hi], t, side="right")) - 1
    return lo + k if k >= 0 else -1


def _last_launched_by(g: StepGpu, stream: int, t: float) -> int:
    """The last event on ``stream`` whose launch began by ``t`` (-1: none)."""
    lo, hi = g.stream_ptr.get(stream, (0, 0))
    envelope = np.maximum.accumulate(g.launch_ts[lo:hi]) if hi > lo else g.launch_ts[lo:hi]
    k = int(np.searchsorted(envelope, t, side="right")) - 1
    return lo + k if k >= 0 else -1


def _first_launched_after(g: StepGpu, stream: int, t: float) -> int:
    """The first event on ``stream`` whose launch began after ``t`` (-1: none)."""
    lo, hi = g.stream_ptr.get(stream, (0, 0))
    envelope = np.minimum.accumulate(g.launch_ts[lo:hi][::-1])[::-1] if hi > lo else g.launch_ts[lo:hi]
    k = int(np.searchsorted(envelope, t, side="right"))
    return lo + k if k < hi - lo else -1


def find_waits(
    ix: TraceIndex,
    rows: IntArray,
    row_start: FloatArray,
    row_end: FloatArray,
    g: StepGpu,
) -> Waits:
    """The waits of one step whose CPU rows are ``rows`` (sorted by row number) and GPU events ``g``."""
    ev, deps = ix.trace.events, ix.trace.deps
    calls: list[int] = []
    waited: list[int] = []
    src: list[int] = []
    dst: list[int] = []
    own: list[float] = []
    counts = {"waits_recorded": 0, "waits_inferred": 0, "launch_queue_waits": 0, "blocked_calls": 0}
    # A call that looks blocked but that no GPU work's end explains stays its own time: said, with that time (µs).
    counts |= {"unexplained_blocks": 0, "unexplained_block_us": 0}
    by_event = np.argsort(g.event, kind="stable")

    def local_of_row(row: int) -> int:
        k = int(np.searchsorted(rows, row))
        return k if k < len(rows) and rows[k] == row else -1

    def local_of_gpu(event: int) -> int:
        k = int(np.searchsorted(g.event, event, sorter=by_event))
        return int(by_event[k]) if k < len(by_event) and g.event[by_event[k]] == event else -1

    def streams_of(device: int) -> list[int]:
        return [s for s in g.stream_ptr if device < 0 or int(ix.stream_device[s]) == device]

    def stream_of(device: int, stream: int) -> int:
        key = device * (1 << 32) + (stream & 0xFFFFFFFF)
        keys = ix.stream_keys
        k = int(np.searchsorted(keys, key))
        return k if k < len(keys) and keys[k] == key else -1

    def recorded_kernel(device: int, stream: int, record_corr: int) -> int:
        record = ix.row_of_corr(record_corr)
        s = stream_of(device, stream)
        if record < 0 or s < 0:
            return -1
        return _last_launched_by(g, s, float(ev.cpu_ts[record]))

    synced_calls = set()
    for k in range(len(deps.sync_kind)):
        row = ix.row_of_corr(int(deps.sync_corr[k]))
        call = local_of_row(row) if row >= 0 else -1
        if call < 0:
            continue
        synced_calls.add(call)
        kind, device = int(deps.sync_kind[k]), int(deps.sync_device[k])
        end = float(row_end[call])
        if kind in (CONTEXT_SYNC, STREAM_SYNC_EVENT):
            targets = streams_of(device) if kind == CONTEXT_SYNC else [stream_of(device, int(deps.sync_stream[k]))]
            for s in targets:
                e = _last_ended_by(g, s, end) if s >= 0 else -1
                if e >= 0:
                    calls.append(call)
                    waited.append(e)
                    own.append(0.0)
                    counts["waits_recorded"] += 1
        elif kind in (EVENT_SYNC, STREAM_WAIT_EVENT):
            source = recorded_kernel(device, int(deps.sync_wait_stream[k]), int(deps.sync_record_corr[k]))
            if source < 0:
                continue
            if kind == EVENT_SYNC:
                calls.append(call)
                waited.append(source)
                own.append(0.0)
            else:
                target = _first_launched_after(g, stream_of(device, int(deps.sync_stream[k])), float(row_start[call]))
                if target < 0 or target == source:
                    continue
                src.append(source)
                dst.append(target)
            counts["waits_recorded"] += 1

    ends_order = np.argsort(g.end, kind="stable")
    ends_sorted = g.end[ends_order]
    classes = ix.wait_class[rows]
    typical_of = np.nan_to_num(ix.name_typical, nan=0.0)  # once: per call it costs more than the rest of the loop
    for call in np.flatnonzero(classes).tolist():
        if call in synced_calls:
            continue
        cls, row = int(classes[call]), int(rows[call])
        start, end = float(row_start[call]), float(row_end[call])
        if cls == DEVICE_SYNC:
            synced = False
            for s in streams_of(-1):
                e = _last_ended_by(g, s, end)
                if e >= 0:
                    calls.append(call)
                    waited.append(e)
                    own.append(0.0)
                    counts["waits_inferred"] += 1
                    synced = True
            if not synced:
                _unexplained(counts, end - start, float(typical_of[ev.cpu_name[row]]))
            continue
        if cls == STREAM_SYNC:
            found = [e for s in streams_of(-1) if (e := _last_ended_by(g, s, end)) >= 0]
            if found:
                calls.append(call)
                waited.append(max(found, key=lambda e: float(g.end[e])))
                own.append(0.0)
                counts["waits_inferred"] += 1
            else:
                _unexplained(counts, end - start, float(typical_of[ev.cpu_name[row]]))
            continue
        if cls == COPY:
            e = local_of_gpu(int(ix.gpu_of_row[row]))
            if e >= 0 and start < float(g.end[e]) <= end:
                calls.append(call)
                waited.append(e)
                own.append(0.0)
                counts["waits_inferred"] += 1
                continue
        # BLOCKED, or a copy call that did not wait for its own copy: did it return right after GPU work ended?
        typical = float(typical_of[ev.cpu_name[row]])
        if end - start < typical + BLOCK_SLACK_US:
            continue
        k = int(np.searchsorted(ends_sorted, end, side="right")) - 1
        if k < 0 or end - ends_sorted[k] > max(RETURN_US, RETURN_RATIO * (end - start)) or ends_sorted[k] <= start:
            _unexplained(counts, end - start, typical)
            continue
        calls.append(call)
        waited.append(int(ends_order[k]))
        own.append(max(typical - (end - float(ends_sorted[k])), 0.0))
        counts["launch_queue_waits" if ix.gpu_of_row[row] >= 0 else "blocked_calls"] += 1

    def arr(values: list[int]) -> IntArray:
        return np.array(values, dtype=np.int64)

    return Waits(arr(calls), arr(waited), np.array(own, dtype=np.float64), arr(src), arr(dst), counts)
