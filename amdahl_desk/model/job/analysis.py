"""What a job's traces say: its step time, each rank's compute, communication and waiting, the collectives'
skew, the straggler and what fixing it buys — and what a speedup on every rank (or some) buys the job.

Figures are means over the steps, in milliseconds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import Asked, InputError
from ..traces.events import MS_PER_US, FloatArray
from ..traces.patterns import Speedup, refuse_unmatched
from ..traces.whatif import sum_speedup
from .join import JobGraph
from .replay import Replay, Replayed


@dataclass(frozen=True)
class RankFigures:
    """One rank, means per step (ms): its measured step, GPU compute busy time, its collectives' transfer and its
    waiting at them (each the time they cover: collectives that overlap, as DDP's gradient buckets do on two
    threads, transfer and wait once, so the parts fit in the step), and how long the other ranks waited for it
    (summed over them)."""

    rank: int
    source: str
    host: str
    step_time: float
    compute: float
    communication: float
    waiting: float
    waited_for: float


@dataclass(frozen=True)
class CollectiveFigures:
    """The instances of one collective (by name): how many over the steps read, the mean transfer, and the
    mean and largest skew (last arrival minus first), ms."""

    name: str
    count: int
    transfer: float
    skew_mean: float
    skew_max: float


@dataclass(frozen=True)
class WaitFigures:
    """How long ``rank`` waits, mean per step (ms), at collectives that ``for_rank`` reached last."""

    rank: int
    for_rank: int
    wait: float
    collective: str


@dataclass(frozen=True)
class Job:
    """A job's analysis: what the command line prints and the window shows."""

    ranks: tuple[int, ...]
    steps: tuple[int, ...]
    step_times: tuple[float, ...]  # per step, ms
    rank_step_times: tuple[tuple[float, ...], ...]  # (ranks, steps), ms
    per_rank: tuple[RankFigures, ...]
    straggler: int | None
    straggler_cost: float
    straggler_waits: tuple[WaitFigures, ...]  # the other ranks' waiting for the straggler
    collectives: tuple[CollectiveFigures, ...]
    replay_error: float  # ms: the largest gap between the replay at K = 1 and the measured ends
    host_offsets: dict[str, float]  # ms
    # ms, means over steps: the latest rank's step start minus the earliest's, and likewise their ends; the job's step
    # runs from the earliest start to the latest end, so it is longer than each rank's own by up to their sum
    start_spread: float
    end_spread: float
    hosts_aligned: bool
    dropped_edges: int
    stated_size: int | None = None  # the job's size its traces state; more than ``ranks``: some were not given

    @property
    def missing(self) -> tuple[int, ...]:
        """The ranks the traces say the job has that were not given (none where they state no size)."""
        given = set(self.ranks)
        return tuple(r for r in range(self.stated_size or 0) if r not in given)

    @property
    def step_time(self) -> float:
        return float(np.mean(self.step_times)) if self.step_times else 0.0


def analyse_job(job: JobGraph, replay: Replay | None = None) -> Job:
    """The analysis of ``job`` (its joined graph replayed once as measured, once with the straggler fixed)."""
    rp = replay or Replay(job)
    n, s = job.size, job.steps
    comm = np.zeros(n)
    wait = np.zeros(n)
    waited_for = np.zeros(n)
    by_name: dict[str, list[tuple[float, float]]] = defaultdict(list)
    # Waits as spans (from, to) µs: collectives that overlap (DDP's two gradient buckets at once) wait once.
    waits_of: list[list[tuple[float, float]]] = [[] for _ in range(n)]  # per rank
    moves_of: list[list[tuple[float, float]]] = [[] for _ in range(n)]  # per rank: its transfers, likewise once
    pair_spans: dict[tuple[int, int], dict[str, list[tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
    for inst in job.instances:
        t, w = inst.transfer, inst.waiting
        last = int(inst.members[inst.last])
        for m, a, wm in zip(inst.members.tolist(), inst.start.tolist(), w.tolist(), strict=True):
            moves_of[m].append((a + max(wm, 0.0), a + max(wm, 0.0) + t))
            if wm > 0:
                waits_of[m].append((a, a + wm))
                if m != last:
                    pair_spans[(m, last)][inst.name].append((a, a + wm))
        by_name[inst.name].append((t, inst.skew))
    # A rank waiting at one bucket while the other's transfer runs is moving data: that time is its communication,
    # and its waiting the time it waits with no transfer of its own under way (the two then fit in its step).
    for i, spans in enumerate(waits_of):
        comm[i] = _covered(moves_of[i])
        wait[i] = _beyond(spans, moves_of[i])
    pair_wait: dict[tuple[int, int], float] = {}
    pair_where: dict[tuple[int, int], dict[str, float]] = {}
    for (m, last), named in pair_spans.items():
        pair_wait[(m, last)] = _beyond([span for spans in named.values() for span in spans], moves_of[m])
        pair_where[(m, last)] = {name: _beyond(spans, moves_of[m]) for name, spans in named.items()}
        waited_for[last] += pair_wait[(m, last)]
    start, end = job.windows()
    rank_time = (end - start) * MS_PER_US
    job_times = (end.max(axis=0) - start.min(axis=0)) * MS_PER_US
    per_rank = []
    for i, r in enumerate(job.ranks):
        compute = r.compute[job.step_index[i]]
        per_rank.append(
            RankFigures(
                r.rank,
                r.source,
                r.host,
                float(rank_time[i].mean()),
                float(compute.mean()) * MS_PER_US,
                float(comm[i] / s * MS_PER_US),
                float(wait[i] / s * MS_PER_US),
                float(waited_for[i] / s * MS_PER_US),
            )  # fmt: skip
        )
    straggler = int(np.argmax(waited_for)) if n > 1 and waited_for.max(initial=0.0) > 0 else None
    cost = 0.0
    waits: list[WaitFigures] = []
    if straggler is not None:
        fixed = rp.run(_fixed_straggler(job, straggler))
        cost = float(rp.baseline.job.mean() - fixed.job.mean()) * MS_PER_US
        for i in range(n):
            if i != straggler and pair_wait.get((i, straggler), 0.0) > 0:
                where = pair_where[(i, straggler)]
                waits.append(
                    WaitFigures(
                        job.ranks[i].rank,
                        job.ranks[straggler].rank,
                        float(pair_wait[(i, straggler)] / s * MS_PER_US),
                        max(where, key=lambda k: where[k]),
                    )  # fmt: skip
                )
    collectives = tuple(
        CollectiveFigures(
            name,
            len(v),
            float(np.mean([a for a, _ in v])) * MS_PER_US,
            float(np.mean([b for _, b in v])) * MS_PER_US,
            float(np.max([b for _, b in v])) * MS_PER_US,
        )  # fmt: skip
        for name, v in by_name.items()
    )
    return Job(
        ranks=tuple(r.rank for r in job.ranks),
        steps=job.step_numbers,
        step_times=tuple(float(x) for x in job_times),
        rank_step_times=tuple(tuple(float(x) for x in row) for row in rank_time),
        per_rank=tuple(per_rank),
        straggler=job.ranks[straggler].rank if straggler is not None else None,
        straggler_cost=cost,
        straggler_waits=tuple(waits),
        collectives=collectives,
        replay_error=rp.error * MS_PER_US,
        start_spread=float(np.mean(start.max(axis=0) - start.min(axis=0))) * MS_PER_US if s else 0.0,
        end_spread=float(np.mean(end.max(axis=0) - end.min(axis=0))) * MS_PER_US if s else 0.0,
        host_offsets={h: v * MS_PER_US for h, v in job.host_offset.items()},
        hosts_aligned=job.aligned_hosts,
        dropped_edges=rp.dropped,
        stated_size=job.stated_size,
    )


def _covered(spans: list[tuple[float, float]]) -> float:
    """The time the union of ``spans`` covers."""
    total, reach = 0.0, -np.inf
    for a, b in sorted(spans):
        if b > reach:
            total += b - max(a, reach)
            reach = b
    return float(total)


def _beyond(spans: list[tuple[float, float]], others: list[tuple[float, float]]) -> float:
    """The time ``spans`` cover outside ``others``."""
    return _covered(spans + others) - _covered(others)


def _fixed_straggler(job: JobGraph, i: int) -> list[FloatArray | None]:
    """Factors that make rank ``i``'s CPU and GPU work (collectives apart) as fast as the median rank's: the median
    of the other ranks (of two ranks, the other one; a median with the straggler in it moved halfway to it)."""
    cpu = np.array([r.cpu_work[job.step_index[j]].sum() for j, r in enumerate(job.ranks)])
    gpu = np.array([r.gpu_work[job.step_index[j]].sum() for j, r in enumerate(job.ranks)])
    others_cpu, others_gpu = np.delete(cpu, i), np.delete(gpu, i)
    k_cpu = cpu[i] / np.median(others_cpu) if len(others_cpu) and np.median(others_cpu) > 0 else 1.0
    k_gpu = gpu[i] / np.median(others_gpu) if len(others_gpu) and np.median(others_gpu) > 0 else 1.0
    f = job.ranks[i].work_factor(max(float(k_cpu), 1.0), max(float(k_gpu), 1.0))
    out: list[FloatArray | None] = [None] * job.size
    out[i] = f
    return out


@dataclass(frozen=True)
class RankAnswer:
    rank: int
    baseline: float
    predicted: float


@dataclass(frozen=True)
class JobWhatIf:
    """What speeding up the matched events buys the job (means per step, ms).

    ``on_ranks`` is None for every rank. ``alone`` answers the same speedup on one rank at a time, for the
    ranks the answer's words name (the straggler, and a rank that waits for it).
    """

    speedups: tuple[tuple[str, float], ...]  # (pattern text, K)
    ranks: tuple[int, ...]
    on_ranks: tuple[int, ...] | None
    baseline: float
    predicted: float
    sum_speedup: float | None
    sum_rank: int | None  # whose sums: the straggler's when it is scaled, else the slowest rank scaled
    per_rank: tuple[RankAnswer, ...]
    step_figures: tuple[tuple[int, float, float], ...]
    alone: tuple[tuple[int, float], ...]  # (rank, predicted job step) with the speedup on that rank alone
    straggler: int | None
    straggler_waits: tuple[WaitFigures, ...]
    replay_error: float

    @property
    def speedup(self) -> float:
        return self.baseline / self.predicted if self.predicted > 0 else float("inf")


def job_what_if(
    job: JobGraph,
    speedups: Sequence[tuple[str, float]],
    on_ranks: Sequence[int] | None = None,
    replay: Replay | None = None,
    analysis: Job | None = None,
) -> JobWhatIf:
    """Scale the matched events on every rank (or on ``on_ranks``) and replay the joined graph.

    Each rank's graph must carry the factors of ``speedups`` (read with them). Raises :class:`InputError`
    when a rank in ``on_ranks`` is not in the job, or a pattern matches nothing on the ranks it applies to.
    """
    rp = replay or Replay(job)
    numbers = job.rank_numbers()
    if on_ranks is not None:
        missing = sorted(set(on_ranks) - set(numbers))
        if missing:
            raise InputError(
                Asked.ON_RANKS, None, f"rank {missing[0]} is not in the job; its ranks are {rank_ranges(numbers)}"
            )
    chosen = [i for i, r in enumerate(numbers) if on_ranks is None or r in on_ranks]
    for p, (text, k) in enumerate(speedups):
        if k != 1 and not any(job.ranks[i].matched_events[p] for i in chosen):  # at K = 1 it changes nothing
            ranks = "on any rank" if on_ranks is None else f"on ranks {rank_ranges([numbers[i] for i in chosen])}"
            named = sorted({a for i in chosen for a in job.ranks[i].annotations})
            refuse_unmatched(Speedup(text, k), text, job.steps, ranks, named)
    result = _scaled(job, rp, chosen)
    a = analysis or analyse_job(job, rp)
    base = rp.baseline
    alone: list[tuple[int, float]] = []
    if on_ranks is None and job.size > 1 and a.straggler is not None:
        s = numbers.index(a.straggler)
        others = [w.rank for w in a.straggler_waits] or [r for r in numbers if r != a.straggler]
        for i in (s, numbers.index(others[0])):
            alone.append((numbers[i], float(_scaled(job, rp, [i]).job.mean()) * MS_PER_US))
    # Amdahl on sums, as for one rank: on the straggler's sums (the rank that sets the pace) when it is scaled
    pace = numbers.index(a.straggler) if a.straggler is not None else -1
    if pace not in chosen:
        pace = max(chosen, key=lambda i: (float(base.rank_time[i].mean()), sum(job.ranks[i].matched)))
    r = job.ranks[pace]
    ks = [k for _, k in speedups]
    times = [m / r.steps * MS_PER_US for m in r.matched]
    sig = r.signature  # per point, a bit per pattern that matches it: two bits, two patterns' shares overlap
    overlap = sig is not None and bool(np.any(sig & (sig - 1)))
    baseline_ms = float(base.job.mean()) * MS_PER_US
    own_ms = float(base.rank_time[pace].mean()) * MS_PER_US  # the rank's own step: its sums' shares are of it
    return JobWhatIf(
        speedups=tuple(speedups),
        ranks=tuple(numbers),
        on_ranks=tuple(numbers[i] for i in chosen) if on_ranks is not None else None,
        baseline=baseline_ms,
        predicted=float(result.job.mean()) * MS_PER_US,
        sum_speedup=sum_speedup(own_ms, times, ks, overlap),
        sum_rank=numbers[pace],
        per_rank=tuple(
            RankAnswer(
                numbers[i], float(base.rank_time[i].mean()) * MS_PER_US, float(result.rank_time[i].mean()) * MS_PER_US
            )
            for i in range(job.size)
        ),
        step_figures=tuple(
            (n, float(b) * MS_PER_US, float(p) * MS_PER_US)
            for n, b, p in zip(job.step_numbers, base.job.tolist(), result.job.tolist(), strict=True)
        ),
        alone=tuple(alone),
        straggler=a.straggler,
        straggler_waits=a.straggler_waits,
        replay_error=rp.error * MS_PER_US,
    )


def _scaled(job: JobGraph, rp: Replay, chosen: Sequence[int]) -> Replayed:
    factors: list[FloatArray | None] = [job.ranks[i].factor if i in chosen else None for i in range(job.size)]
    inst = []
    for it in job.instances:
        last = int(it.members[it.last])
        f = factors[last]
        inst.append(float(f[job.ranks[last].coll_end[it.index[it.last]]]) if f is not None else 1.0)
    return rp.run(factors, inst)


def rank_ranges(numbers: Sequence[int]) -> str:
    """0-3,7 for [0, 1, 2, 3, 7]."""
    out: list[str] = []
    xs = sorted(numbers)
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(str(xs[i]) if i == j else f"{xs[i]}-{xs[j]}")
        i = j + 1
    return ",".join(out)


def parse_ranks(text: str) -> list[int]:
    """``3`` or ``0-3,7`` → [0, 1, 2, 3, 7]; raises :class:`InputError` for anything else."""
    out: list[int] = []
    for part in text.split(","):
        p = part.strip()
        try:
            if "-" in p:
                a, b = (int(x) for x in p.split("-", 1))
                if b < a or a < 0:
                    raise ValueError
                out.extend(range(a, b + 1))
            else:
                v = int(p)
                if v < 0:
                    raise ValueError
                out.append(v)
        except ValueError:
            raise InputError(Asked.ON_RANKS, text, "expected rank numbers and ranges, like 3 or 0-3,7") from None
    return sorted(set(out))
