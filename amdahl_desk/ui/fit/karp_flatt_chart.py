"""Karp–Flatt e against N: steady means a fixed serial part (Amdahl); rising means overhead that grows with N."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.fit_text import count, percent
from ..charts.chart_style import BLUE, ORANGE, SCREEN, Style, log2_ticks, set_line_text
from .measured_chart import MeasuredChart, grouped


class KarpFlattChart(MeasuredChart):
    """e = (1/S − 1/p)/(1 − 1/p) per run (p = N/N0), their mean per N, and Amdahl's fitted 1 − P."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.axis_label("left", "Serial fraction e (%)")
        self.mean = self.plot.plot(pen=self.look.pen(ORANGE, 2.5))
        self.runs = self.points_item(ORANGE)
        self.spread = self.spread_item(ORANGE)
        self.amdahl = self.marker_line(0, BLUE, Qt.PenStyle.DashLine, 0.03, (0, 1))
        self.layer("runs", "e of each run (bars: spread)", ORANGE, "point", self.runs, self.spread)
        self.layer("mean", "Mean e per N", ORANGE, "line", self.mean)
        self.layer("amdahl", "Amdahl fit: 1 − P", BLUE, "dash", self.amdahl)

    def draw(self, analysis: Analysis | None) -> None:
        fit = self.fit
        m = fit.measurements if fit is not None else None
        self.axis_label("bottom", f"{m.count_name if m else 'N'} (log₂ scale)")
        e = fit.points.karp_flatt if fit is not None else np.zeros(0)
        ok = np.isfinite(e)
        if fit is None or m is None or not np.any(ok):
            self.show_empty("Karp–Flatt e — needs runs at 2 or more N")
            return
        n = fit.points.n[ok]
        pct = e[ok] * 100
        x = np.log2(n)
        keys, mean, low, high = grouped(n, pct)
        kx = np.log2(keys)
        self.runs.setData(x, pct)
        self.set_spread(self.spread, kx, mean, low, high)
        self.mean.setData(kx, mean)
        self.present("runs", True)
        self.present("mean", keys.size > 1)
        lo_y, hi_y = float(min(0.0, pct.min())), float(max(pct.max(), 0.1))
        a = fit.amdahl
        serial = (1 - a.parallel_fraction) * 100 if a is not None else math.nan
        shown = math.isfinite(serial) and -50 < serial < 100
        if shown:
            self.amdahl.setPos(serial)
            set_line_text(self.amdahl, f"Amdahl fit: 1 − P = {percent(serial / 100)}")
            lo_y, hi_y = min(lo_y, serial), max(hi_y, serial)
        self.present("amdahl", shown)
        first, last = float(fit.points.n.min()), float(fit.points.n.max())
        pad = 0.25 + 0.04 * (math.log2(last) - math.log2(first))
        self.set_ticks("bottom", log2_ticks(int(first), int(math.ceil(last))))
        self.set_ticks("left", None)  # automatic, after an empty frame cleared them
        span = hi_y - lo_y or 1.0
        self.set_ranges((math.log2(first) - pad, math.log2(last) + pad), (lo_y - 0.08 * span, hi_y + 0.2 * span))
        trend = fit.karp_flatt_trend
        first_e, last_e = float(mean[0]) / 100, float(mean[-1]) / 100
        span_text = (
            f"{percent(first_e)} at N = {count(float(keys[0]))} → {percent(last_e)} at N = {count(float(keys[-1]))}"
        )
        if trend == "rising":
            self.set_title(f"Karp–Flatt e rises ({span_text}): overhead grows with N")
        elif trend == "falling":
            self.set_title(f"Karp–Flatt e falls ({span_text}): a start-up cost that larger runs amortise")
        elif trend == "steady":
            self.set_title(f"Karp–Flatt e steady ({span_text}): a fixed serial part, as Amdahl assumes")
        else:
            self.set_title(f"Karp–Flatt e = {percent(first_e)} at N = {count(float(keys[0]))}")
