"""GPU scaling of a job: the time its ranks spend in collectives at N0 — the transfer and the waiting for the last
rank — is the overhead the scaling model grows with N, not the communication components of one rank's profile."""

from __future__ import annotations

import numpy as np

from ..analysis import Analysis, ScalingFigures, _scaling, exact_sum
from ..profile import Profile
from .analysis import Job

COMMUNICATION = 2  # the scaling class of communication in Profile.arrays()


def job_overhead(job: Job) -> float:
    """The overhead at N0 (ms per step): the mean over ranks of each rank's communication and waiting."""
    if not job.per_rank:
        return 0.0
    return float(np.mean([r.communication + r.waiting for r in job.per_rank]))


def job_scaling(profile: Profile, analysis: Analysis, job: Job) -> ScalingFigures:
    """The profile's scaling with the job's communication and waiting at N0 (:func:`job_overhead`) as its
    communication: the other components keep their parallel and serial shares of the rest of the step."""
    times, kinds = analysis.times, profile.arrays()[1]
    total = analysis.baseline_total
    c = min(job_overhead(job) * 1e-3 / profile.unit.seconds, total)
    other = kinds != COMMUNICATION
    rest = exact_sum(times[other])
    scaled = np.where(other, times * ((total - c) / rest), 0.0) if rest > 0 else np.zeros(len(times))
    new_times = np.append(scaled, c).astype(np.float64)
    new_kinds = np.append(kinds, np.int8(COMMUNICATION)).astype(np.int8)
    return _scaling(profile, new_times, new_kinds, total, [])
