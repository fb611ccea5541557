"""The loaded service in words: what the plan does to response time under load, and how much load a target survives."""

from __future__ import annotations

from ..model.objectives import ObjectiveFigures, find_objective
from ..model.profile import Profile
from ..model.queueing import Criterion, LoadFigures, QueueFigures, fewest_servers
from ..model.units import TimeUnit
from .numbers import POINT, Numbers


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


def _rate(rate: float, n: Numbers) -> str:
    return f"{n.number(rate)} request{'s' if rate != 1 else ''}/s"


def _replicas(servers: int, n: Numbers) -> str:
    return f"{n.count(servers)} replica{'s' if servers != 1 else ''}"


def _fewest(q: QueueFigures, unit: TimeUnit) -> int:
    return fewest_servers(q.arrival_rate, q.service_time, unit)


def load_sentence(figures: LoadFigures, plan: str = "the plan", n: Numbers = POINT) -> str:
    """The loaded service in one sentence, e.g. "At 14 requests/s on 24 replicas, faster decode cuts service time
    1.43× and mean response 1.63× (1,712 ms → 1,052 ms; utilization 88% → 61%): the extra gain is queueing that
    disappears." """
    f = figures
    b, a, unit = f.before, f.after, f.unit
    where = f"At {_rate(f.arrival_rate, n)} on {_replicas(f.servers, n)}"
    util = f"utilization {n.percent(b.utilization)} → {n.percent(a.utilization)}"
    service = f"service time {n.speedup(f.service_speedup)}"
    if b.saturated and a.saturated:
        return (
            f"{where} the service is saturated before and after {plan} (load {n.percent(b.utilization)} → "
            f"{n.percent(a.utilization)} of capacity): the queue grows without bound; "
            f"it needs at least {n.count(_fewest(a, unit))} replicas after the plan, {n.count(_fewest(b, unit))} before."
        )
    if b.saturated and a.mean_response is not None:
        return (
            f"{where} the service is saturated today (load {n.percent(b.utilization)} of capacity): the queue grows "
            f"without bound; {plan} cuts {service} and brings it to a mean response of "
            f"{n.time(a.mean_response, unit)} at {n.percent(a.utilization)} utilization."
        )
    if a.saturated and b.mean_response is not None:
        return (
            f"{where}, {plan} slows service time to {n.time(a.service_time, unit)} and saturates the service "
            f"(load {n.percent(b.utilization)} → {n.percent(a.utilization)} of capacity): "
            "the queue grows without bound."
        )
    assert b.mean_response is not None and a.mean_response is not None
    response = f.response_speedup or 1.0
    times = f"{n.time(b.mean_response, unit)} → {n.time(a.mean_response, unit)}; {util}"
    if f.service_speedup == 1.0:
        return (
            f"{where} the service runs at {n.percent(b.utilization)} utilization with a mean response of "
            f"{n.time(b.mean_response, unit)}; enable an optimization to see what it does under load."
        )
    head = f"{where}, {plan} cuts {service} and mean response {n.speedup(response)} ({times})"
    if f.service_speedup > 1 and response > f.service_speedup * 1.005:
        return head + ": the extra gain is queueing that disappears."
    if f.service_speedup > 1:
        return head + ": there is little queueing at this load, so the gain is the service time's."
    return (
        f"{where}, {plan} makes service time {n.speedup(1 / f.service_speedup)} slower "
        f"and mean response {n.speedup(1 / response)} slower ({times})."
    )


def max_rate_sentence(figures: LoadFigures, n: Numbers = POINT) -> str | None:
    """How much load the target survives before and after the plan; ``None`` without a target."""
    f = figures
    if f.target is None:
        return None
    what = "mean response" if f.criterion is Criterion.MEAN_RESPONSE else "p99 wait"
    goal = f"a {what} within {n.time(f.target, f.unit)}"
    on = f"On {_replicas(f.servers, n)}"
    before, after = f.max_rate_before, f.max_rate_after
    if before is None and after is None:
        return (
            f"{on}, {goal} is out of reach at any load: one request alone takes "
            f"{n.time(f.before.service_time, f.unit)} today and {n.time(f.after.service_time, f.unit)} "
            "after the plan."
        )
    if before is None and after is not None:
        return (
            f"{on}, {goal} is out of reach today at any load (one request alone takes "
            f"{n.time(f.before.service_time, f.unit)}) and holds up to {_rate(after, n)} after the plan."
        )
    if after is None and before is not None:
        return f"{on}, {goal} holds up to {_rate(before, n)} today and at no load after the plan."
    assert before is not None and after is not None
    return (
        f"{on}, {goal} holds up to {_rate(before, n)} today and up to {_rate(after, n)} after the plan "
        f"({n.speedup(after / before)} the load)."
    )


def load_dependencies_note(figures: LoadFigures, objectives: tuple[ObjectiveFigures, ...], n: Numbers = POINT) -> str:
    """When the service time is a traced profile's step: that its time after the plan is the one on the trace's
    critical path, the sum's beside ("" otherwise)."""
    o = find_objective(objectives, figures.objective)
    if o is None or not o.dependencies or o.sum_new_total is None:
        return ""
    unit = figures.unit
    return (
        f"The service time after the plan is the step on the trace's critical path ({n.time(o.new_total, unit)}); "
        f"the sum of the components' times promises {n.time(o.sum_new_total, unit)}."
    )
