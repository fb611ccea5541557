"""How sure the fits of measured runs are: intervals on P, α, β, γ and the peak, and a band on each fitted curve.

Each interval is the estimate ± t·(standard error), with Student's t at n − p degrees of freedom (p = 1 for
Amdahl's P, 3 for the USL); α and β are kept at 0 or above, as the fit keeps them. The peak N* = √((1 − α)/β)
gets its interval by the delta method on log N* (so it stays positive); when β's interval reaches 0 its upper
end is unbounded: the runs do not pin down a peak. The bands are pointwise: the curve through P at either end
of its interval (clipped to 0–1) for Amdahl, the delta method with the fit's covariance for the USL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .fit import MIN_POINTS, FitResult, UslFit, _jacobian, curve_range, sample_n
from .laws import FloatArray
from .special import t_quantile

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """An estimate and its interval at ``level``; ``low``/``high`` may be ±inf when the data do not bound it."""

    estimate: float
    low: float
    high: float
    level: float


@dataclass(frozen=True)
class FitIntervals:
    """The intervals of a :class:`FitResult`'s fits; a missing fit (or too few runs for one) is ``None``."""

    level: float
    parallel_fraction: Interval | None
    alpha: Interval | None
    beta: Interval | None
    gamma: Interval | None
    peak_n: Interval | None


def _t(level: float, dof: int) -> float | None:
    return t_quantile(0.5 + level / 2.0, dof) if dof > 0 else None


def _symmetric(estimate: float, stderr: float, t: float, level: float, floor: float = -math.inf) -> Interval:
    half = t * stderr if math.isfinite(stderr) else math.inf
    return Interval(estimate, max(estimate - half, floor), estimate + half, level)


def usl_covariance(result: FitResult) -> np.ndarray | None:
    """The covariance of (α, β, γ): (JᵀJ)⁻¹·SSE/(n − 3) at the fit, on the throughputs' own scale."""
    usl = result.usl
    if usl is None:
        return None
    n = result.points.n
    x = result.measurements.throughput()
    dof = n.size - 3
    if dof <= 0:
        return None
    theta = np.array([usl.alpha, usl.beta, usl.gamma])
    jac = _jacobian(theta, n)
    residual = x - usl.throughput(n)
    try:
        return np.asarray(np.linalg.inv(jac.T @ jac) * (float(residual @ residual) / dof), dtype=float)
    except np.linalg.LinAlgError:
        return None


def _peak(usl: UslFit, cov: np.ndarray | None, beta: Interval, t: float, level: float) -> Interval | None:
    peak = usl.peak_n
    if peak is None or cov is None:
        return None
    grad = np.array([-0.5 / (1.0 - usl.alpha), -0.5 / usl.beta, 0.0])
    se = math.sqrt(max(float(grad @ cov[:3, :3] @ grad), 0.0))
    low, high = peak * math.exp(-t * se), peak * math.exp(t * se)
    if beta.low <= 0:
        high = math.inf  # a β of 0 is within the interval: the throughput may never turn down
    return Interval(peak, low, high, level)


def fit_intervals(result: FitResult, level: float = LEVEL) -> FitIntervals:
    """The intervals at ``level`` (0.95: 95%) of every fit ``result`` holds."""
    p_interval = alpha = beta = gamma = peak = None
    n = result.points.n.size
    if result.amdahl is not None and n >= 2:
        t = _t(level, n - 1)
        if t is not None:
            a = result.amdahl
            p_interval = _symmetric(a.parallel_fraction, a.stderr, t, level)
    usl = result.usl
    if usl is not None and n >= max(MIN_POINTS, 4):
        t = _t(level, n - 3)
        if t is not None:
            alpha = _symmetric(usl.alpha, usl.alpha_stderr, t, level, 0.0)
            beta = _symmetric(usl.beta, usl.beta_stderr, t, level, 0.0)
            gamma = _symmetric(usl.gamma, usl.gamma_stderr, t, level)
            peak = _peak(usl, usl_covariance(result), beta, t, level)
    return FitIntervals(level, p_interval, alpha, beta, gamma, peak)


def speedup_bands(
    result: FitResult, level: float = LEVEL, count: int = 200, log: bool = True
) -> dict[str, tuple[FloatArray, FloatArray, FloatArray]]:
    """(N, low, high) of each fitted speedup curve's band at ``level``, keyed "amdahl" and "usl" as
    :func:`~amdahl_desk.model.fit.speedup_curves` keys its curves, on the same N."""
    bands: dict[str, tuple[FloatArray, FloatArray, FloatArray]] = {}
    if result.points.n.size == 0:
        return bands
    n = sample_n(*curve_range(result), count, log)
    found = fit_intervals(result, level)
    if result.amdahl is not None and found.parallel_fraction is not None:
        a, p = result.amdahl, found.parallel_fraction
        ends = []
        for value in (min(max(p.low, 0.0), 1.0), min(max(p.high, 0.0), 1.0)):
            ends.append(1.0 / ((1.0 - value) + value * a.baseline_n / n))
        bands["amdahl"] = (n, np.minimum(ends[0], ends[1]), np.maximum(ends[0], ends[1]))
    cov = usl_covariance(result)
    usl = result.usl
    if usl is not None and cov is not None and found.alpha is not None:
        t = _t(level, result.points.n.size - 3)
        assert t is not None
        jac = _jacobian(np.array([usl.alpha, usl.beta, usl.gamma]), n)
        se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", jac, cov, jac), 0.0))
        curve = result.usl_speedup(n)
        scale = np.divide(curve, usl.throughput(n), out=np.zeros_like(curve), where=usl.throughput(n) > 0)
        bands["usl"] = (n, np.maximum(curve - t * se * scale, 0.0), curve + t * se * scale)
    return bands
