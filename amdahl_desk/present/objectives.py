"""Each objective in words: the compact table's cells, one optimization seen by every objective, the plan per objective."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.objective_table import ObjectiveTable
from ..model.objectives import ObjectiveFigures
from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .numbers import POINT, Numbers


def objective_cells(table: ObjectiveTable, n: Numbers = POINT) -> list[list[str]]:
    """The table as text, header first: ``["Objective", "Faster decode", "Combined"]``, ``["TTFT", "1×", "1×"]``."""
    head = ["Objective", *table.columns]
    body = [[r.name, *(n.speedup(s) for s in r.speedups), n.speedup(r.combined)] for r in table.rows]
    return [head, *body]


def _objective_label(name: str) -> str:
    """ "End to end" reads as "end to end" mid-sentence; "TTFT" stays as spelled."""
    return name[0].lower() + name[1:] if len(name) > 1 and name[1].islower() else name


def across_objectives(
    profile: Profile, objectives: Sequence[ObjectiveFigures], optimization: int, n: Numbers = POINT
) -> str:
    """One optimization seen by every objective: ``Faster decode: 1.43× end to end, 1× TTFT, 1.69× ITL``."""
    name = profile.optimizations[optimization].name
    parts = [
        f"{n.speedup(float(o.optimizations.overall_speedup[optimization]))} {_objective_label(o.name)}"
        for o in objectives
    ]
    return f"{name}: " + ", ".join(parts)


def objective_sentence(objective: ObjectiveFigures, profile: Profile, n: Numbers = POINT) -> str:
    """The plan for one objective: ``TTFT: 400 ms → 300 ms (1.33×), ceiling 4×; target 300 ms met.``"""
    unit = profile.unit
    o = objective
    text = (
        f"{o.name}: {n.time(o.baseline_total, unit)} → {n.time(o.new_total, unit)} "
        f"({n.speedup(o.overall_speedup)}), ceiling {n.speedup(o.ceiling)}"
    )
    t = o.target
    if t is None:
        return text + "."
    goal = n.time(t.time, unit)
    if t.met_by_plan:
        return text + f"; target {goal} met."
    if not t.feasible:
        return text + f"; target {goal} out of reach: what the plan leaves untouched takes {n.time(t.floor, unit)}."
    return text + f"; target {goal} needs its optimized components {n.speedup(t.required_speedup)} faster."


def objective_caption(
    objective: ObjectiveFigures, profile: Profile, outcomes: Outcomes | None, n: Numbers = POINT
) -> tuple[str, str]:
    """The headline's caption and sentence for an objective other than End to end, with each enabled
    optimization seen by every objective ("Faster decode: 1.43× end to end, 1× TTFT, 1.69× ITL")."""
    across = []
    if outcomes is not None:
        across = [across_objectives(profile, outcomes.objectives, i, n) for i in outcomes.table.optimization_rows]
    return f"{objective.name} speedup", " ".join(
        [objective_sentence(objective, profile, n), *(a + "." for a in across)]
    )
