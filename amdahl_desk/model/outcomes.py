"""An analysis's outcomes: what the plan comes to per objective, under load and in money, in one call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .analysis import Analysis
from .cost import CostFigures, analyse_cost
from .errors import Problem
from .load_settings import LoadCostFields
from .load_view import analyse_load, load_objective_problem
from .objective_table import ObjectiveTable, objective_table
from .objectives import ObjectiveFigures, ObjectiveSpec, analyse_objectives, objective_notes, with_dependencies
from .profile import Profile
from .queueing import Criterion, LoadFigures

if TYPE_CHECKING:  # a traced profile's answer; the trace's model loads with the first trace
    from .traces.plan_answer import TraceAnswer


@dataclass(frozen=True)
class Outcomes:
    """The objectives (End to end first), their table, the loaded service (``None`` without an arrival
    rate) and the cost per run; ``notes`` are warnings located in model terms, never refusals. ``energy_missing``:
    the one setting of the energy cost that is given without the other's field (``"watts_per_gpu"`` or
    ``"energy_price_per_kwh"``, the one missing): energy is left out of the cost until both are given."""

    objectives: tuple[ObjectiveFigures, ...]
    table: ObjectiveTable
    load: LoadFigures | None
    cost: CostFigures
    notes: tuple[Problem, ...]
    # A traced profile's answer the step's figures rest on (End to end, the load on it, the cost's saving): the
    # dependency-aware ones, the sum's beside them; None: every figure is the sum's.
    answer: TraceAnswer | None = None
    energy_missing: str | None = None


def analyse_outcomes(
    profile: Profile,
    analysis: Analysis,
    objectives_of_component: Sequence[tuple[str, ...]],
    specs: Sequence[ObjectiveSpec],
    settings: LoadCostFields,
    criterion: Criterion = Criterion.MEAN_RESPONSE,
    named: bool | None = None,
    answer: TraceAnswer | None = None,
) -> Outcomes:
    """Objectives, load and cost for ``profile`` and its ``analysis``.

    The objectives of each component, the Objectives sheet's rows and the load and cost settings come as
    arguments (a window may try values before they are the profile's); :func:`profile_outcomes` reads the profile's.
    ``named``: whether a component names an objective, when the caller knows (None: it is read). ``answer``: a
    traced profile's answer with its trace's dependencies (usable), which End to end, the load on the step and the
    cost's saving take (:func:`~.objectives.with_dependencies`).
    """
    objectives = analyse_objectives(profile, objectives_of_component, specs, analysis, named)
    if answer is not None and not answer.usable:
        answer = None
    if answer is not None:
        objectives = with_dependencies(objectives, answer)
    notes = objective_notes(objectives_of_component, specs)
    load = analyse_load(objectives, settings, profile.unit, criterion)
    why = load_objective_problem(objectives, settings)
    if why is not None:
        notes.append(why)
    missing = None
    if (settings.watts_per_gpu is None) != (settings.energy_price_per_kwh is None):
        missing = "energy_price_per_kwh" if settings.energy_price_per_kwh is None else "watts_per_gpu"
    return Outcomes(
        objectives=tuple(objectives),
        table=objective_table(profile, objectives),
        load=load,
        cost=analyse_cost(analysis, settings, None if answer is None else answer.time_saved),
        notes=tuple(notes),
        answer=answer,
        energy_missing=missing,
    )


def profile_outcomes(
    profile: Profile,
    analysis: Analysis,
    criterion: Criterion = Criterion.MEAN_RESPONSE,
    answer: TraceAnswer | None = None,
) -> Outcomes:
    """Objectives, load and cost of ``profile`` from what it holds: its components' objectives, its
    Objectives rows and its settings' load and cost fields (``answer``: a traced profile's, as above)."""
    return analyse_outcomes(
        profile,
        analysis,
        profile.objectives_of_components(),
        profile.objectives,
        profile.settings,
        criterion,
        answer=answer,
    )
