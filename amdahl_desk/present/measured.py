"""The measured runs' three charts as views: speedup against N with the fits, throughput (USL), and Karp–Flatt e."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model.analysis import Analysis
from ..model.fit import FitResult, curve_range, profile_p_at, sample_n, speedup_curves
from ..model.fit_intervals import speedup_bands
from ..model.laws import FloatArray
from ..model.measurements import MeasureKind, Measurements
from ..model.values import ParseError, parse_unit
from .axes import log2_ticks, log10_ticks
from .chart_parts import Mark, Series
from .colours import BLUE, GREY, INK, ORANGE, PURPLE, RED
from .fit_text import count, gap_text
from .inputs import ChartInputs
from .numbers import POINT, Numbers

MODEL = RED  # the profile's model in the colour of the GPU-scaling chart's overhead curve


@dataclass(frozen=True)
class Layer:
    """What a legend entry names and whether it has something to draw now (an absent one leaves the legend)."""

    key: str
    name: str
    colour: str
    mark: str
    present: bool = True


@dataclass(frozen=True)
class Spread:
    """Bars from the lowest to the highest run at each N that was measured more than once."""

    x: tuple[float, ...] = ()
    mean: tuple[float, ...] = ()
    low: tuple[float, ...] = ()
    high: tuple[float, ...] = ()


@dataclass(frozen=True)
class MeasuredView:
    """One measured chart: ``curves`` and ``points`` by layer key, in plot coordinates; ``lines`` are
    horizontal reference lines (y and label) by layer key. An empty view (no runs) has no layers present."""

    title: str
    x_axis: str
    y_axis: str
    layers: tuple[Layer, ...]
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    curves: tuple[tuple[str, Series], ...] = ()
    points: Series | None = None
    spread: Spread = Spread()
    peak: Mark | None = None
    peak_on_left: bool = True  # the peak's label to the left of its star (near the right edge)
    lines: tuple[tuple[str, Mark], ...] = ()
    x_ticks: tuple[tuple[float, str], ...] | None = ()
    y_ticks: tuple[tuple[float, str], ...] | None = ()

    @property
    def empty(self) -> bool:
        return not any(layer.present for layer in self.layers)


def throughput_scale(m: Measurements) -> tuple[float, str]:
    """Factor from the fit's throughput to the one shown, and its unit: runtimes become runs per second."""
    if m.kind is MeasureKind.THROUGHPUT:
        return 1.0, m.unit
    try:
        return 1.0 / parse_unit(m.unit).seconds, "runs/s"
    except ParseError:
        return 1.0, f"runs/{m.unit}" if m.unit else "runs per unit of time"


def grouped(n: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per distinct N: the mean, lowest and highest of ``y`` (the spread of repeated runs)."""
    keys, inverse = np.unique(n, return_inverse=True)
    counts = np.bincount(inverse).astype(float)
    mean = np.bincount(inverse, weights=y) / counts
    low, high = np.full(keys.size, np.inf), np.full(keys.size, -np.inf)
    np.minimum.at(low, inverse, y)
    np.maximum.at(high, inverse, y)
    return keys, mean, low, high


def _spread(x: FloatArray, mean: FloatArray, low: FloatArray, high: FloatArray) -> Spread:
    several = high > low
    return Spread(*(tuple(float(v) for v in a[several]) for a in (x, mean, low, high)))


def rebased_model(analysis: Analysis, n: FloatArray, baseline_n: float) -> FloatArray | None:
    """The profile's speedup (Amdahl with its overhead model) at ``n``, against the runs' N0 instead of its own.

    None when the runs' N0 lies outside the GPU counts the profile's model covers.
    """
    s = analysis.scaling
    gpus = s.gpus.astype(float)
    ok = np.isfinite(s.with_overhead) & (s.with_overhead > 0)
    if ok.sum() < 2 or not (gpus[ok].min() <= baseline_n <= gpus[ok].max()):
        return None
    log_n, log_s = np.log2(gpus[ok]), np.log10(s.with_overhead[ok])
    inside = (n >= gpus[ok].min()) & (n <= gpus[ok].max())
    base = np.interp(math.log2(baseline_n), log_n, log_s)
    out = np.full(n.shape, np.nan)
    out[inside] = 10 ** (np.interp(np.log2(n[inside]), log_n, log_s) - base)
    return out


def _count_axis(fit: FitResult | None, scale: str) -> str:
    m = fit.measurements if fit is not None else None
    return f"{m.count_name if m else 'N'} ({scale})"


def measured_scaling(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> MeasuredView:
    """The runs' speedups with their spread, the Amdahl and USL fits, the USL peak and the profile's model."""
    fit, analysis = inputs.fit, inputs.analysis
    layers = [
        Layer("runs", "Measured speedup (bars: spread)", INK, "point"),
        Layer("amdahl", "Amdahl fit", BLUE, "line"),
        Layer("usl", "USL fit", PURPLE, "line"),
        Layer("peak", "USL peak", RED, "star"),
        Layer("model", "Profile model", MODEL, "dash"),
        Layer("ideal", "Ideal N/N0", GREY, "dash"),
    ]
    x_axis, y_axis = _count_axis(fit, "log₂ scale"), "Speedup vs N0 (log scale)"
    m = fit.measurements if fit is not None else None
    if fit is None or m is None or not len(m) or fit.baseline_n is None:
        absent = tuple(Layer(a.key, a.name, a.colour, a.mark, False) for a in layers)
        return MeasuredView("Measured scaling — no runs yet", x_axis, y_axis, absent)
    n0 = fit.baseline_n
    lo, hi = curve_range(fit)
    grid = sample_n(lo, hi, 200)
    x = np.log2(grid)
    runs_x, runs_y = np.log2(fit.points.n), np.log10(fit.points.speedup)
    keys, mean, low, high = grouped(fit.points.n, fit.points.speedup)
    raw: dict[str, tuple[FloatArray, FloatArray]] = {"ideal": (x, np.log10(grid / n0))}
    ys = [runs_y]
    for key, (cx, cy) in speedup_curves(fit).items():
        raw[key] = (np.log2(cx), np.log10(np.maximum(cy, 1e-12)))
        ys.append(raw[key][1])
    # Each fit's 95% band, its two edges drawn with its curve (they leave the axes' range to the runs and fits).
    for key, (bx, band_low, band_high) in speedup_bands(fit).items():
        for edge, values in (("low", band_low), ("high", band_high)):
            raw[f"{key}_{edge}"] = (np.log2(bx), np.log10(np.maximum(values, 1e-12)))
    present = {"runs": True, "ideal": True, "amdahl": "amdahl" in raw, "usl": "usl" in raw}
    names = {}
    model = rebased_model(analysis, grid, n0) if analysis is not None else None
    if model is not None and np.any(np.isfinite(model)) and analysis is not None:
        raw["model"] = (x, np.log10(model))
        ys.append(np.log10(model[np.isfinite(model)]))
        present["model"] = True
        names["model"] = f"Profile model (P = {n.coefficient(profile_p_at(analysis, n0))})"
    usl = fit.usl
    peak = usl.peak_n if usl is not None else None
    peak_mark = None
    if usl is not None and peak is not None and lo <= peak <= hi:
        s_peak = float(fit.usl_speedup(peak))
        peak_mark = Mark(math.log2(peak), math.log10(s_peak), f"peak {n.speedup(s_peak)} at {count(peak, n)}")
    present["peak"] = peak_mark is not None
    y_all = np.concatenate(ys)
    y_range = (
        math.floor((min(float(y_all.min()), 0.0) - 0.05) * 10) / 10,
        math.ceil((float(y_all.max()) + 0.15) * 10) / 10,
    )
    pad = 0.05 * max(math.log2(hi / lo), 1)
    x_range = (math.log2(lo) - pad, math.log2(hi) + pad)
    shown = tuple(
        Layer(a.key, names.get(a.key, a.name), a.colour, a.mark, bool(present.get(a.key, False))) for a in layers
    )
    return MeasuredView(
        _scaling_title(fit, analysis, n, brief),
        x_axis,
        y_axis,
        shown,
        x_range,
        y_range,
        tuple((k, Series(cx, cy, x_range, y_range)) for k, (cx, cy) in raw.items()),
        Series(runs_x, runs_y, x_range, y_range),
        _spread(np.log2(keys), np.log10(mean), np.log10(low), np.log10(high)),
        peak_mark,
        peak is not None and math.log(peak / lo) > 0.75 * math.log(hi / lo),
        (),
        log2_ticks(int(lo), int(math.ceil(hi)), 6 if brief else 12, n),
        log10_ticks(10 ** y_range[0], 10 ** y_range[1], n),
    )


def _scaling_title(fit: FitResult, analysis: Analysis | None, n: Numbers, brief: bool) -> str:
    noun = fit.measurements.noun
    parts = []
    if fit.amdahl is not None:
        said = f" (profile {n.coefficient(profile_p_at(analysis, fit.baseline_n))})" if analysis is not None else ""
        parts.append(f"{'' if brief else 'fitted '}P = {n.coefficient(fit.amdahl.parallel_fraction)}{said}")
    if fit.usl is not None and fit.usl.peak_n is not None:
        peak = fit.usl.peak_n
        best = f"{n.speedup(float(fit.usl_speedup(peak)))} at {count(peak, n)}"
        parts.append(f"peak {best}" if brief else f"USL best {best} {noun}")
    if not parts:
        why = gap_text(fit.gaps[0], n) if fit.gaps else "no fit"
        return f"Measured scaling: {why}"
    return ("Measured: " if brief else "Measured scaling: ") + ", ".join(parts)


def throughput(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False, log: bool = False) -> MeasuredView:
    """X(N): the runs and their spread, the USL fit, the ideal γN, the peak and the limit γ/α; ``log``: both
    axes on a log scale (linear scaling becomes a line of slope 1)."""
    fit = inputs.fit
    layers = [
        Layer("runs", "Measured runs (bars: spread of repeats)", INK, "point"),
        Layer("usl", "USL fit", PURPLE, "line"),
        Layer("ideal", "Ideal γN", GREY, "dash"),
        Layer("peak", "Peak N*", RED, "star"),
        Layer("limit", "Limit γ/α", GREY, "dot"),
    ]
    x_axis = _count_axis(fit, "log scale") if log else (fit.measurements.count_name if fit else "N") or "N"
    m = fit.measurements if fit is not None else None
    if fit is None or m is None or not len(m):
        absent = tuple(Layer(a.key, a.name, a.colour, a.mark, False) for a in layers)
        return MeasuredView("Throughput against N — no runs yet", x_axis, "Throughput", absent)
    scale, unit = throughput_scale(m)

    def xy(x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        return (np.log10(np.maximum(x, 1e-12)), np.log10(np.maximum(y, 1e-300))) if log else (x, y)

    x_runs, y_runs = fit.points.n, m.throughput() * scale
    keys, mean, low, high = grouped(x_runs, y_runs)
    lo, hi = curve_range(fit)
    top = float(y_runs.max())
    usl = fit.usl
    raw: dict[str, tuple[FloatArray, FloatArray]] = {}
    present = {"runs": True, "usl": usl is not None, "ideal": usl is not None, "peak": False, "limit": False}
    peak_mark, lines = None, []
    if usl is not None:
        grid = sample_n(lo if log else min(lo, 1.0), hi, 300, log=log)
        x_fit = usl.throughput(grid) * scale
        raw["usl"] = xy(grid, x_fit)
        raw["ideal"] = xy(grid, usl.gamma * grid * scale)
        top = max(top, float(x_fit.max()))
        peak = usl.peak_n
        if peak is not None and peak <= hi:
            py = float(usl.throughput(peak)) * scale
            sx, sy = xy(np.array([peak]), np.array([py]))
            peak_mark = Mark(float(sx[0]), float(sy[0]), f"peak {n.number(py)} at {count(peak, n)}")
            present["peak"] = True
        limit = usl.limit_x * scale
        if math.isfinite(limit) and limit < top * 1.6:
            lines.append(("limit", Mark(0.0, math.log10(limit) if log else limit, f"limit γ/α = {n.number(limit)}")))
            top = max(top, limit)
            present["limit"] = True
    bottom = float(min(y_runs.min(), top))
    if log:
        x_range = (math.log10(lo) - 0.05, math.log10(hi) + 0.05)
        y_range = (
            math.floor((math.log10(bottom) - 0.1) * 10) / 10,
            math.ceil((math.log10(top) + 0.12) * 10) / 10,
        )
        x_ticks: tuple[tuple[float, str], ...] | None = log10_ticks(10 ** x_range[0], 10 ** x_range[1], n)
        y_ticks: tuple[tuple[float, str], ...] | None = log10_ticks(10 ** y_range[0], 10 ** y_range[1], n)
        spread = _spread(np.log10(keys), np.log10(mean), np.log10(low), np.log10(high))
    else:
        x_range, y_range = (0.0, hi * 1.03), (0.0, top * 1.15)
        x_ticks = y_ticks = None  # pyqtgraph's own, in the locale
        spread = _spread(keys, mean, low, high)
    peak_left = peak_mark is not None and usl is not None and (usl.peak_n or 0) > lo + 0.75 * (hi - lo)
    rx, ry = xy(x_runs, y_runs)
    return MeasuredView(
        _throughput_title(fit, m.noun, unit, scale, n),
        x_axis,
        f"Throughput ({unit})" if unit else "Throughput",
        tuple(Layer(a.key, a.name, a.colour, a.mark, present[a.key]) for a in layers),
        x_range,
        y_range,
        tuple((k, Series(cx, cy, x_range, y_range)) for k, (cx, cy) in raw.items()),
        Series(rx, ry, x_range, y_range),
        spread,
        peak_mark,
        peak_left,
        tuple(lines),
        x_ticks,
        y_ticks,
    )


def _throughput_title(fit: FitResult, noun: str, unit: str, scale: float, n: Numbers) -> str:
    usl = fit.usl
    if usl is None:
        why = gap_text(fit.gaps[0], n) if fit.gaps else "no USL fit"
        return f"Throughput against {noun}: {why}"
    alpha = n.plain(usl.alpha, ".3g")
    if usl.peak_n is not None:
        return (
            f"Throughput peaks at {count(usl.peak_n, n)} {noun} ({n.number((usl.peak_x or 0) * scale)} {unit}); "
            f"α = {alpha}, β = {n.plain(usl.beta, '.3g')}"
        )
    return f"Throughput against {noun}: no peak (β = 0), levels off towards γ/α; α = {alpha}"


def karp_flatt(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> MeasuredView:
    """e = (1/S − 1/p)/(1 − 1/p) per run (p = N/N0), their mean per N, and Amdahl's fitted 1 − P."""
    fit = inputs.fit
    layers = [
        Layer("runs", "e of each run (bars: spread)", ORANGE, "point"),
        Layer("mean", "Mean e per N", ORANGE, "line"),
        Layer("amdahl", "Amdahl fit: 1 − P", BLUE, "dash"),
    ]
    x_axis, y_axis = _count_axis(fit, "log₂ scale"), "Serial fraction e (%)"
    e = fit.points.karp_flatt if fit is not None else np.zeros(0)
    ok = np.isfinite(e)
    if fit is None or not np.any(ok):
        absent = tuple(Layer(a.key, a.name, a.colour, a.mark, False) for a in layers)
        return MeasuredView("Karp–Flatt e — needs runs at 2 or more N", x_axis, y_axis, absent)
    runs_n = fit.points.n[ok]
    pct = e[ok] * 100
    keys, mean, low, high = grouped(runs_n, pct)
    kx = np.log2(keys)
    lo_y, hi_y = float(min(0.0, pct.min())), float(max(pct.max(), 0.1))
    a = fit.amdahl
    serial = (1 - a.parallel_fraction) * 100 if a is not None else math.nan
    lines = []
    if math.isfinite(serial) and -50 < serial < 100:
        lines.append(("amdahl", Mark(0.0, serial, f"Amdahl fit: 1 − P = {n.coefficient(serial / 100)}")))
        lo_y, hi_y = min(lo_y, serial), max(hi_y, serial)
    first, last = float(fit.points.n.min()), float(fit.points.n.max())
    pad = 0.25 + 0.04 * (math.log2(last) - math.log2(first))
    span = hi_y - lo_y or 1.0
    x_range = (math.log2(first) - pad, math.log2(last) + pad)
    y_range = (lo_y - 0.08 * span, hi_y + 0.2 * span)
    present = {"runs": True, "mean": keys.size > 1, "amdahl": bool(lines)}
    first_e, last_e = float(mean[0]) / 100, float(mean[-1]) / 100
    at_first = f"{n.coefficient(first_e)} at N = {count(float(keys[0]), n)}"
    span_text = f"{at_first} → {n.coefficient(last_e)} at N = {count(float(keys[-1]), n)}"
    title = {
        "rising": f"Karp–Flatt e rises ({span_text}): overhead grows with N",
        "falling": f"Karp–Flatt e falls ({span_text}): a start-up cost that larger runs amortise",
        "steady": f"Karp–Flatt e steady ({span_text}): a fixed serial part, as Amdahl assumes",
    }.get(fit.karp_flatt_trend or "", f"Karp–Flatt e = {at_first}")
    return MeasuredView(
        title,
        x_axis,
        y_axis,
        tuple(Layer(a.key, a.name, a.colour, a.mark, present[a.key]) for a in layers),
        x_range,
        y_range,
        (("mean", Series(kx, mean, x_range, y_range)),),
        Series(np.log2(runs_n), pct, x_range, y_range),
        _spread(kx, mean, low, high),
        None,
        False,
        tuple(lines),
        log2_ticks(int(first), int(math.ceil(last)), n=n),
        None,  # automatic: pyqtgraph's own, in the locale
    )
