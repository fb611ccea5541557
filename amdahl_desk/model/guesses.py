"""Scaling classes that are an import's guesses: what they do to P, said once, so no P or ceiling rests on them unsaid."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from .analysis_warnings import AnalysisWarning, WarningKind
from .profile import Profile


def guessed_scaling_warning(
    profile: Profile, times: NDArray[np.float64], kinds: NDArray[np.int8], p: float, ceiling: float
) -> AnalysisWarning | None:
    """The analysis' warning when P comes from classes a person has not confirmed (None: it does not)."""
    guessed = profile.guessed_scaling()
    if profile.settings.parallel_fraction is not None or not guessed.any():
        return None  # no guess, or P is the person's own override
    total = math.fsum(times.tolist())
    share = math.fsum(times[guessed].tolist()) / total
    parallel = math.fsum(times[guessed & (kinds == 1)].tolist()) / total
    values = {"p": p, "count": int(guessed.sum()), "share": share, "parallel": parallel, "ceiling": ceiling}
    return AnalysisWarning(WarningKind.GUESSED_SCALING, values)
