"""GPU scaling: ideal, Amdahl, with overhead, Gustafson and the ceiling on log axes; efficiency on the right."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.scaling import EFFICIENCY_TOP, ScalingView, scaling
from ..charts.callouts import clear_line_labels, curve_points, line_band, place_callout
from ..charts.chart_items import set_series
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import BLUE, GREEN, GREY, INK, ORANGE, RED, SCREEN, Style


class ScalingPlot(ChartFrame[ScalingView]):
    """Draws a :class:`ScalingView`; the curves are updated in place, never rebuilt."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.ideal = item.plot(pen=style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.gustafson = item.plot(pen=style.pen(GREEN, 2, Qt.PenStyle.DashLine))
        # The overhead curve wide underneath, Amdahl narrower on top: where the two coincide (little
        # communication) both stay visible, a blue line inside a red one, instead of red hiding blue.
        self.overhead = item.plot(pen=style.pen(RED, 5))
        self.amdahl = item.plot(pen=style.pen(BLUE, 2))
        self.overhead.setZValue(1)
        self.amdahl.setZValue(2)
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

        # Efficiency lives on its own 0–105% axis at the right.
        self.eff_view = pg.ViewBox(enableMenu=False)
        self.eff_view.setMouseEnabled(x=False, y=False)
        item.showAxis("right")
        item.scene().addItem(self.eff_view)
        right = item.getAxis("right")
        right.setStyle(showValues=True)
        right.setWidth(None)
        right.linkToView(self.eff_view)
        self.eff_view.setXLink(item.vb)
        self.eff_view.setYRange(0, EFFICIENCY_TOP, padding=0)
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

    def view(self, inputs: ChartInputs, n: Numbers) -> ScalingView:
        return scaling(inputs, n, self.brief)

    def _sync_views(self) -> None:
        self.eff_view.setGeometry(self.plot.vb.sceneBoundingRect())
        self.eff_view.linkedViewChanged(self.plot.vb, self.eff_view.XAxis)

    def place_labels(self) -> None:
        """ "best …" beside its star, then the ceiling's label along its line, each clear of every curve, of the
        other's text and leader, and of the horizontal lines across the plot, inside the plot."""
        vb = self.plot.vb
        points = [curve_points(vb, c) for c in (self.ideal, self.gustafson, self.amdahl, self.overhead)]
        points.append(curve_points(self.eff_view, self.efficiency))
        curves = np.concatenate(points)
        half = [line_band(self.eff_view, self.half)] if self.half.isVisible() else []
        placed = []
        # a curve's points are its pen's middle: a label clears half the thickest pen (the overhead curve's)
        margin = max(c.opts["pen"].widthF() for c in (self.ideal, self.gustafson, self.amdahl, self.overhead)) / 2
        if self._best_at is not None:
            # The horizontal lines across the plot, the ceiling and efficiency's 50%: "best 190× at 1,024" lay on one.
            bands = half + ([line_band(vb, self.ceiling)] if self.ceiling.isVisible() else [])
            gap = self.chart_style.size(9)
            # The title and the legend's star say the best too: where no place is clear of the curves (a half-slide
            # plot whose curves fan out at its right end), the label is left out rather than laid across them.
            rect = place_callout(
                vb, self.best_label, self.leader, self._best_at, bands, curves, gap, [], margin, said_elsewhere=True
            )
            if self.best_label.isVisible():
                placed.append(rect)
                curves = np.concatenate([curves, curve_points(vb, self.leader)])
        # A flat plan (P = 0) draws the ceiling over Amdahl's curve: its label goes where no other curve runs; where no
        # place is clear (the curves reach the ceiling along a slide's half) the title's "ceiling 5×" says it alone.
        if self.ceiling.isVisible():
            clear_line_labels(vb, [self.ceiling], curves, taken=half + placed, margin=margin, said_elsewhere=True)

    def draw(self, view: ScalingView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.x_axis)
        self.axis_label("left", view.y_axis)
        self.axis_label("right", view.efficiency_axis, ORANGE.name())
        self.set_ticks("right", view.efficiency_ticks or None)
        for curve, series in (
            (self.ideal, view.ideal),
            (self.gustafson, view.gustafson),
            (self.amdahl, view.amdahl),
            (self.overhead, view.overhead),
            (self.efficiency, view.efficiency),
        ):
            set_series(curve, series)
        self.ceiling.setVisible(view.ceiling is not None)
        if view.ceiling is not None:
            self.ceiling.setPos(view.ceiling.y)
            set_line_text(self.ceiling, view.ceiling.text)
        best = view.best
        self.best.setData([best.x] if best else [], [best.y] if best else [])
        set_item_text(self.best_label, best.text if best else "")
        self._best_at = (best.x, best.y) if best else None
        if best is None:
            self.leader.setData([], [])
        e = view.efficient
        self.efficient.setData([e.x] if e else [], [e.y] if e else [])
        self.set_ticks("bottom", view.x_ticks or None)
        self.set_ticks("left", view.y_ticks or None)
        self.set_ranges(view.x_range, view.y_range)
        self._sync_views()
        self.place_labels()
