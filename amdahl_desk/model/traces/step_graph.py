"""One profiler step as a dependency graph (HTA's lightweight critical path, with every observed gap kept).

* **CPU**: each thread's events, nested, make one chain of start and end points; the segment between two
  points is the own (exclusive) time of the innermost event open then, or the thread's idle time.
* **GPU**: each stream's events, in order, make one chain; an event starts at the latest of its launch
  (plus the observed launch latency when the stream was idle), the end of the event before it on the
  stream (plus the observed gap when it was queued behind it) and the events it waits for
  (:mod:`.waits`). Only the latest of these keeps the observed gap to the start; the others say "no earlier".
* **Waits**: a blocking call's end gains a point where its wait ended: the time from there to the call's
  end is the call's own, and so is what its name's calls take unblocked (:mod:`.waits`); the rest of the time
  before it is the GPU work it waited for, never CPU work.

The step is its annotation's window: CPU events that start in it (any thread) and GPU events that run in
it, cut to it; it lasts until its own thread and the GPU are done (another thread's work counts through the
waits of the step's thread on it). With every weight as observed, the schedule reproduces every point's observed time, and the
critical path is exactly as long as the step.
"""

from __future__ import annotations

import numpy as np

from . import path_graph as pg
from .cpu_chains import cpu_chains
from .dependencies import GraphTrace
from .events import GPU_COMMUNICATION, GPU_COMPUTE, IntArray
from .nesting import nest
from .path_graph import (
    CPU,
    GPU_GAP,
    GPU_MEMORY,
    GPU_SIDE,
    LAUNCH,
    NO_WEIGHT,
    ChainBuilder,
    PathGraph,
    StepPoints,
    freeze,
    join,
)
from .trace_index import StepWindow, TraceIndex, index_trace
from .waits import StepGpu, Waits, find_waits

LAUNCH_LATENCY_US = 50.0  # a kernel launch's own latency stays under this (CUDA's is 5–20 µs)


def build_paths(trace: GraphTrace, steps: list[StepWindow], ix: TraceIndex | None = None) -> PathGraph:
    """The graph of ``steps`` of ``trace``, step after step."""
    ix = ix or index_trace(trace)
    counts: dict[str, int] = {}
    parts: list[StepPoints] = []
    for step in steps:
        points, found = _step(ix, step)
        parts.append(points)
        for k, v in found.items():
            counts[k] = counts.get(k, 0) + v
    ev = trace.events
    windows = [(s.start, s.end) for s in steps]
    return join(parts, windows, len(ev.cpu_ts) + len(ev.gpu_ts), len(ev.cpu_ts), counts, [s.thread for s in steps])


def _cpu_rows(ix: TraceIndex, step: StepWindow) -> IntArray:
    """The step's CPU rows: its own process's, on any of its threads (another process in the file is not its)."""
    ts = ix.trace.events.cpu_ts
    lo, hi = np.searchsorted(ts[ix.cpu_by_ts], [step.start, step.end])
    rows = ix.cpu_by_ts[lo:hi]
    rows = rows[ix.usable[rows] & (ix.row_process[rows] == ix.row_process[step.row])]
    return np.sort(rows)


def _gpu(ix: TraceIndex, start: float, end: float) -> StepGpu:
    ev = ix.trace.events
    ts_sorted = ev.gpu_ts[ix.gpu_by_ts]
    lo, hi = np.searchsorted(ts_sorted, [start - ix.gpu_max_dur, end])
    cand = ix.gpu_by_ts[lo:hi]
    stop = ev.gpu_ts[cand] + ev.gpu_dur[cand]
    keep = (stop > start) | ((ev.gpu_dur[cand] <= 0) & (ev.gpu_ts[cand] >= start))
    events = cand[keep & (ev.gpu_ts[cand] < end)]
    stream = ix.stream_id[events]
    order = np.lexsort((ev.gpu_ts[events] + ev.gpu_dur[events], ev.gpu_ts[events], stream))
    events, stream = events[order], stream[order]
    s = np.maximum(ev.gpu_ts[events], start)
    e = np.minimum(ev.gpu_ts[events] + ev.gpu_dur[events], end)
    same = np.concatenate((stream[1:] == stream[:-1], [False])) if len(stream) else np.zeros(0, dtype=bool)
    e[same] = np.minimum(e[same], s[1:][same[:-1]])  # events that overlap on one stream: cut at the next start
    e = np.maximum(e, s)
    launch = ix.launch_ts[events]
    launch = np.where(np.isnan(launch), s, launch)
    bounds = np.flatnonzero(np.concatenate(([True], stream[1:] != stream[:-1]))) if len(stream) else np.empty(0, int)
    stops = np.append(bounds[1:], len(stream)) if len(stream) else bounds
    ptr = {int(stream[b]): (int(b), int(c)) for b, c in zip(bounds, stops, strict=True)}
    return StepGpu(events, stream, s, e, launch, ptr)


def _step(ix: TraceIndex, step: StepWindow) -> tuple[StepPoints, dict[str, int]]:
    ev = ix.trace.events
    a, b = step.start, step.end
    rows = _cpu_rows(ix, step)
    g = _gpu(ix, a, b)
    thread = ev.cpu_thread[rows]
    ts = ev.cpu_ts[rows]
    by = np.lexsort((-ev.cpu_dur[rows], ts, thread))
    parent_n, end_n = nest(thread[by], ts[by], np.minimum(ts[by] + ev.cpu_dur[rows[by]], b))
    # back to row order (find_waits looks rows up by number); ``order`` is each row's place in start order
    order = np.empty(len(rows), dtype=np.int64)
    order[by] = np.arange(len(rows))
    cut_end = end_n[order]
    parent = np.where(parent_n >= 0, by[np.maximum(parent_n, 0)], -1)[order]
    waits = find_waits(ix, rows, ts, cut_end, g)
    builder = ChainBuilder()
    wait_end: dict[int, tuple[float, float]] = {}  # a waiting call → (when its wait ended, its own work before)
    for call, event, own in zip(waits.call.tolist(), waits.event.tolist(), waits.own.tolist(), strict=True):
        done, kept = wait_end.get(call, (-np.inf, np.inf))
        wait_end[call] = (max(done, float(g.end[event])), min(kept, own))
    cpu = cpu_chains(builder, ix, step, rows, ts, cut_end, parent, order, wait_end)
    _gpu_chains(builder, ix, step, rows, cpu.start_point, cpu.wait_point, waits, g)
    points = freeze(builder, a)
    return points, {**waits.counts, **cpu.counts, "gpu_events": len(g.event), "cpu_events": len(rows)}


def _gpu_chains(
    builder: ChainBuilder,
    ix: TraceIndex,
    step: StepWindow,
    rows: IntArray,
    s_point: IntArray,
    w_point: dict[int, int],
    waits: Waits,
    g: StepGpu,
) -> None:
    """One chain per stream (start and end of each event), the launch and wait edges, the sync edges."""
    ev = ix.trace.events
    m = len(g.event)
    if m == 0:
        return
    a = step.start
    started_before = ev.gpu_ts[g.event] < a
    # the launching call's start point, when the call is in the step
    launch_row = ix.launch_row[g.event]
    k = np.clip(np.searchsorted(rows, launch_row), 0, max(len(rows) - 1, 0))
    in_step = (launch_row >= 0) & (len(rows) > 0)
    in_step &= rows[k] == launch_row if len(rows) else in_step
    launch_pt = np.where(in_step, s_point[k] if len(rows) else -1, -1)
    launch_t = np.where(launch_pt >= 0, g.launch_ts, -np.inf)
    skewed = launch_t > g.start  # a kernel that starts before its launch call: the clocks disagree
    launch_pt[skewed], launch_t[skewed] = -1, -np.inf
    first = np.concatenate(([True], g.stream[1:] != g.stream[:-1]))
    prev_end = np.where(first, -np.inf, np.roll(g.end, 1))
    wait_t = np.full(m, -np.inf)
    ok_wait = g.start[waits.dst] >= g.end[waits.src] if len(waits.dst) else np.zeros(0, dtype=bool)
    src, dst = waits.src[ok_wait], waits.dst[ok_wait]
    np.maximum.at(wait_t, dst, g.end[src])
    release_t = np.where(first & ~started_before & (launch_pt < 0), a, -np.inf)
    latest = np.maximum.reduce([prev_end, wait_t, launch_t, release_t])
    by_prev = ~first & (prev_end >= latest)
    by_wait = ~by_prev & (wait_t >= latest) & np.isfinite(wait_t)
    by_launch = ~by_prev & ~by_wait & (launch_t >= latest) & np.isfinite(launch_t)
    # points: S0 E0 S1 E1 … per stream, in stream order
    p_time = np.empty(2 * m)
    p_time[0::2], p_time[1::2] = g.start, g.end
    phase = np.tile([1, 0], m)
    s_weight = np.where(by_prev, g.start - prev_end, 0.0)
    s_weight = np.where(
        first, np.where(started_before, 0.0, np.where(np.isfinite(release_t), g.start - a, NO_WEIGHT)), s_weight
    )
    weight = np.empty(2 * m)
    weight[0::2], weight[1::2] = s_weight, g.end - g.start
    owner = np.empty(2 * m, dtype=np.int64)
    owner[0::2], owner[1::2] = -1, len(ev.cpu_ts) + g.event
    gk = ev.gpu_kind[g.event]
    kinds = np.empty(2 * m, dtype=np.int64)
    kinds[0::2] = GPU_GAP
    kinds[1::2] = np.where(
        gk == GPU_COMPUTE, pg.GPU_COMPUTE, np.where(gk == GPU_COMMUNICATION, pg.GPU_COMMUNICATION, GPU_MEMORY)
    )
    bounds = np.flatnonzero(first)
    base = np.empty(m, dtype=np.int64)
    for lo, hi in zip(bounds.tolist(), np.append(bounds[1:], m).tolist(), strict=True):
        at = builder.add_chain(
            p_time[2 * lo : 2 * hi], phase[2 * lo : 2 * hi], GPU_SIDE, weight[2 * lo : 2 * hi],
            owner[2 * lo : 2 * hi], kinds[2 * lo : 2 * hi], -1 - int(g.stream[lo]),
        )  # fmt: skip
        base[lo:hi] = at + 2 * np.arange(hi - lo)
    s_of, e_of = base, base + 1
    has = launch_pt >= 0
    lw = np.where(by_launch, g.start - launch_t, 0.0)
    # A launch that bound its kernel's start keeps the measured delay (the replay is the step as measured); past
    # what a launch costs, that delay is the kernel waiting on GPU work the trace does not link to it (another
    # stream, another rank), and is counted as GPU waiting, not as launch overhead.
    kind = np.where(lw[has] > LAUNCH_LATENCY_US, GPU_GAP, LAUNCH).astype(np.int64)
    builder.add_edges(launch_pt[has], s_of[has], lw[has], kind)
    binding_src = np.zeros(len(src), dtype=bool)
    if len(src):
        best = by_wait[dst] & (g.end[src] >= wait_t[dst])
        first_best = np.zeros(m, dtype=bool)
        for i in np.flatnonzero(best).tolist():  # one binding wait per event, the first of the latest
            if not first_best[dst[i]]:
                binding_src[i] = first_best[dst[i]] = True
    ww = np.where(binding_src, g.start[dst] - g.end[src], 0.0)
    builder.add_edges(e_of[src], s_of[dst], ww, np.full(len(src), GPU_GAP, dtype=np.int64))
    if len(waits.call):
        sync_dst = np.array([w_point[int(c)] for c in waits.call.tolist()], dtype=np.int64)
        n = len(sync_dst)
        builder.add_edges(e_of[waits.event], sync_dst, np.zeros(n), np.full(n, CPU, dtype=np.int64))
