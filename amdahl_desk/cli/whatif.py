"""``amdahl-desk whatif``: what speeding up some events of a trace buys with the trace's dependencies; with
several traces (or a folder) of one job, what it buys the job."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.names import STEP_PREFIX
from .common import EXIT_OK, BadInputError, write_json

if TYPE_CHECKING:
    from ..files.traces.graph_source import RankGraph
    from ..model.job.analysis import Job, JobWhatIf
    from ..model.job.join import JobGraph
    from ..model.job.replay import Replay
    from ..model.traces.whatif import WhatIf

NAME = "whatif"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        NAME,
        help="what speeding up some kernels, ops or calls of a trace (or a whole job) buys, with its dependencies",
        description=(
            "Scale the durations of the events of TRACE (a PyTorch/Kineto trace) that PATTERN matches by 1/K, "
            "recompute each step's critical path (CPU threads, launches, stream order, synchronisations) and "
            "compare the step time with Amdahl's law on sums. With several traces or a folder of one per rank, "
            "answer for the job: the ranks' graphs joined at their collectives, the events scaled on every rank "
            "(or on --on-ranks); --rank R answers for rank R alone."
        ),
        epilog=(
            "PATTERN is a case-insensitive substring of the event's name, or with the prefix re: a regular "
            "expression (re.search, case-insensitive); PATTERN=K splits at the last '='; K > 0. Patterns match "
            "GPU kernels, copies and memsets, CPU operators and runtime calls, never user annotations; an event "
            "two patterns match takes the product of their K. With the prefix in: (in:aten::convolution) a "
            "pattern matches the GPU work launched from inside the CPU events it names. A component's import "
            "matcher names its events as the window's component does: annotation:NAME (a phase: its time on "
            "every thread and the GPU work launched in it), op:NAME, gpu:compute, gpu:communication, gpu:memory. "
            "Figures are means over the steps. See docs/whatif.md and docs/jobs.md."
        ),
    )
    p.add_argument(
        "trace",
        nargs="+",
        metavar="TRACE",
        help="a PyTorch trace (.json, .json.gz), or a job: several, a folder; or a profile (.xlsx, .csv) that "
        "carries its trace: its enabled plan with the trace's dependencies, as report gives it",
    )
    p.add_argument(
        "--speedup",
        action="append",
        metavar="PATTERN=K",
        help='events to make K× faster, e.g. "gemm=2", "re:^nccl=1.5" (repeat for several)',
    )
    p.add_argument(
        "--step", default=STEP_PREFIX, metavar="NAME", help=f"steps: annotations named NAME… ({STEP_PREFIX})"
    )
    p.add_argument("--rank", type=int, metavar="R", help="of a job, rank R's answer alone")
    p.add_argument("--on-ranks", metavar="LIST", help="of a job, scale the events on these ranks only (3, 0-3,7)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="of a job, read the ranks on this Dask cluster (see docs/jobs.md)"
    )


def is_job(traces: Sequence[str], rank: int | None, on_ranks: str | None, scheduler: str | None) -> bool:
    """Whether ``whatif`` answers for a job (several traces, a folder, a glob, or job options) or for one rank."""
    if rank is not None:
        if on_ranks is not None:
            raise BadInputError("--rank answers for one rank alone; --on-ranks scales a job's ranks: give one")
        return False
    if len(traces) > 1 or on_ranks is not None or scheduler is not None:
        return True
    p = Path(traces[0])
    return p.is_dir() or (not p.exists() and any(c in traces[0] for c in "*?["))


def run(args: argparse.Namespace) -> int:
    from .whatif_profile import is_profile, run_profile

    if len(args.trace) == 1 and is_profile(args.trace[0]):
        args.trace = args.trace[0]
        return run_profile(args)
    if not args.speedup:
        raise BadInputError("--speedup PATTERN=K: give at least one (the events of the trace to make K× faster)")
    from ..model.traces.patterns import parse_pattern_speedup

    step = str(args.step)
    for text in args.speedup:  # a bad pattern or K is refused before any trace is read
        parse_pattern_speedup(text)
    if is_job(args.trace, args.rank, args.on_ranks, args.scheduler):
        return _job(args, step)
    if len(args.trace) > 1:
        raise BadInputError("--rank answers for one rank of a folder of traces: give the folder (or one trace)")
    from ..present.whatif import one_rank_of_a_job, what_if_view

    loaded, answer = what_if_answer(args.trace[0], args.speedup, step, args.rank)
    if args.json:
        write_json(to_json_dict(loaded, step, answer))
    else:
        print(what_if_view(answer).text)
        # One rank of a job's traces: its answer scales its waiting for the others as if it were work.
        if args.rank is not None and of_a_job(args.trace[0], loaded):
            print(f"\n{one_rank_of_a_job(args.rank)}")
    return EXIT_OK


def of_a_job(path: str, loaded: RankGraph) -> bool:
    """Whether the rank read is one of a job's: read from a folder of traces, or its trace states a job of ranks."""
    from ..model.job.rank_graph import rank_of

    world = rank_of(loaded.trace, "world_size")
    return Path(path).is_dir() or (world is not None and world > 1)


def what_if_answer(trace: str | Path, speedups: Sequence[str], step: str, rank: int | None) -> tuple[RankGraph, WhatIf]:
    """The trace read (rank ``rank`` of a folder, else the slowest) and its what-if for ``PATTERN=K`` texts."""
    from ..files.traces.graph_source import load_rank_graph
    from ..model.traces.patterns import parse_pattern_speedup
    from ..model.traces.whatif import prepare, what_if

    parsed = [parse_pattern_speedup(s) for s in speedups]
    loaded = load_rank_graph(trace, rank, step)
    return loaded, what_if(prepare(loaded.trace, step, loaded.source), parsed)


def to_json_dict(loaded: RankGraph, step: str, answer: WhatIf) -> dict[str, Any]:
    """The ``whatif --json`` contract."""
    from .json_traces import whatif_json

    return {"source": loaded.source, "rank": loaded.rank, "step": step, **whatif_json(answer)}


def job_what_if_answer(
    traces: Sequence[str], speedups: Sequence[str], step: str, on_ranks: str | None, scheduler: str | None = None
) -> JobWhatIf:
    """What ``PATTERN=K`` texts buy the job of ``traces``: the events scaled on every rank, or on ``on_ranks``."""
    from ..files.traces.job import load_job
    from ..model.job.analysis import job_what_if, parse_ranks
    from ..model.job.join import match
    from ..model.traces.patterns import parse_pattern_speedup

    parsed = [parse_pattern_speedup(s) for s in speedups]
    on = parse_ranks(on_ranks) if on_ranks is not None else None
    ranks = load_job(traces, step, parsed, scheduler=scheduler)
    return job_what_if(match(ranks), [(s.pattern, s.k) for s in parsed], on)


def job_what_if_kept(
    traces: Sequence[str],
    speedups: Sequence[str],
    step: str,
    on_ranks: str | None,
    scheduler: str | None,
    kept: tuple[JobGraph, Replay, Job] | None,
) -> tuple[JobWhatIf, tuple[JobGraph, Replay, Job]]:
    """:func:`job_what_if_answer`, reusing ``kept`` (the job graph, its replay and analysis of an earlier what-if
    of the same traces and step) when it was read with the same patterns: only the K change, no rank is read
    again. Returns the answer and what to keep for the next."""
    from ..files.traces.job import load_job
    from ..model.job.analysis import analyse_job, job_what_if, parse_ranks
    from ..model.job.join import match, with_ks
    from ..model.job.replay import Replay
    from ..model.traces.patterns import parse_pattern_speedup

    parsed = [parse_pattern_speedup(s) for s in speedups]
    pairs = [(s.pattern, s.k) for s in parsed]
    on = parse_ranks(on_ranks) if on_ranks is not None else None
    graph = with_ks(kept[0], pairs) if kept is not None else None
    if graph is None or kept is None:
        graph = match(load_job(traces, step, parsed, scheduler=scheduler))
        replay = Replay(graph)
        kept = (graph, replay, analyse_job(graph, replay))
    else:
        kept = (graph, kept[1], kept[2])  # the graphs' weights are the same: the replay and analysis hold
    return job_what_if(graph, pairs, on, kept[1], kept[2]), kept


def job_json_dict(step: str, answer: JobWhatIf) -> dict[str, Any]:
    """The ``whatif --json`` contract of a job."""
    from .json_job import job_whatif_json

    return {"step": step, **job_whatif_json(answer)}


def _job(args: argparse.Namespace, step: str) -> int:
    from ..present.job import job_what_if_view

    answer = job_what_if_answer(args.trace, args.speedup, step, args.on_ranks, args.scheduler)
    if args.json:
        write_json(job_json_dict(step, answer))
    else:
        print(job_what_if_view(answer).text)
    return EXIT_OK
