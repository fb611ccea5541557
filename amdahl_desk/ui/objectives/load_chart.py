"""Latency against load: mean response and p99 wait against the arrival rate, before and after the plan (M/M/c)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.extras import profile_extras
from ...model.load_view import load_curve
from ...model.profile import Profile
from ...model.units import format_number, format_time
from ..charts.chart_style import (
    BLUE,
    GREEN,
    GREY,
    INK,
    RED,
    SCREEN,
    ChartFrame,
    Style,
    collisions,
    curve_points,
    set_item_text,
    set_line_text,
)

BEFORE, AFTER = GREY, BLUE
# Where a vertical line's label may sit: heights along the line (top first), on its left or its right.
LABEL_HEIGHTS = (0.92, 0.8, 0.68, 0.56, 0.44, 0.32, 0.2, 0.1)
LEFT, RIGHT = (1.0, 0.5), (0.0, 0.5)


def _finite(values: np.ndarray, cap: float) -> np.ndarray:
    """NaN (saturated) stays NaN, a gap in the line; a value past the top of the view is drawn at the top edge."""
    return np.where(np.isfinite(values), np.minimum(values, cap), np.nan)


class LoadChart(ChartFrame):
    """Curves updated in place; each saturation wall is a vertical line with no curve beyond it."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.axis_label("bottom", "Arrival rate (requests/s)")
        self.axis_label("left", "Time")
        connect = "finite"
        self.before = item.plot(pen=style.pen(BEFORE, 2.5), connect=connect)
        self.after = item.plot(pen=style.pen(AFTER, 3), connect=connect)
        self.before_p99 = item.plot(pen=style.pen(BEFORE, 1.8, Qt.PenStyle.DashLine), connect=connect)
        self.after_p99 = item.plot(pen=style.pen(AFTER, 2, Qt.PenStyle.DashLine), connect=connect)
        self.set_legend(
            [
                (BEFORE.name(), "line", "Mean response, before"),
                (AFTER.name(), "line", "after the plan"),
                (BEFORE.name(), "dash", "p99 wait, before"),
                (AFTER.name(), "dash", "after"),
                (RED.name(), "line", "Saturation wall"),
                (GREEN.name(), "dot", "Target"),
            ]
        )
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
        self.point_labels = [pg.TextItem(color=c, anchor=a) for c, a in ((BEFORE, (1.05, 1.0)), (AFTER, (1.05, 0.0)))]
        for label in self.point_labels:
            label.setFont(style.font(0.95, bold=True))
            item.addItem(label)
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())

    def _clear(self, title: str) -> None:
        for curve in (self.before, self.after, self.before_p99, self.after_p99):
            curve.setData([], [])
        for line in (self.wall_before, self.wall_after, self.current, self.target):
            line.setVisible(False)
        self.points.setData([], [])
        for label in self.point_labels:
            set_item_text(label, "")
        # With nothing drawn, pyqtgraph's auto-range ends on the last profile's axes or on ±1e-50 and negative rates.
        self.set_ranges((0.0, 1.0), (0.0, 1.0))
        self.set_title(title)

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        if analysis is None:
            self._clear("Latency against load — no data")
            return
        load = profile_extras(profile, analysis).load
        if load is None:
            self._clear("Latency against load — set an arrival rate (Objectives, load and cost)")
            return
        unit = profile.unit
        curve = load_curve(load)
        top = curve.y_max
        x = curve.rates
        self.before.setData(x, _finite(curve.before_response, top))
        self.after.setData(x, _finite(curve.after_response, top))
        self.before_p99.setData(x, _finite(curve.before_p99_wait, top))
        self.after_p99.setData(x, _finite(curve.after_p99_wait, top))
        walls = [(self.wall_before, curve.wall_before, "before"), (self.wall_after, curve.wall_after, "after")]
        for line, rate, side in walls:
            line.setVisible(math.isfinite(rate))
            if math.isfinite(rate):
                line.setPos(rate)
                set_line_text(line, f"wall {side}: {format_number(rate)}/s")
        self.current.setVisible(True)
        self.current.setPos(curve.current_rate)
        set_line_text(self.current, f"now {format_number(curve.current_rate)}/s")
        self.target.setVisible(curve.target is not None)
        if curve.target is not None:
            self.target.setPos(curve.target)
            set_line_text(self.target, f"target {format_time(curve.target, unit)}")
        xs, ys, brushes = [], [], []
        for i, (q, side) in enumerate(((load.before, "before"), (load.after, "after"))):
            label = self.point_labels[i]
            if q.saturated or q.mean_response is None or not math.isfinite(q.mean_response):
                # No number at all past the wall: the queue grows without bound.
                set_item_text(label, f"{side}: saturated")
                label.setPos(curve.current_rate, top * (0.95 - 0.08 * i))
                continue
            y = min(q.mean_response, top)
            xs.append(curve.current_rate)
            ys.append(y)
            brushes.append(self.point_brushes[i])
            set_item_text(label, format_time(q.mean_response, unit))
            label.setPos(curve.current_rate, y)
        self.points.setData(xs, ys, brush=brushes)
        right = float(x[-1]) if len(x) else 1.0
        self.set_ranges((0.0, right), (0.0, top))
        self.axis_label("left", f"Time ({unit.label})")
        self.set_title(
            f"Latency against load: {load.objective} on {load.servers:,} replica{'s' if load.servers != 1 else ''}"
        )
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
        taken: list[QRectF] = [lab.sceneBoundingRect() for lab in self.point_labels if lab.toPlainText()]
        if self.target.isVisible():
            self.target.label.updatePosition()
            taken.append(self.target.label.sceneBoundingRect())
            y = vb.mapViewToScene(pg.Point(0, self.target.value())).y()
            taken.append(QRectF(view.left(), y - 2, view.width(), 4))
        lines = [line for line in (self.current, self.wall_before, self.wall_after) if line.isVisible()]
        for line in lines:  # each line as a thin band: another line's label must not sit across it
            x = vb.mapViewToScene(pg.Point(line.value(), 0)).x()
            taken.append(QRectF(x - 2, view.top(), 4, view.height()))
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
            taken.append(label.sceneBoundingRect())
