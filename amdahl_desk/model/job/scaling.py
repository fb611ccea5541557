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

COMMUNICATION = 2  # the scaling class of communication in Profile.arrays()


def job_overhead(job: Job) -> float:
    """The overhead at N0 (ms per step): the mean over ranks of each rank's transfer at its collectives."""
    if not job.per_rank:
        return 0.0
    return float(np.mean([r.communication for r in job.per_rank]))


def job_scaling(profile: Profile, analysis: Analysis, job: Job) -> ScalingFigures:
    """The profile's scaling with the job's transfer at N0 (:func:`job_overhead`) as its communication: the other
    components keep their parallel and serial shares of the rest of the step."""
    times, kinds = analysis.times, profile.arrays()[1]
    total = analysis.baseline_total
    c = min(job_overhead(job) * 1e-3 / profile.unit.seconds, total)
    other = kinds != COMMUNICATION
    rest = exact_sum(times[other])
    scaled = np.where(other, times * ((total - c) / rest), 0.0) if rest > 0 else np.zeros(len(times))
    new_times = np.append(scaled, c).astype(np.float64)
    new_kinds = np.append(kinds, np.int8(COMMUNICATION)).astype(np.int8)
    return _scaling(profile, new_times, new_kinds, total, [])
