"""``amdahl-desk job``: a whole job of many ranks — the step, each rank's compute, communication and waiting,
the collectives' skew, the straggler and what fixing it buys."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.names import STEP_PREFIX
from .common import EXIT_OK, write_json

if TYPE_CHECKING:
    from ..model.job.analysis import Job

NAME = "job"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        NAME,
        help="a job of many ranks: step time, waiting at collectives, the straggler and its cost",
        description=(
            "Read one PyTorch (Kineto) trace per rank (files, folders or globs), match the ranks' steps by "
            "number and their collectives by process group and sequence (else by order), join the ranks' "
            "dependency graphs at the collectives and replay them: the job's step, each rank's compute, "
            "communication and waiting, the collectives' skew, the straggler and what fixing it buys."
        ),
        epilog="Figures are means over the steps, in ms. See docs/jobs.md.",
    )
    p.add_argument("traces", nargs="+", metavar="TRACES", help="rank traces: files, a folder, or a glob")
    p.add_argument(
        "--step", default=STEP_PREFIX, metavar="NAME", help=f"steps: annotations named NAME… ({STEP_PREFIX})"
    )
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="read the ranks on this Dask cluster (tcp://host:8786) instead of local processes; needs the "
        "cluster extra (pip install 'amdahl-desk[cluster]')",
    )


def job_answer(traces: Sequence[str], step: str, scheduler: str | None = None) -> Job:
    """The job of ``traces`` (files, folders, globs) read, joined at its collectives and analysed."""
    from ..files.traces.job import load_job
    from ..model.job.analysis import analyse_job
    from ..model.job.join import match

    return analyse_job(match(load_job(traces, step, scheduler=scheduler)))


def run(args: argparse.Namespace) -> int:
    from ..present.job import job_view

    job = job_answer(args.traces, args.step, args.scheduler)
    if args.json:
        from .json_job import job_json

        write_json(job_json(job))
    else:
        print(job_view(job).text)
    return EXIT_OK
