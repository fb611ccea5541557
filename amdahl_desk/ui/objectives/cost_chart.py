"""Cost per run against the GPU count: money (or GPU-hours without a price), the cheapest N and the cheapest on target."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QWidget

from ...present.chart_parts import Mark
from ...present.cost_chart import LEGEND, CostView, cost_chart
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.callouts import curve_points, place_callout
from ..charts.chart_items import set_series
from ..charts.frame import ChartFrame, set_item_text
from ..charts.style import BLUE, GREEN, INK, LABEL_FILL, ORANGE, SCREEN, Style


class CostChart(ChartFrame[CostView]):
    """A separate chart beside GPU scaling, so that the scaling chart keeps one job."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
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
        # Each label beside its marker, on the side where the plot has room for it (a label left of a point
        # near the left edge was cut: "arget 4: …").
        self.labels = [pg.TextItem(color=c, anchor=(0, 1.2), fill=LABEL_FILL) for c in (GREEN, ORANGE)]
        for label in self.labels:
            label.setFont(style.font(0.95, bold=True))
            item.addItem(label, ignoreBounds=True)
        self.leaders = [item.plot(pen=style.pen(INK, 1)) for _ in self.labels]
        self._marks: tuple[Mark | None, ...] = ()
        self.set_legend(LEGEND)
        # The labels are placed in pixels: again whenever the plot's size or range changes.
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())

    def place_labels(self) -> None:
        """Each label beside its marker, clear of the cost curve, the other marker and label, inside the plot."""
        vb = self.plot.vb
        points = curve_points(vb, self.line)
        taken: list[QRectF] = []
        gap = self.chart_style.size(9)
        for mark, label, leader in zip(self._marks, self.labels, self.leaders, strict=False):
            if mark is None:
                leader.setData([], [])
                continue
            at = (float(mark.x), float(mark.y))
            # Where no place beside its marker is clear (half a slide), the legend says its figure
            rect = place_callout(vb, label, leader, at, [], points, gap, list(taken), said_elsewhere=True)
            if label.isVisible():
                taken.append(rect)

    def view(self, inputs: ChartInputs, n: Numbers) -> CostView:
        return cost_chart(inputs, n, self.brief)

    def draw(self, view: CostView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("left", view.y_axis)
        self.axis_label("bottom", view.x_axis)
        set_series(self.line, view.line)
        for scatter, mark, label in zip(
            (self.cheapest, self.on_target), (view.cheapest, view.on_target), self.labels, strict=True
        ):
            scatter.setData([mark.x] if mark else [], [mark.y] if mark else [])
            set_item_text(label, mark.text if mark else "")
            label.setVisible(mark is not None)
        self._marks = (view.cheapest, view.on_target)
        self.set_ranges(view.x_range, view.y_range)
        self.place_labels()
        self.set_ticks("left", view.y_ticks or None)
        self.set_ticks("bottom", view.x_ticks or None)
