"""The trace a what-if reads: one Kineto file, or one rank's file of a folder, with its dependencies."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...model.traces.dependencies import GraphTrace
from ...model.traces.errors import TraceError
from .detect import PYTORCH, detect_format, trace_files
from .kineto_graph import read_kineto_graph
from .source import Progress, open_stream

_RANK = re.compile(rb'"distributedInfo"\s*:\s*\{[^{}]*?"rank"\s*:\s*(\d+)')
_HEAD = 1 << 20


@dataclass(frozen=True)
class RankGraph:
    """One rank's trace, the file it came from, and its rank (None: the trace does not say)."""

    trace: GraphTrace
    source: str
    rank: int | None


def _rank_of(trace: GraphTrace) -> int | None:
    info = trace.events.info.get("distributedInfo")
    value = info.get("rank") if isinstance(info, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _head_rank(path: Path) -> int | None:
    """The rank a trace's header names, read from its first megabyte (None: not there)."""
    with open_stream(str(path), path.name) as (stream, _tick):
        head = stream.read(_HEAD)
    m = _RANK.search(head)
    return int(m.group(1)) if m else None


def _read(path: Path, source: str, progress: Progress | None) -> GraphTrace:
    if detect_format(path, source) != PYTORCH:
        raise TraceError(
            "a what-if needs a PyTorch (Kineto) trace with its events and their order, not samples or a summary", source
        )
    return read_kineto_graph(str(path), source, progress)


def load_rank_graph(
    path: str | Path, rank: int | None = None, step: str | None = None, progress: Progress | None = None
) -> RankGraph:
    """The trace at ``path`` (a file, or a folder of one file per rank: rank ``rank``, else the rank the job waits
    for, ``model/job/representative``; where the ranks cannot be joined, the one whose ``step`` annotations take
    longest).

    Raises :class:`TraceError` for a missing file, another format, damaged input, or a rank not there.
    """
    p = Path(path)
    if not p.exists():
        raise TraceError("no such file or folder", str(p))
    if p.is_file():
        trace = _read(p, p.name, progress)
        found = _rank_of(trace)
        if rank is not None and found is not None and found != rank:
            raise TraceError(f"rank {rank} is not in this trace; it is rank {found}'s", p.name)
        if rank is not None and found is None and rank != 0:
            raise TraceError(f"rank {rank} is not in this trace; it names no rank (one trace: rank 0)", p.name)
        return RankGraph(trace, p.name, found)
    files = trace_files(p)
    heads = [_head_rank(f) for f in files]
    ranks: list[int | None] = heads if None not in heads and len(set(heads)) == len(heads) else list(range(len(files)))
    if rank is not None:
        if rank not in ranks:
            listed = ", ".join(str(r) for r in ranks)
            raise TraceError(f"rank {rank} is not in the folder; its traces are of ranks {listed}", p.name)
        f = files[ranks.index(rank)]
        return RankGraph(_read(f, f.name, progress), f.name, rank)
    if len(files) > 1:
        from .job_rank import pace_rank

        pace = pace_rank(files, step) if step else pace_rank(files)
        hit = next((i for i, f in enumerate(files) if f.name == pace.source), None)
        if hit is not None:
            f = files[hit]
            return RankGraph(_read(f, f.name, progress), f.name, pace.rank)
    return _slowest(files, ranks, step, progress)


def _slowest(files: list[Path], ranks: list[int | None], step: str | None, progress: Progress | None) -> RankGraph:
    """The rank whose steps take longest on average: a straggler sets every rank's step time."""
    from ...model.traces.trace_index import find_step_windows

    best: RankGraph | None = None
    best_time = -1.0
    for f, r in zip(files, ranks, strict=True):
        trace = _read(f, f.name, progress)
        steps = find_step_windows(trace, step) if step else find_step_windows(trace)
        mean = sum(s.end - s.start for s in steps) / len(steps) if steps else 0.0
        if mean > best_time:
            best, best_time = RankGraph(trace, f.name, r), mean
    assert best is not None
    return best
