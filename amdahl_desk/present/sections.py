"""What the answer adds beside the headline, as labelled figures with units: each objective and its target
verdict, the service under load, the cost per run and the measured runs' fits, each with its sentences.

The workbook's Summary sheet writes these sections; the figures and sentences are those the window and the
command line say (the objectives, load, cost and fit views' own wording), formatted with ``n``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model.analysis import Analysis, TargetFigures
from ..model.cost import CostFigures
from ..model.fit import FitResult
from ..model.objectives import ObjectiveFigures
from ..model.outcomes import Outcomes
from ..model.profile import Profile
from ..model.queueing import Criterion, LoadFigures, QueueFigures
from ..model.units import TimeUnit
from .cost import cost_sentence
from .fit import PERCENT, SPEEDUP, fit_figures
from .fit_text import notes_for, profile_comparison
from .load import load_dependencies_note, load_sentence, max_rate_sentence, plan_phrase
from .numbers import POINT, Numbers
from .objectives import objective_sentence

__all__ = ["PERCENT", "SPEEDUP", "Row", "Section", "sections"]

REQUESTS = "requests/s"
GPUS = "GPUs"
BY_SUM = "by the sum of the components' times"
WITH_DEPENDENCIES = "with the trace's dependencies"


@dataclass(frozen=True)
class Row:
    """``label``: what it is; ``value``: the number in ``unit`` (a fraction for ``%``; None where there is none,
    such as an unbounded ceiling or a load no replica count holds); ``text``: the value as a person reads it,
    unit and all ("1,050 ms", "87% ± 0.45%"); ``note``: what it means, or the verdict."""

    label: str
    value: float | None
    unit: str
    text: str
    note: str = ""


@dataclass(frozen=True)
class Section:
    """A titled group of rows and the sentences that say what they mean."""

    title: str
    rows: tuple[Row, ...]
    sentences: tuple[str, ...] = ()


def verdict(target: TargetFigures, unit: TimeUnit, n: Numbers = POINT) -> str:
    """Whether the plan meets a target, and if not what it would take: "met by the plan ✔", "missed ✘: …"."""
    if target.met_by_plan:
        return "met by the plan ✔"
    on_path = target.sum is not None
    if not target.feasible:
        if on_path:
            return f"missed ✘: even with the plan's events free the step takes {n.time(target.floor, unit)}"
        return f"missed ✘: what the plan leaves untouched already takes {n.time(target.floor, unit)}"
    if target.required_speedup is None:  # on the path, not computed yet
        return "missed ✘"
    text = f"missed ✘: the optimized components would need to be {n.speedup(target.required_speedup)} faster"
    if target.sum is not None and target.sum.required_speedup is not None:
        text += f" with the trace's dependencies (the sum says {n.speedup(target.sum.required_speedup)})"
    return text


def _speedup(label: str, value: float, n: Numbers, note: str = "") -> Row:
    return Row(label, value if math.isfinite(value) else None, SPEEDUP, n.speedup(value), note)


def _time(label: str, value: float | None, unit: TimeUnit, n: Numbers, note: str = "") -> Row:
    return Row(label, value, unit.label, n.time(value, unit) if value is not None else "—", note)


def objectives_section(
    profile: Profile, objectives: tuple[ObjectiveFigures, ...], n: Numbers = POINT, traced: bool = False
) -> Section:
    """Each objective (End to end first): its time before and after the plan, speedup, ceiling and target verdict.
    ``traced``: the profile's answer is the one with its trace's dependencies (given above): End to end's figures
    here are the sum's, and say so."""
    unit = profile.unit
    rows: list[Row] = []
    sentences = []
    for o in objectives:
        if o.dependencies:  # the step on the trace's critical path; the sum's beside
            rows += _stepped(o, unit, n)
            sentences.append(
                f"{objective_sentence(o, profile, n)} With the trace's dependencies; the sum of the components' times "
                f"promises {n.time(o.sum_new_total or 0.0, unit)} ({n.speedup(o.sum_speedup or 1.0)})."
            )
            continue
        name = f"{o.name} {BY_SUM}" if traced and o.is_end_to_end else o.name
        rows += [
            _time(f"{name}: before", o.baseline_total, unit, n, f"{n.count(len(o.components))} components"),
            _time(f"{name}: after the plan", o.new_total, unit, n),
            _speedup(f"{name}: speedup", o.overall_speedup, n),
            _speedup(f"{name}: ceiling", o.ceiling, n, "no speedup of the enabled optimizations beats it"),
        ]
        if o.target is not None:
            rows.append(_time(f"{name}: target", o.target.time, unit, n, verdict(o.target, unit, n)))
        said = objective_sentence(o, profile, n)
        sentences.append(
            f"{BY_SUM.capitalize()} (the answer with the trace's dependencies leads above): {said}"
            if traced and o.is_end_to_end
            else said
        )
    return Section("Objectives", tuple(rows), tuple(sentences))


def _stepped(o: ObjectiveFigures, unit: TimeUnit, n: Numbers) -> list[Row]:
    """An objective that is the step, answered on the trace's critical path, with the sum's figures beside."""
    name = f"{o.name} {WITH_DEPENDENCIES}"
    rows = [
        _time(f"{name}: before", o.baseline_total, unit, n, f"{n.count(len(o.components))} components"),
        _time(f"{name}: after the plan", o.new_total, unit, n, "the step's critical path with the plan"),
        _speedup(f"{name}: speedup", o.overall_speedup, n),
        _speedup(f"{name}: ceiling", o.ceiling, n, "the plan's targets' events free"),
    ]
    if o.target is not None:
        rows.append(_time(f"{name}: target", o.target.time, unit, n, verdict(o.target, unit, n)))
    rows.append(_time(f"{o.name} {BY_SUM}: after the plan", o.sum_new_total, unit, n, "what the sum promises"))
    if o.sum_speedup is not None:
        rows.append(_speedup(f"{o.name} {BY_SUM}: speedup", o.sum_speedup, n))
    return rows


def _queue(side: str, q: QueueFigures, unit: TimeUnit, n: Numbers) -> list[Row]:
    saturated = "saturated: the queue grows without bound" if q.saturated else ""
    return [
        _time(f"Service time {side}", q.service_time, unit, n, "one request alone"),
        Row(f"Utilization {side}", q.utilization, PERCENT, n.percent(q.utilization), saturated),
        _time(f"Mean response {side}", q.mean_response, unit, n, saturated or "queueing included"),
        _time(f"p99 wait {side}", q.p99_wait, unit, n, saturated or "99% of requests wait less"),
    ]


def _rate(label: str, rate: float | None, n: Numbers, note: str) -> Row:
    return Row(label, rate, REQUESTS, f"{n.number(rate)} {REQUESTS}" if rate is not None else "out of reach", note)


def load_section(
    profile: Profile, load: LoadFigures, n: Numbers = POINT, objectives: tuple[ObjectiveFigures, ...] = ()
) -> Section:
    """The service at the set arrival rate, before and after the plan, and the highest rate the target survives."""
    unit = profile.unit
    rows = [
        _rate("Arrival rate", load.arrival_rate, n, f"into {load.objective}"),
        Row("Replicas", float(load.servers), "", n.count(load.servers), "servers sharing the queue"),
        *_queue("before", load.before, unit, n),
        *_queue("after the plan", load.after, unit, n),
    ]
    if load.target is not None:
        what = "mean response" if load.criterion is Criterion.MEAN_RESPONSE else "p99 wait"
        goal = f"{what} within {n.time(load.target, unit)}"
        rows.append(_rate("Highest rate on target, before", load.max_rate_before, n, goal))
        rows.append(_rate("Highest rate on target, after the plan", load.max_rate_after, n, goal))
    sentences = [load_sentence(load, plan_phrase(profile), n)]
    if objectives:
        beside = load_dependencies_note(load, objectives, n)
        if beside:
            sentences.append(beside)
    more = max_rate_sentence(load, n)
    if more:
        sentences.append(more)
    return Section(f"Under load: {load.objective}", tuple(rows), tuple(sentences))


def _gpus(label: str, count: int | None, note: str, n: Numbers) -> Row:
    value = float(count) if count is not None else None
    return Row(label, value, GPUS, n.count(count) if count is not None else "none", note)


def cost_section(profile: Profile, cost: CostFigures, n: Numbers = POINT) -> Section:
    """What a run costs where it is cheapest and fastest, which GPU count meets the target, and what the plan saves."""
    money = cost.currency or "money"

    def per_run(gpus: int) -> str:
        i = int(np.flatnonzero(cost.gpus == gpus)[0])
        if cost.cost is not None:
            return f"{n.money(float(cost.cost[i]), cost.currency)} a run"
        return f"{n.number(float(cost.gpu_hours[i]))} GPU-hours a run"

    rows: list[Row] = []
    if cost.rate is not None:
        note = "GPU and energy" if cost.energy_rate else "per GPU"
        rows.append(Row("Price per GPU-hour", cost.rate, money, n.money(cost.rate, cost.currency), note))
    rows.append(_gpus("Cheapest GPU count", cost.cheapest_gpus, per_run(cost.cheapest_gpus), n))
    rows.append(_gpus("Fastest GPU count", cost.fastest_gpus, per_run(cost.fastest_gpus), n))
    if cost.target is not None:
        meets = cost.cheapest_meeting_target_gpus
        goal = f"within {n.time(cost.target, profile.unit)}"
        note = per_run(meets) + f", {goal}" if meets is not None else f"no GPU count evaluated is {goal}"
        rows.append(_gpus("Cheapest GPU count on target", meets, note, n))
    at = f"on {n.count(cost.baseline_gpus)} GPU{'s' if cost.baseline_gpus != 1 else ''}"
    hours = cost.saved_gpu_hours_per_run
    rows.append(Row("GPU-hours saved per run", hours, "GPU-hours", n.number(hours), f"by the plan, {at}"))
    if cost.saved_per_run is not None and cost.saved_per_million_runs is not None:
        rows.append(Row("Saved per run", cost.saved_per_run, money, n.money(cost.saved_per_run, cost.currency), at))
        million = cost.saved_per_million_runs
        rows.append(Row("Saved per million runs", million, money, n.money(million, cost.currency), at))
    return Section("Cost per run", tuple(rows), (cost_sentence(cost, profile.unit, n),))


def fit_section(
    fit: FitResult, profile_p: float | None = None, profile_n0: float | None = None, n: Numbers = POINT
) -> Section:
    """The fits to the measured runs (the Measurements tab's figures) with the sentences a reviewer reads, and
    the profile's P (measured at ``profile_n0`` GPUs) against them."""
    m = fit.measurements
    title = f"Measured runs: {n.count(len(m))} run{'s' if len(m) != 1 else ''} against {m.noun}"
    rows = tuple(Row(f.name, f.number, f.unit, f.value, f.meaning) for f in fit_figures(fit, n))
    sentences = notes_for(fit, n)
    if profile_p is not None:
        said = profile_comparison(profile_p, fit, profile_n0, n)
        if said:
            sentences.append(said)
    return Section(title, rows, tuple(sentences))


def sections(
    profile: Profile,
    analysis: Analysis,
    outcomes: Outcomes,
    fit: FitResult | None = None,
    n: Numbers = POINT,
    traced: bool = False,
) -> tuple[Section, ...]:
    """Objectives, load (with an arrival rate), cost (with a price, as the window shows it) and the measured
    runs' fits (with runs). ``traced``: End to end's answer is the trace's (stated before these), these the sum's."""
    out = [objectives_section(profile, outcomes.objectives, n, traced)]
    if outcomes.load is not None:
        out.append(load_section(profile, outcomes.load, n, outcomes.objectives))
    if outcomes.cost.priced:  # without a price, GPU-hours alone say little (the window and the report agree)
        out.append(cost_section(profile, outcomes.cost, n))
    if fit is not None and len(fit.measurements):
        scaling = analysis.scaling
        out.append(fit_section(fit, scaling.parallel_fraction, float(scaling.baseline_gpus), n))
    return tuple(out)
