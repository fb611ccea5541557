"""Fits to measured runs: Amdahl by least squares, Karp–Flatt per point, the Universal Scalability Law.

``fit_measurements(measurements)`` computes everything a view or the command line shows, once.

The USL fit is a small Levenberg–Marquardt on numpy with analytic derivatives, run on each face
of the box α, β ≥ 0 (both free, β = 0, α = 0, both 0) and keeping the best: that is the exact
constrained least-squares optimum (the KKT point lies in one face), with no spreadsheet
quadratic-trendline trick that can give negative coefficients. It reproduces the R ``usl``
package's published fits to its printed digits, takes well under a millisecond for 1,000 points,
and spares the application the 100 MB of scipy (see docs/fit.md for the measurements).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .laws import FloatArray, parallel_fraction_at
from .measurements import MeasureKind, Measurements

if TYPE_CHECKING:
    from .analysis import Analysis

MIN_POINTS = 3
WEAK_BELOW = 6  # fewer runs than this: the fit is "weakly determined"
MAX_ITERATIONS = 200
_FACES = ((0, 1, 2), (0, 2), (1, 2), (2,))  # free parameters of (α, β, γ) on each face of α, β ≥ 0


@dataclass(frozen=True)
class Points:
    """Per run, aligned with the measurement rows: speedup and efficiency against N0, Karp–Flatt e."""

    n: FloatArray
    value: FloatArray
    speedup: FloatArray
    efficiency: FloatArray
    karp_flatt: FloatArray  # NaN at the baseline, where it is undefined


@dataclass(frozen=True)
class Spread:
    """Repeated runs gathered by N: mean, min and max of the value, and how many runs."""

    n: FloatArray
    mean: FloatArray
    low: FloatArray
    high: FloatArray
    count: FloatArray


@dataclass(frozen=True)
class AmdahlFit:
    """T(N)/T(N0) = (1−P) + P·N0/N fitted for P, with its standard error."""

    parallel_fraction: float
    stderr: float
    ceiling: float  # 1/(1−P); inf when P ≥ 1
    r_squared: float
    baseline_n: float
    half_efficiency_n: float | None  # where S/(N/N0) falls below 50%

    def speedup(self, n: ArrayLike) -> FloatArray:
        """Speedup against N0 that the fitted P predicts at each N."""
        p = self.parallel_fraction
        return np.asarray(1.0 / ((1.0 - p) + p * self.baseline_n / np.asarray(n, dtype=float)), dtype=float)


@dataclass(frozen=True)
class UslFit:
    """X(N) = γN / (1 + α(N−1) + βN(N−1)) with α, β ≥ 0, and what follows from it."""

    alpha: float
    beta: float
    gamma: float
    alpha_stderr: float
    beta_stderr: float
    gamma_stderr: float
    r_squared: float
    baseline_n: float
    iterations: int

    def throughput(self, n: ArrayLike) -> FloatArray:
        """Fitted throughput at each N (1/time when the runs were times)."""
        n_arr = np.asarray(n, dtype=float)
        return np.asarray(self.gamma * n_arr / _denominator(self.alpha, self.beta, n_arr), dtype=float)

    def speedup(self, n: ArrayLike) -> FloatArray:
        """Fitted throughput against the fitted throughput at N0."""
        return np.asarray(self.throughput(n) / self.throughput(self.baseline_n), dtype=float)

    @property
    def peak_n(self) -> float | None:
        """N* = √((1−α)/β), where throughput is highest; None when β = 0 (it never turns down)."""
        if self.beta <= 0 or self.alpha >= 1:
            return None
        return math.sqrt((1.0 - self.alpha) / self.beta)

    @property
    def peak_x(self) -> float | None:
        peak = self.peak_n
        return None if peak is None else float(self.throughput(peak))

    @property
    def limit_x(self) -> float:
        """γ/α: the throughput that contention alone would cap at; inf when α = 0."""
        return self.gamma / self.alpha if self.alpha > 0 else math.inf

    @property
    def half_efficiency_n(self) -> float | None:
        """Where efficiency against N0, D(N0)/D(N), falls to 50%; None if it never does."""
        a, b = self.alpha, self.beta
        target = 2.0 * float(_denominator(a, b, np.asarray(self.baseline_n)))
        if b > 0:  # βN² + (α−β)N + (1−α−target) = 0: its positive root, in the form without cancellation
            lin, const = a - b, 1.0 - a - target  # const < 0: one root of each sign
            root = math.sqrt(lin * lin - 4.0 * b * const)
            return float(-2.0 * const / (lin + root)) if lin > 0 else float((root - lin) / (2.0 * b))
        return (target - 1.0 + a) / a if a > 0 else None

    def limited_by(self, n_max: float) -> str:
        """ "coherency" when β·N outweighs α at the largest N measured, "contention" when α does, else "none"."""
        if self.alpha <= 0 and self.beta <= 0:
            return "none"
        return "coherency" if self.beta * n_max > self.alpha else "contention"


class GapKind(Enum):
    """Why a fit is missing (``present/fit_text.gap_text`` words it)."""

    NO_RUNS = "no_runs"  # no runs yet
    TOO_FEW = "too_few"  # runs, needed: fewer runs than a fit needs
    ONE_N = "one_n"  # n: every run is at one N
    USL_TWO_N = "usl_two_n"  # the USL's 3 parameters need runs at 3 or more different N
    NO_CONVERGENCE = "no_convergence"  # iterations: the USL fit did not converge


@dataclass(frozen=True)
class FitGap:
    """A fit that cannot be made, and its values; about the whole table of runs (``measurements.TABLE``)."""

    kind: GapKind
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class FitResult:
    """Everything the measured-scaling views show, computed once from a :class:`Measurements`."""

    measurements: Measurements
    baseline_n: float | None
    points: Points
    spread: Spread
    amdahl: AmdahlFit | None
    usl: UslFit | None
    gaps: tuple[FitGap, ...]  # why a fit is missing: too few runs, one N only, no convergence
    karp_flatt_trend: str | None  # "rising", "falling", "steady"; None with too few points
    measured_half_efficiency_n: float | None  # first measured N whose mean efficiency is below 50%

    @property
    def weakly_determined(self) -> bool:
        return len(self.measurements) < WEAK_BELOW

    def usl_speedup(self, n: ArrayLike) -> FloatArray:
        """The USL's speedup on the runs' own scale: X_fit(N) over the *measured* throughput at N0, so the curve
        and the measured points share one axis (against X_fit(N0) it can sit far below every run when the fit's
        γ differs from the first run, as with specsdm91)."""
        if self.usl is None:
            return np.full(np.shape(n), np.nan)
        x = self.measurements.throughput()
        s = self.points.speedup
        ok = np.isfinite(x) & np.isfinite(s) & (s > 0)
        if not ok.any():
            return self.usl.speedup(n)
        base = float(np.median(x[ok] / s[ok]))  # the same for every run: X_i / (X_i / X0) = X0
        return np.asarray(self.usl.throughput(n) / base, dtype=float)


def _denominator(alpha: float, beta: float, n: FloatArray) -> FloatArray:
    return np.asarray(1.0 + alpha * (n - 1.0) + beta * n * (n - 1.0), dtype=float)


def _jacobian(theta: FloatArray, n: FloatArray) -> FloatArray:
    a, b, g = theta
    d = _denominator(a, b, n)
    f = g * n / d
    return np.column_stack([-f * (n - 1.0) / d, -f * n * (n - 1.0) / d, n / d])


def _sse(theta: FloatArray, n: FloatArray, x: FloatArray) -> float:
    d = _denominator(theta[0], theta[1], n)
    if np.any(d <= 0):  # only possible for N < 1: a pole between the points
        return math.inf
    r = x - theta[2] * n / d
    return float(r @ r)


def _lm(
    n: FloatArray, x: FloatArray, start: FloatArray, free: tuple[int, ...], max_iterations: int
) -> tuple[FloatArray, float, int, bool]:
    """Levenberg–Marquardt on the free parameters, kept in α, β ≥ 0; (θ, SSE, iterations, converged).

    A coefficient at 0 whose gradient points below 0 is held there for the step (an active set), so
    an optimum on the bound is reached in a few steps instead of being crept up on by clipped ones.
    """
    theta = start.copy()
    sse = _sse(theta, n, x)
    lam = 1e-3
    for it in range(1, max_iterations + 1):
        full = _jacobian(theta, n)
        d = theta[2] * n / _denominator(theta[0], theta[1], n)
        grad_all = full.T @ (x - d)  # the descent direction of the sum of squares
        idx = [i for i in free if not (i < 2 and theta[i] <= 0 and grad_all[i] <= 0)]
        if not idx:
            return theta, sse, it, True
        jac = full[:, idx]
        grad = grad_all[idx]
        normal = jac.T @ jac
        scale = np.diag(normal).copy()
        scale[scale <= 0] = 1.0  # Marquardt's scaling: β and γ differ by six orders of magnitude
        while True:
            try:
                step = np.linalg.solve(normal + lam * np.diag(scale), grad)
            except np.linalg.LinAlgError:
                step = np.full(len(idx), np.nan)
            trial = theta.copy()
            trial[idx] += step
            trial[:2] = np.maximum(trial[:2], 0.0)
            trial_sse = _sse(trial, n, x) if np.all(np.isfinite(trial)) else math.inf
            if trial_sse <= sse:
                lam = max(lam / 10.0, 1e-15)
                break
            lam *= 10.0
            if lam > 1e15:  # no step lowers the sum of squares: a minimum to working precision
                return theta, sse, it, True
        moved = np.abs(trial - theta) <= 1e-12 * (np.abs(theta) + 1e-300)
        done = sse - trial_sse <= 1e-13 * sse or trial_sse == 0.0 or bool(np.all(moved))
        theta, sse = trial, trial_sse
        if done:
            return theta, sse, it, True
    return theta, sse, max_iterations, False


def fit_usl(
    n: ArrayLike, x: ArrayLike, baseline_n: float | None = None, max_iterations: int = MAX_ITERATIONS
) -> UslFit | None:
    """Least-squares USL fit to throughputs ``x`` at counts ``n`` with α, β ≥ 0; None if it does not converge."""
    n_arr = np.asarray(n, dtype=float)
    x_raw = np.asarray(x, dtype=float)
    scale = float(np.max(np.abs(x_raw)))
    x_arr = x_raw / scale  # throughputs in 1/ns or in millions per second fit alike
    lo = n_arr == n_arr.min()
    gamma0 = float(np.mean(x_arr[lo]) / n_arr.min())
    # Start from the linearised model γ0·N/X − 1 = α(N−1) + βN(N−1), clipped into the box.
    design = np.column_stack([n_arr - 1.0, n_arr * (n_arr - 1.0)])
    ab = np.linalg.lstsq(design, gamma0 * n_arr / x_arr - 1.0, rcond=None)[0]
    best: tuple[float, int, FloatArray, int] | None = None
    unfinished = math.inf  # the lowest sum of squares on a face that did not converge
    # Sums of squares this close are one fit: exact runs leave residuals of rounding alone (about 1e-16 of
    # each throughput), where a relative comparison of two sums of squares is noise.
    floor = (1e-13) ** 2 * float(x_arr @ x_arr)
    faces: dict[tuple[int, ...], tuple[float, FloatArray, int]] = {}
    for free in _FACES:
        start = np.array([max(ab[0], 0.0), max(ab[1], 0.0), gamma0])
        start[[i for i in (0, 1) if i not in free]] = 0.0
        theta, sse, its, ok = _lm(n_arr, x_arr, start, free, max_iterations)
        if not ok or not math.isfinite(sse):
            unfinished = min(unfinished, sse)
            continue
        faces[free] = (sse, theta, its)
        # A smaller face wins ties: β = 1e-17 from the full fit is β = 0.
        if (
            best is None
            or sse < best[0] * (1 - 1e-9) - floor
            or (sse <= best[0] * (1 + 1e-9) + floor and len(free) < best[1])
        ):
            best = (sse, len(free), theta, its)
    # A face that stopped short may hold a better fit than the best finished one: then none is certain.
    # (Faces far worse than the best, such as β = 0 for data that clearly turns down, may stop short harmlessly.)
    if best is None or unfinished < best[0] * (1 - 1e-9) - floor:
        return None
    base = float(n_arr.min()) if baseline_n is None else baseline_n
    fit = _usl_fit(n_arr, x_raw, scale, best[0], best[2], best[3], base)
    # A β indistinguishable from 0 is 0 (no peak, no turn down): below its standard error, or adding less than
    # a billionth to the denominator at the largest N measured. Then the best fit with β = 0 is the fit.
    n_max = float(n_arr.max())
    negligible = fit.beta * n_max * (n_max - 1.0) <= 1e-9 * (1.0 + fit.alpha * (n_max - 1.0))
    below_error = math.isfinite(fit.beta_stderr) and fit.beta <= fit.beta_stderr
    if fit.beta > 0 and (negligible or below_error):
        for free in ((0, 2), (2,)):
            if free in faces:
                sse, theta, its = faces[free]
                return _usl_fit(n_arr, x_raw, scale, sse, theta, its, base)
    return fit


def _usl_fit(
    n_arr: FloatArray, x_raw: FloatArray, scale: float, sse: float, theta: FloatArray, its: int, base: float
) -> UslFit:
    """The fit of one face's optimum ``theta`` (throughputs scaled by ``scale``), with its standard errors."""
    sse *= scale**2
    a, b, g = float(theta[0]), float(theta[1]), float(theta[2]) * scale
    jac = _jacobian(np.array([a, b, g]), n_arr)
    dof = len(n_arr) - 3
    try:
        cov = np.linalg.inv(jac.T @ jac) * (sse / dof) if dof > 0 else np.full((3, 3), np.inf)
        errs = np.sqrt(np.abs(np.diag(cov)))
    except np.linalg.LinAlgError:
        errs = np.full(3, np.inf)
    sst = float(((x_raw - x_raw.mean()) ** 2).sum())
    r2 = 1.0 - sse / sst if sst > 0 else math.nan
    return UslFit(a, b, g, float(errs[0]), float(errs[1]), float(errs[2]), r2, base, its)


def fit_amdahl(n: ArrayLike, ratio: ArrayLike, baseline_n: float) -> AmdahlFit | None:
    """P by least squares on r = T(N)/T(N0) = 1 + P·(N0/N − 1); None when only one N was measured."""
    x = baseline_n / np.asarray(n, dtype=float) - 1.0
    y = np.asarray(ratio, dtype=float) - 1.0
    sxx = float(x @ x)
    if sxx <= 0:
        return None
    p = float(x @ y) / sxx
    resid = y - p * x
    dof = len(x) - 1
    stderr = math.sqrt(float(resid @ resid) / dof / sxx) if dof > 0 else math.inf
    sst = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - float(resid @ resid) / sst if sst > 0 else math.nan
    ceiling = 1.0 / (1.0 - p) if p < 1 else math.inf
    half = baseline_n * (2.0 - p) / (1.0 - p) if p < 1 else None
    return AmdahlFit(p, stderr, ceiling, r2, baseline_n, half)


def _points(m: Measurements, baseline_n: float) -> Points:
    n, v = m.n, m.values
    base_value = float(np.mean(v[n == baseline_n]))
    speedup = base_value / v if m.kind is MeasureKind.TIME else v / base_value
    p = n / baseline_n
    with np.errstate(divide="ignore", invalid="ignore"):
        karp = np.where(p != 1.0, (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p), np.nan)
    return Points(n.copy(), v.copy(), speedup, speedup / p, karp)


def _spread(n: FloatArray, v: FloatArray) -> Spread:
    keys, inverse, count = np.unique(n, return_inverse=True, return_counts=True)
    mean = np.bincount(inverse, weights=v) / count
    low = np.full(keys.size, np.inf)
    high = np.full(keys.size, -np.inf)
    np.minimum.at(low, inverse, v)
    np.maximum.at(high, inverse, v)
    return Spread(keys, mean, low, high, count.astype(float))


def _trend(points: Points) -> str | None:
    """Karp–Flatt e against log N: "rising" means overhead that grows with N, not a fixed serial part."""
    ok = np.isfinite(points.karp_flatt)
    keys = np.unique(points.n[ok])
    if keys.size < 2:
        return None
    e = np.array([points.karp_flatt[ok][points.n[ok] == k].mean() for k in keys])
    logs = np.log(keys)
    slope = float(np.polyfit(logs, e, 1)[0])
    change = slope * float(logs[-1] - logs[0])
    threshold = max(0.005, 0.25 * float(np.mean(np.abs(e))))
    return "rising" if change > threshold else "falling" if change < -threshold else "steady"


def fit_measurements(m: Measurements, max_iterations: int = MAX_ITERATIONS) -> FitResult:
    """Points, Amdahl and USL fits (present/fit_text words them); a fit that cannot be made is a problem, not an error."""
    problems: list[FitGap] = []
    empty = np.zeros(0)
    if len(m) == 0:
        problems.append(FitGap(GapKind.NO_RUNS))
        points = Points(empty, empty, empty, empty, empty)
        spread = Spread(empty, empty, empty, empty, empty)
        return FitResult(m, None, points, spread, None, None, tuple(problems), None, None)
    base = float(m.baseline_n or 0.0)
    points = _points(m, base)
    spread = _spread(points.n, points.value)
    amdahl = usl = None
    if len(m) < MIN_POINTS:
        problems.append(FitGap(GapKind.TOO_FEW, {"runs": len(m), "needed": MIN_POINTS}))
    elif m.distinct_n < 2:
        problems.append(FitGap(GapKind.ONE_N, {"n": base}))
    else:
        ratio = 1.0 / points.speedup
        amdahl = fit_amdahl(points.n, ratio, base)
        if m.distinct_n < 3:
            problems.append(FitGap(GapKind.USL_TWO_N))
        else:
            usl = fit_usl(points.n, m.throughput(), base, max_iterations)
            if usl is None:
                problems.append(FitGap(GapKind.NO_CONVERGENCE, {"iterations": max_iterations}))
    half = None
    by_n = _spread(points.n, points.efficiency)
    below = by_n.n[by_n.mean < 0.5]
    if below.size:
        half = float(below[0])
    trend = _trend(points)
    return FitResult(m, base, points, spread, amdahl, usl, tuple(problems), trend, half)


def sample_n(low: float, high: float, count: int = 200, log: bool = True) -> FloatArray:
    """Counts to draw a fitted curve through: log-spaced by default, as N spans decades."""
    low, high = max(low, 1e-9), max(high, low)
    if log:
        return np.asarray(np.geomspace(low, high, count), dtype=float)
    return np.asarray(np.linspace(low, high, count), dtype=float)


def curve_range(result: FitResult, beyond: float = 2.0) -> tuple[float, float]:
    """The N range a chart shows: the runs, and past the peak (when there is one) so the turn is visible."""
    n = result.points.n
    if n.size == 0:
        return 1.0, 2.0
    high = float(n.max()) * beyond
    peak = result.usl.peak_n if result.usl is not None else None
    if peak is not None and peak * 1.5 > high:
        high = min(peak * 1.5, float(n.max()) * 100)
    return float(n.min()), high


def speedup_curves(result: FitResult, count: int = 200, log: bool = True) -> dict[str, tuple[FloatArray, FloatArray]]:
    """(N, speedup against N0) per fitted model, keyed "amdahl" and "usl"; only the fits that exist."""
    n = sample_n(*curve_range(result), count, log)
    curves: dict[str, tuple[FloatArray, FloatArray]] = {}
    if result.amdahl is not None:
        curves["amdahl"] = (n, result.amdahl.speedup(n))
    if result.usl is not None:
        curves["usl"] = (n, result.usl_speedup(n))
    return curves


def profile_p_at(analysis: Analysis, baseline_n: float | None) -> float:
    """The profile's parallel fraction re-expressed at the runs' N0, so the two P are shares of the same time.

    The profile's P is a share of its time at its own N0 (``baseline_gpus``); the window's measured chart and
    ``fit --profile`` both compare this one.
    """
    s = analysis.scaling
    if baseline_n is None:
        return s.parallel_fraction
    return parallel_fraction_at(s.parallel_fraction, s.baseline_gpus, baseline_n)
