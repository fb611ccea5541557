"""What the window, the report and the slide show of the loaded service: figures, the curve, the sentences."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .laws import FloatArray
from .load_settings import LoadCostFields
from .objectives import ObjectiveFigures, find_objective
from .profile import Profile
from .queueing import Criterion, LoadFigures, QueueFigures, fewest_servers, load_figures, queue, saturation_rate
from .units import TimeUnit, format_number, format_percent, format_speedup, format_time


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


def load_objective_problem(objectives: Sequence[ObjectiveFigures], settings: LoadCostFields) -> str | None:
    """Why there is no load analysis although an arrival rate is set, for a note at the Load objective setting."""
    if settings.arrival_rate is None:
        return None
    objective = find_objective(objectives, settings.load_objective)
    if objective is None:
        known = ", ".join(f'"{o.name}"' for o in objectives)
        return f'"{settings.load_objective}" is not an objective of this profile; expected one of {known}'
    if objective.baseline_total <= 0:
        return f'"{objective.name}" takes no time, so it cannot be a service time; choose another load objective'
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


def plan_phrase(profile: Profile) -> str:
    """The plan as the subject of a sentence: ``faster decode``, or ``the 3 enabled optimizations``."""
    enabled = [o for o in profile.optimizations if o.enabled]
    if not enabled:
        return "the plan"
    if len(enabled) > 1:
        return f"the {len(enabled)} enabled optimizations"
    name = enabled[0].name
    # "Faster decode" reads as "faster decode" mid-sentence; "GPU kernels" keeps its capitals.
    return name[0].lower() + name[1:] if len(name) > 1 and name[1].islower() else name


def _rate(rate: float) -> str:
    return f"{format_number(rate)} request{'s' if rate != 1 else ''}/s"


def _where(f: LoadFigures) -> str:
    return f"At {_rate(f.arrival_rate)} on {f.servers:,} replica{'s' if f.servers != 1 else ''}"


def _fewest(q: QueueFigures, unit: TimeUnit) -> int:
    return fewest_servers(q.arrival_rate, q.service_time, unit)


def load_sentence(figures: LoadFigures, plan: str = "the plan") -> str:
    """The loaded service in one sentence, e.g. "At 14 requests/s on 24 replicas, faster decode cuts service time
    1.43× and mean response 1.63× (1,712 ms → 1,052 ms; utilization 88% → 61%): the extra gain is queueing that
    disappears." """
    f = figures
    b, a, unit = f.before, f.after, f.unit
    where = _where(f)
    util = f"utilization {format_percent(b.utilization)} → {format_percent(a.utilization)}"
    service = f"service time {format_speedup(f.service_speedup)}"
    if b.saturated and a.saturated:
        return (
            f"{where} the service is saturated before and after {plan} (load {format_percent(b.utilization)} → "
            f"{format_percent(a.utilization)} of capacity): the queue grows without bound; "
            f"it needs at least {_fewest(a, unit):,} replicas after the plan, {_fewest(b, unit):,} before."
        )
    if b.saturated and a.mean_response is not None:
        return (
            f"{where} the service is saturated today (load {format_percent(b.utilization)} of capacity): the queue grows "
            f"without bound; {plan} cuts {service} and brings it to a mean response of "
            f"{format_time(a.mean_response, unit)} at {format_percent(a.utilization)} utilization."
        )
    if a.saturated and b.mean_response is not None:
        return (
            f"{where}, {plan} slows service time to {format_time(a.service_time, unit)} and saturates the service "
            f"(load {format_percent(b.utilization)} → {format_percent(a.utilization)} of capacity): "
            "the queue grows without bound."
        )
    assert b.mean_response is not None and a.mean_response is not None
    response = f.response_speedup or 1.0
    times = f"{format_time(b.mean_response, unit)} → {format_time(a.mean_response, unit)}; {util}"
    if f.service_speedup == 1.0:
        return (
            f"{where} the service runs at {format_percent(b.utilization)} utilization with a mean response of "
            f"{format_time(b.mean_response, unit)}; enable an optimization to see what it does under load."
        )
    head = f"{where}, {plan} cuts {service} and mean response {format_speedup(response)} ({times})"
    if f.service_speedup > 1 and response > f.service_speedup * 1.005:
        return head + ": the extra gain is queueing that disappears."
    if f.service_speedup > 1:
        return head + ": there is little queueing at this load, so the gain is the service time's."
    return (
        f"{where}, {plan} makes service time {format_speedup(1 / f.service_speedup)} slower "
        f"and mean response {format_speedup(1 / response)} slower ({times})."
    )


def max_rate_sentence(figures: LoadFigures) -> str | None:
    """How much load the target survives before and after the plan; ``None`` without a target."""
    f = figures
    if f.target is None:
        return None
    what = "mean response" if f.criterion is Criterion.MEAN_RESPONSE else "p99 wait"
    goal = f"a {what} within {format_time(f.target, f.unit)}"
    on = f"On {f.servers:,} replica{'s' if f.servers != 1 else ''}"
    before, after = f.max_rate_before, f.max_rate_after
    if before is None and after is None:
        return (
            f"{on}, {goal} is out of reach at any load: one request alone takes "
            f"{format_time(f.before.service_time, f.unit)} today and {format_time(f.after.service_time, f.unit)} "
            "after the plan."
        )
    if before is None and after is not None:
        return (
            f"{on}, {goal} is out of reach today at any load (one request alone takes "
            f"{format_time(f.before.service_time, f.unit)}) and holds up to {_rate(after)} after the plan."
        )
    if after is None and before is not None:
        return f"{on}, {goal} holds up to {_rate(before)} today and at no load after the plan."
    assert before is not None and after is not None
    return (
        f"{on}, {goal} holds up to {_rate(before)} today and up to {_rate(after)} after the plan "
        f"({format_speedup(after / before)} the load)."
    )
