"""The file of the rank whose profile stands for a job of several PyTorch rank traces (``model/job/representative``):
the ranks read as a job (``job.load_job``), joined at their collectives and analysed, the straggler's file named.

``import``, ``report`` and ``ad.load`` of a folder import that rank, as the window opens the job; where the
ranks cannot be joined as one job (steps or collectives that do not match), the import says why and takes the
rank with the longest mean step instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ...model.errors import BadInputError, ProfileError
from ...model.names import STEP_PREFIX


@dataclass(frozen=True)
class PaceRank:
    """The rank the job waits for and its file (``source`` as the job names it: the file's name); or, with
    ``problem``, why the ranks could not be joined (``rank`` and ``source`` then empty)."""

    rank: int | None = None
    source: str = ""
    problem: str = ""


def pace_rank(files: Sequence[Path], step: str = STEP_PREFIX) -> PaceRank:
    """The straggler of the job of ``files`` (else its slowest rank), read as ``amdahl-desk job`` reads it."""
    from ...model.job.analysis import analyse_job
    from ...model.job.join import match
    from ...model.job.representative import representative_source
    from .job import load_job

    try:
        job = analyse_job(match(load_job([str(f) for f in files], step)))
    except (ProfileError, BadInputError) as exc:
        return PaceRank(problem=str(exc))
    rank, source = representative_source(job)
    return PaceRank(rank, source)
