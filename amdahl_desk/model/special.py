"""Special functions the intervals need, on numpy alone: the regularized incomplete beta and Student's t.

The project does not depend on scipy; these are the textbook continued fraction (Lentz's method, as in
Numerical Recipes §6.4) and a safeguarded Newton iteration for the t quantile, tested against published
table values.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from .laws import FloatArray

_TINY = 1e-300
_EPS = 1e-15
_MAX_TERMS = 1000


def _continued_fraction(a: float, b: float, x: FloatArray) -> FloatArray:
    """The continued fraction of I_x(a, b) (modified Lentz), converging fast for x < (a + 1)/(a + b + 2)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = np.where(np.abs(d) < _TINY, _TINY, d)
    d = 1.0 / d
    h = d.copy()
    for m in range(1, _MAX_TERMS + 1):
        m2 = 2 * m
        for coefficient in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + coefficient * d
            d = np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1.0 + coefficient / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            d = 1.0 / d
            delta = d * c
            h = h * delta
        if np.all(np.abs(delta - 1.0) < _EPS):
            break
    return np.asarray(h, dtype=float)


def betainc(a: float, b: float, x: ArrayLike) -> FloatArray:
    """The regularized incomplete beta function I_x(a, b) for a, b > 0 and each x in [0, 1]."""
    if not (a > 0 and b > 0):
        raise ValueError(f"betainc needs a, b > 0, not {a}, {b}")
    xs: FloatArray = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    out: FloatArray = np.empty_like(xs)
    inner = (xs > 0) & (xs < 1)
    out[xs <= 0] = 0.0
    out[xs >= 1] = 1.0
    if not inner.any():
        return out
    v = xs[inner]
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * np.log(v) + b * np.log1p(-v)
    front = np.exp(log_front)
    direct = v < (a + 1.0) / (a + b + 2.0)
    result = np.empty_like(v)
    if direct.any():
        result[direct] = front[direct] * _continued_fraction(a, b, v[direct]) / a
    if (~direct).any():
        w = 1.0 - v[~direct]
        result[~direct] = 1.0 - front[~direct] * _continued_fraction(b, a, w) / b
    out[inner] = result
    return out


def t_cdf(t: float, dof: float) -> float:
    """P(T ≤ t) for Student's t with ``dof`` degrees of freedom (any dof > 0)."""
    if dof <= 0:
        raise ValueError("the t distribution needs more than 0 degrees of freedom")
    if t == 0:
        return 0.5
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    if t * t < dof:
        # Near 0, x = ν/(ν + t²) is 1 to within rounding: work with its complement, t²/(ν + t²), exactly.
        inner = 0.5 * float(betainc(0.5, dof / 2.0, t * t / (dof + t * t)))  # P(0 < T ≤ |t|)
        return 0.5 + inner if t > 0 else 0.5 - inner
    tail = 0.5 * float(betainc(dof / 2.0, 0.5, dof / (dof + t * t)))
    return 1.0 - tail if t > 0 else tail


def _t_pdf(t: float, dof: float) -> float:
    log = math.lgamma((dof + 1) / 2) - math.lgamma(dof / 2) - 0.5 * math.log(dof * math.pi)
    return math.exp(log - (dof + 1) / 2 * math.log1p(t * t / dof))


@lru_cache(maxsize=256)
def t_quantile(p: float, dof: float) -> float:
    """The t with P(T ≤ t) = p: Newton's method from the normal quantile, kept inside a bisection bracket."""
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    if dof <= 0:
        raise ValueError("the t distribution needs more than 0 degrees of freedom")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, dof)
    low, high = 0.0, 1.0
    while t_cdf(high, dof) < p:  # the bracket [low, high] holds the answer
        low, high = high, high * 4.0
    t = min(max(normal_quantile(p), low), high)
    for _ in range(200):
        error = t_cdf(t, dof) - p
        if error > 0:
            high = t
        else:
            low = t
        step = error / _t_pdf(t, dof)
        candidate = t - step
        if not low < candidate < high:
            candidate = 0.5 * (low + high)
        if abs(candidate - t) <= 1e-14 * max(1.0, abs(t)) or high - low <= 1e-14 * max(1.0, high):
            return candidate
        t = candidate
    return t


def normal_quantile(p: float) -> float:
    """Φ⁻¹(p) by Acklam's rational approximation (relative error below 1.2e-9), polished by one Halley step."""
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    a = (
        -39.69683028665376,
        220.9460984245205,
        -275.9285104469687,
        138.3577518672690,
        -30.66479806614716,
        2.506628277459239,
    )
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572)
    c = (
        -7.784894002430293e-03,
        -0.3223964580411365,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    )
    d = (7.784695709041462e-03, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    if p < 0.02425:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    elif p > 1 - 0.02425:
        q = math.sqrt(-2 * math.log1p(-p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    else:
        q = p - 0.5
        r = q * q
        x = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        )
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)
