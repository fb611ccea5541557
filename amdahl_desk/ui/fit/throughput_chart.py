"""Throughput against N: the runs and their spread, the USL fit, the ideal γN, the peak and the limit γ/α."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from ...model.analysis import Analysis
from ...model.fit import curve_range, sample_n
from ...model.fit_text import count
from ...model.laws import FloatArray
from ...model.units import format_number
from ..charts.chart_style import GREY, INK, LABEL_FILL, RED, SCREEN, Style, log10_ticks, set_item_text, set_line_text
from .measured_chart import PURPLE, MeasuredChart, grouped, throughput_scale


class ThroughputChart(MeasuredChart):
    """X(N) with the Universal Scalability Law fitted through it; linear or log axes."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.log = False
        self.ideal = self.plot.plot(pen=style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.curve = self.plot.plot(pen=style.pen(PURPLE, 2.5))
        self.limit = self.marker_line(0, GREY, Qt.PenStyle.DotLine, 0.03, (0, 1))
        self.spread = self.spread_item()
        self.runs = self.points_item()
        self.peak = self.points_item(RED, "star", 16)
        self.peak_label = pg.TextItem(color=RED, anchor=(0.5, 1.4), fill=LABEL_FILL)
        self.peak_label.setFont(style.font(0.95, bold=True))
        self.layer("runs", "Measured runs (bars: spread of repeats)", INK, "point", self.runs, self.spread)
        self.layer("usl", "USL fit", PURPLE, "line", self.curve)
        self.layer("ideal", "Ideal γN", GREY, "dash", self.ideal)
        self.layer("peak", "Peak N*", RED, "star", self.peak, self.peak_label)
        self.layer("limit", "Limit γ/α", GREY, "dot", self.limit)
        if self.interactive:
            self.log_box = QCheckBox("Log axes", self)
            self.log_box.setToolTip("Both axes on a log scale: linear scaling becomes a line of slope 1")
            self.log_box.toggled.connect(self.set_log)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.addWidget(self.log_box, 0, Qt.AlignmentFlag.AlignRight)

    def set_log(self, on: bool) -> None:
        self.log = on
        self.draw(None)  # from the fit alone: the profile plays no part here
        self._apply_layers()

    def _xy(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        if not self.log:
            return x, y
        return np.log10(np.maximum(x, 1e-12)), np.log10(np.maximum(y, 1e-300))

    def draw(self, analysis: Analysis | None) -> None:
        fit = self.fit
        m = fit.measurements if fit is not None else None
        noun = m.noun if m is not None else "workers"
        self.axis_label(
            "bottom", f"{m.count_name if m else 'N'} ({'log scale' if self.log else 'N'})".replace(" (N)", "")
        )
        if fit is None or m is None or not len(m):
            self.show_empty("Throughput against N — no runs yet")
            return
        scale, unit = throughput_scale(m)
        self.axis_label("left", f"Throughput ({unit})" if unit else "Throughput")  # the ticks show a log scale
        x_runs = fit.points.n
        y_runs = m.throughput() * scale
        keys, mean, low, high = grouped(x_runs, y_runs)
        self.runs.setData(*self._xy(x_runs, y_runs))
        if self.log:
            lx, lm = self._xy(keys, mean)
            self.set_spread(self.spread, lx, lm, np.log10(low), np.log10(high))
        else:
            self.set_spread(self.spread, keys, mean, low, high)
        self.present("runs", True)
        lo, hi = curve_range(fit)
        top = float(y_runs.max())
        usl = fit.usl
        if usl is not None:
            n = sample_n(lo if self.log else min(lo, 1.0), hi, 300, log=self.log)
            x_fit = usl.throughput(n) * scale
            self.curve.setData(*self._xy(n, x_fit))
            self.ideal.setData(*self._xy(n, usl.gamma * n * scale))
            top = max(top, float(x_fit.max()))
            peak = usl.peak_n
            if peak is not None and peak <= hi:
                px, py = peak, float(usl.throughput(peak)) * scale
                sx, sy = self._xy(np.array([px]), np.array([py]))
                self.peak.setData(sx, sy)
                self.peak_label.setPos(float(sx[0]), float(sy[0]))
                self.peak_label.setAnchor((1.0 if px > lo + 0.75 * (hi - lo) else 0.5, 1.4))
                set_item_text(self.peak_label, f"peak {format_number(py)} at {count(px)}")
            limit = usl.limit_x * scale
            if math.isfinite(limit) and limit < top * 1.6:
                self.limit.setPos(math.log10(limit) if self.log else limit)
                set_line_text(self.limit, f"limit γ/α = {format_number(limit)}")
                top = max(top, limit)
            self.present("limit", math.isfinite(limit) and limit < top * 1.6)
            self.present("peak", peak is not None and peak <= hi)
        else:
            self.present("limit", False)
            self.present("peak", False)
        self.present("usl", usl is not None)
        self.present("ideal", usl is not None)
        self._ranges_for(lo, hi, float(min(y_runs.min(), top)), top)
        self.set_title(self._title(noun, unit, scale))

    def _ranges_for(self, lo: float, hi: float, bottom: float, top: float) -> None:
        if self.log:
            x0, x1 = math.log10(lo) - 0.05, math.log10(hi) + 0.05
            y0 = math.floor((math.log10(bottom) - 0.1) * 10) / 10
            y1 = math.ceil((math.log10(top) + 0.12) * 10) / 10
            self.set_ticks("bottom", log10_ticks(10**x0, 10**x1))
            self.set_ticks("left", log10_ticks(10**y0, 10**y1))
            self.set_ranges((x0, x1), (y0, y1))
        else:
            self.set_ticks("bottom", None)
            self.set_ticks("left", None)
            self.set_ranges((0, hi * 1.03), (0, top * 1.15))

    def _title(self, noun: str, unit: str, scale: float) -> str:
        fit = self.fit
        assert fit is not None
        usl = fit.usl
        if usl is None:
            why = fit.problems[0].what if fit.problems else "no USL fit"
            return f"Throughput against {noun}: {why}"
        if usl.peak_n is not None:
            return (
                f"Throughput peaks at {count(usl.peak_n)} {noun} ({format_number((usl.peak_x or 0) * scale)} {unit}); "
                f"α = {usl.alpha:.3g}, β = {usl.beta:.3g}"
            )
        return f"Throughput against {noun}: no peak (β = 0), levels off towards γ/α; α = {usl.alpha:.3g}"
