"""Measured scaling: the runs' speedups with their spread, the Amdahl and USL fits, and the profile's model."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.fit import FitResult, curve_range, sample_n, speedup_curves
from ...model.fit_text import count, percent
from ...model.laws import FloatArray
from ...model.units import format_speedup
from ..charts.chart_style import BLUE, GREY, INK, LABEL_FILL, RED, SCREEN, Style, log2_ticks, log10_ticks, set_item_text
from .measured_chart import PURPLE, MeasuredChart, grouped, profile_p_at

MODEL = RED  # the profile's model in the colour of the GPU-scaling chart's overhead curve


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


class MeasuredScalingChart(MeasuredChart):
    """Speedup against N on log axes, as the GPU-scaling chart draws the model: here the runs meet it."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.axis_label("left", "Speedup vs N0 (log scale)")
        self.ideal = self.plot.plot(pen=style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.model = self.plot.plot(pen=style.pen(MODEL, 2.5, Qt.PenStyle.DashDotLine))
        self.amdahl = self.plot.plot(pen=style.pen(BLUE, 2.5))
        self.usl = self.plot.plot(pen=style.pen(PURPLE, 2.5))
        self.spread = self.spread_item()
        self.runs = self.points_item()
        self.peak = self.points_item(RED, "star", 16)
        self.peak_label = pg.TextItem(color=RED, anchor=(0.5, 1.4), fill=LABEL_FILL)
        self.peak_label.setFont(style.font(0.95, bold=True))
        self.layer("runs", "Measured speedup (bars: spread)", INK, "point", self.runs, self.spread)
        self.layer("amdahl", "Amdahl fit", BLUE, "line", self.amdahl)
        self.layer("usl", "USL fit", PURPLE, "line", self.usl)
        self.layer("peak", "USL peak", RED, "star", self.peak, self.peak_label)
        self.layer("model", "Profile model", MODEL, "dash", self.model)
        self.layer("ideal", "Ideal N/N0", GREY, "dash", self.ideal)
        # The fit whose runs the points show: a profile edit redraws the model's curve, not 100,000 points.
        self._points_of: FitResult | None = None
        self._points_span = np.zeros(2)

    def draw(self, analysis: Analysis | None) -> None:
        fit = self.fit
        m = fit.measurements if fit is not None else None
        self.axis_label("bottom", f"{m.count_name if m else 'N'} (log₂ scale)")
        if fit is None or m is None or not len(m) or fit.baseline_n is None:
            self.show_empty("Measured scaling — no runs yet")
            return
        n0 = fit.baseline_n
        lo, hi = curve_range(fit)
        n = sample_n(lo, hi, 200)
        x = np.log2(n)
        if self._points_of is not fit:  # the runs' points change with the fit, not with the profile's model
            runs_y = np.log10(fit.points.speedup)
            keys, mean, low, high = grouped(fit.points.n, fit.points.speedup)
            self.runs.setData(np.log2(fit.points.n), runs_y)
            self.set_spread(self.spread, np.log2(keys), np.log10(mean), np.log10(low), np.log10(high))
            self._points_of, self._points_span = fit, np.array([runs_y.min(), runs_y.max()])
        self.present("runs", True)
        self.ideal.setData(x, np.log10(n / n0))
        self.present("ideal", True)
        ys = [self._points_span]
        curves = speedup_curves(fit)
        for key, item in (("amdahl", self.amdahl), ("usl", self.usl)):
            if key in curves:
                cx, cy = curves[key]
                item.setData(np.log2(cx), np.log10(np.maximum(cy, 1e-12)))
                ys.append(np.log10(np.maximum(cy, 1e-12)))
            self.present(key, key in curves)
        usl = fit.usl
        peak = usl.peak_n if usl is not None else None
        if usl is not None and peak is not None and lo <= peak <= hi:
            s_peak = float(fit.usl_speedup(peak))
            self.peak.setData([math.log2(peak)], [math.log10(s_peak)])
            self.peak_label.setPos(math.log2(peak), math.log10(s_peak))
            right = math.log(peak / lo) > 0.75 * math.log(hi / lo)  # near the right edge: label to its left
            self.peak_label.setAnchor((1.0 if right else 0.5, 1.4))
            set_item_text(self.peak_label, f"peak {format_speedup(s_peak)} at {count(peak)}")
        self.present("peak", usl is not None and peak is not None and lo <= peak <= hi)
        model = rebased_model(analysis, n, n0) if analysis is not None else None
        if model is not None and np.any(np.isfinite(model)):
            p = profile_p_at(analysis, n0) if analysis is not None else 0.0
            self.model.setData(x, np.log10(model), connect="finite")
            ys.append(np.log10(model[np.isfinite(model)]))
            self.present("model", True, f"Profile model (P = {percent(p)})")
        else:
            self.model.setData([], [])
            self.present("model", False)
        y_all = np.concatenate(ys)
        y0 = math.floor((min(float(y_all.min()), 0.0) - 0.05) * 10) / 10
        y1 = math.ceil((float(y_all.max()) + 0.15) * 10) / 10
        pad = 0.05 * max(math.log2(hi / lo), 1)
        crowded = not self.interactive and self.look.brief  # a third of a slide
        self.set_ticks("bottom", log2_ticks(int(lo), int(math.ceil(hi)), 6 if crowded else 12))
        self.set_ticks("left", log10_ticks(10**y0, 10**y1))
        self.set_ranges((math.log2(lo) - pad, math.log2(hi) + pad), (y0, y1))
        self.set_title(self._title(analysis))

    def _title(self, analysis: Analysis | None) -> str:
        fit = self.fit
        assert fit is not None
        noun = fit.measurements.noun
        parts = []
        brief = self.look.text_px is not None  # a slide: short, its own title says the rest
        if fit.amdahl is not None:
            said = f" (profile {percent(profile_p_at(analysis, fit.baseline_n))})" if analysis is not None else ""
            parts.append(f"{'' if brief else 'fitted '}P = {percent(fit.amdahl.parallel_fraction)}{said}")
        if fit.usl is not None and fit.usl.peak_n is not None:
            peak = fit.usl.peak_n
            best = f"{format_speedup(float(fit.usl_speedup(peak)))} at {count(peak)}"
            parts.append(f"peak {best}" if brief else f"USL best {best} {noun}")
        if not parts:
            why = fit.problems[0].what if fit.problems else "no fit"
            return f"Measured scaling: {why}"
        return ("Measured: " if brief else "Measured scaling: ") + ", ".join(parts)
