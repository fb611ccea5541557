"""Amdahl's and Gustafson's laws and the overhead models, as small vectorised functions.

Every function takes scalars or numpy arrays and never divides by zero: an
unbounded result is ``inf``, never an exception.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .profile_values import OverheadModel

FloatArray = NDArray[np.float64]


def amdahl_speedup(f: ArrayLike, k: ArrayLike) -> FloatArray:
    """End-to-end speedup S = 1/((1−f)+f/k) when a share f of the time gets k× faster."""
    f_arr = np.asarray(f, dtype=float)
    k_arr = np.asarray(k, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        remaining = (1.0 - f_arr) + f_arr / k_arr
        return np.asarray(np.where(remaining > 0, 1.0 / remaining, np.inf), dtype=float)


def ceiling(f: ArrayLike) -> FloatArray:
    """The most any speedup of a share f can give: 1/(1−f); ``inf`` at f = 1."""
    f_arr = np.asarray(f, dtype=float)
    with np.errstate(divide="ignore"):
        return np.asarray(np.where(f_arr < 1, 1.0 / (1.0 - np.minimum(f_arr, 1.0)), np.inf), dtype=float)


def required_speedup(f: float, total: float, target: float) -> float | None:
    """The local speedup k that a share f must get for the total to reach ``target``.

    k = f·T1 / (T_target − (1−f)·T1).  ``None`` when the untouched time (1−f)·T1
    already reaches the target: no k is enough.  1 when the target is already met.
    """
    if target >= total:
        return 1.0
    floor = (1.0 - f) * total
    if target <= floor or f <= 0:
        return None
    return float(f * total / (target - floor))


def strong_scaling(p: ArrayLike, gpus: ArrayLike, baseline_gpus: float = 1.0) -> FloatArray:
    """Amdahl's fixed-size speedup relative to ``baseline_gpus``: 1/((1−P)+P·N0/N)."""
    p_arr = np.asarray(p, dtype=float)
    ratio = np.asarray(gpus, dtype=float) / baseline_gpus
    return np.asarray(1.0 / ((1.0 - p_arr) + p_arr / ratio), dtype=float)


def gustafson(p: ArrayLike, gpus: ArrayLike, baseline_gpus: float = 1.0) -> FloatArray:
    """Gustafson's scaled speedup (1−P)+P·N/N0: the problem grows with the machine."""
    p_arr = np.asarray(p, dtype=float)
    ratio = np.asarray(gpus, dtype=float) / baseline_gpus
    return np.asarray((1.0 - p_arr) + p_arr * ratio, dtype=float)


def ring_allreduce_seconds(gpus: ArrayLike, latency: float, message_bytes: float, bandwidth: float) -> FloatArray:
    """Ring all-reduce time: 2(N−1)α + 2(N−1)/N · bytes/bandwidth (0 on one GPU)."""
    n = np.asarray(gpus, dtype=float)
    return np.asarray(2.0 * (n - 1.0) * latency + 2.0 * (n - 1.0) / n * message_bytes / bandwidth, dtype=float)


def communication_time(
    measured: float,
    gpus: ArrayLike,
    baseline_gpus: float,
    model: OverheadModel,
    *,
    ring_latency: float = 0.0,
    ring_message_bytes: float = 0.0,
    ring_bandwidth: float = 1.0,
    unit_seconds: float = 1e-3,
) -> FloatArray:
    """Communication time at each N, equal to ``measured`` at ``baseline_gpus``.

    none: C; linear: C·N/N0; log: C·(1+log₂N)/(1+log₂N0);
    ring: C + ring(N) − ring(N0) in the profile's unit, never below 0.
    """
    n = np.asarray(gpus, dtype=float)
    if model is OverheadModel.NONE:
        return np.full_like(n, measured)
    if model is OverheadModel.LINEAR:
        return np.asarray(measured * n / baseline_gpus, dtype=float)
    if model is OverheadModel.LOG:
        return np.asarray(measured * (1.0 + np.log2(n)) / (1.0 + np.log2(baseline_gpus)), dtype=float)
    ring = ring_allreduce_seconds(n, ring_latency, ring_message_bytes, ring_bandwidth) / unit_seconds
    ring0 = float(ring_allreduce_seconds(baseline_gpus, ring_latency, ring_message_bytes, ring_bandwidth))
    ring0 /= unit_seconds
    # The growth first: C + (ring − ring0) is exactly C at N0, however small C is next to ring(N0).
    return np.asarray(np.maximum(measured + (ring - ring0), 0.0), dtype=float)


def parallel_fraction_at(p: float, from_n0: float, to_n0: float) -> float:
    """A parallel fraction measured at ``from_n0`` GPUs, re-expressed at ``to_n0``: P' = P·r / ((1−P) + P·r).

    P is a share of the time at ``from_n0``; at ``to_n0`` the parallel part takes r = from_n0/to_n0 as long
    and the serial part the same, so the two fractions are shares of one time only at the same N0.
    """
    if from_n0 == to_n0 or not 0 <= p <= 1 or not (from_n0 > 0 and to_n0 > 0):
        return p
    parallel = p * from_n0 / to_n0
    return parallel / ((1.0 - p) + parallel)
