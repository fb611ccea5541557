"""What the window, the report and the slide show of the loaded service: figures, the curve, the sentences."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import Problem, Refusal
from .laws import FloatArray
from .load_settings import LoadCostFields
from .objectives import ObjectiveFigures, find_objective
from .queueing import Criterion, LoadFigures, load_figures, queue, saturation_rate
from .units import TimeUnit


def analyse_load(
    objectives: Sequence[ObjectiveFigures],
    settings: LoadCostFields,
    unit: TimeUnit,
    criterion: Criterion = Criterion.MEAN_RESPONSE,
) -> LoadFigures | None:
    """The load objective as a loaded service before and after the plan; ``None`` without an arrival rate,
    or when the load objective is not one of ``objectives`` (see :func:`load_objective_problem`)."""
    if settings.arrival_rate is None:
        return None
    objective = find_objective(objectives, settings.load_objective)
    if objective is None or objective.baseline_total <= 0:
        return None
    target = objective.target.time if objective.target is not None else None
    return load_figures(
        objective.name,
        objective.baseline_total,
        objective.new_total,
        settings.arrival_rate,
        settings.servers,
        unit,
        target,
        criterion,
    )


def load_objective_problem(objectives: Sequence[ObjectiveFigures], settings: LoadCostFields) -> Problem | None:
    """Why there is no load analysis although an arrival rate is set: a note at the Load objective setting."""
    if settings.arrival_rate is None:
        return None
    objective = find_objective(objectives, settings.load_objective)
    if objective is None:
        known = tuple(o.name for o in objectives)
        return Problem.of(
            Refusal.LOAD_OBJECTIVE_UNKNOWN, "settings", None, "load_objective", settings.load_objective, known
        )
    if objective.baseline_total <= 0:
        return Problem.of(Refusal.LOAD_OBJECTIVE_TAKES_NO_TIME, "settings", None, "load_objective", objective.name)
    return None


@dataclass(frozen=True)
class LoadCurve:
    """Latency against load, for the chart: NaN past each saturation wall (rates per second, times in the unit)."""

    rates: FloatArray
    before_response: FloatArray
    after_response: FloatArray
    before_p99_wait: FloatArray
    after_p99_wait: FloatArray
    wall_before: float
    wall_after: float
    current_rate: float
    target: float | None
    y_max: float
    """A time axis that shows the operating points and the target without being flattened by the walls."""


def load_curve(figures: LoadFigures, points: int = 200) -> LoadCurve:
    """Mean response and p99 wait against arrival rate, before and after, from 0 to past the later wall."""
    f = figures
    unit = f.unit
    wall_before = saturation_rate(f.servers, f.before.service_time, unit)
    wall_after = saturation_rate(f.servers, f.after.service_time, unit)
    walls = [w for w in (wall_before, wall_after) if math.isfinite(w)]
    right = max([*walls, f.arrival_rate]) * 1.1
    rates = np.linspace(0.0, right, points)
    # Points crowding each wall draw the asymptote instead of a chord across it.
    near = [w * (1.0 - np.geomspace(0.2, 1e-3, 24)) for w in walls]
    rates = np.unique(np.concatenate([rates, *near, [f.arrival_rate]]))

    def sample(service: float) -> tuple[FloatArray, FloatArray]:
        response = np.full(rates.shape, np.nan)
        p99 = np.full(rates.shape, np.nan)
        for i, rate in enumerate(rates):
            q = queue(float(rate), f.servers, service, unit)
            if not q.saturated:
                response[i] = q.mean_response
                p99[i] = q.p99_wait
        return response, p99

    before_response, before_p99 = sample(f.before.service_time)
    after_response, after_p99 = sample(f.after.service_time)
    marks = [f.before.service_time, f.after.service_time, f.target or 0.0]
    marks += [q.mean_response or 0.0 for q in (f.before, f.after)]
    y_max = max(4.0 * max(f.before.service_time, f.after.service_time), 1.25 * max(marks))
    return LoadCurve(
        rates,
        before_response,
        after_response,
        before_p99,
        after_p99,
        wall_before,
        wall_after,
        f.arrival_rate,
        f.target,
        y_max,
    )
