"""Speedup against k for one optimization: the Amdahl curve, its ceiling as an asymptote, a marker at k."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsItem, QWidget

from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.speedup import SpeedupView, speedup
from ..charts.callouts import clear_line_labels, curve_points, line_band, place_callout
from ..charts.chart_items import PointMarker, set_series
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import BLUE, GREEN, GREY, INK, LABEL_FILL, RED, SCREEN, Style


class SpeedupPlot(ChartFrame[SpeedupView]):
    """S(k) for the selected optimization (or the first enabled one), with the combined curve when others join."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.by_sum = item.plot(pen=style.pen(GREY, 1.5))  # a traced profile: the sum's curve, under the answer's
        self.combined = item.plot(pen=style.pen(GREEN, 2, Qt.PenStyle.DashLine))
        self.curve = item.plot(pen=style.pen(BLUE, 3))
        # Kept as pixmaps: a k step repaints the marker's place, and the curves under it are copied there,
        # not stroked again whole (the same pixels; an export draws them as vectors).
        for c in (self.by_sum, self.combined, self.curve):
            c.curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.ceiling = self.marker_line(0, RED, Qt.PenStyle.DashLine, 0.03, (0, 1))
        self.marker = PointMarker(size=style.size(12), brush=pg.mkBrush(BLUE), pen=pg.mkPen(INK, width=style.size(1.5)))
        item.addItem(self.marker)
        self.marker_label = pg.TextItem(color=INK, anchor=(0, 0), fill=LABEL_FILL)
        self.marker_label.setZValue(20)
        self.marker_label.setFont(style.font(1.1, bold=True))
        item.addItem(self.marker_label, ignoreBounds=True)
        self.leader = item.plot(pen=style.pen(INK, 1))
        self.leader.setZValue(19)
        self._marker_at: tuple[float, float] | None = None
        self._values_shown = True
        self._placing = False
        # The callout is placed in pixels: again whenever the plot's size or range changes.
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())
        self.empty = pg.TextItem("", color=INK, anchor=(0.5, 0.5))
        self.empty.setFont(style.font())
        item.addItem(self.empty)

    def view(self, inputs: ChartInputs, n: Numbers) -> SpeedupView:
        return speedup(inputs, n, self.brief)

    def draw(self, view: SpeedupView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)  # the lines drawn: the other enabled ones' only while another is enabled
        self.axis_label("bottom", view.x_axis)
        self.axis_label("left", view.y_axis)
        self.set_ranges(view.x_range, view.y_range)
        # A k step moves the marker: the curves stay where they are (neither depends on this k), and a
        # curve given its data again would be drawn again.
        set_series(self.curve, view.alone)
        set_series(self.combined, view.combined)
        set_series(self.by_sum, view.by_sum)
        self.curve.setVisible(view.alone is not None)
        self.combined.setVisible(view.combined is not None)
        self.by_sum.setVisible(view.by_sum is not None)
        self.empty.setVisible(bool(view.empty))
        set_item_text(self.empty, view.empty)
        values = not view.empty  # an empty plot's axes have no values to read (0.2 … 0.8 said nothing)
        if values != self._values_shown:
            self._values_shown = values
            for name in ("left", "bottom"):
                self.plot.getAxis(name).setStyle(showValues=self._values_shown)
        self.empty.setPos(0.5, 0.5)
        marker = view.marker
        self.marker.move_to(marker.x if marker else None, marker.y if marker else None)
        set_item_text(self.marker_label, marker.text if marker else "")
        self._marker_at = (marker.x, marker.y) if marker else None
        ceiling = view.ceiling
        self.ceiling.setVisible(ceiling is not None)
        if ceiling is not None:
            span = view.y_range[1] - view.y_range[0]
            if abs(self.ceiling.value() - ceiling.y) > span * 1e-4:  # the line spans the plot: moved, drawn whole
                self.ceiling.setPos(ceiling.y)
            set_line_text(self.ceiling, ceiling.text)
        self.set_ticks("bottom", view.ticks or None)
        self.place_labels()

    def place_labels(self) -> None:
        """The k callout beside its marker, clear of the curves, the ceiling and its label, inside the plot."""
        if self._marker_at is None or not self.marker_label.isVisible() or self._placing:
            return
        vb = self.plot.vb
        # The view's transform is brought up to date first: that signals a change, which must not place the
        # callout a second time inside this call (and the ceiling's label is placed from the new transform).
        self._placing = True
        try:
            vb.mapViewToScene(QPointF(0, 0))
            obstacles = [line_band(vb, self.ceiling)] if self.ceiling.isVisible() else []
            points = np.concatenate([curve_points(vb, c) for c in (self.curve, self.combined, self.by_sum)])
            at, gap = self._marker_at, self.chart_style.size(8)
            placed = place_callout(vb, self.marker_label, self.leader, at, obstacles, points, gap)
            if self.ceiling.isVisible():  # then the ceiling's label along its line, clear of the callout and curves
                # (an optimization of a tiny share: its curve runs flat along its ceiling of 1×)
                around = np.concatenate([points, curve_points(vb, self.leader)])
                clear_line_labels(vb, [self.ceiling], around, taken=[placed])
        finally:
            self._placing = False
