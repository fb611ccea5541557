"""``amdahl-desk whatif``: what speeding up some events of a trace buys with the trace's dependencies."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import EXIT_OK, write_json

if TYPE_CHECKING:
    from ..files.traces.graph_source import RankGraph
    from ..model.traces.whatif import WhatIf

NAME = "whatif"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        NAME,
        help="what speeding up some kernels, ops or calls of a trace buys, with the trace's dependencies",
        description=(
            "Scale the durations of the events of TRACE (a PyTorch/Kineto trace, or a folder of one per rank) "
            "that PATTERN matches by 1/K, recompute each step's critical path (CPU threads, launches, stream "
            "order, synchronisations) and compare the step time with Amdahl's law on sums."
        ),
        epilog=(
            "PATTERN is a case-insensitive substring of the event's name, or with the prefix re: a regular "
            "expression (re.search, case-insensitive); PATTERN=K splits at the last '='; K > 0. Patterns match "
            "GPU kernels, copies and memsets, CPU operators and runtime calls, never user annotations; an event "
            "two patterns match takes the product of their K. With the prefix in: (in:aten::convolution) a "
            "pattern matches the GPU work launched from inside the CPU events it names. Figures are means over "
            "the steps. See docs/whatif.md."
        ),
    )
    p.add_argument(
        "trace",
        metavar="TRACE",
        help="a PyTorch trace (.json, .json.gz) or a folder of them, one per rank; or a profile (.xlsx, .csv) that "
        "carries its trace: its enabled plan with the trace's dependencies, as report gives it",
    )
    p.add_argument(
        "--speedup",
        action="append",
        metavar="PATTERN=K",
        help='events to make K× faster, e.g. "gemm=2", "re:^nccl=1.5" (repeat for several)',
    )
    p.add_argument(
        "--step", default="ProfilerStep#", metavar="NAME", help="steps: annotations named NAME… (ProfilerStep#)"
    )
    p.add_argument("--rank", type=int, metavar="R", help="in a folder of traces, rank R's (default: the slowest)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def run(args: argparse.Namespace) -> int:
    from .whatif_profile import is_profile, run_profile

    if is_profile(args.trace):
        return run_profile(args)
    if not args.speedup:
        from .common import BadInputError

        raise BadInputError("--speedup PATTERN=K: give at least one (the events of the trace to make K× faster)")
    from ..present.whatif import what_if_view

    loaded, answer = what_if_answer(args.trace, args.speedup, args.step, args.rank)
    if args.json:
        write_json(to_json_dict(loaded, args.step, answer))
    else:
        print(what_if_view(answer).text)
    return EXIT_OK


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
    return {"source": loaded.source, "rank": loaded.rank, "step": step, **answer.to_json()}
