"""What the answer adds beside the headline: each objective and its target, the service under load, the cost
per run and the measured runs' fits — as labelled figures with units and the sentences that say what they mean.

The workbook's Summary sheet writes these sections; the window and the command line say the same sentences
(from the model) and can show the same figures. Figure texts are written with ``numbers``; the sentences
are in the model's format, as everywhere the window localizes them.
"""

from __future__ import annotations

import math

from ..model.analysis import Analysis, TargetFigures
from ..model.cost import CostFigures, cost_sentence
from ..model.extras import Extras
from ..model.fit import FitResult
from ..model.load_view import load_sentence, max_rate_sentence, plan_phrase
from ..model.objective_table import objective_sentence
from ..model.objectives import ObjectiveFigures
from ..model.profile import Profile
from ..model.quantities import format_money
from ..model.queueing import Criterion, LoadFigures, QueueFigures
from ..model.units import TimeUnit
from .figures import PERCENT, SPEEDUP, Figure, Section
from .fit import fit_section
from .numbers import POINT, Numbers

__all__ = ["Figure", "Section", "cost_section", "load_section", "objectives_section", "summary_sections"]

REQUESTS = "requests/s"
GPUS = "GPUs"


def verdict(target: TargetFigures, unit: TimeUnit, numbers: Numbers = POINT) -> str:
    """Whether the plan meets a target, and if not what it would take: "met by the plan ✔", "missed ✘: …"."""
    if target.met_by_plan:
        return "met by the plan ✔"
    if not target.feasible:
        return f"missed ✘: what the plan leaves untouched already takes {numbers.time(target.floor, unit)}"
    needs = numbers.speedup(target.required_speedup)
    return f"missed ✘: the optimized components would need to be {needs} faster"


def _speedup(label: str, value: float, numbers: Numbers, note: str = "") -> Figure:
    finite = value if math.isfinite(value) else None
    return Figure(label, finite, SPEEDUP, numbers.speedup(value), note)


def _time(label: str, value: float | None, unit: TimeUnit, numbers: Numbers, note: str = "") -> Figure:
    text = numbers.time(value, unit) if value is not None else "—"
    return Figure(label, value, unit.label, text, note)


def objectives_section(profile: Profile, objectives: tuple[ObjectiveFigures, ...], numbers: Numbers = POINT) -> Section:
    """Each objective (End to end first): its time before and after the plan, speedup, ceiling and target verdict."""
    unit = profile.unit
    rows: list[Figure] = []
    for o in objectives:
        rows += [
            _time(f"{o.name}: before", o.baseline_total, unit, numbers, f"{len(o.components):,} components"),
            _time(f"{o.name}: after the plan", o.new_total, unit, numbers),
            _speedup(f"{o.name}: speedup", o.overall_speedup, numbers),
            _speedup(f"{o.name}: ceiling", o.ceiling, numbers, "no speedup of the enabled optimizations beats it"),
        ]
        if o.target is not None:
            rows.append(_time(f"{o.name}: target", o.target.time, unit, numbers, verdict(o.target, unit, numbers)))
    sentences = tuple(objective_sentence(o, profile) for o in objectives)
    return Section("Objectives", tuple(rows), sentences)


def _queue(side: str, q: QueueFigures, unit: TimeUnit, numbers: Numbers) -> list[Figure]:
    saturated = "saturated: the queue grows without bound" if q.saturated else ""
    return [
        _time(f"Service time {side}", q.service_time, unit, numbers, "one request alone"),
        Figure(f"Utilization {side}", q.utilization, PERCENT, numbers.percent(q.utilization), saturated),
        _time(f"Mean response {side}", q.mean_response, unit, numbers, saturated or "queueing included"),
        _time(f"p99 wait {side}", q.p99_wait, unit, numbers, saturated or "99% of requests wait less"),
    ]


def _rate(label: str, rate: float | None, numbers: Numbers, note: str) -> Figure:
    text = f"{numbers.number(rate)} {REQUESTS}" if rate is not None else "out of reach"
    return Figure(label, rate, REQUESTS, text, note)


def load_section(profile: Profile, load: LoadFigures, numbers: Numbers = POINT) -> Section:
    """The service at the set arrival rate, before and after the plan, and the highest rate the target survives."""
    unit = profile.unit
    rows = [
        _rate("Arrival rate", load.arrival_rate, numbers, f"into {load.objective}"),
        Figure("Replicas", float(load.servers), "", numbers.count(load.servers), "servers sharing the queue"),
        *_queue("before", load.before, unit, numbers),
        *_queue("after the plan", load.after, unit, numbers),
    ]
    if load.target is not None:
        what = "mean response" if load.criterion is Criterion.MEAN_RESPONSE else "p99 wait"
        goal = f"{what} within {numbers.time(load.target, unit)}"
        rows.append(_rate("Highest rate on target, before", load.max_rate_before, numbers, goal))
        rows.append(_rate("Highest rate on target, after the plan", load.max_rate_after, numbers, goal))
    sentences = [load_sentence(load, plan_phrase(profile))]
    more = max_rate_sentence(load)
    if more:
        sentences.append(more)
    return Section(f"Under load: {load.objective}", tuple(rows), tuple(sentences))


def _gpus(label: str, n: int | None, note: str, numbers: Numbers) -> Figure:
    return Figure(label, float(n) if n is not None else None, GPUS, numbers.count(n) if n is not None else "none", note)


def cost_section(profile: Profile, cost: CostFigures, numbers: Numbers = POINT) -> Section:
    """What a run costs where it is cheapest and fastest, which GPU count meets the target, and what the plan saves."""
    money = cost.currency or "money"

    def per_run(n: int) -> str:
        if cost.priced:
            return f"{format_money(cost.cost_at(n) or 0.0, cost.currency)} a run"
        i = int((cost.gpus == n).argmax())
        return f"{numbers.number(float(cost.gpu_hours[i]))} GPU-hours a run"

    rows: list[Figure] = []
    if cost.rate is not None:
        note = "GPU and energy" if cost.energy_rate else "per GPU"
        rows.append(Figure("Price per GPU-hour", cost.rate, money, format_money(cost.rate, cost.currency), note))
    rows.append(_gpus("Cheapest GPU count", cost.cheapest_gpus, per_run(cost.cheapest_gpus), numbers))
    rows.append(_gpus("Fastest GPU count", cost.fastest_gpus, per_run(cost.fastest_gpus), numbers))
    if cost.target is not None:
        meets = cost.cheapest_meeting_target_gpus
        goal = f"within {numbers.time(cost.target, profile.unit)}"
        note = per_run(meets) + f", {goal}" if meets is not None else f"no GPU count evaluated is {goal}"
        rows.append(_gpus("Cheapest GPU count on target", meets, note, numbers))
    at = f"on {numbers.count(cost.baseline_gpus)} GPU{'s' if cost.baseline_gpus != 1 else ''}"
    hours = cost.saved_gpu_hours_per_run
    rows.append(Figure("GPU-hours saved per run", hours, "GPU-hours", numbers.number(hours), f"by the plan, {at}"))
    if cost.saved_per_run is not None and cost.saved_per_million_runs is not None:
        rows.append(
            Figure("Saved per run", cost.saved_per_run, money, format_money(cost.saved_per_run, cost.currency), at)
        )
        million = cost.saved_per_million_runs
        rows.append(Figure("Saved per million runs", million, money, format_money(million, cost.currency), at))
    return Section("Cost per run", tuple(rows), (cost_sentence(cost, profile.unit),))


def summary_sections(
    profile: Profile, analysis: Analysis, extras: Extras, fit: FitResult | None = None, numbers: Numbers = POINT
) -> tuple[Section, ...]:
    """Objectives, load (with an arrival rate), cost (with a price) and the measured runs' fits (with runs)."""
    sections = [objectives_section(profile, extras.objectives, numbers)]
    if extras.load is not None:
        sections.append(load_section(profile, extras.load, numbers))
    if extras.cost.priced:  # as the window and the report: without a price, GPU-hours alone say little
        sections.append(cost_section(profile, extras.cost, numbers))
    if fit is not None and len(fit.measurements):
        scaling = analysis.scaling
        sections.append(fit_section(fit, scaling.parallel_fraction, float(scaling.baseline_gpus)))
    return tuple(sections)
