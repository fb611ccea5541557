"""Each objective in words: the compact table's cells, one optimization seen by every objective, the plan per objective."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.objective_table import ObjectiveTable
from ..model.objectives import ObjectiveFigures
from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .numbers import POINT, Numbers

WITH_DEPS = " (with deps)"  # a row that is the step on its trace's critical path


def objective_cells(table: ObjectiveTable, n: Numbers = POINT) -> list[list[str]]:
    """The table as text, header first: ``["Objective", "Faster decode", "Combined"]``, ``["TTFT", "1×", "1×"]``;
    a row that is the step on the trace's critical path is named so (``End to end (with deps)``)."""
    head = ["Objective", *table.columns]
    body = [
        [r.name + (WITH_DEPS if r.dependencies else ""), *(n.speedup(s) for s in r.speedups), n.speedup(r.combined)]
        for r in table.rows
    ]
    return [head, *body]


def dependencies_note(outcomes: Outcomes, profile: Profile, n: Numbers = POINT) -> str:
    """Under the objectives table of a traced profile: which rows are the step on the critical path, the sum's
    figure beside, and that the others are sums of their components' times."""
    stepped = [o for o in outcomes.objectives if o.dependencies]
    if not stepped or len(outcomes.objectives) < 2:
        return ""
    o, unit = stepped[0], profile.unit
    names = " and ".join(x.name for x in stepped)
    summed = o.sum_new_total if o.sum_new_total is not None else o.new_total
    sum_speedup = n.speedup(o.sum_speedup) if o.sum_speedup is not None else "—"
    rest = len(outcomes.objectives) > len(stepped)
    return (
        f"{names} {'is' if len(stepped) == 1 else 'are'} the step on the trace's critical path: "
        f"{n.time(o.baseline_total, unit)} → {n.time(o.new_total, unit)} ({n.speedup(o.overall_speedup)}); "
        f"the sum of the components' times promises {n.time(summed, unit)} ({sum_speedup})."
        + (
            " The other objectives are sums of their components' times: the trace answers the whole step."
            if rest
            else ""
        )
    )


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
        left = "the step with the plan's events free" if t.sum is not None else "what the plan leaves untouched"
        return text + f"; target {goal} out of reach: {left} takes {n.time(t.floor, unit)}."
    if t.required_speedup is None:  # on the path, not computed yet
        return text + f"; target {goal} not met."
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
