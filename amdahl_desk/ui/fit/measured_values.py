"""Figures the measured charts and the fit summary share, without plotting code (the summary is built at start-up)."""

from __future__ import annotations

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
