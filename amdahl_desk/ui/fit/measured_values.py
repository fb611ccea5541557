"""Figures the measured charts and the fit summary share, without plotting code (the summary is built at start-up)."""

from __future__ import annotations

from ...model.analysis import Analysis
from ...model.measurements import MeasureKind, Measurements
from ...model.units import ParseError, parse_unit


def throughput_scale(m: Measurements) -> tuple[float, str]:
    """Factor from the fit's throughput to the one shown, and its unit: runtimes become runs per second."""
    if m.kind is MeasureKind.THROUGHPUT:
        return 1.0, m.unit
    try:
        return 1.0 / parse_unit(m.unit).seconds, "runs/s"
    except ParseError:
        return 1.0, f"runs/{m.unit}" if m.unit else "runs per unit of time"


def profile_p_at(analysis: Analysis, baseline_n: float | None) -> float:
    """The profile's parallel fraction re-expressed at the runs' N0, so the two P are shares of the same time.

    The profile's P is a share of its time at its own N0; at N0' its parallel part takes N0/N0' as long.
    """
    s = analysis.scaling
    p = s.parallel_fraction
    if baseline_n is None or baseline_n == s.baseline_gpus or not 0 <= p <= 1:
        return p
    parallel = p * s.baseline_gpus / baseline_n
    return parallel / ((1 - p) + parallel)
