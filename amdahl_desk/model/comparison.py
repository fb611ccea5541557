"""Measure again: a before and an after profile held against the plan — predicted against measured k and S."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum

from .analysis import analyse, plan_pairs
from .component_matching import ComparisonError, match_components
from .names import name_key as _key
from .profile import Profile
from .units import TimeUnit, convert

SHORT_THRESHOLD = 0.9
"""A component falls short when its measured k is below this share of its predicted k."""

EXACT = 1e-12  # relative slack for float arithmetic only; the user's tolerance is separate


class Status(str, Enum):
    """What became of one component, measured against the plan."""

    MET = "met"
    SHORT = "short"
    REGRESSED = "regressed"
    UNCHANGED = "unchanged"
    ADDED = "added"
    REMOVED = "removed"

    @property
    def label(self) -> str:
        """The verdict as a person reads it in a table."""
        return {Status.SHORT: "fell short"}.get(self, self.value)


@dataclass(frozen=True)
class ComponentComparison:
    """One row: a component before and after, times in the before profile's unit.

    ``name`` is the before profile's spelling (the after profile's for an added component);
    ``after_name`` is how the after profile spells it (``None`` when removed).
    """

    name: str
    after_name: str | None
    before: float | None
    after: float | None
    predicted_k: float
    measured_k: float | None
    status: Status
    optimizations: tuple[str, ...] = ()

    @property
    def eliminated(self) -> bool:
        """Measured before, gone to 0 after: a measured k of infinity, shown as "eliminated"."""
        return self.before is not None and self.after == 0 and self.before > 0

    @property
    def predicted_after(self) -> float | None:
        """The after-time the plan promised: before / predicted k."""
        return None if self.before is None else self.before / self.predicted_k

    @property
    def delta(self) -> float:
        """After minus before (a removed component counts as 0 after, an added one as 0 before)."""
        return (self.after or 0.0) - (self.before or 0.0)

    @property
    def renamed(self) -> bool:
        """Paired by hand under another name (a change of case or blanks is not a rename)."""
        return self.after_name is not None and self.before is not None and _key(self.after_name) != _key(self.name)

    @property
    def deviation(self) -> float:
        """Measured after-time minus the promised one: above 0 costs time against the plan."""
        return (self.after or 0.0) - (self.predicted_after or 0.0)


@dataclass(frozen=True)
class Bottleneck:
    """The largest component before and after, with the ceiling of the next optimization on the new one."""

    before_name: str
    before_share: float
    after_name: str
    after_share: float
    next_ceiling: float  # 1/(1−f) of the after-largest; inf when it is all the time
    moved: bool


@dataclass(frozen=True)
class DifferentBoundaries:
    """The profiles state different boundaries (as stated): a speedup between them may compare two things."""

    before: str
    after: str


# An after total within this share of the predicted one (of 1 unit, for totals below 1) is as planned:
# the last bits of two sums of the same times in another order.
PLAN_TOLERANCE = 1e-9


class PlanVerdict(str, Enum):
    """How the measured after total stands against the one the plan predicted."""

    SHORT = "short"
    BETTER = "better"
    AS_PLANNED = "as planned"

    @property
    def delivered(self) -> bool:
        """The plan's promise was kept (as planned or better)."""
        return self is not PlanVerdict.SHORT


@dataclass(frozen=True)
class Comparison:
    """The plan (the before profile's enabled optimizations) held against the after profile."""

    unit: TimeUnit
    after_unit: TimeUnit
    rows: tuple[ComponentComparison, ...]
    before_total: float
    after_total: float
    predicted_total: float
    predicted_speedup: float
    measured_speedup: float
    pairs: tuple[tuple[str, str], ...]
    bottleneck: Bottleneck
    tolerance: float = 0.0
    warnings: tuple[DifferentBoundaries, ...] = ()

    @property
    def time_difference(self) -> float:
        """After total minus before total: below 0 is time saved."""
        return self.after_total - self.before_total

    @property
    def shortfall(self) -> float:
        """Measured after total minus the predicted one: above 0 is time the plan promised and did not deliver."""
        return self.after_total - self.predicted_total

    @property
    def verdict(self) -> PlanVerdict:
        """The plan end to end: short of it, better than it, or as planned within :data:`PLAN_TOLERANCE`.

        The one verdict the comparison tab, its table, its slide and ``amdahl-desk compare`` show
        (worded by ``present.comparison.plan_verdict``).
        """
        gap = self.shortfall
        if abs(gap) <= PLAN_TOLERANCE * max(self.predicted_total, 1.0):
            return PlanVerdict.AS_PLANNED
        return PlanVerdict.SHORT if gap > 0 else PlanVerdict.BETTER

    def row(self, name: str) -> ComponentComparison | None:
        """The row of a component by its before (or after) name, trimmed and case-insensitive."""
        key = _key(name)
        for r in self.rows:
            if _key(r.name) == key or (r.after_name is not None and _key(r.after_name) == key):
                return r
        return None


# -- verdicts ----------------------------------------------------------------


def verdict(before: float, after: float, predicted_k: float, tolerance: float = 0.0) -> tuple[Status, float | None]:
    """Status and measured k of a component found in both profiles.

    The rules, in order:

    - **regressed**: after > before·(1 + tolerance) — unless the plan itself predicted a slowdown
      (predicted k < 1) and the measured k is at least 90% of it, which is **met**;
    - **unchanged**: the plan leaves the component alone (predicted k = 1) and after is within
      tolerance of before (equal, with the default tolerance 0);
    - otherwise **met** when measured k ≥ 90% of predicted k, else **short** (fell short).

    So an untouched component that got faster is *met* (it beat its prediction of 1×, and the sentence
    says it "also got faster"); a component the plan speeds up by k > 1.11 whose after-time equals its
    before-time is *short* (it got 1× instead of k).  Measured k is before/after, ``None`` when after is
    0 (eliminated: infinitely faster, so met) or both are 0 (unchanged).
    """
    if after == 0:
        return (Status.MET if before > 0 else Status.UNCHANGED), None
    measured = before / after
    untouched = math.isclose(predicted_k, 1.0, rel_tol=EXACT)
    meets = measured >= SHORT_THRESHOLD * predicted_k * (1 - EXACT)
    if after > before * (1 + tolerance) * (1 + EXACT):
        return (Status.MET if predicted_k < 1 and not untouched and meets else Status.REGRESSED), measured
    if untouched and after >= before * (1 - tolerance) * (1 - EXACT):
        return Status.UNCHANGED, measured
    return (Status.MET if meets else Status.SHORT), measured


# -- the comparison ----------------------------------------------------------


def compare(
    before: Profile,
    after: Profile,
    pairs: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    *,
    tolerance: float = 0.0,
) -> Comparison:
    """Hold ``after`` against ``before`` and its plan (the enabled optimizations).

    ``pairs`` maps renamed components, before name → after name.  ``tolerance`` is a relative
    band (0.02 = 2%) within which an after-time counts as equal to the before-time; 0 by default.
    Raises :class:`ComparisonError` when the profiles share no component or the after profile adds
    up to 0, and :class:`ProfileError` when the before profile cannot be analysed.
    """
    if not (math.isfinite(tolerance) and 0 <= tolerance < 1):
        raise ComparisonError("the tolerance must be a share from 0 up to (not including) 100%")
    analysis = analyse(before)
    matches, spelled = match_components(before, after, pairs)
    if not any(b is not None and a is not None for b, a in matches):
        raise ComparisonError(
            "the two profiles have no component in common (names are matched trimmed and case-insensitively); "
            "pair renamed components by hand, or check that the after profile measures the same workload"
        )
    unit = before.unit
    after_times = [convert(c.time, after.unit, unit) for c in after.components]
    after_total = math.fsum(after_times)
    if not after_total > 0:
        raise ComparisonError(f"the after profile's components add up to 0 {after.unit.label}; nothing to compare")
    hits = plan_pairs(before).enabled_by_component(before)
    rows: list[ComponentComparison] = []
    for b, a in matches:
        if b is None:
            assert a is not None
            name = after.components[a].name
            rows.append(ComponentComparison(name, name, None, after_times[a], 1.0, None, Status.ADDED))
            continue
        comp = before.components[b]
        k = float(analysis.component_speedup[b])
        opts = tuple(hits.get(b, ()))
        if a is None:
            rows.append(ComponentComparison(comp.name, None, comp.time, None, k, None, Status.REMOVED, opts))
            continue
        status, measured = verdict(comp.time, after_times[a], k, tolerance)
        rows.append(
            ComponentComparison(
                comp.name, after.components[a].name, comp.time, after_times[a], k, measured, status, opts
            )
        )
    before_total = analysis.baseline_total
    predicted_total = analysis.combined.new_total
    predicted = analysis.combined.overall_speedup if analysis.combined.enabled else 1.0
    measured_s = before_total / after_total
    bottleneck = _bottleneck(rows, before_total, after_total)
    return Comparison(
        unit,
        after.unit,
        tuple(rows),
        before_total,
        after_total,
        predicted_total,
        predicted,
        measured_s,
        spelled,
        bottleneck,
        tolerance,
        _warnings(before, after),
    )


def _warnings(before: Profile, after: Profile) -> tuple[DifferentBoundaries, ...]:
    # The lessons' first rule: a speedup means something only between measurements of the same boundary.
    b, a = before.settings.boundary.strip(), after.settings.boundary.strip()
    return (DifferentBoundaries(b, a),) if b and a and _key(_unnamed(b, before)) != _key(_unnamed(a, after)) else ()


def _unnamed(boundary: str, profile: Profile) -> str:
    """``boundary`` without the name of the trace it was imported from, nor how many steps its mean is of: a trace
    measured again after the change is another file (before.json, after.json) of the same boundary, and profiling
    3 steps instead of 5 measures the same step."""
    source = profile.settings.trace_source.replace("\\", "/").rsplit("/", 1)[-1]
    text = boundary.replace(source, "\0") if source else boundary
    return _STEPS.sub(lambda _m: "\x00", text) if source else text  # every count alike


_STEPS = re.compile(r"mean of [\d,.]+ steps?")


def _bottleneck(rows: list[ComponentComparison], before_total: float, after_total: float) -> Bottleneck:
    # The first of equal times wins, as in the table's order: a tie never flips between runs.
    first = max((r for r in rows if r.before is not None), key=lambda r: r.before or 0.0)
    last = max((r for r in rows if r.after is not None), key=lambda r: r.after or 0.0)
    f0, f1 = (first.before or 0.0) / before_total, (last.after or 0.0) / after_total
    after_name = last.after_name if last.renamed and last.after_name else last.name
    next_ceiling = 1 / (1 - f1) if f1 < 1 else math.inf
    moved = last is not first
    return Bottleneck(first.name, f0, after_name, f1, next_ceiling, moved)


def predicted_by(c: Comparison, predicted_total: float) -> Comparison:
    """``c`` with the plan's promise taken from elsewhere — a before profile that carries its trace promises the
    new total its dependencies give (:mod:`.traces.plan_answer`), not the sum's: the predicted speedup and the
    verdict follow it (and so the sentence ``present/comparison_words`` writes); each component's predicted k stays."""
    predicted = c.before_total / predicted_total if predicted_total > 0 else math.inf
    return replace(
        c,
        predicted_total=predicted_total,
        predicted_speedup=predicted,
    )
