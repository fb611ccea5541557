"""Measured runs (runtime or throughput at N workers): the table a scaling fit reads, validated here."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from .errors import Problem, ProfileError, Refusal
from .laws import FloatArray
from .numbers import AmbiguousNumberError, Decimal, ParseError, example, parse_number
from .units import NUMBER_PATTERN

TABLE = "measurements"
# Header words for the count column, as people name it; the one found is kept for labels ("users").
COUNT_WORDS = ("gpus", "n", "workers", "nodes", "threads", "users", "concurrency", "load")
_SINGULAR = {"gpu": "gpus", "worker": "workers", "node": "nodes", "thread": "threads", "user": "users"}
_RATE_RE = re.compile(rf"^\s*(?P<num>{NUMBER_PATTERN})\s*(?P<unit>[^\d\s].*)?$")
# The most runs one table holds. A scaling study measures tens to thousands of runs; a million froze the window
# for a minute and took 1.25 GB. Past this, a table is a log to summarise first (one run per N and repeat).
MAX_RUNS = 100_000


def too_many_runs(count: int) -> Problem | None:
    """Why ``count`` runs are refused, or ``None`` when a table may hold them."""
    return None if count <= MAX_RUNS else Problem.of(Refusal.TOO_MANY_RUNS, TABLE, None, "", count, MAX_RUNS)


class MeasureKind(str, Enum):
    """What was measured at each N: the runtime of a fixed job, or the work done per unit of time."""

    TIME = "time"
    THROUGHPUT = "throughput"


@dataclass(frozen=True)
class Measurement:
    """One run: ``value`` (a time or a throughput, by the table's kind) measured with ``n`` workers."""

    n: float
    value: float
    label: str = ""
    notes: str = ""


def count_word(header: str) -> str | None:
    """``"GPUs"``, ``"gpu"``, ``"Users"`` → the canonical count word; None if it names no count."""
    key = " ".join(header.lower().replace("_", " ").split())
    key = _SINGULAR.get(key, key)
    return key if key in COUNT_WORDS else None


def parse_worker_count(text: str, decimal: Decimal | None = None) -> float:
    """A count of workers as typed: ``"8"``, ``"1 024"``; must be a finite number above 0.

    ``"1,024"`` alone is ambiguous (1024 or 1.024) unless ``decimal`` says which separator is the decimal one.
    """
    try:
        value = parse_number(text.strip(), decimal) if text.strip() else None
    except AmbiguousNumberError:
        raise
    except ParseError:
        value = None
    if value is None or not math.isfinite(value) or value <= 0:
        raise ParseError(f'"{text.strip()}" is not a count; expected a number above 0, like 8')
    return value


def parse_throughput(text: str, decimal: Decimal | None = None) -> tuple[float, str]:
    """``"1884.5 req/s"`` → ``(1884.5, "req/s")``; a bare number has no unit. Must be finite and above 0."""
    stripped = text.strip()
    match = _RATE_RE.match(stripped)
    value = parse_number(match.group("num"), decimal) if match else None
    if match is None or value is None or not math.isfinite(value):
        raise ParseError(
            f'"{stripped}" is not a throughput; expected a number above 0, like 1884 or "{example("1884.5", decimal)} req/s"'
        )
    if value <= 0:
        raise ParseError(f'"{stripped}" is not above 0; a throughput must be a positive number')
    return value, (match.group("unit") or "").strip()


def measurement_problems(rows: Sequence[Measurement], kind: MeasureKind) -> list[Problem]:
    """Every value that cannot be a run: N not a positive number, a time or throughput not above 0; or, alone,
    more runs than :data:`MAX_RUNS`."""
    too_many = too_many_runs(len(rows))
    if too_many is not None:
        return [too_many]
    problems: list[Problem] = []
    what = "time" if kind is MeasureKind.TIME else "throughput"
    for i, row in enumerate(rows):
        if not (isinstance(row.n, (int, float)) and math.isfinite(row.n) and row.n > 0):
            problems.append(Problem.of(Refusal.NOT_A_COUNT, TABLE, i, "n", float(row.n)))
        if not (isinstance(row.value, (int, float)) and math.isfinite(row.value) and row.value > 0):
            problems.append(Problem.of(Refusal.NOT_A_MEASURE, TABLE, i, "value", float(row.value), what))
    return problems


@dataclass(frozen=True)
class Measurements:
    """The runs of one experiment, all of one kind; rows keep the order they were typed in.

    ``unit`` is a label only: a time unit (``"ms"``) for times, any text (``"req/s"``) for throughputs.
    ``count_name`` is the header the counts came under (``"GPUs"``, ``"Users"``), for labels.
    Construction raises :class:`ProfileError` listing every bad value, located by row and field.
    """

    rows: tuple[Measurement, ...] = ()
    kind: MeasureKind = MeasureKind.THROUGHPUT
    unit: str = ""
    count_name: str = "N"
    _n: FloatArray = field(init=False, repr=False, compare=False)
    _values: FloatArray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(self.rows))
        object.__setattr__(self, "kind", MeasureKind(self.kind))
        problems = measurement_problems(self.rows, self.kind)
        if problems:
            raise ProfileError(problems)
        if any(type(r.n) is not float or type(r.value) is not float for r in self.rows):  # 8 and 8.0 compare alike
            rows = tuple(Measurement(float(r.n), float(r.value), r.label, r.notes) for r in self.rows)
            object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "_n", np.array([r.n for r in self.rows], dtype=float))
        object.__setattr__(self, "_values", np.array([r.value for r in self.rows], dtype=float))

    @classmethod
    def of(
        cls,
        pairs: Iterable[tuple[float, float]],
        kind: MeasureKind | str = MeasureKind.THROUGHPUT,
        unit: str = "",
        count_name: str = "N",
    ) -> Measurements:
        """From ``(n, value)`` pairs: the quick way for tests and scripts."""
        return cls(tuple(Measurement(float(n), float(v)) for n, v in pairs), MeasureKind(kind), unit, count_name)

    @classmethod
    def lenient(
        cls,
        rows: Sequence[Measurement],
        kind: MeasureKind | str = MeasureKind.THROUGHPUT,
        unit: str = "",
        count_name: str = "N",
    ) -> tuple[Measurements, list[Problem]]:
        """The good rows, and a problem for each bad value located at its row in ``rows``.

        For a table being typed into: the runs that can be plotted are plotted, the rest are flagged.
        """
        kind = MeasureKind(kind)
        problems = measurement_problems(rows, kind)
        bad = {p.row for p in problems}
        good = tuple(r for i, r in enumerate(rows) if i not in bad)
        return cls(good, kind, unit, count_name), problems

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def n(self) -> FloatArray:
        """The counts, one per row (a read-only view)."""
        view = self._n.view()
        view.flags.writeable = False
        return view

    @property
    def values(self) -> FloatArray:
        """The measured times or throughputs, one per row (a read-only view)."""
        view = self._values.view()
        view.flags.writeable = False
        return view

    @property
    def baseline_n(self) -> float | None:
        """N0: the smallest N measured; speedups are relative to it."""
        return float(self._n.min()) if len(self.rows) else None

    @property
    def distinct_n(self) -> int:
        return int(np.unique(self._n).size)

    @property
    def noun(self) -> str:
        """What N counts, for sentences: "GPUs", "users"; "workers" when the header was just N."""
        word = count_word(self.count_name)
        if word in (None, "n", "load", "concurrency"):
            return "users" if word in ("load", "concurrency") else "workers"
        return "GPUs" if word == "gpus" else word

    @property
    def value_header(self) -> str:
        """``Time (ms)`` or ``Throughput (req/s)``: the header this table writes and reads back."""
        base = "Time" if self.kind is MeasureKind.TIME else "Throughput"
        return f"{base} ({self.unit})" if self.unit else base

    def throughput(self) -> FloatArray:
        """Work per unit of time at each row: the value itself, or 1/time for runtimes (X ∝ 1/T)."""
        return self._values.copy() if self.kind is MeasureKind.THROUGHPUT else 1.0 / self._values
