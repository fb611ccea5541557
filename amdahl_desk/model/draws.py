"""The common random numbers of a profile: one seeded set of draws that every plan compared is evaluated on.

Components are gathered into classes by the optimizations that target them (every optimization,
ticked or not), so a plan's new total in one draw is Σ over classes of the class's time times the
product of 1/k of the plan's optimizations that target it: the overlap rule (k multiply on a shared
component) by construction, and work per draw that grows with the classes, not the components.

What is drawn, each from its own seeded stream (row j of a stream is the same whatever the other rows):

- per optimization with a range or a confidence below 100%: its k from the PERT of its three-point
  estimate, and whether it works (probability = its confidence; when it does not, k = 1), independently;
- per component with a time range: its time from the PERT of (low, measured, high). Up to
  ``EXACT_TIMES`` components are drawn one by one — first those of classes with at most ``FEW`` ranged
  times, then those of widest spread; the others' sum, per class, is
  drawn as a normal with that sum's exact mean and variance, clipped to its bounds. The Berry–Esseen
  theorem bounds the CDF error of that normal by 0.56·Σρᵢ/σ³ (ρᵢ ≤ E|Xᵢ − μᵢ|³); ``normal_error``
  reports the largest bound over the classes (0 when every ranged time is drawn one by one).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

import numpy as np
from numpy.typing import NDArray

from .analysis import PlanPairs, plan_pairs
from .laws import FloatArray
from .pert import Pert, draw_unit, pert_alpha
from .profile import Profile

DRAWS = 10_000
DEFAULT_SEED = 0
EXACT_TIMES = 32
FEW = 4  # a class with at most this many ranged times has them drawn one by one first
_BERRY_ESSEEN = 0.56  # Shevtsova (2010): the constant of the Berry–Esseen bound for non-identical summands
_K_STREAM, _WORKS_STREAM, _TIME_STREAM, _NORMAL_STREAM = 0, 1, 2, 3
_LOW, _HIGH = itemgetter(6), itemgetter(7)

Column = FloatArray | float  # a value per draw, or one value for every draw


@lru_cache(maxsize=8)
def _block(seed: int, stream: int, rows: int, count: int, normal: bool) -> FloatArray:
    """``rows`` × ``count`` stratified uniforms in [0, 1) (or standard normals) of one seeded stream, read-only.

    Each row is a Latin hypercube sample: one draw in each of the ``count`` strata [i/count, (i+1)/count), in
    an order of its own, so a single k's distribution is covered evenly while the rows stay independent.
    Kept: an edit that changes a k or a range draws the same uniforms again; only their transform changes.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, stream])))
    if normal:
        values = rng.standard_normal((rows, count))
    else:
        values = np.empty((rows, count))
        strata = np.arange(count, dtype=float)
        for row in values:  # row by row: a row's draws never depend on how many rows follow
            row[:] = (rng.permutation(strata) + rng.random(count)) / count
        np.minimum(values, np.nextafter(1.0, 0.0), out=values)
    values.setflags(write=False)
    return values


def uniforms(seed: int, stream: int, rows: int, count: int, normal: bool = False) -> FloatArray:
    """The first ``rows`` rows of a stream; row j is the same for any number of rows (blocks of 16 are kept)."""
    if rows <= 0:
        return np.zeros((0, count))
    return _block(seed, stream, -(-rows // 16) * 16, count, normal)[:rows]


@dataclass(frozen=True)
class TimeDraws:
    """How the components' time ranges were drawn."""

    ranged: int  # components with a time range
    exact: int  # drawn one by one
    normal_error: float  # the largest Berry–Esseen bound of a class's normal remainder; 0 when none


@dataclass(frozen=True, eq=False)
class Draws:
    """The draws every plan is evaluated on; ``reciprocal[j]`` is 1/k of optimization j per draw."""

    count: int
    seed: int
    class_members: tuple[tuple[int, ...], ...]  # per class: the optimizations that target it
    class_times: tuple[Column, ...]  # per class: the sum of its components' times
    reciprocal: tuple[Column, ...]  # per optimization: 1/k where it works, 1 where it fails
    baseline: Column  # the sum of every component's time
    times: TimeDraws

    def new_totals(self, plan: Collection[int]) -> FloatArray:
        """The new total of each draw with the optimizations ``plan`` (indices), k multiplying on shared components."""
        chosen = set(plan)
        fixed = 0.0
        total: FloatArray | None = None
        for members, time in zip(self.class_members, self.class_times, strict=True):
            factor: Column = 1.0
            for j in members:
                if j in chosen:
                    factor = factor * self.reciprocal[j]
            part = time * factor
            if isinstance(part, float):
                fixed += part
            elif total is None:
                total = np.array(part, dtype=float)
            else:
                total += part
        if total is None:
            return np.full(self.count, fixed)
        total += fixed
        return total

    def baseline_totals(self) -> FloatArray:
        """The baseline total of each draw (the same in every draw when no time has a range)."""
        return np.broadcast_to(np.asarray(self.baseline, dtype=float), (self.count,)).copy()


def time_ranges(profile: Profile) -> tuple[list[float | None], list[float | None]] | None:
    """The components' Time low and Time high columns, or ``None`` when no component has either."""
    comps = profile.components
    lows, highs = list(map(_LOW, comps)), list(map(_HIGH, comps))
    n = len(comps)
    if lows.count(None) == n and highs.count(None) == n:
        return None
    return lows, highs


def time_bounds(profile: Profile) -> tuple[FloatArray, FloatArray] | None:
    """Each component's lowest and highest time as arrays (its measured time where it has no range), or
    ``None`` when no component has a range."""
    ranges = time_ranges(profile)
    if ranges is None:
        return None
    times, _ = profile.arrays()
    nan = math.nan
    lows = np.array([nan if v is None else v for v in ranges[0]], dtype=float)
    highs = np.array([nan if v is None else v for v in ranges[1]], dtype=float)
    return np.where(np.isnan(lows), times, lows), np.where(np.isnan(highs), times, highs)


def _classes(profile: Profile, pairs: PlanPairs) -> tuple[NDArray[np.int64], list[tuple[int, ...]]]:
    """Each component's class, and each class's optimizations: components targeted by the same set share one."""
    n, m = len(profile.components), len(profile.optimizations)
    if m == 0 or pairs.opt_idx.size == 0:
        return np.zeros(n, dtype=np.int64), [()]
    words = (m + 63) // 64
    masks = np.zeros((n, words), dtype=np.uint64)
    for w in range(words):
        sel = (pairs.opt_idx // 64) == w
        column = np.zeros(n, dtype=np.uint64)
        bits = np.left_shift(np.uint64(1), (pairs.opt_idx[sel] % 64).astype(np.uint64))
        np.bitwise_or.at(column, pairs.comp_idx[sel], bits)
        masks[:, w] = column
    if words == 1:
        _, inverse = np.unique(masks[:, 0], return_inverse=True)
    else:
        _, inverse = np.unique(masks, axis=0, return_inverse=True)
    inverse = np.asarray(inverse, dtype=np.int64).reshape(-1)
    classes = int(inverse.max()) + 1 if n else 0
    # Each class's optimizations, from the pairs of its components (each (class, optimization) once).
    linked = np.unique(inverse[pairs.comp_idx] * m + pairs.opt_idx)
    members: list[list[int]] = [[] for _ in range(classes)]
    for c, j in zip((linked // m).tolist(), (linked % m).tolist(), strict=True):
        members[c].append(j)
    return inverse, [tuple(found) for found in members]


def _reciprocals(profile: Profile, seed: int, count: int) -> tuple[Column, ...]:
    opts = profile.optimizations
    uncertain = [j for j, o in enumerate(opts) if o.is_uncertain]
    rows = uncertain[-1] + 1 if uncertain else 0
    k_u = uniforms(seed, _K_STREAM, rows, count)
    works_u = uniforms(seed, _WORKS_STREAM, rows, count)
    result: list[Column] = []
    for j, o in enumerate(opts):
        if not o.is_uncertain:
            result.append(1.0 / o.speedup)
            continue
        low, high = o.speedup_range
        if o.confidence <= 0:
            result.append(1.0)
            continue
        k = Pert(low, o.speedup, high).draw(k_u[j]) if high > low else np.full(count, o.speedup)
        r = 1.0 / k
        if o.confidence < 1:
            r = np.where(works_u[j] < o.confidence, r, 1.0)
        result.append(np.asarray(r, dtype=float))
    return tuple(result)


def _class_times(
    profile: Profile,
    inverse: NDArray[np.int64],
    classes: int,
    seed: int,
    count: int,
    bounds: tuple[FloatArray, FloatArray] | None,
) -> tuple[tuple[Column, ...], TimeDraws]:
    times, _ = profile.arrays()
    point = np.bincount(inverse, weights=times, minlength=classes)
    if bounds is None:
        return tuple(float(v) for v in point), TimeDraws(0, 0, 0.0)
    lows, highs = bounds
    rows = np.flatnonzero(highs > lows)
    if rows.size == 0:
        return tuple(float(v) for v in point), TimeDraws(0, 0, 0.0)
    lo, mode, hi = lows[rows], times[rows], highs[rows]
    mean = (lo + 4.0 * mode + hi) / 6.0
    var = np.maximum((mean - lo) * (hi - mean) / 7.0, 0.0)
    # Drawn one by one: first every ranged time of a class that has few (a normal is no stand-in for a sum of
    # one to four), then the widest (ties by row); the rest summed per class as a normal.
    few = np.bincount(inverse[rows], minlength=classes)[inverse[rows]] <= FEW
    order = np.lexsort((rows, -var, ~few))
    exact, rest = order[:EXACT_TIMES], order[EXACT_TIMES:]
    # The point sums lose the ranged components; their draws come back below.
    point = point - np.bincount(inverse[rows], weights=times[rows], minlength=classes)
    columns: list[Column] = [float(v) for v in point]
    u = uniforms(seed, _TIME_STREAM, exact.size, count)
    for i, e in enumerate(exact.tolist()):
        c = int(inverse[rows[e]])
        alpha = pert_alpha(float(lo[e]), float(mode[e]), float(hi[e]))
        columns[c] = columns[c] + (lo[e] + (hi[e] - lo[e]) * draw_unit(alpha, u[i]))
    normal_error = 0.0
    if rest.size:
        cls = inverse[rows[rest]]
        mu = np.bincount(cls, weights=mean[rest], minlength=classes)
        sigma2 = np.bincount(cls, weights=var[rest], minlength=classes)
        rho = np.bincount(
            cls, weights=var[rest] * np.maximum(mean[rest] - lo[rest], hi[rest] - mean[rest]), minlength=classes
        )
        low_sum = np.bincount(cls, weights=lo[rest], minlength=classes)
        high_sum = np.bincount(cls, weights=hi[rest], minlength=classes)
        present = np.unique(cls).tolist()
        z = uniforms(seed, _NORMAL_STREAM, len(present), count, normal=True)
        for i, c in enumerate(present):
            sigma = float(np.sqrt(sigma2[c]))
            if sigma <= 0:
                columns[c] = columns[c] + float(mu[c])
                continue
            normal_error = max(normal_error, min(1.0, _BERRY_ESSEEN * float(rho[c]) / sigma**3))
            columns[c] = columns[c] + np.clip(mu[c] + sigma * z[i].astype(float), low_sum[c], high_sum[c])
    return tuple(columns), TimeDraws(int(rows.size), int(exact.size), normal_error)


@dataclass(frozen=True, eq=False)
class Inputs:
    """What the draws and the closed forms read from a profile, found once: which optimization targets which
    component, the measured times, and each time's range (``None`` when no time has one)."""

    pairs: PlanPairs
    times: FloatArray
    bounds: tuple[FloatArray, FloatArray] | None


def inputs_of(profile: Profile) -> Inputs:
    return Inputs(plan_pairs(profile), profile.arrays()[0], time_bounds(profile))


def make_draws(profile: Profile, seed: int = DEFAULT_SEED, count: int = DRAWS, inputs: Inputs | None = None) -> Draws:
    """The common random numbers of ``profile``: the same seed, the same draws."""
    found = inputs_of(profile) if inputs is None else inputs
    inverse, members = _classes(profile, found.pairs)
    class_times, time_draws = _class_times(profile, inverse, len(members), seed, count, found.bounds)
    baseline: Column = 0.0
    fixed = 0.0
    for t in class_times:
        if isinstance(t, float):
            fixed += t
        else:
            baseline = baseline + t
    baseline = baseline + fixed
    return Draws(count, seed, tuple(members), class_times, _reciprocals(profile, seed, count), baseline, time_draws)
