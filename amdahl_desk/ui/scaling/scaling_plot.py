"""GPU scaling: ideal, Amdahl, with overhead, Gustafson and the ceiling on log axes; efficiency on the right."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis, ScalingFigures
from ...model.profile import Profile
from ...model.units import format_speedup
from ...present.text import phrases
from ..charts.chart_style import (
    BLUE,
    GREEN,
    GREY,
    INK,
    ORANGE,
    RED,
    SCREEN,
    ChartFrame,
    Picture,
    Style,
    curve_points,
    log2_ticks,
    log10_ticks,
    place_callout,
    set_item_text,
    set_line_text,
)

# Curves closer than this everywhere (relative) are drawn as one line by a screen: say so in the legend.
COINCIDE = 0.01


class ScalingPlot(ChartFrame):
    """Redraws from an :class:`Analysis`; the curves are updated in place, never rebuilt."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.axis_label("bottom", "GPUs N (log₂ scale)")
        self.axis_label("left", "Speedup vs baseline (log scale)")
        self.ideal = item.plot(pen=style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.gustafson = item.plot(pen=style.pen(GREEN, 2, Qt.PenStyle.DashLine))
        # The overhead curve wide underneath, Amdahl narrower on top: where the two coincide (little
        # communication) both stay visible, a blue line inside a red one, instead of red hiding blue.
        self.overhead = item.plot(pen=style.pen(RED, 5))
        self.amdahl = item.plot(pen=style.pen(BLUE, 2))
        self.overhead.setZValue(1)
        self.amdahl.setZValue(2)
        self.coinciding: bool | None = None
        self._set_legend(False)
        self.ceiling = self.marker_line(0, BLUE, Qt.PenStyle.DotLine, 0.02, (0, 1))
        self.best = pg.ScatterPlotItem(size=style.size(14), symbol="star", brush=pg.mkBrush(RED), pen=pg.mkPen(INK))
        item.addItem(self.best)
        self.best_label = pg.TextItem(color=RED, anchor=(0, 0), fill=pg.mkBrush(255, 255, 255, 200))
        self.best_label.setFont(style.font(1.0, bold=True))
        self.best_label.setZValue(20)
        item.addItem(self.best_label, ignoreBounds=True)
        self.leader = item.plot(pen=style.pen(RED, 1))
        self.leader.setZValue(19)
        self._best_at: tuple[float, float] | None = None
        self._drawn: Picture | None = None

        # Efficiency lives on its own 0–100% axis at the right.
        self.eff_view = pg.ViewBox(enableMenu=False)
        self.eff_view.setMouseEnabled(x=False, y=False)
        item.showAxis("right")
        item.scene().addItem(self.eff_view)
        right = item.getAxis("right")
        right.setStyle(showValues=True)
        right.setWidth(None)
        right.linkToView(self.eff_view)
        self.axis_label("right", "Efficiency (dotted)", ORANGE.name())
        right.setTicks([[(v, f"{v:.0%}") for v in (0, 0.25, 0.5, 0.75, 1.0)]])
        self.eff_view.setXLink(item.vb)
        self.eff_view.setYRange(0, 1.05, padding=0)
        self.efficiency = pg.PlotDataItem(pen=style.pen(ORANGE, 2, Qt.PenStyle.DotLine))
        self.eff_view.addItem(self.efficiency)
        self.half = pg.InfiniteLine(pos=0.5, angle=0, pen=style.pen(ORANGE, 1, Qt.PenStyle.DashDotLine))
        self.eff_view.addItem(self.half, ignoreBounds=True)
        self.efficient = pg.ScatterPlotItem(
            size=style.size(10), symbol="o", brush=pg.mkBrush(ORANGE), pen=pg.mkPen(INK)
        )
        self.eff_view.addItem(self.efficient)
        item.vb.sigResized.connect(self._sync_views)
        # The callout is placed in pixels: again whenever the plot's size or range changes.
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())

    def _set_legend(self, coinciding: bool) -> None:
        if coinciding == self.coinciding:
            return
        self.coinciding = coinciding
        amdahl = "Amdahl (strong scaling)" + ("; here the same as with overhead" if coinciding else "")
        self.set_legend(
            [
                (GREY.name(), "dash", "Ideal N/N0"),
                (BLUE.name(), "line", amdahl),
                (RED.name(), "line", "With communication overhead"),
                (GREEN.name(), "dash", "Gustafson (weak scaling)"),
                (ORANGE.name(), "dot", "Efficiency (right axis)"),
                (RED.name(), "star", "Best N"),
                (ORANGE.name(), "point", "Last N with efficiency ≥ 50%"),
            ]
        )

    def _sync_views(self) -> None:
        self.eff_view.setGeometry(self.plot.vb.sceneBoundingRect())
        self.eff_view.linkedViewChanged(self.plot.vb, self.eff_view.XAxis)

    def place_labels(self) -> None:
        """ "best …" beside its star, clear of every curve, the ceiling and its label, inside the plot."""
        if self._best_at is None:
            return
        vb = self.plot.vb
        obstacles = []
        if self.ceiling.isVisible():
            self.ceiling.label.updatePosition()
            obstacles.append(self.ceiling.label.sceneBoundingRect())
        points = [curve_points(vb, c) for c in (self.ideal, self.gustafson, self.amdahl, self.overhead)]
        points.append(curve_points(self.eff_view, self.efficiency))
        place_callout(
            vb, self.best_label, self.leader, self._best_at, obstacles, np.concatenate(points), self.chart_style.size(9)
        )

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        model_name = profile.settings.overhead_model.value
        if analysis is None:
            for curve in (self.ideal, self.gustafson, self.amdahl, self.overhead, self.efficiency):
                curve.setData([], [])
            self.best.setData([], [])
            self.efficient.setData([], [])
            set_item_text(self.best_label, "")
            self._best_at = None
            self.leader.setData([], [])
            self.ceiling.setVisible(False)
            self.set_title("GPU scaling — no data")
            self._drawn = None
            return
        s = analysis.scaling
        x = np.log2(s.gpus.astype(float))
        series = [s.ideal, s.gustafson, s.amdahl, s.with_overhead]
        finite = np.concatenate([v[np.isfinite(v) & (v > 0)] for v in series])
        lo, hi = float(finite.min()), float(finite.max())
        logs = [np.log10(np.clip(values, 1e-12, None)) for values in series]
        both = np.isfinite(s.amdahl) & np.isfinite(s.with_overhead) & (s.amdahl > 0)
        gap = np.abs(s.with_overhead[both] / s.amdahl[both] - 1)
        coinciding = bool(len(gap)) and float(gap.max()) < COINCIDE
        # A time nudged among thousands moves no curve by a tenth of a pixel: then nothing is redrawn.
        top = max(hi, s.ceiling) if math.isfinite(s.ceiling) else hi
        y_span = (math.floor((math.log10(lo) - 0.05) * 10) / 10, math.ceil((math.log10(top) + 0.1) * 10) / 10)
        picture = Picture(
            *y_span,
            [
                x,
                *logs,
                math.log10(max(s.ceiling, 1e-12)) if math.isfinite(s.ceiling) else math.inf,
                y_span[0] + s.efficiency / 1.05 * (y_span[1] - y_span[0]),  # on its 0–1.05 axis
            ],
            (
                y_span,
                model_name,
                coinciding,
                s.best_gpus,
                s.last_efficient_gpus,
                int(s.baseline_gpus),
                f"{s.parallel_fraction:.0%}",
                format_speedup(s.ceiling),
                format_speedup(s.best_speedup),
            ),
        )
        if picture.same_as(self._drawn):
            return
        self._drawn = picture
        for curve, values in zip((self.ideal, self.gustafson, self.amdahl, self.overhead), logs, strict=True):
            curve.setData(x, values)
        self._set_legend(coinciding)
        ceiling = s.ceiling
        if math.isfinite(ceiling):
            self.ceiling.setVisible(True)
            self.ceiling.setPos(math.log10(ceiling))
            set_line_text(self.ceiling, f"Amdahl ceiling {format_speedup(ceiling)}")
            hi = max(hi, ceiling)
        else:
            self.ceiling.setVisible(False)
        # Efficiency is about scaling out: below the baseline GPU count it says nothing useful.
        out = s.gpus >= s.baseline_gpus
        self.efficiency.setData(x[out], np.clip(s.efficiency[out], 0, 1.05))
        best_x = math.log2(s.best_gpus)
        best_y = math.log10(max(s.best_speedup, 1e-12))
        self.best.setData([best_x], [best_y])
        set_item_text(self.best_label, f"best {format_speedup(s.best_speedup)} at {s.best_gpus:,}")
        self._best_at = (best_x, best_y)
        if s.last_efficient_gpus is not None:
            i = int(np.flatnonzero(s.gpus == s.last_efficient_gpus)[0])
            ex = float(x[i])
            self.efficient.setData([ex], [float(s.efficiency[i])])
        else:
            self.efficient.setData([], [])
        gmin, gmax = int(s.gpus.min()), int(s.gpus.max())
        self.set_ticks("bottom", log2_ticks(gmin, gmax))
        pad = 0.04 * max(x[-1] - x[0], 1)
        # Whole tenths of a decade: the view (and so the axes) moves only when a curve needs more room.
        y0 = math.floor((math.log10(lo) - 0.05) * 10) / 10
        y1 = math.ceil((math.log10(hi) + 0.1) * 10) / 10
        self.set_ranges((x[0] - pad, x[-1] + pad), (y0, y1))
        self.set_ticks("left", log10_ticks(10**y0, 10**y1))
        if self.chart_style.brief:
            self.set_title(
                phrases(
                    "GPU scaling:",
                    f"P = {s.parallel_fraction:.0%},",
                    f"ceiling {format_speedup(s.ceiling)},",
                    f"best {format_speedup(s.best_speedup)} at {s.best_gpus:,} GPUs",
                )
            )
        else:
            self.set_title(scaling_title(s, model_name))
        self._sync_views()
        self.place_labels()


def scaling_title(s: ScalingFigures, model_name: str) -> str:
    """The exported chart's title as a sentence: "… without communication overhead the best is …"."""
    overhead = (
        "without communication overhead"
        if model_name in ("", "none")
        else f"with {'ring all-reduce' if model_name == 'ring' else model_name} communication overhead"
    )
    efficient = (
        f"efficiency stays at 50% or more up to {s.last_efficient_gpus:,} GPUs"
        if s.last_efficient_gpus
        else "efficiency is below 50% everywhere"
    )
    return phrases(
        "GPU scaling:",
        f"P = {s.parallel_fraction:.0%} parallel,",
        f"ceiling {format_speedup(s.ceiling)};",
        overhead,
        f"the best is {format_speedup(s.best_speedup)} at {s.best_gpus:,} GPUs;",
        efficient,
    )
