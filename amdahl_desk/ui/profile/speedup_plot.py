"""Speedup against k for one optimization: the Amdahl curve, its ceiling as an asymptote, a marker at k."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QWidget

from ...model.analysis import Analysis
from ...model.laws import amdahl_speedup
from ...model.profile import Profile
from ...model.units import format_speedup
from ...present.text import phrases
from ..charts.chart_items import PointMarker, set_curve
from ..charts.chart_style import (
    BLUE,
    GREEN,
    INK,
    LABEL_FILL,
    RED,
    SCREEN,
    ChartFrame,
    Picture,
    Style,
    curve_points,
    log10_ticks,
    nice_ceiling,
    place_callout,
    set_item_text,
    set_line_text,
)


class SpeedupPlot(ChartFrame):
    """S(k) for the selected optimization (or the first enabled one), with the combined curve when others join."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        self.axis_label("bottom", "Local speedup k (log scale)")
        self.axis_label("left", "End-to-end speedup S")
        self.combined = item.plot(pen=style.pen(GREEN, 2, Qt.PenStyle.DashLine))
        self.curve = item.plot(pen=style.pen(BLUE, 3))
        # Kept as pixmaps: a k step repaints the marker's place, and the curves under it are copied there,
        # not stroked again whole (the same pixels; an export draws them as vectors).
        for c in (self.combined, self.curve):
            c.curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # One legend for every state: a legend that changes would resize the plot and redraw it all.
        self.set_legend(
            [
                (BLUE.name(), "line", "This optimization alone"),
                (GREEN.name(), "dash", "With the other enabled ones"),
                (RED.name(), "dash", "Ceiling 1/(1−f)"),
            ]
        )
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
        self._placing = False
        self._drawn: Picture | None = None
        # The callout is placed in pixels: again whenever the plot's size or range changes.
        item.vb.sigTransformChanged.connect(lambda *_: self.place_labels())
        self.empty = pg.TextItem("Add an optimization to see its speedup against k", color=INK, anchor=(0.5, 0.5))
        self.empty.setFont(style.font())
        item.addItem(self.empty)

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int) -> None:
        row = selected
        opts = profile.optimizations
        if analysis is None or not opts:
            for c in (self.curve, self.combined):
                set_curve(c, None, None)
            self.marker.move_to(None, None)
            set_item_text(self.marker_label, "")
            self.ceiling.setVisible(False)
            self.empty.setVisible(True)
            self.empty.setPos(0.5, 0.5)
            self.set_ranges((0, 1), (0, 1))
            self.set_title("Speedup against k")
            self.set_ticks("bottom", None)
            self._drawn = None
            return
        self.empty.setVisible(False)
        if not 0 <= row < len(opts):
            row = next((i for i, o in enumerate(opts) if o.enabled), 0)
        opt = opts[row]
        f = float(analysis.optimizations.fraction[row])
        k_now = opt.speedup
        k_hi = max(100.0, k_now * 2)
        k_lo = min(1.0, k_now / 2)
        grid = np.logspace(math.log10(k_lo), math.log10(k_hi), 300)
        x = np.log10(grid)
        alone = amdahl_speedup(f, grid)
        ceiling = 1 / (1 - f) if f < 1 else math.inf
        top = float(np.max(alone))
        # The plan with this optimization's k varied and the others as they are.
        others = [o for i, o in enumerate(opts) if o.enabled and i != row]
        combined = self._combined(profile, analysis, row, grid)[0] if others else None
        if combined is not None:
            combined_top = float(np.max(combined))
            top = max(top, combined_top if math.isfinite(combined_top) else top)
        s_now = float(amdahl_speedup(f, k_now))
        # A time nudged among thousands moves no curve by a tenth of a pixel: then nothing is redrawn.
        y_top = max(top, ceiling) if math.isfinite(ceiling) else top
        y_range = (math.floor(min(0.9, float(np.min(alone)) * 0.95) * 10) / 10, nice_ceiling(y_top * 1.12 + 0.05))
        picture = Picture(
            *y_range,
            [alone, *(() if combined is None else (combined,)), s_now, min(ceiling, 1e300)],
            (y_range, row, k_now, opt.name, f"{f:.0%}", format_speedup(s_now), format_speedup(ceiling)),
        )
        if picture.same_as(self._drawn):
            return
        self._drawn = picture
        # A k step moves the marker: the curves stay where they are (neither depends on this k), and a
        # curve given its data again would be drawn again.
        within = ((x[-1] - x[0]) * 1e-4, (y_range[1] - y_range[0]) * 1e-4)  # Picture's rule: 1/10,000 of the axis
        set_curve(self.curve, x, alone, within)
        set_curve(self.combined, x, combined, within)
        self.combined.setVisible(combined is not None)
        self.marker.move_to(math.log10(k_now), s_now)
        set_item_text(self.marker_label, f"k = {format_speedup(k_now)} → {format_speedup(s_now)}")
        self._marker_at = (math.log10(k_now), s_now)
        if math.isfinite(ceiling):
            self.ceiling.setVisible(True)
            if abs(self.ceiling.value() - ceiling) > within[1]:  # the line spans the plot: moved, it is drawn whole
                self.ceiling.setPos(ceiling)
            set_line_text(self.ceiling, f"ceiling 1/(1−f) = {format_speedup(ceiling)}")
            top = max(top, ceiling)
        else:
            self.ceiling.setVisible(False)
        self.set_ticks("bottom", log10_ticks(k_lo, k_hi))
        # Ranges in coarse steps, so that nudging one time in the table does not redraw the axes.
        bottom = math.floor(min(0.9, float(np.min(alone)) * 0.95) * 10) / 10
        span = x[-1] - x[0]
        self.set_ranges((x[0] - 0.02 * span, x[-1] + 0.02 * span), (bottom, nice_ceiling(top * 1.12 + 0.05)))
        self.place_labels()
        # Two title lines hold a long name whole; only a very long one is shortened.
        name = opt.name if len(opt.name) <= 60 else opt.name[:58] + "…"
        if self.chart_style.brief:
            self.set_title(f"Speedup against k: {name}")
            return
        self.set_title(
            f"{name}: "
            + phrases(
                f"f = {f:.0%};",
                f"k = {format_speedup(k_now)} gives {format_speedup(s_now)} end to end,",
                f"ceiling {format_speedup(ceiling)}",
            )
        )

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
            obstacles = []
            if self.ceiling.isVisible():
                self.ceiling.label.updatePosition()
                obstacles.append(self.ceiling.label.sceneBoundingRect())
                line = vb.mapViewToScene(QPointF(0, self.ceiling.value())).y()
                view = vb.sceneBoundingRect()
                obstacles.append(QRectF(view.left(), line - 2, view.width(), 4))
            points = np.concatenate([curve_points(vb, c) for c in (self.curve, self.combined)])
            at, gap = self._marker_at, self.chart_style.size(8)
            place_callout(vb, self.marker_label, self.leader, at, obstacles, points, gap)
        finally:
            self._placing = False

    @staticmethod
    def _combined(profile: Profile, analysis: Analysis, row: int, grid: np.ndarray) -> tuple[np.ndarray, float]:
        opt = profile.optimizations[row]
        idx = [profile.index_of(t) for t in opt.targets]
        idx = [i for i in idx if i >= 0]
        times = analysis.times[idx]
        k_all = analysis.component_speedup[idx]
        k_others = k_all / opt.speedup if opt.enabled else k_all
        rest = analysis.combined.new_total - float(np.sum(analysis.new_times[idx]))
        new_totals = rest + np.sum(times[None, :] / (k_others[None, :] * grid[:, None]), axis=1)
        ceiling = analysis.baseline_total / rest if rest > 0 else math.inf
        return analysis.baseline_total / new_totals, ceiling
