"""GPU scaling of a job: the transfer its ranks' collectives take at N0 is the overhead the scaling model grows with
N, not the communication components of one rank's profile. The waiting for the last rank is no overhead: it is the
ranks' imbalance of work, which shrinks with the work as GPUs are added (ranks of 12, 10, 20 and 11 ms of work wait
8, 10, 0 and 9 ms; with the work halved, half as long), and the profile's rank — the straggler — already holds the
work that sets the pace."""

from __future__ import annotations

import numpy as np

from ..analysis import Analysis, ScalingFigures, _scaling, exact_sum
from ..profile import Profile
from .analysis import Job

SERIAL, COMMUNICATION = 0, 2  # the scaling classes in Profile.arrays()


def job_overhead(job: Job) -> float:
    """The overhead at N0 (ms per step): the mean over ranks of each rank's transfer at its collectives."""
    if not job.per_rank:
        return 0.0
    return float(np.mean([r.communication for r in job.per_rank]))


def job_scaling(profile: Profile, analysis: Analysis, job: Job, rank: int | None = None) -> ScalingFigures:
    """The profile's scaling with the job's transfer at N0 (:func:`job_overhead`) as its communication: the other
    components keep their parallel and serial shares of the rest of the step.

    ``rank``: the rank whose profile it is. A rank that waits for another holds that waiting in its components (in
    its collectives', or in DDP's backward, which blocks on the gradients' all-reduce). It stands for the work of the
    rank it waits for, whose mix this profile cannot say: it is counted serial, the mix that promises least, and the
    rest of the step keeps the profile's mix. The straggler's own profile (the window's and a folder's, unless asked
    otherwise) waits next to nothing: on ddp4 its P is 10.5%, and ranks 0, 1 and 3's 2.5-3.5%; as their own mix the
    waiting made them 93%."""
    times, kinds = analysis.times, profile.arrays()[1]
    total = analysis.baseline_total
    per_ms = 1e-3 / profile.unit.seconds
    c = min(job_overhead(job) * per_ms, total)
    other = kinds != COMMUNICATION
    rest = exact_sum(times[other])
    mine = next((r for r in job.per_rank if r.rank == rank), None) if rank is not None else None
    waiting = min(mine.waiting * per_ms, max(total - c, 0.0)) if mine is not None else 0.0
    room = max(total - c - waiting, 0.0)
    scaled = np.where(other, times * (room / rest), 0.0) if rest > 0 else np.zeros(len(times))
    new_times = np.append(scaled, [c, waiting]).astype(np.float64)
    new_kinds = np.append(kinds, [np.int8(COMMUNICATION), np.int8(SERIAL)]).astype(np.int8)
    return _scaling(profile, new_times, new_kinds, total, [])
