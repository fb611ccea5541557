"""What the step graphs look up across a whole trace: which call launched each GPU event, the streams, the
calls by correlation, typical call durations, and the profiler steps chosen by name."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..names import STEP_PREFIX
from .dependencies import ANNOTATION, OP, RUNTIME, SYNC_RECORD, GraphTrace
from .events import FloatArray, IntArray, TraceEvents
from .names import is_cpu_collective
from .steps import one_process, process_of
from .wait_calls import BLOCK_SLACK_US, TYPICAL_QUANTILE, thread_waits, waits_by_row


@dataclass(frozen=True)
class StepWindow:
    """One step: the annotation's CPU row, its window (µs since the trace's start) and thread."""

    name: str
    row: int
    start: float
    end: float
    thread: int


@dataclass(frozen=True)
class TraceIndex:
    """Lookups built once per trace (arrays indexed by CPU row or GPU event)."""

    trace: GraphTrace
    usable: np.ndarray  # CPU rows the graph holds: not a cuda_sync record, a positive duration
    launch_row: IntArray  # per GPU event: the CPU row of the call that launched it (-1: unknown)
    launch_ts: FloatArray  # per GPU event: that call's start (nan: unknown)
    stream_id: IntArray  # per GPU event: its (device, stream), numbered
    stream_keys: IntArray  # per stream id: device << 32 | stream, sorted
    stream_device: IntArray  # per stream id: the device
    wait_class: IntArray  # per CPU row: how it may wait for the GPU (see waits.WAIT_CLASSES; 0: it does not)
    corr_sorted: IntArray  # correlations of runtime calls, sorted
    corr_rows: IntArray  # their CPU rows
    name_typical: FloatArray  # per name: the mean duration of its unblocked-looking calls (nan: not a call)
    gpu_of_row: IntArray  # per CPU row: the GPU event it launched (-1: none)
    cpu_by_ts: IntArray  # CPU rows in start order
    gpu_by_ts: IntArray  # GPU events in start order
    gpu_max_dur: float  # the longest GPU event: how far back an event running at a moment may have started
    row_process: IntArray  # per CPU row: its process, numbered (a step takes its own process's rows only)
    name_joins: np.ndarray  # per name: an op of that name waits for another thread (aten::wait)
    name_collective: np.ndarray  # per name: a CPU operation that is a collective (gloo:all_reduce)
    name_forked: np.ndarray  # per name: the top-level event of a torch.jit.fork branch (``<forked function>``)

    def row_of_corr(self, corr: int) -> int:
        """The CPU row of the runtime call with this correlation (-1: none)."""
        i = int(np.searchsorted(self.corr_sorted, corr))
        if i < len(self.corr_sorted) and self.corr_sorted[i] == corr:
            return int(self.corr_rows[i])
        return -1


FORKED_BRANCH = "<forked function>"  # the top-level event of a torch.jit.fork branch on an inter-op thread


def index_trace(trace: GraphTrace) -> TraceIndex:
    ev, deps = trace.events, trace.deps
    usable = (deps.cpu_class != SYNC_RECORD) & (ev.cpu_dur > 0)
    runtime = np.flatnonzero((deps.cpu_class == RUNTIME) & (deps.cpu_corr >= 0))
    order = np.argsort(deps.cpu_corr[runtime], kind="stable")
    corr_sorted, corr_rows = deps.cpu_corr[runtime][order], runtime[order]
    n_gpu = len(ev.gpu_ts)
    launch_row = np.full(n_gpu, -1, dtype=np.int64)
    if len(corr_sorted) and n_gpu:
        at = np.clip(np.searchsorted(corr_sorted, ev.gpu_corr), 0, len(corr_sorted) - 1)
        found = (corr_sorted[at] == ev.gpu_corr) & (ev.gpu_corr >= 0)
        launch_row[found] = corr_rows[at[found]]
    launch_ts = np.full(n_gpu, np.nan)
    known = launch_row >= 0
    launch_ts[known] = ev.cpu_ts[launch_row[known]]
    gpu_of_row = np.full(len(ev.cpu_ts), -1, dtype=np.int64)
    gpu_of_row[launch_row[known]] = np.flatnonzero(known)
    pairs = ev.gpu_device * (1 << 32) + (ev.gpu_stream & 0xFFFFFFFF) if n_gpu else np.empty(0, dtype=np.int64)
    keys, stream_id = np.unique(pairs, return_inverse=True)
    name_typical = np.full(len(ev.names), np.nan)
    calls = np.flatnonzero(deps.cpu_class == RUNTIME)
    if len(calls):
        names, durs = ev.cpu_name[calls], ev.cpu_dur[calls]
        by = np.lexsort((durs, names))
        names, durs = names[by], durs[by]
        starts = np.flatnonzero(np.concatenate(([True], names[1:] != names[:-1])))
        ends = np.append(starts[1:], len(names))
        # unblocked: no longer than the name's lower quartile plus the slack a blocked call exceeds it by
        at = starts + ((ends - 1 - starts) * TYPICAL_QUANTILE).astype(np.int64)
        limit = np.repeat(durs[at] + BLOCK_SLACK_US, ends - starts)
        calm = durs <= limit
        group = np.repeat(np.arange(len(starts)), ends - starts)
        total = np.bincount(group[calm], weights=durs[calm], minlength=len(starts))
        count = np.bincount(group[calm], minlength=len(starts))
        name_typical[names[starts]] = total / np.maximum(count, 1)
    wait_class = waits_by_row(ev.names, ev.cpu_name, ev.cpu_dur, deps.cpu_class == RUNTIME, gpu_of_row, name_typical)
    return TraceIndex(
        trace=trace,
        usable=usable,
        launch_row=launch_row,
        launch_ts=launch_ts,
        stream_id=stream_id.astype(np.int64).reshape(-1),
        stream_keys=keys.astype(np.int64),
        stream_device=(keys >> 32).astype(np.int64),
        wait_class=wait_class,
        corr_sorted=corr_sorted,
        corr_rows=corr_rows,
        name_typical=name_typical,
        gpu_of_row=gpu_of_row,
        cpu_by_ts=np.argsort(ev.cpu_ts, kind="stable"),
        gpu_by_ts=np.argsort(ev.gpu_ts, kind="stable"),
        gpu_max_dur=float(ev.gpu_dur.max()) if n_gpu else 0.0,
        row_process=_row_process(ev),
        name_joins=thread_waits(ev.names),
        name_collective=np.array([is_cpu_collective(n) for n in ev.names], dtype=bool),
        name_forked=np.array([n == FORKED_BRANCH for n in ev.names], dtype=bool),
    )


def _row_process(ev: TraceEvents) -> IntArray:
    codes: dict[str, int] = {}
    of_thread = np.array(
        [codes.setdefault(process_of(ev, t), len(codes)) for t in range(len(ev.threads))], dtype=np.int64
    )
    return of_thread[ev.cpu_thread] if len(of_thread) else np.zeros(len(ev.cpu_thread), dtype=np.int64)


def find_step_windows(trace: GraphTrace, prefix: str = STEP_PREFIX) -> list[StepWindow]:
    """User annotations whose name starts with ``prefix``, on the thread that has most of them, in time order;
    a step inside another is left out (it is part of the outer one). Raises :class:`TraceError` when steps were
    recorded by more than one process."""
    ev, deps = trace.events, trace.deps
    ids = [i for i, n in enumerate(ev.names) if n.startswith(prefix)]
    if not ids:
        return []
    # user annotations (older traces record ProfilerStep as an operator)
    rows = np.flatnonzero(np.isin(ev.cpu_name, ids) & np.isin(deps.cpu_class, (ANNOTATION, OP)))
    if not len(rows):
        return []
    one_process(ev, rows)
    threads, counts = np.unique(ev.cpu_thread[rows], return_counts=True)
    thread = int(threads[np.argmax(counts)])
    rows = rows[ev.cpu_thread[rows] == thread]
    rows = rows[np.lexsort((-ev.cpu_dur[rows], ev.cpu_ts[rows]))]
    found: list[StepWindow] = []
    outer_end = -np.inf
    for r in rows.tolist():
        start, end = float(ev.cpu_ts[r]), float(ev.cpu_ts[r] + ev.cpu_dur[r])
        if end <= outer_end:
            continue  # nested in the step before: part of it
        found.append(StepWindow(ev.names[ev.cpu_name[r]], r, start, end, thread))
        outer_end = max(outer_end, end)
    return found
