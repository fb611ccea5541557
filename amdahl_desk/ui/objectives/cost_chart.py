"""Cost per run against the GPU count: money (or GPU-hours without a price), the cheapest N and the cheapest on target."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.cost import CostFigures, analyse_cost
from ...model.profile import Profile
from ...model.quantities import format_money
from ...model.units import format_number
from ..charts.chart_style import (
    BLUE,
    GREEN,
    INK,
    ORANGE,
    SCREEN,
    ChartFrame,
    Style,
    log2_ticks,
    log10_ticks,
    set_item_text,
)


def per_run(cost: CostFigures) -> tuple[np.ndarray, str, str]:
    """What is drawn per GPU count: money when priced, GPU-hours otherwise; its axis label and what it is."""
    if cost.cost is not None:
        return np.asarray(cost.cost, dtype=float), f"Cost per run ({cost.currency or 'money'}, log scale)", "cost"
    return np.asarray(cost.gpu_hours, dtype=float), "GPU-hours per run (log scale)", "GPU-hours"


class CostChart(ChartFrame):
    """A separate chart beside GPU scaling, so that the scaling chart keeps one job."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.axis_label("bottom", "GPUs N (log₂ scale)")
        # The symbols' brush and pen made once: given a colour, pyqtgraph makes a new brush at every update, and
        # its symbol atlas keys on the brush object, so the atlas grew by an entry per edit for as long as the window ran.
        self.line = item.plot(
            pen=style.pen(BLUE, 2.5),
            symbol="o",
            symbolSize=style.size(6),
            symbolBrush=pg.mkBrush(BLUE),
            symbolPen=pg.mkPen(BLUE),
        )
        self.cheapest = pg.ScatterPlotItem(size=style.size(16), symbol="star", brush=pg.mkBrush(GREEN), pen=INK)
        self.on_target = pg.ScatterPlotItem(size=style.size(14), symbol="d", brush=pg.mkBrush(ORANGE), pen=INK)
        item.addItem(self.cheapest)
        item.addItem(self.on_target)
        self.labels = [pg.TextItem(color=c, anchor=a) for c, a in ((GREEN, (-0.05, -0.3)), (ORANGE, (1.05, 1.2)))]
        for label in self.labels:
            label.setFont(style.font(0.95, bold=True))
            item.addItem(label)
        self.set_legend(
            [
                (BLUE.name(), "line", "Per run at N GPUs"),
                (GREEN.name(), "star", "Cheapest N"),
                (ORANGE.name(), "point", "Cheapest N that meets the target"),
            ]
        )

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        if analysis is None:
            self.line.setData([], [])
            for scatter in (self.cheapest, self.on_target):
                scatter.setData([], [])
            for label in self.labels:
                set_item_text(label, "")
            self.set_title("Cost per run — no data")
            return
        cost = analyse_cost(analysis, profile.settings)
        values, axis, what = per_run(cost)
        gpus = np.asarray(cost.gpus, dtype=float)
        ok = np.isfinite(values) & (values > 0)
        x = np.log2(gpus)
        y = np.log10(np.where(ok, values, np.nan))
        self.line.setData(x[ok], y[ok])
        self.axis_label("left", axis)

        def show(n: int | None, scatter: pg.ScatterPlotItem, label: pg.TextItem, text: str) -> None:
            i = np.flatnonzero(cost.gpus == n) if n is not None else np.array([], dtype=int)
            if len(i) == 0 or not ok[i[0]]:
                scatter.setData([], [])
                set_item_text(label, "")
                return
            scatter.setData([x[i[0]]], [y[i[0]]])
            set_item_text(label, f"{text} {int(n or 0):,}: {self._value(cost, float(values[i[0]]))}")
            label.setPos(float(x[i[0]]), float(y[i[0]]))

        show(cost.cheapest_gpus, self.cheapest, self.labels[0], "cheapest")
        show(cost.cheapest_meeting_target_gpus, self.on_target, self.labels[1], "on target")
        if ok.any():
            lo, hi = float(np.nanmin(values[ok])), float(np.nanmax(values[ok]))
            y0 = math.floor((math.log10(lo) - 0.2) * 10) / 10
            y1 = math.ceil((math.log10(hi) + 0.3) * 10) / 10
            pad = 0.06 * max(float(x[-1] - x[0]), 1.0)
            self.set_ranges((float(x[0]) - pad, float(x[-1]) + pad), (y0, y1))
            self.set_ticks("left", log10_ticks(10**y0, 10**y1))
            self.set_ticks("bottom", log2_ticks(int(gpus.min()), int(gpus.max())))
        price = f" at {format_money(cost.rate, cost.currency)} per GPU-hour" if cost.rate is not None else ""
        self.set_title(f"{what[:1].upper()}{what[1:]} per run against GPUs{price}")  # GPU-hours keeps its capitals

    @staticmethod
    def _value(cost: CostFigures, value: float) -> str:
        if cost.cost is not None:
            return format_money(value, cost.currency)
        return f"{format_number(value)} GPU-h"
