"""What the document's announcements speak of: the aspects a change touched, and a whole document as one value."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import NamedTuple

from ...model.errors import Problem
from ...model.profile import Profile
from ...present.colours import ComponentColours


class Aspect(str, Enum):
    """What a change touched, so a view redraws only when what it shows depends on it."""

    COMPONENTS = "components"
    OPTIMIZATIONS = "optimizations"
    SETTINGS = "settings"
    SELECTION = "selection"  # not the document's: the window's current optimization
    DECISION = "decision"  # not the document's: the ticked plan's odds and the cheapest plan (computed aside)
    MEASUREMENTS = "measurements"  # the measured runs (their table, kind, unit, count name)
    OBJECTIVES = "objectives"  # the Objectives sheet's rows (objective, target time, notes)
    OBJECTIVE = "objective"  # not the document's: the objective the window's answer is seen through
    TRACE = "trace"  # not the document's: the figures of the profile's trace, computed in the background
    JOB = "job"  # not the document's: the job of many ranks the profile stands for, and its plan's answer


EVERYTHING = frozenset(Aspect)
# What the profile's own figures (every share, new time and optimization figure) are computed from.
FIGURES = frozenset({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS})


class Snapshot(NamedTuple):
    """A whole document as one value: what an import replaces and its undo brings back."""

    profile: Profile
    path: Path | None
    warnings: tuple[Problem, ...]
    colours: ComponentColours  # its components' colours: an undone import gives back the ones they had
