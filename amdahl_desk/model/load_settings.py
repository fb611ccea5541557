"""The settings of the load and cost analyses, their rules, and how each is written in a Settings sheet."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .errors import Problem, Refusal
from .numbers import Decimal as DecimalSeparator
from .objective_specs import END_TO_END
from .quantities import (
    MAX_SERVERS,
    parse_energy_price,
    parse_power,
    parse_price,
    parse_rate,
    parse_servers,
    price_text,
    rate_text,
    watts_text,
)
from .values import confidence_text, parse_confidence


class LoadCostFields(Protocol):
    """What the load and cost analyses read from settings: :class:`LoadCostSettings`, or a Settings with the same fields."""

    @property
    def arrival_rate(self) -> float | None: ...
    @property
    def servers(self) -> int: ...
    @property
    def load_objective(self) -> str: ...
    @property
    def gpu_price_per_hour(self) -> float | None: ...
    @property
    def currency(self) -> str: ...
    @property
    def watts_per_gpu(self) -> float | None: ...
    @property
    def energy_price_per_kwh(self) -> float | None: ...
    @property
    def plan_confidence(self) -> float: ...


@dataclass(frozen=True)
class LoadCostSettings:
    """Load: requests per second arriving at ``servers`` replicas, timed by ``load_objective``.

    Cost: a GPU's price per hour (``currency`` only for display: ``$``, ``EUR``), and optionally its
    power in watts and the energy price per kWh. Every field is optional: without an arrival rate
    there is no load analysis, without a price the cost analysis counts GPU-hours only.
    ``plan_confidence``: the probability a plan must reach to meet the target (see model/uncertainty.py).
    """

    arrival_rate: float | None = None
    servers: int = 1
    load_objective: str = END_TO_END
    gpu_price_per_hour: float | None = None
    currency: str = ""
    watts_per_gpu: float | None = None
    energy_price_per_kwh: float | None = None
    plan_confidence: float = 0.8

    def problems(self) -> list[Problem]:
        """Everything wrong with these settings, located by field name."""
        return load_cost_problems(self)


def load_cost_problems(settings: LoadCostFields) -> list[Problem]:
    """Everything wrong with the load and cost fields of ``settings``, located by field name (table "settings")."""
    problems: list[Problem] = []

    def bad(name: str, why: Refusal = Refusal.OUT_OF_RANGE, *values: object) -> None:
        problems.append(Problem.of(why, "settings", None, name, *values))

    rate = settings.arrival_rate
    if rate is not None and not (math.isfinite(rate) and rate > 0):
        bad("arrival_rate")
    servers = settings.servers
    if isinstance(servers, bool) or not isinstance(servers, int) or not 1 <= servers <= MAX_SERVERS:
        bad("servers", Refusal.OUT_OF_RANGE, MAX_SERVERS)
    if not settings.load_objective.strip():
        bad("load_objective", Refusal.UNNAMED_LOAD_OBJECTIVE, END_TO_END)
    for name, value in (
        ("gpu_price_per_hour", settings.gpu_price_per_hour),
        ("watts_per_gpu", settings.watts_per_gpu),
        ("energy_price_per_kwh", settings.energy_price_per_kwh),
    ):
        if value is not None and not (math.isfinite(value) and value >= 0):
            bad(name)
    # Watts without an energy price (or the reverse) is not refused: a person types one, then the other.
    level = settings.plan_confidence
    if isinstance(level, bool) or not (isinstance(level, (int, float)) and math.isfinite(level) and 0 < level <= 1):
        bad("plan_confidence")
    return problems


def hourly_rate(settings: LoadCostFields) -> float | None:
    """Money per GPU-hour: the price plus the energy a GPU draws in an hour; ``None`` when no price is known."""
    energy = None
    if settings.watts_per_gpu is not None and settings.energy_price_per_kwh is not None:
        energy = settings.watts_per_gpu / 1000.0 * settings.energy_price_per_kwh
    if settings.gpu_price_per_hour is None:
        return energy
    return settings.gpu_price_per_hour + (energy or 0.0)


def setting_texts(settings: LoadCostFields, decimal: DecimalSeparator = ".") -> dict[str, str]:
    """Each field's value as text that :func:`SETTING_PARSERS` read back exactly with the same ``decimal``; "" for an
    unset field."""
    rate, price, watts, energy = (
        settings.arrival_rate,
        settings.gpu_price_per_hour,
        settings.watts_per_gpu,
        settings.energy_price_per_kwh,
    )
    return {
        "arrival_rate": rate_text(rate, decimal) if rate is not None else "",
        "servers": str(settings.servers),
        "load_objective": settings.load_objective,
        "gpu_price_per_hour": price_text(price, settings.currency, decimal) if price is not None else "",
        "watts_per_gpu": watts_text(watts, decimal) if watts is not None else "",
        "energy_price_per_kwh": (price_text(energy, settings.currency, decimal) + "/kWh") if energy is not None else "",
        "plan_confidence": confidence_text(settings.plan_confidence, decimal),
    }


def _energy(text: str, decimal: DecimalSeparator | None = None) -> tuple[float, str]:
    price = parse_energy_price(text, decimal)
    return price.amount, price.currency


def _price(text: str, decimal: DecimalSeparator | None = None) -> tuple[float, str]:
    price = parse_price(text, decimal)
    return price.amount, price.currency


SETTING_PARSERS: dict[str, Callable[[str, DecimalSeparator | None], object]] = {
    "arrival_rate": parse_rate,
    "servers": parse_servers,
    "load_objective": lambda text, decimal: text.strip(),
    "gpu_price_per_hour": _price,  # (amount, currency): the currency goes to the currency field
    "watts_per_gpu": parse_power,
    "energy_price_per_kwh": _energy,  # (amount, currency): must agree with the GPU price's, see same_currency
    "plan_confidence": parse_confidence,
}
"""(Text of a Settings cell, its column's decimal separator) → the field's value; raises :class:`ParseError`.

:func:`setting_texts` writes the decimal separator it is given (a point by default): read them back with it."""
