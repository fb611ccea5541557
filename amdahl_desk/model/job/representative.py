"""Which rank's profile stands for a job of many ranks: the one rule the window, ``amdahl-desk import FOLDER``,
``report FOLDER``, ``export FOLDER`` and ``ad.load(FOLDER)`` share.

It is the rank the job waits for: the straggler (the rank the others wait for most at the collectives, in time).
In a synchronous job every rank's step takes about as long (the fast ranks wait at the collectives for the slow
one), so "the slowest step" picks among near-equal figures and may pick a rank whose communication is mostly
waiting — a what-if on it scales waiting as if it were work. The straggler's own step is work. Where no rank
waits for another (one rank, or ranks that never meet), it is the rank with the longest mean step, the lowest
such rank on a tie.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Job


def representative_rank(job: Job) -> int:
    """The rank whose profile stands for ``job``: its straggler, else the rank with the longest mean step."""
    if job.straggler is not None:
        return int(job.straggler)
    return max(job.per_rank, key=lambda r: (r.step_time, -r.rank)).rank


def representative_source(job: Job) -> tuple[int, str]:
    """(rank, the file it was read from) of :func:`representative_rank`."""
    rank = representative_rank(job)
    return rank, next(r.source for r in job.per_rank if r.rank == rank)
