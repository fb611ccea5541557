"""What an import makes: the options asked for, and the result (steps, components, GPU split, ranks) as a profile."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..profile import Component, Profile, Scaling, Settings
from ..units import TimeUnit
from .gpu import GpuSplit

GROUPINGS = ("annotation", "op", "gpu", "function")


@dataclass(frozen=True)
class ImportOptions:
    """What the person chose: grouping (None: the format's default), per step or ``total``, top N, rank, steps."""

    group_by: str | None = None
    total: bool = False
    top: int | None = 15
    rank: int | None = None  # None: the slowest rank
    exclude_steps: frozenset[str] = frozenset()  # step names (``ProfilerStep#7``) to leave out
    exclude_flagged: bool = False  # leave out every step far from the median
    device: int | None = None  # GPU for the ``gpu`` grouping; None: the rank's own, else the busiest


@dataclass(frozen=True)
class StepInfo:
    """One step: its time (in the result's unit), whether it is far from the median, whether it was left out."""

    name: str
    time: float
    flagged: bool
    excluded: bool


@dataclass(frozen=True)
class RankInfo:
    """One rank's file and mean step time (or whole-trace time when it has no steps)."""

    rank: int
    source: str
    step_time: float | None
    total_time: float
    slowest: bool = False


@dataclass(frozen=True)
class ImportedComponent:
    """A component as imported: ``source`` says what in the trace it stands for (kept in the profile's Notes)."""

    name: str
    time: float
    scaling: Scaling
    group: str = ""
    source: str = ""
    # The fastest and slowest step's time (None: one step, or the whole trace): the component's Time low and high.
    time_low: float | None = None
    time_high: float | None = None


@dataclass(frozen=True)
class ImportResult:
    """Everything one import found, in ``unit``; :meth:`to_profile` makes the editable profile."""

    format: str  # "pytorch", "speedscope" or "nsys"
    unit: TimeUnit
    source: str
    group_by: str
    components: tuple[ImportedComponent, ...]
    boundary: str
    steps: tuple[StepInfo, ...] | None = None
    step_time: float | None = None
    gpu: GpuSplit | None = None
    ranks: tuple[RankInfo, ...] = ()
    rank: int | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def total(self) -> float:
        return sum(c.time for c in self.components)

    def to_profile(self) -> Profile:
        """A normal profile: the components (source in Notes) and a boundary saying what was imported."""
        comps = [
            Component(
                c.name,
                max(c.time, 0.0),
                c.scaling,
                c.group,
                f"{c.source} (from {self.source})".strip(),
                (),
                *_range(max(c.time, 0.0), c.time_low, c.time_high),
            )
            for c in self.components
        ]
        return Profile(comps, settings=Settings(boundary=self.boundary), unit=self.unit)

    def to_json(self) -> dict[str, Any]:
        """The command line's JSON: format, unit, steps, step_time, components, gpu (when there are GPU events)."""
        data: dict[str, Any] = {
            "format": self.format,
            "unit": self.unit.value,
            "source": self.source,
            "group_by": self.group_by,
            "steps": None if self.steps is None else sum(1 for s in self.steps if not s.excluded),
            "step_time": self.step_time,
            "step_list": None
            if self.steps is None
            else [{"name": s.name, "time": s.time, "flagged": s.flagged, "excluded": s.excluded} for s in self.steps],
            "components": [
                {"name": c.name, "time": c.time, "scaling": c.scaling.value, "group": c.group, "source": c.source}
                for c in self.components
            ],
            "total": self.total,
            "boundary": self.boundary,
            "warnings": list(self.warnings),
        }
        if self.gpu is not None:
            g = self.gpu
            data["gpu"] = {
                "device": g.device,
                "compute": g.compute,
                "exposed_communication": g.exposed_communication,
                "overlapped_communication": g.overlapped_communication,
                "memory": g.memory,
                "idle": g.idle,
                "span": g.span,
            }
        if self.ranks:
            data["rank"] = self.rank
            data["ranks"] = [
                {
                    "rank": r.rank,
                    "source": r.source,
                    "step_time": r.step_time,
                    "total_time": r.total_time,
                    "slowest": r.slowest,
                }
                for r in self.ranks
            ]
        return data


def unique_names(names: Iterable[str], limit: int = 120) -> list[str]:
    """Names made non-empty, not too long and unique ignoring case (a profile's rule), in order."""
    seen: set[str] = set()
    out: list[str] = []
    for raw in names:
        name = " ".join(raw.split()) or "(unnamed)"
        if len(name) > limit:
            name = name[: limit - 1] + "…"
        candidate, k = name, 2
        while candidate.casefold() in seen:
            candidate, k = f"{name} ({k})", k + 1
        seen.add(candidate.casefold())
        out.append(candidate)
    return out


def _range(time: float, low: float | None, high: float | None) -> tuple[float | None, float | None]:
    """A step spread as a time range that holds the mean time (rounding may put the mean a hair outside), or no
    range when every step took the same."""
    if low is None or high is None or not high > low:
        return None, None
    return min(max(low, 0.0), time), max(high, time)
