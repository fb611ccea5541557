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
from .profile_values import TIME_HIGH_AT, TIME_LOW_AT

DRAWS = 10_000
DEFAULT_SEED = 0
EXACT_TIMES = 32
FEW = 4  # a class with at most this many ranged times has them drawn one by one first
_BERRY_ESSEEN = 0.56  # Shevtsova (2010): the constant of the Berry–Esseen bound for non-identical summands
_K_STREAM, _WORKS_STREAM, _TIME_STREAM, _NORMAL_STREAM = 0, 1, 2, 3
_LOW, _HIGH = itemgetter(TIME_LOW_AT), itemgetter(TIME_HIGH_AT)

Column = FloatArray | float  # a value per draw, or one value for every draw


@lru_cache(maxsize=256)
def uniform_row(seed: int, stream: int, row: int, count: int, normal: bool = False) -> FloatArray:
    """``count`` stratified uniforms in [0, 1) (or standard normals): row ``row`` of a seeded stream, read-only.

    Each row has a generator of its own (seeded by seed, stream and row), so it never depends on the other
    rows. A uniform row is a Latin hypercube sample: one draw in each of the ``count`` strata [i/count,
    (i+1)/count), in an order of its own, so a single k's distribution is covered evenly while the rows stay
    independent. Kept: an edit that changes a k or a range draws the same uniforms again.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, stream, row])))
    if normal:
        values = rng.standard_normal(count)
    else:
        values = (rng.permutation(count).astype(float) + rng.random(count)) / count
        np.minimum(values, np.nextafter(1.0, 0.0), out=values)
    values.setflags(write=False)
    return values


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
        # Classes that the plan's optimizations target alike share one product of 1/k: sum their times first.
        groups: dict[tuple[int, ...], list[Column]] = {}
        for members, time in zip(self.class_members, self.class_times, strict=True):
            groups.setdefault(tuple(j for j in members if j in chosen), []).append(time)
        total = np.zeros(self.count)
        for key, times in groups.items():
            fixed = math.fsum(t for t in times if isinstance(t, float))
            part: Column = fixed
            for t in times:
                if not isinstance(t, float):
                    part = part + t
            for j in key:
                part = part * self.reciprocal[j]
            total += part
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
    ``None`` when no component has a range (kept by the profile between edits)."""
    return profile.time_bounds()


def _classes(profile: Profile, pairs: PlanPairs) -> tuple[NDArray[np.int64], list[tuple[int, ...]]]:
    """Each component's class, and each class's optimizations: components targeted by the same set share one.

    Class 0 holds the components no optimization targets (it may be empty).
    """
    n, m = len(profile.components), len(profile.optimizations)
    inverse = np.zeros(n, dtype=np.int64)
    if m == 0 or pairs.opt_idx.size == 0:
        return inverse, [()]
    targeted = np.unique(pairs.comp_idx)
    position = np.full(n, -1, dtype=np.int64)
    position[targeted] = np.arange(targeted.size)
    words = (m + 63) // 64
    masks = np.zeros((targeted.size, words), dtype=np.uint64)
    for w in range(words):
        sel = (pairs.opt_idx // 64) == w
        column = np.zeros(targeted.size, dtype=np.uint64)
        bits = np.left_shift(np.uint64(1), (pairs.opt_idx[sel] % 64).astype(np.uint64))
        np.bitwise_or.at(column, position[pairs.comp_idx[sel]], bits)
        masks[:, w] = column
    if words == 1:
        _, found = np.unique(masks[:, 0], return_inverse=True)
    else:
        _, found = np.unique(masks, axis=0, return_inverse=True)
    inverse[targeted] = np.asarray(found, dtype=np.int64).reshape(-1) + 1
    classes = int(inverse.max()) + 1
    # Each class's optimizations, from the pairs of its components (each (class, optimization) once).
    linked = np.unique(inverse[pairs.comp_idx] * m + pairs.opt_idx)
    members: list[list[int]] = [[] for _ in range(classes)]
    for c, j in zip((linked // m).tolist(), (linked % m).tolist(), strict=True):
        members[c].append(j)
    return inverse, [tuple(found) for found in members]


def component_classes(profile: Profile, pairs: PlanPairs) -> tuple[NDArray[np.int64], list[tuple[int, ...]]]:
    """Each component's class of the draws (``Draws.class_times`` index), and each class's optimizations."""
    return _classes(profile, pairs)


@lru_cache(maxsize=512)
def _reciprocal_column(
    seed: int, row: int, count: int, low: float, mode: float, high: float, confidence: float
) -> FloatArray:
    """1/k of optimization ``row`` in each draw (1 where it fails), read-only.

    Kept: after an edit of one optimization, the next analysis draws that one again and takes the others'.
    """
    if high > low:
        column = 1.0 / Pert(low, mode, high).draw(uniform_row(seed, _K_STREAM, row, count))
    else:
        column = np.full(count, 1.0 / mode)
    if confidence < 1:
        column = np.where(uniform_row(seed, _WORKS_STREAM, row, count) < confidence, column, 1.0)
    column = np.asarray(column, dtype=float)
    column.setflags(write=False)
    return column


def _reciprocals(profile: Profile, seed: int, count: int) -> tuple[Column, ...]:
    opts = profile.optimizations
    result: list[Column] = []
    for j, o in enumerate(opts):
        if not o.is_uncertain:
            result.append(1.0 / o.speedup)
        elif o.confidence <= 0:
            result.append(1.0)
        else:
            low, high = o.speedup_range
            result.append(_reciprocal_column(seed, j, count, low, o.speedup, high, o.confidence))
    return tuple(result)


@lru_cache(maxsize=256)
def _time_column(seed: int, slot: int, count: int, low: float, mode: float, high: float) -> FloatArray:
    """The draws of the ``slot``-th time drawn one by one, read-only (kept, as the k columns are)."""
    column = low + (high - low) * draw_unit(pert_alpha(low, mode, high), uniform_row(seed, _TIME_STREAM, slot, count))
    column.setflags(write=False)
    return column


_CLASS_TIMES: dict[tuple[object, ...], tuple[tuple[Column, ...], TimeDraws]] = {}


def _class_times(
    profile: Profile,
    inverse: NDArray[np.int64],
    classes: int,
    seed: int,
    count: int,
    bounds: tuple[FloatArray, FloatArray] | None,
) -> tuple[tuple[Column, ...], TimeDraws]:
    """Each class's time per draw. Kept for the last few profiles: a change of k or of a tick leaves the times and
    the classes as they were, and the next analysis takes their draws instead of drawing them again."""
    if bounds is None:
        return _drawn_class_times(profile, inverse, classes, seed, count, bounds)
    times, _ = profile.arrays()
    key = (seed, count, classes, inverse.tobytes(), times.tobytes(), bounds[0].tobytes(), bounds[1].tobytes())
    found = _CLASS_TIMES.get(key)
    if found is None:
        found = _drawn_class_times(profile, inverse, classes, seed, count, bounds)
        if len(_CLASS_TIMES) >= 4:
            del _CLASS_TIMES[next(iter(_CLASS_TIMES))]
        _CLASS_TIMES[key] = found
    return found


def _drawn_class_times(
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
    for i, e in enumerate(exact.tolist()):
        c = int(inverse[rows[e]])
        columns[c] = columns[c] + _time_column(seed, i, count, float(lo[e]), float(mode[e]), float(hi[e]))
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
        for i, c in enumerate(present):
            sigma = float(np.sqrt(sigma2[c]))
            if sigma <= 0:
                columns[c] = columns[c] + float(mu[c])
                continue
            normal_error = max(normal_error, min(1.0, _BERRY_ESSEEN * float(rho[c]) / sigma**3))
            z = uniform_row(seed, _NORMAL_STREAM, i, count, normal=True)
            columns[c] = columns[c] + np.clip(mu[c] + sigma * z, low_sum[c], high_sum[c])
    for column in columns:
        if isinstance(column, np.ndarray):
            column.setflags(write=False)  # kept and shared: never changed in place
    return tuple(columns), TimeDraws(int(rows.size), int(exact.size), normal_error)


@dataclass(frozen=True, eq=False)
class Inputs:
    """What the draws and the closed forms read from a profile, found once: which optimization targets which
    component, the measured times, and each time's range (``None`` when no time has one)."""

    pairs: PlanPairs
    times: FloatArray
    bounds: tuple[FloatArray, FloatArray] | None


def inputs_of(profile: Profile, pairs: PlanPairs | None = None) -> Inputs:
    """``pairs``: the profile's :func:`plan_pairs`, when the caller has them (an analysis keeps its own)."""
    return Inputs(plan_pairs(profile) if pairs is None else pairs, profile.arrays()[0], time_bounds(profile))


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
