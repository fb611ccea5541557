"""Where the time goes: the baseline and the optimized run as two stacked bars, component by component."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...present.breakdown import TOP, BreakdownView, breakdown
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import INK, RED, SCREEN, Style

# Where the target's label may go, in turn: (share of the line's height, anchor) — at the top, to the left of its
# line, then to the right; then at the foot, the same two. Never centred on it: on a slide the line ran through
# "target 150,000 ms".
_TARGET_PLACES = [(0.97, (1.0, 0.0)), (0.97, (0.0, 0.0))]
_TARGET_PLACES += [(0.03, (x, 1.0)) for x in (1.0, 0.0)]
_MARGINS = (4, 4, -4, -4)  # a label's box holds a margin of 4 px round its text


class BreakdownChart(ChartFrame[BreakdownView]):
    """Two bars (baseline, after) stacked by component, labelled with totals, savings and the target."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=True, y=False, alpha=0.15)
        self.axis_label("bottom", "Time")
        # (pyqtgraph 0.14 fails on an empty pens list: bars are created and emptied without one.)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.6)
        item.addItem(self.bars)
        item.vb.sigResized.connect(lambda _vb: self._place())
        self.labels: list[pg.TextItem] = []
        self.target = self.marker_line(90, RED, Qt.PenStyle.DashLine, *_TARGET_PLACES[0])
        left = item.getAxis("left")
        left.setTicks([[(1.0, "Baseline"), (0.0, "After")]])
        left.setTickFont(style.font(1.1, bold=True))
        # Each bar's total just above its end, inside the data's width: a total beyond the bar's end took up to
        # half of a slide's narrow chart. A white ground keeps it readable where the target line crosses it.
        self.totals = [pg.TextItem(color=INK, anchor=(1, 1), fill=pg.mkBrush(255, 255, 255, 230)) for _ in range(2)]
        for t in self.totals:
            t.setFont(style.font(1.05, bold=True))
            t.setZValue(20)  # above the target line
            item.addItem(t)
        self._totals_metrics = QFontMetrics(style.font(1.05, bold=True))
        self._drawn_bars: tuple[np.ndarray, np.ndarray, list[str], list[bool]] | None = (
            None  # x0, widths, colours, outlines
        )
        self._bars: tuple[np.ndarray, np.ndarray, list[str], list[bool], float] | None = None  # as given to pyqtgraph
        self._baseline_y = 1.0
        self._brushes: dict[str, QBrush] = {}
        self._pens = (pg.mkPen("w", width=style.size(1)), pg.mkPen(INK, width=style.size(2.5)))  # plain, outlined
        self._metrics = QFontMetrics(style.font())
        self._view: BreakdownView | None = None

    def view(self, inputs: ChartInputs, n: Numbers) -> BreakdownView:
        return self.named_to_fit(lambda top: breakdown(inputs, n, self.brief, top), TOP)

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color="w", anchor=(0.5, 0.5))
            t.setFont(self.chart_style.font())
            self.plot.addItem(t)
            self.labels.append(t)
        return self.labels[i]

    def draw(self, view: BreakdownView) -> None:
        self._view = view
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.axis)
        set_item_text(self.totals[0], view.baseline_text)
        set_item_text(self.totals[1], view.after_text)
        self.target.setVisible(view.target is not None)
        if view.target is not None:
            self.target.setPos(view.target)
            set_line_text(self.target, view.target_text)
        x0: list[float] = []
        width: list[float] = []
        colors: list[str] = []
        outlined: list[bool] = []
        for column in (1, 2):
            start = 0.0
            for seg in view.segments:
                value = seg.baseline if column == 1 else seg.after
                x0.append(start)
                width.append(value)
                colors.append(seg.colour)
                outlined.append(seg.outlined and column == 2)
                start += value
        self._drawn_bars = (np.array(x0), np.array(width), colors, outlined)
        self._place()

    @staticmethod
    def _x_max(view: BreakdownView) -> float:
        """Where the axis ends: just past the data and the target line, at the next twentieth of its decade, so
        that a time nudged among thousands does not move the axis."""
        x_max = max(view.x_max, 1e-300) * 1.03
        step = 10.0 ** math.floor(math.log10(x_max)) / 20
        return math.ceil(x_max / step - 1e-9) * step

    def _rows(self) -> tuple[float, float]:
        """Where the baseline bar sits and where the view ends above it, so that each total fits, whole, between
        its bar and what is above it at this plot's height: the after bar at 0 and the baseline bar one unit
        above it, moved up (and the view with it) in a low plot, where a total is more of the height.

        With bars of 0.62 units, a total of h pixels in a plot of H pixels that shows [-0.55, top] is
        l = h·(top + 0.55)/H units high; the baseline bar's centre is 0.62 + l and the top 0.93 + 2l."""
        height = self.plot.vb.height()
        label = max(self._totals_metrics.height() + 6, self.totals[0].boundingRect().height()) + 2  # with margins
        label += self._pens[1].widthF() / 2 + 1  # and lifted clear of an outlined bar's edge
        share = label / height if height > 0 else 0.0
        if share <= 0 or 2 * share >= 0.8:  # not laid out yet, or a sliver of a plot: the usual rows
            return 1.0, 1.75
        top = (0.93 + 0.55 * 2 * share) / (1 - 2 * share)
        above = share * (top + 0.55)
        return max(1.0, 0.62 + above), max(1.75, top)

    def _place(self) -> None:
        view = self._view
        if view is None:
            return
        baseline, top = self._rows()
        self._baseline_y = baseline
        self.set_ranges((0, self._x_max(view)), (-0.55, top))
        left = self.plot.getAxis("left")
        if getattr(left, "_baseline_tick", None) != baseline:
            left._baseline_tick = baseline
            left.setTicks([[(baseline, "Baseline"), (0.0, "After")]])
        if self._drawn_bars is not None:
            self._set_bars(*self._drawn_bars, self._x_max(view), baseline)
        self._place_totals(view, baseline)
        self._place_labels(view, baseline)
        self._place_target_label()

    def _place_totals(self, view: BreakdownView, baseline: float) -> None:
        """Above each bar: right-aligned at its end, or from the axis where the bar is narrower than its total."""
        px, py = self.plot.vb.viewPixelSize()
        px = px or 1.0
        x_max = self._x_max(view)
        lift = (self._pens[1].widthF() / 2 + 1) * py  # clear of an outlined bar's edge, which is drawn outside it
        for label, total, text, bar_top in (
            (self.totals[0], view.baseline_total, view.baseline_text, baseline + 0.31 + lift),
            (self.totals[1], view.after_total, view.after_text, 0.31 + lift),
        ):
            need = (self._totals_metrics.horizontalAdvance(text) + 8) * px
            wide = total >= need
            # Right-aligned at the bar's end; where the target line would run through it, just past the end, or
            # right-aligned short of the line.
            places = [(total, (1, 1))] if wide else [(0.0, (0, 1))]
            places += [(total, (0, 1)), ((view.target or 0.0) - 4 * px, (1, 1))]
            for x, anchor in places:
                lo, hi = (x - need, x) if anchor[0] == 1 else (x, x + need)
                crosses = view.target is not None and lo < view.target < hi
                if lo >= 0 and hi <= x_max and not crosses:
                    break
            else:
                x, anchor = places[0]
            label.setAnchor(anchor)
            label.setPos(x, bar_top)

    def _place_target_label(self) -> None:
        """The target's label at the top of its line, beside it on the side where no total covers it (a narrow
        slide chart: "target 600 ms" under "1,000 ms"), else at the foot of the line, under the After bar."""
        if not self.target.isVisible():
            return
        label = self.target.label
        self.plot.vb.mapViewToScene(QPointF(0, 0))  # the view's transform brought up to date first
        others = [t.sceneBoundingRect() for t in (*self.totals, *self.labels) if t.isVisible() and t.toPlainText()]
        view = self.plot.vb.sceneBoundingRect()
        for position, anchor in _TARGET_PLACES:
            label.setPosition(position)
            label.anchors = [anchor, anchor]
            label.updatePosition()
            rect = label.sceneBoundingRect()
            text = rect.adjusted(*_MARGINS)  # boxes that meet only in their white margins leave both texts whole
            if view.contains(rect) and not any(text.intersects(o.adjusted(*_MARGINS)) for o in others):
                return
        label.setPosition(_TARGET_PLACES[0][0])  # nowhere free: where it always was
        label.anchors = [_TARGET_PLACES[0][1]] * 2
        label.updatePosition()

    def _set_bars(
        self, x0: np.ndarray, width: np.ndarray, colors: list[str], outlined: list[bool], xmax: float, baseline: float
    ) -> None:
        """Baseline bars then after bars, given again only when one moves by 1/10,000 of the axis: a time edited
        among thousands changes the totals' texts, not the bars, and bars given again are all drawn again."""
        drawn = self._bars
        if (
            drawn is not None
            and drawn[2] == colors
            and drawn[3] == outlined
            and drawn[4] == baseline
            and drawn[0].shape == x0.shape
            and bool(np.all(np.abs(drawn[0] - x0) <= xmax * 1e-4))
            and bool(np.all(np.abs(drawn[1] - width) <= xmax * 1e-4))
        ):
            return
        self._bars = (x0, width, colors, outlined, baseline)
        if not len(x0):  # (pyqtgraph 0.14 fails on an empty pens list)
            self.bars.setOpts(x0=[], y=[], width=[])
            return
        half = len(x0) // 2
        self.bars.setOpts(
            x0=x0,
            y=[baseline] * half + [0.0] * (len(x0) - half),
            width=width,
            brushes=[self._brush(c) for c in colors],
            pens=[self._pens[o] for o in outlined],
            height=0.62,
        )

    def _brush(self, color: str) -> QBrush:
        brush = self._brushes.get(color)
        if brush is None:
            brush = self._brushes[color] = pg.mkBrush(QColor(color))
        return brush

    def _place_labels(self, view: BreakdownView, baseline: float) -> None:
        """Label a segment with its name (whole, else shortened) and time where both fit, its time where only that
        fits, else nothing.

        Labels keep their text where it stays (each change of a text lays it out and repaints it)."""
        px, py = self.plot.vb.viewPixelSize()
        placed: list[tuple[str, float, float]] = []
        metrics = self._metrics
        # A bar as high as it is drawn, in pixels: a name over its time only where both lines fit in it, the time
        # alone where one line does (in a low plot "Autoregressive decode" ran out of its bar, white on white).
        tall = 0.62 / py if py else 0.0
        lines = 2 if tall >= 2 * metrics.lineSpacing() + 4 else 1 if tall >= metrics.lineSpacing() + 2 else 0
        target = view.target
        for bar_y, column in ((baseline, 1), (0.0, 2)):
            start = 0.0
            for seg in view.segments if px else ():
                value, time = (seg.baseline, seg.baseline_text) if column == 1 else (seg.after, seg.after_text)
                # A segment the target line crosses holds its label on the wider side of the line: the line runs
                # through no label.
                left, right = start, start + value
                if target is not None and left < target < right:
                    left, right = (left, target) if target - left >= right - target else (target, right)
                room = (right - left) / px - 8
                # The whole name where the bar holds it, else the name shortened, else the time alone.
                name = next((n for n in (seg.name, seg.label) if room >= metrics.horizontalAdvance(n)), None)
                if name is not None and room >= metrics.horizontalAdvance(time) and lines >= 2:
                    placed.append((f"{name}\n{time}", (left + right) / 2, bar_y))
                elif room >= metrics.horizontalAdvance(time) and lines >= 1:
                    placed.append((time, (left + right) / 2, bar_y))
                start += value
        for i, (text, x, bar_y) in enumerate(placed):
            label = self._label(i)
            set_item_text(label, text)
            label.setPos(x, bar_y)
        for label in self.labels[len(placed) :]:
            set_item_text(label, "")
