"""Steps (``ProfilerStep#N``): their windows, the ones far from the median, and which step a GPU event belongs to."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .events import CPU_STEP, IntArray, TraceEvents

# a step more than this far from the median step time (a warm-up, a checkpoint) is flagged
FAR_FROM_MEDIAN = 0.2


@dataclass(frozen=True)
class Step:
    """One profiler step on the CPU: its window in µs since the trace's start; ``flagged`` when its CPU time is
    far from the median, ``gpu_flagged`` when its stretch of the GPU timeline (``gpu_time``, µs) is."""

    name: str
    start: float
    end: float
    thread: int
    flagged: bool = False
    gpu_time: float | None = None
    gpu_flagged: bool = False

    @property
    def duration(self) -> float:
        return self.end - self.start

    @property
    def off(self) -> bool:
        """Far from the median on the CPU or on the GPU: what "leave out flagged steps" leaves out."""
        return self.flagged or self.gpu_flagged


def far_from_median(values: Sequence[float]) -> list[bool]:
    """Which values are more than :data:`FAR_FROM_MEDIAN` away from their median (the one rule for steps)."""
    if not values:
        return []
    median = statistics.median(values)
    return [abs(v - median) > FAR_FROM_MEDIAN * median for v in values]


def with_gpu_stretches(steps: Sequence[Step], windows: Sequence[tuple[float, float] | None]) -> list[Step]:
    """``steps`` with their GPU stretches (see :func:`gpu_step_windows`), those far from the median flagged."""
    spans = [w[1] - w[0] for w in windows if w is not None]
    far = iter(far_from_median(spans))
    return [
        replace(s, gpu_time=w[1] - w[0], gpu_flagged=next(far)) if w is not None else s
        for s, w in zip(steps, windows, strict=True)
    ]


def process_of(events: TraceEvents, thread: int) -> str:
    """The process (pid) a thread belongs to, as the trace names it."""
    return events.threads[thread].rpartition("/")[0] if 0 <= thread < len(events.threads) else ""


def one_process(events: TraceEvents, rows: IntArray) -> None:
    """Refuse steps (``rows``) recorded by more than one process: a file holding two ranks' processes (two
    traces pasted into one) whose correlations and threads cannot be told apart. Raises :class:`TraceError`."""
    pids = sorted({process_of(events, int(t)) for t in np.unique(events.cpu_thread[rows]).tolist()})
    if len(pids) > 1:
        from .errors import TraceError

        raise TraceError(
            f"the trace holds the steps of {len(pids)} processes (pid {', '.join(pids)}): one process (rank) per "
            "file is expected; split the file into one trace per process, or open the ranks' own files as a job"
        )


def find_steps(events: TraceEvents) -> list[Step]:
    """The ``ProfilerStep`` events of the thread that has the most of them, in time order, far ones flagged.

    Raises :class:`TraceError` when steps were recorded by more than one process (:func:`one_process`)."""
    rows = np.flatnonzero(events.cpu_kind == CPU_STEP)
    if len(rows) == 0:
        return []
    one_process(events, rows)
    threads, counts = np.unique(events.cpu_thread[rows], return_counts=True)
    thread = int(threads[np.argmax(counts)])
    rows = rows[events.cpu_thread[rows] == thread]
    rows = rows[np.argsort(events.cpu_ts[rows], kind="stable")]
    steps = [
        Step(
            events.names[events.cpu_name[r]],
            float(events.cpu_ts[r]),
            float(events.cpu_ts[r] + events.cpu_dur[r]),
            thread,
        )
        for r in rows
    ]
    far = far_from_median([s.duration for s in steps])
    return [replace(s, flagged=f) for s, f in zip(steps, far, strict=True)]


def main_thread(events: TraceEvents, steps: list[Step]) -> int | None:
    """The thread whose annotations make the components: the steps' thread, else the one with most annotations."""
    if steps:
        return steps[0].thread
    if len(events.cpu_thread) == 0:
        return None
    from .events import CPU_ANNOTATION

    annotated = events.cpu_thread[events.cpu_kind == CPU_ANNOTATION]
    pool = annotated if len(annotated) else events.cpu_thread
    threads, busy = np.unique(pool, return_counts=True)
    return int(threads[np.argmax(busy)])


def gpu_step_index(events: TraceEvents, steps: list[Step]) -> IntArray:
    """For each GPU event, the index of the step whose CPU window holds its launch (-1: none).

    The launch is the ``cuda_runtime``/``cuda_driver`` event with the same ``args.correlation``.
    """
    result = np.full(len(events.gpu_ts), -1, dtype=np.int64)
    if not steps or len(events.launch_corr) == 0 or len(events.gpu_ts) == 0:
        return result
    order = np.argsort(events.launch_corr, kind="stable")
    corr, launch_ts = events.launch_corr[order], events.launch_ts[order]
    pos = np.clip(np.searchsorted(corr, events.gpu_corr), 0, len(corr) - 1)
    found = (corr[pos] == events.gpu_corr) & (events.gpu_corr >= 0)
    ts = launch_ts[pos]
    starts = np.array([s.start for s in steps])
    ends = np.array([s.end for s in steps])
    k = np.searchsorted(starts, ts, side="right") - 1
    inside = found & (k >= 0) & (ts < ends[np.clip(k, 0, None)])
    result[inside] = k[inside]
    return result


def gpu_step_windows(events: TraceEvents, steps: list[Step], device: int) -> list[tuple[float, float] | None]:
    """Each step's stretch of ``device``'s timeline: from its first GPU event to the next step's first one
    (the last step: to its last event's end). The GPU runs behind the CPU, so these are not the CPU windows;
    consecutive steps' stretches never overlap, so no GPU time is counted twice. None: no event of that step."""
    index = gpu_step_index(events, steps)
    on_device = events.gpu_device == device
    firsts: list[float | None] = []
    lasts: list[float | None] = []
    for k in range(len(steps)):
        rows = np.flatnonzero((index == k) & on_device)
        firsts.append(float(events.gpu_ts[rows].min()) if len(rows) else None)
        lasts.append(float((events.gpu_ts[rows] + events.gpu_dur[rows]).max()) if len(rows) else None)
    windows: list[tuple[float, float] | None] = []
    for k, first in enumerate(firsts):
        if first is None:
            windows.append(None)
            continue
        following = [f for f in firsts[k + 1 :] if f is not None]
        last = lasts[k]
        assert last is not None
        windows.append((first, following[0] if following else last))
    return windows
