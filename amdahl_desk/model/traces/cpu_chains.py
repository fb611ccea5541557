"""A step's CPU threads as chains of points, with the waits that cross from one thread to another.

Each thread's events, nested, give a start and an end point each, in call-stack order; the segment before a
point is the own time of the innermost event open then (none: the thread was idle). A point where a wait
ended is put before the end it delays: a blocking call's (its GPU work, :mod:`.waits`), and, inferred from
the timing, a join on the step's thread — a stretch of an annotation's (or Python's, or a thread-waiting op's
such as ``aten::wait`` on a ``torch.jit.fork``, or idle) time of at
least ``JOIN_MIN_US`` that ends right after another thread's event ends (within ``JOIN_SLACK_US``, or
``JOIN_RATIO`` of the stretch); or an operator's own stretch that waits for a branch it forked (another
thread's ``<forked function>`` or CPU collective that started while the operator ran, ending within
``FORK_SLACK_US`` before the stretch does: a TorchScript function's ``torch.jit.wait`` writes no event), a third thread's work resuming the
function inside that stretch being woken by the branch. Another thread's work that starts after it was idle for ``WAKE_MIN_US`` or
more, within ``WAKE_MAX_US`` of the step thread's latest point, is woken by the step's thread: it starts as long
after that point as it was seen to. Runtime calls on other threads (a thread polling CUDA events) are never
what the step's thread joins. A collective that another thread runs (``gloo:all_reduce`` on gloo's run-loop
thread) and that ends inside such a stretch is what the stretch waits for however late the thread wakes after
it (DDP's gradient futures on a busy machine): counted as ``collective_joins``; a stretch with no such end stays
the thread's own time. A collective is woken by the step thread's latest point however long after it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dependencies import ANNOTATION, OP, OTHER, RUNTIME
from .events import FloatArray, IntArray
from .path_graph import CPU, CPU_SIDE, ChainBuilder
from .trace_index import StepWindow, TraceIndex

JOIN_MIN_US = 100.0
JOIN_SLACK_US = 50.0
JOIN_RATIO = 0.02
FORK_SLACK_US = 250.0
WAKE_MIN_US = 50.0
WAKE_MAX_US = 1000.0


def _unexplained_join(counts: dict[str, int], waits: bool, us: float) -> None:
    """A stretch of a thread-waiting op that nothing ending explains (an annotation's or idle stretch is work)."""
    if waits:
        counts["unexplained_joins"] += 1
        counts["unexplained_join_us"] += int(round(us))


@dataclass(frozen=True)
class CpuPoints:
    """Where the GPU side connects: each row's start point, each waiting call's wait point; the counts."""

    start_point: IntArray  # per local row
    wait_point: dict[int, int]  # local row of a blocking call → its wait point
    counts: dict[str, int]


def cpu_chains(
    builder: ChainBuilder,
    ix: TraceIndex,
    step: StepWindow,
    rows: IntArray,
    ts: FloatArray,
    end: FloatArray,
    parent: IntArray,
    order: IntArray,
    call_wait_end: dict[int, tuple[float, float]],
) -> CpuPoints:
    """Add one chain per thread to ``builder``; ``order`` is each row's place by (thread, start, longest first),
    ``call_wait_end`` maps a blocking call (local row) to when its wait ended and how much of its own work comes
    before that."""
    ev, deps = ix.trace.events, ix.trace.deps
    n = len(rows)
    counts = {"thread_joins": 0, "thread_wakes": 0, "collective_joins": 0, "forked_joins": 0}
    # a thread-waiting op (aten::wait on a fork, a future's wait) that nothing ending explains stays its own time
    counts |= {"unexplained_joins": 0, "unexplained_join_us": 0}
    s_point = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return CpuPoints(s_point, {}, counts)
    local = np.arange(n)
    p_row = np.concatenate((local, local))
    p_start = np.concatenate((np.ones(n, dtype=bool), np.zeros(n, dtype=bool)))
    p_time = np.concatenate((ts, end))
    p_thread = ev.cpu_thread[rows][p_row]
    tie = np.where(p_start, order[p_row], -order[p_row])  # at one time: parents start first and end last
    order = np.lexsort((tie, p_start, p_time, p_thread))
    p_row, p_start, p_time, p_thread = p_row[order], p_start[order], p_time[order], p_thread[order]
    first = np.concatenate(([True], p_thread[1:] != p_thread[:-1]))
    owner = np.where(first, -1, np.where(np.roll(p_start, 1), np.roll(p_row, 1), parent[np.roll(p_row, 1)]))

    # wait points: (insert before this point, at this time, owned by this local row, waiting for these CPU points)
    at: list[int] = []
    w_time: list[float] = []
    w_owner: list[int] = []
    w_call: list[int] = []
    w_own: list[float] = []  # the waiting event's own work before the wait point (joins: none)
    joins: list[tuple[int, int]] = []  # (index into the wait lists, CPU point waited for)
    if call_wait_end:
        e_pos = np.empty(n, dtype=np.int64)
        ends = np.flatnonzero(~p_start)
        e_pos[p_row[ends]] = ends
        for call, (done, own) in sorted(call_wait_end.items()):
            j = int(e_pos[call])
            at.append(j)
            t = max(float(p_time[j - 1]), min(done, float(p_time[j])))
            w_time.append(t)
            w_own.append(min(own, t - float(p_time[j - 1])))
            w_owner.append(call)
            w_call.append(call)
    on_step = p_thread == step.thread
    cls = deps.cpu_class[rows]
    seg_len = np.where(first, 0.0, p_time - np.roll(p_time, 1))
    joins_thread = ix.name_joins[ev.cpu_name[rows]] if len(ix.name_joins) else np.zeros(n, dtype=bool)
    idle_like = (
        (owner < 0) | np.isin(cls[np.maximum(owner, 0)], (ANNOTATION, OTHER)) | joins_thread[np.maximum(owner, 0)]
    )
    candidates = np.flatnonzero(on_step & ~first & idle_like & (seg_len >= JOIN_MIN_US))

    def join(j: int, src: int) -> None:
        """The stretch ending at point ``j`` of the step's thread waits for point ``src`` of another thread."""
        joins.append((len(at), src))
        at.append(j)
        w_time.append(float(p_time[src]))
        w_owner.append(int(owner[j]))
        w_call.append(-1)
        w_own.append(0.0)

    # an op's own stretch waits for a branch it forked (a TorchScript function that runs torch.jit.fork and waits
    # with no aten::wait event of its own): a branch starts on another thread while the op runs, and another
    # thread's work ends within FORK_SLACK_US before the stretch does
    forking = np.flatnonzero(on_step & ~first & ~idle_like & (owner >= 0) & (seg_len >= JOIN_MIN_US))
    forking = forking[cls[owner[forking]] == OP] if len(forking) else forking
    is_cpu_coll = ix.name_collective[ev.cpu_name[rows]] if len(ix.name_collective) else np.zeros(n, dtype=bool)
    forked: list[tuple[float, float]] = []  # the stretches that wait for a forked branch: (start, end)
    if len(forking):
        # a branch's end: another thread's top-level event that is a fork's branch as TorchScript writes it, or a
        # collective that thread runs for the op (gloo's all-reduce for c10d::allreduce_): nothing else that
        # merely overlaps the op (a pin-memory thread, the autograd engine's) is what it waits for
        branch_kind = (ix.name_forked[ev.cpu_name[rows]] if len(ix.name_forked) else is_cpu_coll) | is_cpu_coll
        top_end = ~p_start & ~on_step & (parent[p_row] < 0)
        branches = np.flatnonzero(top_end & branch_kind[p_row])
        ends = np.flatnonzero(top_end & (cls[p_row] != RUNTIME))  # a poll of CUDA events is nothing waited for
        branch_ends = _forked_branch_ends(forking, owner, p_row, p_time, branches, ends, ts)
        for j, src in branch_ends:
            join(j, src)
        counts["forked_joins"] = len(branch_ends)
        forked = [(float(p_time[j - 1]), float(p_time[j])) for j, _ in branch_ends]
    if len(candidates):
        # a thread joins work, not a poll: runtime calls on other threads (a thread that queries CUDA events
        # while the step's thread waits) end all the time and say nothing of what the step's thread waited for
        others = np.flatnonzero(~p_start & ~on_step & (cls[p_row] != RUNTIME))
        other_ends = p_time[others]
        by_end = np.argsort(other_ends, kind="stable")
        other_ends, others = other_ends[by_end], others[by_end]
        # a collective another thread runs (gloo's all-reduce on its run-loop thread) that ends inside the stretch
        # is what the stretch waits for, however late the thread wakes after it (DDP's gradient futures)
        coll_ends = others[is_cpu_coll[p_row[others]]] if len(others) else others
        coll_t = p_time[coll_ends]
        waits_op = joins_thread[np.maximum(owner, 0)] & (owner >= 0)
        for j in candidates.tolist():
            k = int(np.searchsorted(other_ends, p_time[j], side="right")) - 1
            start = float(p_time[j - 1])
            if k < 0:
                _unexplained_join(counts, bool(waits_op[j]), float(p_time[j]) - start)
                continue
            t_b = float(other_ends[k])
            src = int(others[k])
            if t_b <= start or p_time[j] - t_b > max(JOIN_SLACK_US, JOIN_RATIO * (p_time[j] - start)):
                c = int(np.searchsorted(coll_t, p_time[j], side="right")) - 1
                if c < 0 or float(coll_t[c]) <= start:
                    _unexplained_join(counts, bool(waits_op[j]), float(p_time[j]) - start)
                    continue
                src = int(coll_ends[c])
                counts["collective_joins"] += 1
            join(j, src)
    counts["thread_joins"] = len(joins)
    is_wait = np.zeros(len(p_row), dtype=bool)
    weight = np.where(first, p_time - step.start, seg_len)
    if at:
        pos = np.array(at, dtype=np.int64)
        p_row = np.insert(p_row, pos, np.array(w_owner))
        p_start = np.insert(p_start, pos, False)
        p_time = np.insert(p_time, pos, np.array(w_time))
        p_thread = np.insert(p_thread, pos, p_thread[pos])
        owner = np.insert(owner, pos, np.array(w_owner))
        weight = np.insert(weight, pos, np.array(w_own))
        first = np.insert(first, pos, False)
        is_wait = np.insert(is_wait, pos, True)
        after = np.flatnonzero(is_wait) + 1  # the delayed point: from the wait's end, the rest of the segment
        weight[after] = p_time[after] - p_time[after - 1]
        shift = np.sort(pos)
        joins = [(w, q + int(np.searchsorted(shift, q, side="right"))) for w, q in joins]
    owner_item = np.where(owner < 0, -1, rows[np.maximum(owner, 0)])
    on_step = p_thread == step.thread
    # other threads' top-level events that start after an idle stretch: what the step's thread (or a branch) wakes
    idle_starts = np.flatnonzero(
        p_start & (parent[p_row] < 0) & ~on_step & (weight >= WAKE_MIN_US) & (first | ~np.roll(p_start, 1))
    )
    wake_at, wake_src, wake_weight = _wakes(idle_starts, p_row, on_step, p_time, is_cpu_coll)
    if forked:
        woke, by, latency = _continuations(forked, idle_starts, p_start, p_row, on_step, p_time, p_thread, cls, wake_at)
        wake_at, wake_src = np.concatenate((wake_at, woke)), np.concatenate((wake_src, by))
        wake_weight = np.concatenate((wake_weight, latency))
    weight[wake_at] = 0.0  # the idle stretch before it is now the latency after the step thread's point
    counts["thread_wakes"] = len(wake_at)
    phase = np.where(is_wait, 2, p_start.astype(np.int64))
    kinds = np.full(len(p_row), CPU, dtype=np.int64)
    starts = np.flatnonzero(first)
    stops = np.append(starts[1:], len(p_row))
    base = np.empty(len(p_row), dtype=np.int64)
    for lo, hi in zip(starts.tolist(), stops.tolist(), strict=True):
        lane = int(p_thread[lo])
        b0 = builder.add_chain(
            p_time[lo:hi], phase[lo:hi], CPU_SIDE, weight[lo:hi], owner_item[lo:hi], kinds[lo:hi], lane
        )
        base[lo:hi] = b0 + np.arange(hi - lo)
    s_point[p_row[p_start]] = base[p_start]
    final = _inserted_order(at, np.flatnonzero(is_wait))
    w_point = {w_call[i]: int(base[final[i]]) for i in range(len(at)) if w_call[i] >= 0}
    _add_cpu_edges(builder, [int(base[q]) for _, q in joins], [int(base[final[w]]) for w, _ in joins], None)
    _add_cpu_edges(builder, base[wake_src].tolist(), base[wake_at].tolist(), wake_weight.tolist())
    return CpuPoints(s_point, w_point, counts)


def _forked_branch_ends(
    stretches: IntArray,
    owner: IntArray,
    p_row: IntArray,
    p_time: FloatArray,
    branches: IntArray,
    ends: IntArray,
    ts: FloatArray,
) -> list[tuple[int, int]]:
    """(stretch's point, the end it waits for) for each op stretch of the step's thread that waits for a branch it
    forked: a ``branches`` event (end points) started while the op ran, before the stretch's end, and the
    latest of ``ends`` (another thread's top-level events, the branch or the function resumed after it) that
    started after the op did ends at most ``FORK_SLACK_US`` before the stretch does."""
    if not len(branches) or not len(ends):
        return []
    ends = ends[np.argsort(p_time[ends], kind="stable")]
    b_began = np.sort(ts[p_row[branches]])
    end_t, began = p_time[ends], ts[p_row[ends]]
    found = []
    for j in stretches.tolist():
        start, stop, since = float(p_time[j - 1]), float(p_time[j]), float(ts[owner[j]])
        first = int(np.searchsorted(b_began, since, side="left"))
        if first >= len(b_began) or b_began[first] >= stop:  # no branch started while it ran: not a fork's wait
            continue
        lo = int(np.searchsorted(end_t, max(start, stop - FORK_SLACK_US), side="right"))
        hi = int(np.searchsorted(end_t, stop, side="right"))
        inside = [k for k in range(lo, hi) if began[k] >= since]
        if inside:
            found.append((j, int(ends[inside[-1]])))
    return found


def _continuations(
    forked: list[tuple[float, float]],
    idle_starts: IntArray,
    p_start: np.ndarray,
    p_row: IntArray,
    on_step: np.ndarray,
    p_time: FloatArray,
    p_thread: IntArray,
    cls: IntArray,
    woken: IntArray,
) -> tuple[IntArray, IntArray, FloatArray]:
    """Wakes inside a stretch that waits for a forked branch: another thread's work that starts there after an idle
    stretch (a TorchScript function resumed on an inter-op thread once the branch's future completed) is woken by
    the latest end of a third thread's work before it, within ``WAKE_MAX_US``, rather than kept at its time."""
    resumed = np.setdiff1d(idle_starts, woken)
    resumed = resumed[np.array([any(a < p_time[r] < b for a, b in forked) for r in resumed.tolist()], dtype=bool)]
    ends = np.flatnonzero(~p_start & ~on_step & (cls[p_row] != RUNTIME))
    ends = ends[np.argsort(p_time[ends], kind="stable")]
    at, src = [], []
    for r in resumed.tolist():
        k = int(np.searchsorted(p_time[ends], p_time[r], side="right"))
        while k > 0 and p_thread[ends[k - 1]] == p_thread[r]:
            k -= 1
        if k > 0 and p_time[r] - p_time[ends[k - 1]] <= WAKE_MAX_US:
            at.append(r)
            src.append(int(ends[k - 1]))
    a, b = np.array(at, dtype=np.int64), np.array(src, dtype=np.int64)
    return a, b, p_time[a] - p_time[b] if len(a) else np.empty(0)


def _inserted_order(at: list[int], wait_positions: IntArray) -> list[int]:
    """The final position of each wait point, in the order the waits were listed."""
    order = np.argsort(np.array(at, dtype=np.int64), kind="stable")
    final = [0] * len(at)
    for rank, i in enumerate(order.tolist()):
        final[i] = int(wait_positions[rank])
    return final


def _wakes(
    wake: IntArray, p_row: IntArray, on_step: np.ndarray, p_time: FloatArray, collective: np.ndarray
) -> tuple[IntArray, IntArray, FloatArray]:
    """Of ``wake``, the points of other threads where a top-level event starts after an idle stretch of
    ``WAKE_MIN_US`` or more: those the step's thread woke, the step thread's latest point before each, and the time
    between them."""
    step_pts = np.flatnonzero(on_step)
    if not len(wake) or not len(step_pts):
        e = np.empty(0, dtype=np.int64)
        return e, e, np.empty(0)
    times = p_time[step_pts]
    k = np.searchsorted(times, p_time[wake], side="left") - 1
    ok = k >= 0
    # woken only shortly after the step thread did something: a thread that starts long after the step thread's
    # last point (the step thread itself waiting) was woken by something else, and a fixed latency that long
    # would hold back any what-if. A collective (gloo's, on its run-loop thread) is the step thread's however late
    # it starts: the step thread's call enqueued it (the first step's can start milliseconds after)
    ok[ok] &= (p_time[wake[ok]] - times[k[ok]] <= WAKE_MAX_US) | collective[p_row[wake[ok]]]
    wake, k = wake[ok], k[ok]
    return wake, step_pts[k], p_time[wake] - times[k]


def _add_cpu_edges(builder: ChainBuilder, src: list[int], dst: list[int], weight: list[float] | None) -> None:
    if src:
        n = len(src)
        w = np.zeros(n) if weight is None else np.array(weight, dtype=np.float64)
        builder.add_edges(
            np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), w, np.full(n, CPU, dtype=np.int64)
        )
