"""The compact objectives table: one row per objective, one column per enabled optimization plus combined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .objectives import ObjectiveFigures
from .profile import Profile
from .units import format_speedup, format_time

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


@dataclass(frozen=True)
class ObjectiveTable:
    """``columns`` name the enabled optimizations (then Combined); ``optimization_rows`` index ``profile.optimizations``."""

    columns: tuple[str, ...]
    optimization_rows: tuple[int, ...]
    rows: tuple[ObjectiveRow, ...]

    def cells(self) -> list[list[str]]:
        """The table as text, header first: ``["Objective", "Faster decode", "Combined"]``, ``["TTFT", "1×", "1×"]``."""
        head = ["Objective", *self.columns]
        body = [[r.name, *(format_speedup(s) for s in r.speedups), format_speedup(r.combined)] for r in self.rows]
        return [head, *body]


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
        )
        for o in objectives
    )
    columns = (*(profile.optimizations[i].name for i in enabled), COMBINED)
    return ObjectiveTable(columns, enabled, rows)


def _objective_label(name: str) -> str:
    """ "End to end" reads as "end to end" mid-sentence; "TTFT" stays as spelled."""
    return name[0].lower() + name[1:] if len(name) > 1 and name[1].islower() else name


def across_objectives(profile: Profile, objectives: Sequence[ObjectiveFigures], optimization: int) -> str:
    """One optimization seen by every objective: ``Faster decode: 1.43× end to end, 1× TTFT, 1.69× ITL``."""
    name = profile.optimizations[optimization].name
    parts = [
        f"{format_speedup(float(o.optimizations.overall_speedup[optimization]))} {_objective_label(o.name)}"
        for o in objectives
    ]
    return f"{name}: " + ", ".join(parts)


def objective_sentence(objective: ObjectiveFigures, profile: Profile) -> str:
    """The plan for one objective: ``TTFT: 400 ms → 300 ms (1.33×), ceiling 4×; target 300 ms met.``"""
    unit = profile.unit
    o = objective
    text = (
        f"{o.name}: {format_time(o.baseline_total, unit)} → {format_time(o.new_total, unit)} "
        f"({format_speedup(o.overall_speedup)}), ceiling {format_speedup(o.ceiling)}"
    )
    t = o.target
    if t is None:
        return text + "."
    goal = format_time(t.time, unit)
    if t.met_by_plan:
        return text + f"; target {goal} met."
    if not t.feasible:
        return (
            text + f"; target {goal} out of reach: what the plan leaves untouched takes {format_time(t.floor, unit)}."
        )
    return text + f"; target {goal} needs its optimized components {format_speedup(t.required_speedup)} faster."
