"""Axes people can read: ranges in round steps and log ticks with plain labels, in the locale."""

from __future__ import annotations

import math

from .numbers import POINT, Numbers


def nice_ceiling(value: float) -> float:
    """The next 1-1.2-1.5-2-2.5-3-4-5-6-8 step at or above ``value``: ranges that move only now and then."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    exponent = math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * 10.0**exponent >= value * (1 - 1e-12):
            return step * 10.0**exponent
    return 10.0 ** (exponent + 1)


def log2_ticks(lo: int, hi: int, max_ticks: int = 12, n: Numbers = POINT) -> tuple[tuple[float, str], ...]:
    """Ticks at powers of two between lo and hi (as log₂ positions), thinned to at most ``max_ticks``."""
    first, last = math.floor(math.log2(max(lo, 1))), math.ceil(math.log2(max(hi, 1)))
    exps = list(range(first, last + 1))
    step = max(1, math.ceil(len(exps) / max_ticks))
    return tuple((float(e), n.count(2**e)) for e in exps[::step])


def log10_ticks(lo: float, hi: float, n: Numbers = POINT) -> tuple[tuple[float, str], ...]:
    """Ticks at 1-2-5 steps between lo and hi (positive), as log₁₀ positions with plain labels."""
    ticks: list[tuple[float, str]] = []
    lo = max(lo, 1e-6)
    for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10.0**e
            if lo * 0.999 <= v <= hi * 1.001:
                ticks.append((math.log10(v), n.count(round(v)) if v >= 1 else n.number(v, 1)))
    if len(ticks) > 10:
        ticks = [t for t in ticks if t[1].lstrip("0.,").startswith("1")]
    return tuple(ticks)


def plotted_ticks(values: list[float], scale: float, spacing: float, n: Numbers = POINT) -> list[str]:
    """Labels for ticks a plotting library placed at ``values`` (times ``scale``), ``spacing`` apart, as the views
    write numbers: thousands grouped and as many decimals as the spacing needs ("2,000,000", "10,000,000.05",
    "0.0005") — never an exponent, which read "2e+06", nor five labels alike ("1e+07") where the range is narrow."""
    step = abs(spacing * scale)
    places = min(max(0, math.ceil(-math.log10(step) - 1e-9)), 12) if step > 0 and math.isfinite(step) else 0
    return [n.plain(round(v * scale, places) + 0.0, f",.{places}f") for v in values]  # + 0.0: never "-0"
