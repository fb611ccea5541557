"""Scaling classes that are an import's guesses: what they do to P, said once, so no P or ceiling rests on them unsaid."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from .profile import Profile
from .units import format_percent, format_speedup


def guessed_scaling_warning(
    profile: Profile, times: NDArray[np.float64], kinds: NDArray[np.int8], p: float, ceiling: float
) -> str | None:
    """The analysis' warning when P comes from classes a person has not confirmed (None: it does not)."""
    guessed = profile.guessed_scaling()
    if profile.settings.parallel_fraction is not None or not guessed.any():
        return None  # no guess, or P is the person's own override
    total = math.fsum(times.tolist())
    share = math.fsum(times[guessed].tolist()) / total
    parallel = math.fsum(times[guessed & (kinds == 1)].tolist()) / total
    count = int(guessed.sum())
    text = (
        f"P = {_share(p)} rests on scaling classes the import guessed: {count:,} "
        f"component{'s' * (count != 1)} ({_share(share)} of the time, {_share(parallel)} guessed "
        "parallel); confirm or change each guessed class (marked ? in the window's Scaling column, yes in the "
        "workbook's Scaling guessed column)"
    )
    if math.isinf(ceiling):
        text += f": the ceiling of {format_speedup(ceiling)} and the best speedup at the most GPUs hold only if "
        text += "every guessed parallel class is right"
    return text


def _share(p: float) -> str:
    """A share that is not all of it never reads as 100% (nor a share above 0 as 0%)."""
    text = format_percent(p)
    if text == "100%" and p < 1:
        return f"{math.floor(p * 1000) / 10:.1f}%" if p < 0.999 else "nearly 100%"
    return text
