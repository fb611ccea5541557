"""The ranks' graphs matched: steps by number, collectives across ranks, hosts' clocks aligned (the joined graph
and its replay are :mod:`.replay`'s).

**Matching.** Steps are matched by number. A collective instance is matched across ranks by its key (see
:mod:`.rank_graph`): by process group and sequence, the group's members being the ranks that name the group;
else by order, among every rank that runs collectives of that name on that stream.

**Clocks.** Each host has one clock: a rank's times are its trace's times plus the trace's origin plus its
host's offset. The first rank's host has offset 0; another host's offset is the median, over the collectives
it shares with hosts already aligned, of the difference of the collective's mean end on either side.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..traces.errors import TraceError
from ..traces.events import FloatArray, IntArray
from .rank_graph import CollectiveKey, RankGraph


@dataclass(frozen=True)
class Instance:
    """One collective matched across ranks in one step: its members (indices into the job's ranks), and per
    member its instance index in that rank's table, its start and end (µs, on the job's clock)."""

    step: int
    name: str
    key: CollectiveKey
    members: IntArray
    index: IntArray
    start: FloatArray
    end: FloatArray

    @property
    def duration(self) -> FloatArray:
        return np.asarray(self.end - self.start, dtype=np.float64)

    @property
    def transfer(self) -> float:
        """The shortest duration any member measured (the last to arrive waits least)."""
        return float(max(self.duration.min(), 0.0))

    @property
    def waiting(self) -> FloatArray:
        return np.asarray(np.maximum(self.duration - self.transfer, 0.0), dtype=np.float64)

    @property
    def last(self) -> int:
        """The member (index into ``members``) that arrived last."""
        return int(np.argmax(self.start))

    @property
    def skew(self) -> float:
        return float(self.start.max() - self.start.min())


@dataclass(frozen=True)
class JobGraph:
    """The ranks (in rank order), the steps they share (by number), each rank's step index for each job step,
    each rank's clock offset (µs to add to its trace's times) and the matched collectives."""

    ranks: tuple[RankGraph, ...]
    step_numbers: tuple[int, ...]
    step_index: IntArray  # (ranks, steps)
    offset: FloatArray  # per rank
    host_offset: dict[str, float]
    aligned_hosts: bool
    instances: tuple[Instance, ...]
    stated_size: int | None = None  # the job's size its traces state (distributedInfo.world_size), if they do

    @property
    def size(self) -> int:
        return len(self.ranks)

    @property
    def steps(self) -> int:
        return len(self.step_numbers)

    def rank_numbers(self) -> list[int]:
        return [r.rank for r in self.ranks]

    def windows(self) -> tuple[FloatArray, FloatArray]:
        """(ranks, steps): each rank's step start and end on the job's clock (µs)."""
        start = np.empty((self.size, self.steps))
        end = np.empty((self.size, self.steps))
        for i, r in enumerate(self.ranks):
            w = r.graph.windows[self.step_index[i]]
            start[i], end[i] = w[:, 0] + self.offset[i], w[:, 1] + self.offset[i]
        return start, end


def _one_run(ranks: Sequence[RankGraph]) -> int | None:
    """Refuse ranks that cannot be one run's: traces that state different job sizes, or a rank at or beyond the size
    they state (so no more ranks than that: each rank appears once). A rank of another run, joined at its
    collectives, made a 72 s "step". The size they state, if they do (fewer ranks given: some are missing)."""
    stated = [(r, r.world) for r in ranks if r.world is not None]
    if not stated:
        return None
    first, size = stated[0]
    for r, world in stated:
        if world != size:
            raise TraceError(
                f"the traces are of different runs: this one states a job of {world} ranks, {first.source} one of {size}",
                r.source,
            )
    for r in ranks:  # a trace that states no size is held to the others'
        if r.rank >= size:
            raise TraceError(f"rank {r.rank} in a job the traces say has {size} ranks (0 to {size - 1})", r.source)
    return size


def match(ranks: Sequence[RankGraph]) -> JobGraph:
    """The job of ``ranks``: steps and collectives matched, clocks aligned.

    Raises :class:`TraceError` naming the file when a rank appears twice, lacks a step another rank has, or
    has collectives that cannot be matched with the other ranks'.
    """
    rs = sorted(ranks, key=lambda r: r.rank)
    for a, b in zip(rs, rs[1:], strict=False):
        if a.rank == b.rank:
            raise TraceError(f"rank {b.rank} appears twice in the job (also in {a.source})", b.source)
    if not rs:
        raise TraceError("the job has no rank traces")
    stated = _one_run(rs)
    steps = _steps(rs)
    step_index = np.array([[r.step_numbers.index(n) for n in steps] for r in rs], dtype=np.int64).reshape(
        len(rs), len(steps)
    )
    raw = _match_collectives(rs, steps, step_index)
    host_offset, aligned = _align(rs, raw)
    offset = np.array([r.origin + host_offset[r.host] for r in rs], dtype=np.float64)
    instances = tuple(
        Instance(
            k,
            name,
            key,
            members,
            index,
            np.array([rs[m].graph.time[rs[m].coll_start[i]] + offset[m] for m, i in zip(members, index, strict=True)]),
            np.array([rs[m].graph.time[rs[m].coll_end[i]] + offset[m] for m, i in zip(members, index, strict=True)]),
        )
        for k, name, key, members, index in raw
    )
    return JobGraph(tuple(rs), steps, step_index, offset, host_offset, aligned, instances, stated)


def _steps(rs: Sequence[RankGraph]) -> tuple[int, ...]:
    every = sorted(set().union(*(set(r.step_numbers) for r in rs)))
    for r in rs:
        missing = [n for n in every if n not in r.step_numbers]
        if missing:
            other = next(o for o in rs if missing[0] in o.step_numbers)
            raise TraceError(
                f"rank {r.rank} has {r.steps} step{'s' * (r.steps != 1)} and rank {other.rank} has "
                f"{other.steps}: step {missing[0]} is not in this rank's trace (steps are matched by number)",
                r.source,
            )
    return tuple(every)


RawInstance = tuple[int, str, CollectiveKey, IntArray, IntArray]


def _match_collectives(rs: Sequence[RankGraph], steps: Sequence[int], step_index: IntArray) -> list[RawInstance]:
    groups: dict[str, set[int]] = defaultdict(set)  # process group → ranks (indices) that name it
    lanes: dict[tuple[str, str], set[int]] = defaultdict(set)  # (stream, name) → ranks that run it, by order
    for i, r in enumerate(rs):
        for key, g in zip(r.coll_key, r.coll_group, strict=True):
            if key[0] == "pg" and g is not None:
                groups[g].add(i)
            elif key[0] == "order":
                lanes[(key[1], key[2])].add(i)
    out: list[RawInstance] = []
    for k, number in enumerate(steps):
        found: dict[CollectiveKey, list[tuple[int, int]]] = defaultdict(list)
        for i, r in enumerate(rs):
            s = int(step_index[i, k])
            for c in np.flatnonzero(r.coll_step == s).tolist():
                found[r.coll_key[c]].append((i, c))
        for key, hits in found.items():
            if key[0] == "pg":
                members = groups[key[1]]
                what = f'collective {key[2]} of process group "{key[1]}"'
            else:
                members = lanes[(key[1], key[2])]
                what = f"{key[2]} number {int(key[3]) + 1} on {key[1]}"
            have = {i for i, _ in hits}
            if have != members:
                counts = _count(rs, step_index, k, key)
                lack = members - have
                if len(have) < len(lack):  # the odd one out is the rank that has it
                    odd = min(have)
                    raise TraceError(
                        f"collectives cannot be matched across ranks: in step {number}, rank {rs[odd].rank} has "
                        f"{what}, which {len(lack)} other rank{'s' * (len(lack) != 1)} (rank {rs[min(lack)].rank} "
                        f"…) have not ({counts})",
                        rs[odd].source,
                    )
                odd = min(lack)
                raise TraceError(
                    f"collectives cannot be matched across ranks: in step {number}, rank {rs[odd].rank} "
                    f"has no {what}, which rank {rs[min(have)].rank} has ({counts})",
                    rs[odd].source,
                )
            hits.sort()
            c0 = hits[0][1]
            out.append(
                (
                    k,
                    rs[hits[0][0]].coll_name[c0],
                    key,
                    np.array([i for i, _ in hits], dtype=np.int64),
                    np.array([c for _, c in hits], dtype=np.int64),
                )
            )
    return out


def _count(rs: Sequence[RankGraph], step_index: IntArray, k: int, key: CollectiveKey) -> str:
    """How many collectives like ``key`` each rank has in step ``k`` (for the message)."""
    parts = []
    for i, r in enumerate(rs[:8]):
        s = int(step_index[i, k])
        n = sum(
            1
            for c in np.flatnonzero(r.coll_step == s).tolist()
            if r.coll_key[c][0] == key[0] and r.coll_key[c][1:3] == key[1:3]
        )
        parts.append(f"rank {r.rank}: {n}")
    return "; ".join(parts) + ("; …" if len(rs) > 8 else "")


def _align(rs: Sequence[RankGraph], raw: Sequence[RawInstance]) -> tuple[dict[str, float], bool]:
    """Each host's clock offset (µs), by the ends of the collectives hosts share; whether every host is aligned."""
    hosts = sorted({r.host for r in rs}, key=lambda h: next(i for i, r in enumerate(rs) if r.host == h))
    offset = {hosts[0]: 0.0}
    if len(hosts) == 1:
        return offset, True
    ends: list[dict[str, float]] = []
    for _k, _n, _key, members, index in raw:
        by_host: dict[str, list[float]] = defaultdict(list)
        for m, i in zip(members.tolist(), index.tolist(), strict=True):
            r = rs[m]
            by_host[r.host].append(float(r.graph.time[r.coll_end[i]] + r.origin))
        if len(by_host) > 1:
            ends.append({h: float(np.mean(v)) for h, v in by_host.items()})
    progress = True
    while progress and len(offset) < len(hosts):
        progress = False
        for h in hosts:
            if h in offset:
                continue
            diffs = [
                float(np.mean([e[k] + offset[k] for k in e if k in offset])) - e[h]
                for e in ends
                if h in e and any(k in offset for k in e)
            ]
            if diffs:
                offset[h] = float(np.median(diffs))
                progress = True
    aligned = len(offset) == len(hosts)
    for h in hosts:
        offset.setdefault(h, 0.0)
    return offset, aligned


def with_ks(job: JobGraph, speedups: Sequence[tuple[str, float]]) -> JobGraph | None:
    """The job with other K for the patterns its ranks were read with (the same patterns in the same order), read
    no more; None when they were read with other patterns (or too many to tell apart)."""
    patterns = tuple(p for p, _ in speedups)
    if not patterns or any(r.patterns != patterns or r.signature is None for r in job.ranks):
        return None
    ks = [k for _, k in speedups]
    return dataclasses.replace(job, ranks=tuple(r.with_ks(ks) for r in job.ranks))


def within(job: JobGraph, speedups: Sequence[tuple[str, float]]) -> tuple[JobGraph, list[tuple[str, float]]] | None:
    """The job with ``speedups`` when its ranks were read with those patterns and maybe more (an optimization alone,
    out of the plan they were read for): each given pattern takes the first read pattern alike not yet taken, the
    others K = 1. Returns the job and the speedups in the order read (to answer with), or None when a pattern was
    not read (or the ranks were read with too many patterns to tell apart)."""
    if not job.ranks or any(r.signature is None or r.patterns != job.ranks[0].patterns for r in job.ranks):
        return None
    read = job.ranks[0].patterns
    ks = [1.0] * len(read)
    taken = [False] * len(read)
    for pattern, k in speedups:
        bit = next((b for b, p in enumerate(read) if p == pattern and not taken[b]), None)
        if bit is None:
            return None
        taken[bit], ks[bit] = True, float(k)
    pairs = list(zip(read, ks, strict=True))
    graph = with_ks(job, pairs)
    return (graph, pairs) if graph is not None else None
