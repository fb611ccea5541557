"""The plan as a loaded service: an M/M/c queue (Erlang C) before and after the plan's service time.

Arrival rates are per second; service and waiting times are in the profile's unit, turned into
seconds only inside. A saturated queue (utilization ρ ≥ 1) has no steady state: its waiting
figures are ``None``, never a negative or infinite number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import ArrayLike

from .laws import FloatArray
from .units import TimeUnit

TAIL = 0.01
"""The p99 wait is the time t with P(wait > t) = 1%."""


class Criterion(str, Enum):
    """Which figure the target time is held against when looking for the highest arrival rate."""

    MEAN_RESPONSE = "mean_response"
    P99_WAIT = "p99_wait"


def _log_factorials(n: int) -> FloatArray:
    """ln k! for k = 0..n, by a running sum of logs (no overflow however large n)."""
    return np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, n + 1, dtype=float)))))


def erlang_c(servers: int, offered: ArrayLike) -> FloatArray:
    """Probability that an arrival waits, for offered load a = λ·s (in erlangs) on ``servers`` replicas.

    Erlang B is (aᶜ/c!) / Σₖ aᵏ/k!, summed in log space so that 500 or 50,000 replicas neither
    overflow nor lose digits; then C = B / (1 − ρ(1 − B)) with ρ = a/c.  1 where a ≥ c: at
    saturation every arrival waits.
    """
    loads = np.atleast_1d(np.asarray(offered, dtype=float))
    result = np.ones_like(loads)
    k = np.arange(servers + 1, dtype=float)
    log_fact = _log_factorials(servers)
    for i, a in enumerate(loads.flat):
        if a <= 0:
            result.flat[i] = 0.0
        elif a < servers:
            terms = k * math.log(a) - log_fact
            top = terms.max()
            log_sum = top + math.log(float(np.exp(terms - top).sum()))
            blocked = math.exp(terms[-1] - log_sum)
            result.flat[i] = blocked / (1.0 - (a / servers) * (1.0 - blocked))
    return result.reshape(np.shape(offered)) if np.ndim(offered) else result


@dataclass(frozen=True)
class QueueFigures:
    """One operating point of an M/M/c queue; times in the profile's unit, rates per second.

    ``saturated`` (ρ ≥ 1): the queue grows without bound, and every waiting figure is ``None``.
    """

    arrival_rate: float
    servers: int
    service_time: float
    utilization: float
    saturated: bool
    wait_probability: float | None
    mean_wait: float | None
    mean_response: float | None
    p99_wait: float | None
    in_queue: float | None
    in_system: float | None


def queue(arrival_rate: float, servers: int, service_time: float, unit: TimeUnit = TimeUnit.S) -> QueueFigures:
    """The M/M/c figures for λ = ``arrival_rate`` per second and a mean service time in ``unit``.

    μ = 1/s, a = λ/μ, ρ = a/c; P_wait = Erlang C; Wq = P_wait/(cμ − λ); W = Wq + s;
    p99 wait from P(Wq > t) = P_wait·e^{−(cμ−λ)t} (0 when P_wait ≤ 1%); Lq = λWq, L = λW.
    """
    s = service_time * unit.seconds
    offered = arrival_rate * s
    rho = offered / servers
    if rho >= 1:
        return QueueFigures(arrival_rate, servers, service_time, rho, True, None, None, None, None, None, None)
    if offered <= 0:  # no arrivals, or a free service: nobody ever waits
        p_wait = wait = p99 = 0.0
    else:
        p_wait = float(erlang_c(servers, offered)[0])
        drain = servers / s - arrival_rate  # cμ − λ, per second
        wait = p_wait / drain
        p99 = math.log(p_wait / TAIL) / drain if p_wait > TAIL else 0.0
    response = wait + s
    to_unit = 1.0 / unit.seconds
    return QueueFigures(
        arrival_rate=arrival_rate,
        servers=servers,
        service_time=service_time,
        utilization=rho,
        saturated=False,
        wait_probability=p_wait,
        mean_wait=wait * to_unit,
        mean_response=response * to_unit,
        p99_wait=p99 * to_unit,
        in_queue=arrival_rate * wait,
        in_system=arrival_rate * response,
    )


def saturation_rate(servers: int, service_time: float, unit: TimeUnit = TimeUnit.S) -> float:
    """The arrival rate per second at which utilization reaches 1 (c/s): the wall of the chart."""
    s = service_time * unit.seconds
    return servers / s if s > 0 else math.inf


def fewest_servers(arrival_rate: float, service_time: float, unit: TimeUnit = TimeUnit.S) -> int:
    """The fewest replicas that keep utilization below 1: ⌊λ·s⌋ + 1."""
    return math.floor(arrival_rate * service_time * unit.seconds) + 1


def _figure(q: QueueFigures, criterion: Criterion) -> float:
    value = q.mean_response if criterion is Criterion.MEAN_RESPONSE else q.p99_wait
    return math.inf if value is None else value


def max_arrival_rate(
    servers: int,
    service_time: float,
    target: float,
    unit: TimeUnit = TimeUnit.S,
    criterion: Criterion = Criterion.MEAN_RESPONSE,
) -> float | None:
    """The highest arrival rate per second at which the mean response (or the p99 wait) stays within ``target``.

    Both grow with the rate, so bisection on utilization between 0 and 1 finds it; ``None`` when no
    rate meets the target (the service time alone exceeds it).
    """
    if service_time <= 0:
        return None
    wall = saturation_rate(servers, service_time, unit)
    if criterion is Criterion.MEAN_RESPONSE and service_time >= target:
        return None
    lo, hi = 0.0, 1.0  # utilizations: lo meets the target, hi does not
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if _figure(queue(mid * wall, servers, service_time, unit), criterion) <= target:
            lo = mid
        else:
            hi = mid
    return lo * wall if lo > 0 else None


@dataclass(frozen=True)
class LoadFigures:
    """The service before and after the plan, at the set arrival rate; times in the profile's unit."""

    objective: str
    unit: TimeUnit
    arrival_rate: float
    servers: int
    before: QueueFigures
    after: QueueFigures
    target: float | None
    criterion: Criterion
    max_rate_before: float | None
    max_rate_after: float | None

    @property
    def service_speedup(self) -> float:
        """How much faster one request is served: Amdahl's answer."""
        return self.before.service_time / self.after.service_time if self.after.service_time > 0 else math.inf

    @property
    def response_speedup(self) -> float | None:
        """How much faster the mean response gets, queueing included; ``None`` when either side is saturated."""
        b, a = self.before.mean_response, self.after.mean_response
        if b is None or a is None:
            return None
        return b / a if a > 0 else math.inf


def load_figures(
    objective: str,
    service_before: float,
    service_after: float,
    arrival_rate: float,
    servers: int,
    unit: TimeUnit,
    target: float | None = None,
    criterion: Criterion = Criterion.MEAN_RESPONSE,
) -> LoadFigures:
    """The queue before and after the plan, and the highest arrival rate that meets ``target`` in each."""
    max_before = max_after = None
    if target is not None:
        max_before = max_arrival_rate(servers, service_before, target, unit, criterion)
        max_after = max_arrival_rate(servers, service_after, target, unit, criterion)
    return LoadFigures(
        objective,
        unit,
        arrival_rate,
        servers,
        queue(arrival_rate, servers, service_before, unit),
        queue(arrival_rate, servers, service_after, unit),
        target,
        criterion,
        max_before,
        max_after,
    )
