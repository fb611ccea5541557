"""The values a profile holds: components, optimizations, settings, and how GPU counts and overheads are named."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple

from .errors import Problem, Refusal
from .load_settings import load_cost_problems
from .numbers import ParseError
from .objective_specs import END_TO_END, normalise_objectives
from .units import TimeUnit, convert


class Scaling(str, Enum):
    """How a component's time behaves when GPUs are added."""

    SERIAL = "serial"
    PARALLEL = "parallel"
    COMMUNICATION = "communication"

    @classmethod
    def parse(cls, text: str) -> Scaling:
        """Case-insensitive, with a few words people use; empty means serial."""
        key = text.strip().lower()
        if not key:
            return cls.SERIAL
        found = SCALING_WORDS.get(key)
        if found is None:
            raise ParseError(f'"{text.strip()}" is not a scaling class; expected serial, parallel or communication')
        return found


SCALING_WORDS = {
    "serial": Scaling.SERIAL,
    "sequential": Scaling.SERIAL,
    "s": Scaling.SERIAL,
    "parallel": Scaling.PARALLEL,
    "p": Scaling.PARALLEL,
    "communication": Scaling.COMMUNICATION,
    "comm": Scaling.COMMUNICATION,
    "c": Scaling.COMMUNICATION,
}


class OverheadModel(str, Enum):
    """How communication components' time grows with the GPU count."""

    NONE = "none"
    LINEAR = "linear"
    LOG = "log"
    RING = "ring"

    @classmethod
    def parse(cls, text: str) -> OverheadModel:
        key = text.strip().lower()
        aliases = {
            "": "none",
            "constant": "none",
            "log2": "log",
            "logarithmic": "log",
            "ring all-reduce": "ring",
            "all-reduce": "ring",
            "allreduce": "ring",
        }
        key = aliases.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise ParseError(f'"{text.strip()}" is not an overhead model; expected none, linear, log or ring') from None


class _ComponentFields(NamedTuple):
    name: str
    time: float
    scaling: Scaling = Scaling.SERIAL
    group: str = ""
    notes: str = ""
    objectives: tuple[str, ...] = ()
    # The scaling class is a guess (an import's, from the name): shown as such until a person chooses a class.
    scaling_guessed: bool = False
    # The range of the measured time (None: the time itself on that side); see model/uncertainty.py.
    time_low: float | None = None
    time_high: float | None = None


SCALING_CODE = {Scaling.SERIAL: 0, Scaling.PARALLEL: 1, Scaling.COMMUNICATION: 2}
# Where a component's time range sits in its tuple, for the readers that take a column at C speed.
TIME_LOW_AT, TIME_HIGH_AT = _ComponentFields._fields.index("time_low"), _ComponentFields._fields.index("time_high")


class Component(_ComponentFields):
    """One measured part of the workload: an immutable value (``_replace`` makes a changed copy).

    A named tuple rather than a frozen dataclass: profiles hold 100,000 of them, and this
    is three times cheaper to create.
    """

    __slots__ = ()

    def __new__(
        cls,
        name: str,
        time: float,
        scaling: Scaling = Scaling.SERIAL,
        group: str = "",
        notes: str = "",
        objectives: tuple[str, ...] = (),
        scaling_guessed: bool = False,
        time_low: float | None = None,
        time_high: float | None = None,
    ) -> Component:
        # Names are identifiers people type and paste: surrounding blanks (tabs too) are never meant.
        # Objectives are trimmed and each kept once. ``_replace`` bypasses this: give it parse_objectives' result.
        return super().__new__(
            cls,
            name.strip(),
            time,
            scaling,
            group,
            notes,
            normalise_objectives(objectives) if objectives else (),
            scaling_guessed,
            time_low,
            time_high,
        )

    def __repr__(self) -> str:
        more = f", objectives={self.objectives!r}" if self.objectives else ""
        more += ", scaling_guessed=True" if self.scaling_guessed else ""
        if self.time_low is not None or self.time_high is not None:
            more += f", time_low={self.time_low!r}, time_high={self.time_high!r}"
        return f"Component({self.name!r}, {self.time!r}, {self.scaling.value}, group={self.group!r}{more})"

    def in_unit(self, source: TimeUnit, target: TimeUnit) -> Component:
        """The same component, its time and range (in ``source``) written in ``target``."""
        if self.time_low is None and self.time_high is None:
            return self._replace(time=convert(self.time, source, target))
        return self._replace(
            time=convert(self.time, source, target),
            time_low=None if self.time_low is None else convert(self.time_low, source, target),
            time_high=None if self.time_high is None else convert(self.time_high, source, target),
        )

    def with_time(self, time: float) -> Component:
        """A copy measured at ``time``: its range stays while it holds the new time; outside it, the range (the spread
        of the old measurement) goes."""
        low, high = self.time_range
        if (self.time_low is None and self.time_high is None) or low <= time <= high:
            return self._replace(time=time)
        return self._replace(time=time, time_low=None, time_high=None)

    @property
    def time_range(self) -> tuple[float, float]:
        """(lowest, highest) time: the measured time on a side that has no range."""
        low, high = self.time_low, self.time_high
        return (self.time if low is None else low, self.time if high is None else high)


@dataclass(frozen=True)
class Optimization:
    """A proposed change: the components it speeds up and by how much (k).

    ``speedup`` is the likely k; ``speedup_low``/``speedup_high`` make it a three-point estimate (``None``: that
    side is the likely k). ``effort`` is its cost in engineer-days (``None``: not given); ``confidence`` the
    probability, from 0 to 1, that it works at all (when it does not, k = 1). ``built``: it is done — the
    profile's times were measured after it — so it is off, with k = 1 against those times (kept to show what
    was built and what it was planned to give, in its notes).
    """

    name: str
    targets: tuple[str, ...]
    speedup: float
    enabled: bool = True
    notes: str = ""
    speedup_low: float | None = None
    speedup_high: float | None = None
    effort: float | None = None
    confidence: float = 1.0
    built: bool = False

    @property
    def is_slowdown(self) -> bool:
        return self.speedup < 1

    def with_speedup(self, k: float) -> Optimization:
        """A copy with likely k = ``k``: its range stays while it holds ``k``; outside it, the range (an estimate
        around the old k) goes, and effort and confidence stay."""
        low, high = self.speedup_range
        if (self.speedup_low is None and self.speedup_high is None) or low <= k <= high:
            return replace(self, speedup=k)
        return replace(self, speedup=k, speedup_low=None, speedup_high=None)

    @property
    def speedup_range(self) -> tuple[float, float]:
        """(low, high) k: the likely k on a side that has no estimate."""
        low, high = self.speedup_low, self.speedup_high
        return (self.speedup if low is None else low, self.speedup if high is None else high)

    @property
    def is_uncertain(self) -> bool:
        """Whether k has a range or the optimization might not work."""
        low, high = self.speedup_range
        return low != high or self.confidence < 1


def default_gpu_counts(max_gpus: int = 1024) -> tuple[int, ...]:
    """Powers of two up to ``max_gpus``, with ``max_gpus`` itself at the end."""
    counts = [1]
    while counts[-1] * 2 <= max_gpus:
        counts.append(counts[-1] * 2)
    if counts[-1] != max_gpus:
        counts.append(max_gpus)
    return tuple(counts)


@dataclass(frozen=True)
class Settings:
    """What the analysis needs besides the table: target, GPU range, overhead model.

    Ring parameters are physical: latency α in seconds, message size in bytes,
    bandwidth in bytes per second.
    """

    target_time: float | None = None
    baseline_gpus: int = 1
    gpu_counts: tuple[int, ...] = field(default_factory=default_gpu_counts)
    parallel_fraction: float | None = None
    overhead_model: OverheadModel = OverheadModel.NONE
    ring_latency: float = 5e-6
    ring_message_bytes: float = 1e9
    ring_bandwidth: float = 100e9
    boundary: str = ""
    # Load and cost (see load_settings.LoadCostFields): requests per second at `servers` replicas, timed by
    # `load_objective`; the GPU price (its currency only for display), power and energy price.
    arrival_rate: float | None = None
    servers: int = 1
    load_objective: str = END_TO_END
    gpu_price_per_hour: float | None = None
    currency: str = ""
    watts_per_gpu: float | None = None
    energy_price_per_kwh: float | None = None
    # A profile imported from a trace: the file, the options that grouped it, and per component the events it
    # groups (name, matcher; see model.traces.component_events), so a what-if can find them again.
    trace_source: str = ""
    trace_grouping: str = ""
    trace_events: tuple[tuple[str, str], ...] = ()
    # False where that trace holds no GPU events (its import's scope, ``gpu_events``): a CPU job's (gloo) or a CPU
    # process's, whose N counts ranks, not GPUs; None otherwise (GPU events, a workbook of its own, an older import),
    # as the workbook keeps it (a row for False alone), so a profile reads back equal.
    trace_gpu_events: bool | None = None
    # The probability a plan must reach to meet the target, from 0 (exclusive) to 1 (see model/uncertainty.py).
    plan_confidence: float = 0.8


MAX_GPUS = 10_000_000  # beyond any machine: a larger count is a typo, and would make a useless curve


def settings_problems(settings: Settings) -> list[Problem]:
    """Everything wrong with ``settings``, located by field name."""
    problems: list[Problem] = []

    def bad(name: str, why: Refusal = Refusal.OUT_OF_RANGE, *values: object) -> None:
        problems.append(Problem.of(why, "settings", None, name, *values))

    if settings.target_time is not None and (not math.isfinite(settings.target_time) or settings.target_time <= 0):
        bad("target_time")
    if settings.baseline_gpus < 1:
        bad("baseline_gpus")
    elif settings.baseline_gpus > MAX_GPUS:
        bad("baseline_gpus", Refusal.TOO_LARGE, MAX_GPUS)
    if not settings.gpu_counts:
        bad("gpu_counts", Refusal.NO_GPU_COUNTS)
    elif min(settings.gpu_counts) < 1:
        bad("gpu_counts")
    elif max(settings.gpu_counts) > MAX_GPUS:
        bad("gpu_counts", Refusal.TOO_LARGE, MAX_GPUS)
    p = settings.parallel_fraction
    if p is not None and not (math.isfinite(p) and 0 <= p <= 1):
        bad("parallel_fraction")
    if not (math.isfinite(settings.ring_latency) and settings.ring_latency >= 0):
        bad("ring_latency")
    if not (math.isfinite(settings.ring_message_bytes) and settings.ring_message_bytes >= 0):
        bad("ring_message_bytes")
    if not (math.isfinite(settings.ring_bandwidth) and settings.ring_bandwidth > 0):
        bad("ring_bandwidth")
    return problems + load_cost_problems(settings)
