"""Decisions under uncertainty: what the enabled plan gives when k is a range, an optimization may fail and
times vary — its distribution, exact bounds, the odds of meeting the target, what matters most, and which
optimization saves the most time per engineer-day.

Sampled (on the common draws of :mod:`.draws`): the percentiles and mean of the new total and the speedup,
and the probability of meeting the target. Exact closed forms: the bounds (every enabled optimization at its
low or high k, times as measured), the tornado (one optimization at its low or high k, the others at their
likely k), the best and worst cases, and the expected time each optimization saves alone.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np

from .analysis import Analysis, PlanPairs, exact_sum, plan_pairs
from .draws import DEFAULT_SEED, DRAWS, Draws, Inputs, TimeDraws, inputs_of, make_draws
from .laws import FloatArray
from .pert import Pert
from .profile import Profile

TOLERANCE = 1e-12  # a new total within this share above the target meets it, as in the point analysis
PERCENTILES = (5.0, 50.0, 95.0)


@dataclass(frozen=True)
class Spread:
    """One figure of the plan: its closed-form bounds and its distribution over the draws."""

    low: float
    high: float
    p5: float
    p50: float
    p95: float
    mean: float


@dataclass(frozen=True)
class Sensitivity:
    """The plan's speedup with one optimization at its low and at its high k, the others at their likely k."""

    index: int
    name: str
    speedup_at_low: float
    speedup_at_high: float

    @property
    def swing(self) -> float:
        return self.speedup_at_high - self.speedup_at_low


@dataclass(frozen=True)
class Value:
    """What an optimization is expected to save alone (failure counted), and per engineer-day of its effort."""

    index: int
    name: str
    expected_time_saved: float
    effort: float | None
    saved_per_day: float | None  # None without an effort; inf for an effort of 0 that saves time


@dataclass(frozen=True)
class UncertaintyFigures:
    """The enabled plan under uncertainty (times in the profile's unit)."""

    draws: int
    seed: int
    overall_speedup: Spread
    new_total: Spread
    target: float | None
    probability_target: float | None  # P(new total ≤ target); None without a target
    best_case: float  # the lowest new total possible: high k, every optimization working, times at their low
    worst_case: float  # the highest: low k or failure, times at their high
    floor: float  # the time the enabled optimizations leave untouched, at its low: no k gets below it
    sensitivity: tuple[Sensitivity, ...]  # largest swing first
    ranking: tuple[Value, ...]  # most time saved per engineer-day first; those without an effort last
    times: TimeDraws
    new_total_draws: FloatArray = field(compare=False, repr=False)
    speedup_draws: FloatArray = field(compare=False, repr=False)
    common: Draws = field(compare=False, repr=False)
    # Replayed through a job of this many ranks (:mod:`.job.odds`): each draw's k on every chosen rank, the times
    # as measured; 0 for the profile's own figures.
    job_ranks: int = 0

    @property
    def never_meets(self) -> bool:
        """Whether the target is out of reach whatever the odds: even the best case is above it."""
        return self.target is not None and self.best_case > self.target * (1 + TOLERANCE)

    @property
    def always_meets(self) -> bool:
        return self.target is not None and self.worst_case <= self.target * (1 + TOLERANCE)

    @property
    def unreachable(self) -> bool:
        """Whether no speedup of the enabled optimizations' components reaches the target (the floor is above it)."""
        return self.target is not None and self.floor > self.target * (1 + TOLERANCE)


def meets(totals: FloatArray, target: float) -> float:
    """The share of draws whose new total meets ``target``."""
    return float(np.count_nonzero(totals <= target * (1 + TOLERANCE))) / max(totals.size, 1)


def _spread(low: float, high: float, values: FloatArray) -> Spread:
    p5, p50, p95 = (float(v) for v in np.percentile(values, PERCENTILES))
    return Spread(low, high, p5, p50, p95, float(np.mean(values)))


def _components_factor(pairs: PlanPairs, n: int, factors: FloatArray) -> FloatArray:
    """Each component's product of the enabled optimizations' factors (one per optimization)."""
    on = pairs.on
    result = np.ones(n)
    np.multiply.at(result, pairs.comp_idx[on], factors[pairs.opt_idx[on]])
    return result


def _extremes(profile: Profile, inputs: Inputs) -> tuple[float, float, float, float, float]:
    """New totals with every enabled optimization at its low and high k (times as measured), the best and worst
    cases (failure and time ranges counted) and the floor the enabled optimizations leave, at its lowest."""
    opts = profile.optimizations
    lows = np.array([o.speedup_range[0] for o in opts], dtype=float)
    highs = np.array([o.speedup_range[1] for o in opts], dtype=float)
    conf = np.array([o.confidence for o in opts], dtype=float)
    best_k = _best_k(profile)
    worst_k = np.where(conf >= 1, lows, np.where(conf <= 0, 1.0, np.minimum(lows, 1.0)))
    times, pairs, n = inputs.times, inputs.pairs, len(profile.components)
    t_low, t_high = inputs.bounds if inputs.bounds is not None else (times, times)
    at_low = exact_sum(times / _components_factor(pairs, n, lows))
    at_high = exact_sum(times / _components_factor(pairs, n, highs))
    best = float(np.sum(t_low / _components_factor(pairs, n, best_k)))
    worst = float(np.sum(t_high / _components_factor(pairs, n, worst_k)))
    touched = np.zeros(n, dtype=bool)
    touched[pairs.comp_idx[pairs.on]] = True
    floor = float(np.sum(t_low[~touched]))
    return at_low, at_high, best, worst, floor


def _best_k(profile: Profile) -> FloatArray:
    """Each optimization's most favourable k: its high k, or 1 where failing (k = 1) would do better."""
    opts = profile.optimizations
    highs = np.array([o.speedup_range[1] for o in opts], dtype=float)
    conf = np.array([o.confidence for o in opts], dtype=float)
    return np.where(conf >= 1, highs, np.where(conf <= 0, 1.0, np.maximum(highs, 1.0)))


def best_case(profile: Profile, inputs: Inputs, chosen: Collection[int]) -> float:
    """The lowest new total the optimizations ``chosen`` (indices) can ever give: each at its most favourable k,
    every time at its low. Above the target, no odds make that set meet it."""
    pairs, n = inputs.pairs, len(profile.components)
    picked = np.zeros(len(profile.optimizations), dtype=bool)
    picked[list(chosen)] = True
    factor = np.ones(n)
    take = picked[pairs.opt_idx] if pairs.opt_idx.size else np.zeros(0, dtype=bool)
    np.multiply.at(factor, pairs.comp_idx[take], _best_k(profile)[pairs.opt_idx[take]])
    low = inputs.bounds[0] if inputs.bounds is not None else inputs.times
    return float(np.sum(low / factor))


def sensitivity(profile: Profile, analysis: Analysis) -> tuple[Sensitivity, ...]:
    """What matters most (the tornado) without any draws: each enabled optimization with a range at its low and
    high k, the others at their likely k; largest swing first."""
    pairs = analysis.pairs if analysis.pairs is not None else plan_pairs(profile)
    return _sensitivity(profile, analysis, pairs)


def _sensitivity(profile: Profile, analysis: Analysis, pairs: PlanPairs) -> tuple[Sensitivity, ...]:
    """Exact: the new total with optimization j at k' is the plan's plus A_j·(k_j/k' − 1), A_j the plan's new
    time of j's components."""
    on = pairs.on
    m = len(profile.optimizations)
    shares = np.bincount(pairs.opt_idx[on], weights=analysis.new_times[pairs.comp_idx[on]], minlength=m)
    total, base = analysis.combined.new_total, analysis.baseline_total
    rows = []
    for j, o in enumerate(profile.optimizations):
        low, high = o.speedup_range
        if not o.enabled or not high > low:
            continue
        at = [total + float(shares[j]) * (o.speedup / k - 1.0) for k in (low, high)]
        rows.append(
            Sensitivity(j, o.name, base / at[0] if at[0] > 0 else math.inf, base / at[1] if at[1] > 0 else math.inf)
        )
    rows.sort(key=lambda s: -s.swing)  # stable: equal swings keep the checklist's order
    return tuple(rows)


def _ranking(profile: Profile, inputs: Inputs) -> tuple[Value, ...]:
    """Expected time saved alone: Σ over its targets of E[t]·c·(1 − E[1/k]) — it saves t(1 − 1/k) when it works
    (probability c) and nothing when it fails (times, k and failure independent)."""
    expected = inputs.times
    if inputs.bounds is not None:
        low, high = inputs.bounds
        expected = np.where(high > low, (low + 4.0 * expected + high) / 6.0, expected)  # the PERT's mean
    pairs = inputs.pairs
    m = len(profile.optimizations)
    affected = np.bincount(pairs.opt_idx, weights=expected[pairs.comp_idx], minlength=m) if m else np.zeros(0)
    values = []
    for j, o in enumerate(profile.optimizations):
        k_low, k_high = o.speedup_range
        reciprocal = Pert(k_low, o.speedup, k_high).mean_reciprocal()
        saved = float(affected[j]) * o.confidence * (1.0 - reciprocal)
        per_day = None
        if o.effort is not None:
            per_day = saved / o.effort if o.effort > 0 else (math.inf if saved > 0 else 0.0)
        values.append(Value(j, o.name, saved, o.effort, per_day))
    values.sort(key=lambda v: (v.saved_per_day is None, -(v.saved_per_day or 0.0)))
    return tuple(values)


def analyse_uncertainty(
    profile: Profile,
    analysis: Analysis,
    seed: int = DEFAULT_SEED,
    count: int = DRAWS,
    draws: Draws | None = None,
) -> UncertaintyFigures:
    """The enabled plan of ``profile`` under uncertainty, on ``draws`` (made from ``seed`` when not given)."""
    inputs = inputs_of(profile, analysis.pairs)
    if draws is None:
        draws = make_draws(profile, seed, count, inputs)
    enabled = [j for j, o in enumerate(profile.optimizations) if o.enabled]
    totals = draws.new_totals(enabled)
    baseline = draws.baseline_totals()
    with np.errstate(divide="ignore"):
        speedups = np.where(totals > 0, baseline / totals, np.inf)
    at_low, at_high, best, worst, floor = _extremes(profile, inputs)
    base = analysis.baseline_total
    target = profile.settings.target_time
    return UncertaintyFigures(
        draws=draws.count,
        seed=draws.seed,
        overall_speedup=_spread(
            base / at_low if at_low > 0 else math.inf, base / at_high if at_high > 0 else math.inf, speedups
        ),
        new_total=_spread(at_high, at_low, totals),
        target=target,
        probability_target=None if target is None else meets(totals, target),
        best_case=best,
        worst_case=worst,
        floor=floor,
        sensitivity=_sensitivity(profile, analysis, inputs.pairs),
        ranking=_ranking(profile, inputs),
        times=draws.times,
        new_total_draws=totals,
        speedup_draws=speedups,
        common=draws,
    )


def histogram(figures: UncertaintyFigures, bins: int = 60) -> tuple[FloatArray, FloatArray]:
    """(bin edges, share of the draws in each bin) of the new total, for the distribution chart."""
    values = figures.new_total_draws
    low, high = float(values.min()), float(values.max())
    if not high > low:
        low, high = low * 0.999 - 1e-12, high * 1.001 + 1e-12
    counts, edges = np.histogram(values, bins=bins, range=(low, high))
    return np.asarray(edges, dtype=float), np.asarray(counts / max(values.size, 1), dtype=float)
