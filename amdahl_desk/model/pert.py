"""The PERT distribution of a three-point estimate (low, likely, high): its shape, moments, CDF and draws.

PERT is the Beta distribution on [low, high] with α = 1 + 4(m − low)/(high − low) and
β = 1 + 4(high − m)/(high − low), so α + β = 6 and the shape is one number, α ∈ [1, 5].

Draws turn uniforms into values through a quantile table: for α on a grid of step 1/16, the exact
quantiles (inverted from the regularized incomplete beta on 4,097 Chebyshev points) at u = i/4,096;
an α between two grid values blends their tables, and a u between two table points is interpolated
linearly. Each cell of 1/4,096 of probability is then drawn with exactly that probability, and the
CDF of the draws stays within 2×10⁻⁴ of the PERT's everywhere (tests/model/test_pert.py measures it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from numpy.typing import ArrayLike

from .laws import FloatArray
from .special import betainc

CELLS = 4096  # probability cells of a quantile table
ALPHA_STEP = 1 / 16  # the shapes whose tables are computed; the others blend their two neighbours
_GRID = 4096  # Chebyshev points the CDF is computed on, dense at the ends where the density is not smooth
_X = (1.0 - np.cos(np.pi * np.arange(_GRID + 1) / _GRID)) / 2.0
_U = np.arange(CELLS + 1) / CELLS
_NODES = round(4 / ALPHA_STEP)  # grid intervals between α = 1 and α = 5


def pert_alpha(low: float, mode: float, high: float) -> float:
    """α of the PERT on [low, high] with its mode at ``mode`` (β = 6 − α); 3 for a point."""
    if high <= low:
        return 3.0
    return 1.0 + 4.0 * (mode - low) / (high - low)


@cache
def _node_table(node: int) -> FloatArray:
    """The quantiles of Beta(α, 6 − α) on [0, 1] at u = i/CELLS, for α = 1 + node·ALPHA_STEP."""
    alpha = 1.0 + node * ALPHA_STEP
    cdf = betainc(alpha, 6.0 - alpha, _X)
    cdf[0], cdf[-1] = 0.0, 1.0
    cdf = np.maximum.accumulate(cdf)  # monotone to the last bit, for the inversion
    table = np.interp(_U, cdf, _X)
    table[0], table[-1] = 0.0, 1.0
    table.setflags(write=False)
    return table


def shape_table(alpha: float) -> FloatArray:
    """The quantile table of the PERT shape α on [0, 1] (CELLS + 1 values, from 0 to 1)."""
    alpha = min(max(alpha, 1.0), 5.0)
    position = (alpha - 1.0) / ALPHA_STEP
    node = min(int(math.floor(position)), _NODES - 1)
    weight = position - node
    if weight <= 0.0:
        return _node_table(node)
    if weight >= 1.0:
        return _node_table(node + 1)
    return np.asarray((1.0 - weight) * _node_table(node) + weight * _node_table(node + 1), dtype=float)


def draw_unit(alpha: float, u: FloatArray) -> FloatArray:
    """PERT draws on [0, 1] of shape ``alpha`` from uniforms ``u`` in [0, 1): the same u, the same draw."""
    table = shape_table(alpha)
    scaled = np.asarray(u, dtype=float) * CELLS
    cell = np.minimum(scaled.astype(np.int64), CELLS - 1)
    frac = scaled - cell
    left = table[cell]
    return np.asarray(left + frac * (table[cell + 1] - left), dtype=float)


@dataclass(frozen=True)
class Pert:
    """A three-point estimate as a distribution: low ≤ mode ≤ high (all equal: a point)."""

    low: float
    mode: float
    high: float

    @property
    def is_point(self) -> bool:
        return self.high <= self.low

    @property
    def alpha(self) -> float:
        return pert_alpha(self.low, self.mode, self.high)

    @property
    def beta(self) -> float:
        return 6.0 - self.alpha

    @property
    def mean(self) -> float:
        """(low + 4·mode + high)/6."""
        return self.mode if self.is_point else (self.low + 4.0 * self.mode + self.high) / 6.0

    @property
    def variance(self) -> float:
        """(mean − low)(high − mean)/7, the Beta's αβ(high − low)²/((α + β)²(α + β + 1)) at α + β = 6."""
        if self.is_point:
            return 0.0
        mean = self.mean
        return max((mean - self.low) * (self.high - mean) / 7.0, 0.0)

    @property
    def third_moment_bound(self) -> float:
        """An upper bound on E|X − mean|³: the variance times the largest distance from the mean."""
        mean = self.mean
        return self.variance * max(mean - self.low, self.high - mean)

    def cdf(self, x: ArrayLike) -> FloatArray:
        """P(X ≤ x), exactly (the regularized incomplete beta)."""
        xs = np.asarray(x, dtype=float)
        if self.is_point:
            return np.asarray(np.where(xs >= self.mode, 1.0, 0.0), dtype=float)
        alpha = self.alpha
        return betainc(alpha, 6.0 - alpha, (xs - self.low) / (self.high - self.low))

    def draw(self, u: FloatArray) -> FloatArray:
        """Draws from uniforms ``u`` (see the module's note on the quantile table)."""
        if self.is_point:
            return np.full(np.shape(u), self.mode)
        return self.low + (self.high - self.low) * draw_unit(self.alpha, u)

    def mean_reciprocal(self) -> float:
        """E[1/X] of the drawn distribution (X > 0): each table cell's exact integral of 1/x, averaged."""
        return _mean_reciprocal(self.low, self.mode, self.high)


@lru_cache(maxsize=1024)
def _mean_reciprocal(low: float, mode: float, high: float) -> float:
    if high <= low:
        return 1.0 / mode
    values = low + (high - low) * shape_table(pert_alpha(low, mode, high))
    left, right = values[:-1], values[1:]
    width = right - left
    flat = width <= 1e-12 * right
    with np.errstate(divide="ignore", invalid="ignore"):
        cells = np.where(flat, 1.0 / np.maximum(left, 1e-300), np.log(right / left) / np.where(flat, 1.0, width))
    return float(np.mean(cells))
