"""What an analysis warns of, as facts: a kind and its values (times in the profile's unit, shares as fractions,
never formatted). ``present/analysis_warnings`` words them for the window, the slide, the workbook and the
command line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum


class WarningKind(Enum):
    SLOWDOWN = "slowdown"  # optimization, k: an optimization whose k is below 1
    OVERLAP = "overlap"  # overlaps ((component, optimizations, speedup), … the first three), more: how many else
    PARALLEL_FRACTION_CUT = "parallel_fraction_cut"  # fraction (asked), communication (time), used (share)
    RING_CLAMP = "ring_clamp"  # communication, n0, ring0 (time), below (GPUs): the ring model held at 0
    N0_ABOVE_COUNTS = "n0_above_counts"  # n0, largest: every GPU count evaluated is below N0
    GUESSED_SCALING = "guessed_scaling"  # p, count, share, parallel (shares), ceiling: P rests on guessed classes


@dataclass(frozen=True)
class AnalysisWarning:
    kind: WarningKind
    values: Mapping[str, object] = field(default_factory=dict)
