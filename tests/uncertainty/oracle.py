"""Independent oracles for the uncertainty tests: the PERT by plain numeric integration, never the model's code."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

Function = Callable[[np.ndarray], np.ndarray]


def pert_shape(low: float, mode: float, high: float) -> tuple[float, float]:
    """α and β of the PERT on [low, high] with its mode at ``mode`` (the three-point convention)."""
    return 1 + 4 * (mode - low) / (high - low), 1 + 4 * (high - mode) / (high - low)


def simpson(f: Function, low: float, high: float, points: int = 100_001) -> float:
    """Composite Simpson's rule on ``points`` (odd) points."""
    if high <= low:
        return 0.0
    x = np.linspace(low, high, points)
    y = f(x)
    h = (high - low) / (points - 1)
    return float(h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum()))


def pert_integral(low: float, mode: float, high: float, g: Function, upto: float | None = None) -> float:
    """∫ g(x)·density(x) dx from low to ``upto`` (default: high).

    The density u^(α−1)(1−u)^(β−1)/B(α, β) on u = (x − low)/(high − low) is not smooth at the ends when α or
    β is not whole: the lower half is integrated in w = u^α, the upper half in z = (1 − u)^β, where the
    integrand is smooth (u^(α−1) du = dw/α).
    """
    a, b = pert_shape(low, mode, high)
    norm = math.exp(math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
    span = high - low
    end = 1.0 if upto is None else min(max((upto - low) / span, 0.0), 1.0)

    def lower(w: np.ndarray) -> np.ndarray:
        u = w ** (1 / a)
        return (1 - u) ** (b - 1) * g(low + span * u) / (a * norm)

    def upper(z: np.ndarray) -> np.ndarray:
        u = 1 - z ** (1 / b)
        return u ** (a - 1) * g(low + span * u) / (b * norm)

    total = simpson(lower, 0.0, min(end, 0.5) ** a)
    if end > 0.5:
        total += simpson(upper, (1 - end) ** b, 0.5**b)
    return total


def pert_cdf(low: float, mode: float, high: float, x: float) -> float:
    """P(X ≤ x)."""
    return pert_integral(low, mode, high, np.ones_like, x)


def pert_expectation(low: float, mode: float, high: float, g: Function) -> float:
    """E[g(X)]."""
    return pert_integral(low, mode, high, g)


def binomial_betainc(a: int, b: int, x: float) -> float:
    """I_x(a, b) for whole a, b: the chance of at least a successes in a + b − 1 trials of probability x."""
    n = a + b - 1
    return sum(math.comb(n, j) * x**j * (1 - x) ** (n - j) for j in range(a, n + 1))
