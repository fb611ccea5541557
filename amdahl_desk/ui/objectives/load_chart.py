"""Latency against load: mean response and p99 wait against the arrival rate, before and after the plan (M/M/c)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QWidget

from ...present.inputs import ChartInputs
from ...present.load_chart import LEGEND, LoadView, load_chart
from ...present.numbers import Numbers
from ..charts.callouts import clear_line_labels, collisions, curve_points, line_band, place_callout
from ..charts.chart_items import set_series
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import BLUE, GREEN, GREY, INK, LABEL_FILL, RED, SCREEN, Style

BEFORE, AFTER = GREY, BLUE
# Where a vertical line's label may sit: heights along the line (top first), on its left or its right.
LABEL_HEIGHTS = (0.92, 0.8, 0.68, 0.56, 0.44, 0.32, 0.2, 0.1)
LEFT, RIGHT = (1.0, 0.5), (0.0, 0.5)


class LoadChart(ChartFrame[LoadView]):
    """Curves updated in place; each saturation wall is a vertical line with no curve beyond it."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        connect = "finite"
        self.before = item.plot(pen=style.pen(BEFORE, 2.5), connect=connect)
        self.after = item.plot(pen=style.pen(AFTER, 3), connect=connect)
        self.before_p99 = item.plot(pen=style.pen(BEFORE, 1.8, Qt.PenStyle.DashLine), connect=connect)
        self.after_p99 = item.plot(pen=style.pen(AFTER, 2, Qt.PenStyle.DashLine), connect=connect)
        self.set_legend(LEGEND)
        # Labels at different heights, so that walls close to each other and the current rate never overlap.
        self.wall_before = self.marker_line(90, RED, Qt.PenStyle.SolidLine, 0.62, (1, 0.5))
        self.wall_after = self.marker_line(90, RED, Qt.PenStyle.SolidLine, 0.85, (1, 0.5))
        self.current = self.marker_line(90, INK, Qt.PenStyle.DashLine, 0.40, (1, 0.5))
        self.target = self.marker_line(0, GREEN, Qt.PenStyle.DotLine, 0.97, (1, 1))  # right, past the walls
        for line in (self.wall_before, self.wall_after, self.current, self.target):
            line.setZValue(10)  # with their labels, over the curves
        self.points = pg.ScatterPlotItem(size=style.size(11), pen=pg.mkPen(INK))
        # One brush per side, made once: the scatter's symbol atlas keys on the brush object (a new one per update
        # would add an atlas entry at every edit).
        self.point_brushes = (pg.mkBrush(BEFORE), pg.mkBrush(AFTER))
        item.addItem(self.points)
        # Left of the current rate, where the curves are flat: before's over its point, after's under it.
        self.point_labels = [
            pg.TextItem(color=c, anchor=a, fill=LABEL_FILL) for c, a in ((BEFORE, (1.05, 1.0)), (AFTER, (1.05, 0.0)))
        ]
        for label in self.point_labels:
            label.setFont(style.font(0.95, bold=True))
            label.setZValue(30)  # over the curves and the lines: its number is read, not crossed
            item.addItem(label)
        self.leaders = [item.plot(pen=style.pen(c, 1)) for c in (BEFORE, AFTER)]
        self._points_at: list[tuple[float, float] | None] = [None, None]
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())

    def view(self, inputs: ChartInputs, n: Numbers) -> LoadView:
        return load_chart(inputs, n, self.brief)

    def draw(self, view: LoadView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("left", view.y_axis)
        self.axis_label("bottom", view.x_axis)
        for curve, series in (
            (self.before, view.before),
            (self.after, view.after),
            (self.before_p99, view.before_p99),
            (self.after_p99, view.after_p99),
        ):
            set_series(curve, series)
        for line, mark in (
            (self.wall_before, view.wall_before),
            (self.wall_after, view.wall_after),
            (self.current, view.now),
        ):
            line.setVisible(mark is not None)
            if mark is not None:
                line.setPos(mark.x)
                set_line_text(line, mark.text)
        self.target.setVisible(view.target is not None)
        if view.target is not None:
            self.target.setPos(view.target.y)
            set_line_text(self.target, view.target.text)
        xs, ys, brushes = [], [], []
        now = view.now.x if view.now is not None else 0.0
        self._points_at = [None if p is None else (p.x, p.y) for p in view.points]
        for i, (point, saturated) in enumerate(zip(view.points, view.saturated, strict=True)):
            label = self.point_labels[i]
            if point is None:
                set_item_text(label, saturated)
                label.setPos(now, view.y_range[1] * (0.95 - 0.08 * i))
                continue
            xs.append(point.x)
            ys.append(point.y)
            brushes.append(self.point_brushes[i])
            set_item_text(label, point.text)
            label.setPos(point.x, point.y)
        self.points.setData(xs, ys, brush=brushes)
        # With nothing drawn, pyqtgraph's auto-range would end on the last profile's axes or on ±1e-50.
        self.set_ranges(view.x_range, view.y_range)
        self.place_labels()

    def place_labels(self) -> None:
        """Each vertical line's label at the first height and side where it crosses no curve, line or other label.

        The walls stand where the curves turn up, so a fixed place was crossed by a curve in most profiles.
        """
        vb = self.plot.vb
        view = vb.sceneBoundingRect().adjusted(2, 2, -2, -2)
        if view.width() < 10 or view.height() < 10:
            return
        curves = (self.before, self.after, self.before_p99, self.after_p99)
        points = np.concatenate([curve_points(vb, c) for c in curves])
        lines = [line for line in (self.current, self.wall_before, self.wall_after) if line.isVisible()]
        # Each point's label beside its point, clear of the curves and the lines (as thin bands).
        bands = [line_band(vb, line, view=view) for line in (*lines, self.target) if line.isVisible()]
        # The vertical lines' labels first (they have the fewest places), then each point's label as a callout
        # clear of them, the curves and the lines, then the target's along its line clear of all of them.
        taken: list[QRectF] = [
            self.point_labels[i].sceneBoundingRect()
            for i, at in enumerate(self._points_at)
            if at is None and self.point_labels[i].toPlainText()
        ]
        if self.target.isVisible():
            taken.append(line_band(vb, self.target, view=view))
        taken += [line_band(vb, line, view=view) for line in lines]  # another line's label must not sit across one
        for line in lines:
            label = line.label
            own = vb.mapViewToScene(pg.Point(line.value(), 0)).x()
            best: tuple[int, int, float, tuple[float, float]] | None = None
            order = 0
            for height in LABEL_HEIGHTS:
                for side in (LEFT, RIGHT):
                    label.anchors = [side, side]
                    label.setPosition(height)
                    rect = label.sceneBoundingRect()
                    if view.contains(rect):
                        others = [r for r in taken if not (r.width() <= 4 and abs(r.center().x() - own) < 1)]
                        # Over another label or across a line is worse than over a stretch of curve (which
                        # the label's white ground hides, as the lines and their labels are drawn above the curves).
                        score = 1000 * collisions(rect, others, points[:0]) + collisions(rect, [], points)
                        if best is None or (score, order) < (best[0], best[1]):
                            best = (score, order, height, side)
                    order += 1
                if best is not None and best[0] == 0:
                    break
            if best is None:
                continue
            _, _, height, side = best
            label.anchors = [side, side]
            label.setPosition(height)
            # A wall in a plot too narrow for its label beside it (half a slide) keeps its number in the legend
            clear = best[0] == 0 or line is self.current
            label.setVisible(clear)
            if clear:
                taken.append(label.sceneBoundingRect())
        placed = [r for r in taken if r.width() > 4 and r.height() > 4]
        gap = self.chart_style.size(7)
        for label, leader, at in zip(self.point_labels, self.leaders, self._points_at, strict=True):
            if at is None:
                leader.setData([], [])
                label.setVisible(bool(label.toPlainText()))
                continue
            # Where no place beside its point is clear (a plot half a slide wide), the title says the figure
            rect = place_callout(vb, label, leader, at, bands, points, gap, list(placed), said_elsewhere=True)
            if label.isVisible():
                placed.append(rect)
        # the target's label where it lies clear of everything, else the legend says it
        clear_line_labels(vb, [self.target], points, tuple(lines), placed, said_elsewhere=True)
