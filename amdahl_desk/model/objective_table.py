"""The compact objectives table: one row per objective, one column per enabled optimization plus combined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .objectives import ObjectiveFigures
from .profile import Profile

COMBINED = "Combined"


@dataclass(frozen=True)
class ObjectiveRow:
    """One objective: the end-to-end speedup of each enabled optimization alone within it, then all together."""

    name: str
    speedups: tuple[float, ...]
    combined: float
    baseline_total: float
    new_total: float
    target_met: bool | None
    """Whether the plan meets the objective's target; ``None`` when it has none."""
    dependencies: bool = False  # the row is the step on a trace's critical path (dependency-aware), not a sum


@dataclass(frozen=True)
class ObjectiveTable:
    """``columns`` name the enabled optimizations (then Combined); ``optimization_rows`` index ``profile.optimizations``."""

    columns: tuple[str, ...]
    optimization_rows: tuple[int, ...]
    rows: tuple[ObjectiveRow, ...]


def objective_table(profile: Profile, objectives: Sequence[ObjectiveFigures]) -> ObjectiveTable:
    """The table for ``objectives`` (from :func:`~amdahl_desk.model.objectives.analyse_objectives`)."""
    enabled = tuple(i for i, o in enumerate(profile.optimizations) if o.enabled)
    rows = tuple(
        ObjectiveRow(
            name=o.name,
            speedups=tuple(float(o.optimizations.overall_speedup[i]) for i in enabled),
            combined=o.overall_speedup,
            baseline_total=o.baseline_total,
            new_total=o.new_total,
            target_met=o.target.met_by_plan if o.target is not None else None,
            dependencies=o.dependencies,
        )
        for o in objectives
    )
    columns = (*(profile.optimizations[i].name for i in enabled), COMBINED)
    return ObjectiveTable(columns, enabled, rows)
