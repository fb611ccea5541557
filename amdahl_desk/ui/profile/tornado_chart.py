"""What matters most: for each ticked optimization with a k range, the plan's speedup at its low and at its high k,
as bars from the likely plan's speedup; the largest swing on top."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...present.colours import BLUE, ORANGE
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import INK, SCREEN, Style

if TYPE_CHECKING:
    from ...present.uncertainty_charts import Bar, TornadoView

HEIGHT = 0.6


class TornadoChart(ChartFrame["TornadoView"]):
    """Two bars a row, from the centre line to the speedup at low k and at high k, each end's speedup beside it."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=True, y=False, alpha=0.15)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=HEIGHT)
        item.addItem(self.bars)
        self._brushes = (pg.mkBrush(QColor(ORANGE)), pg.mkBrush(QColor(BLUE)))  # k low, k high, as in the legend
        self._pen = pg.mkPen("w", width=style.size(0.5))
        self.centre = self.marker_line(90, INK, Qt.PenStyle.DashLine, 0.97, (0.5, 0))
        self.labels: list[pg.TextItem] = []
        self.note = pg.TextItem(color=INK, anchor=(0.5, 0.5))
        self.note.setFont(style.font(0.95))
        item.addItem(self.note, ignoreBounds=True)
        item.getAxis("left").setTickFont(style.font(0.95))
        # Rows are names, not values: no tick mark beside them (next to a low end's label it read as a minus sign,
        # "-1.47×").
        item.getAxis("left").setStyle(tickLength=0)
        self._values_shown = True
        self._bars: tuple[Bar, ...] = ()
        item.vb.sigResized.connect(lambda _vb: self._name_rows())  # two lines a name where a row holds them
        item.vb.sigResized.connect(lambda _vb: self._fit_x())  # the ends' labels inside, the centre's whole
        self._view: TornadoView | None = None

    def view(self, inputs: ChartInputs, n: Numbers) -> TornadoView:
        from ...present.uncertainty_charts import tornado  # the draws' module loads with the first range

        return tornado(inputs, n, self.brief)

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color=INK)
            t.setFont(self.chart_style.font(0.9))
            self.plot.addItem(t, ignoreBounds=True)
            self.labels.append(t)
        return self.labels[i]

    def _name_rows(self) -> None:
        """Each row's name beside it: on two lines where a row is high enough for them, else on one."""
        bars = self._bars
        rows = max(len(bars), 1)
        row_px = self.plot.vb.height() / (rows + 0.5)  # the view shows rows + 0.5 units (draw's y range)
        spacing = QFontMetrics(self.plot.getAxis("left").style["tickFont"]).lineSpacing()  # the names' own font
        two = row_px >= 2 * spacing + 4
        names = [(float(len(bars) - 1 - i), (bar.lines or bar.name) if two else bar.name) for i, bar in enumerate(bars)]
        self.set_ticks("left", names)  # none with no bars: a tick at 0 drew a stray mark beside the note

    def draw(self, view: TornadoView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.x_axis)
        rows = len(view.bars)
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        brushes: list[pg.QtGui.QBrush] = []
        texts: list[tuple[str, float, float, tuple[float, float]]] = []
        for i, bar in enumerate(view.bars):
            row_y = float(rows - 1 - i)  # the largest swing on top
            for value, text, brush in (
                (bar.low, bar.low_text, self._brushes[0]),
                (bar.high, bar.high_text, self._brushes[1]),
            ):
                x0.append(min(view.centre, value))
                y.append(row_y)
                width.append(abs(value - view.centre))
                brushes.append(brush)
                texts.append((text, value, row_y, (1.0, 0.5) if value < view.centre else (0.0, 0.5)))
        if x0:
            self.bars.setOpts(x0=x0, y=y, width=width, height=HEIGHT, brushes=brushes, pens=[self._pen] * len(x0))
        else:  # (pyqtgraph 0.14 fails on an empty pens list)
            self.bars.setOpts(x0=[], y=[], width=[], height=HEIGHT)
        self._bars = view.bars
        self._name_rows()
        for i, (text, x, row_y, anchor) in enumerate(texts):
            label = self._label(i)
            label.setAnchor(anchor)
            set_item_text(label, text)
            label.setPos(x, row_y)
        for label in self.labels[len(texts) :]:
            set_item_text(label, "")
        self.centre.setPos(view.centre)
        self.centre.setVisible(bool(view.bars))  # with no bars, the note in their place, and no line through it
        values = bool(view.bars)  # an empty plot's axis has no values to read (".90 … 1.10", cut at its ends)
        if values != self._values_shown:
            self._values_shown = values
            self.plot.getAxis("bottom").setStyle(showValues=values)
        set_item_text(self.note, view.note)
        self.note.setPos((view.x_range[0] + view.x_range[1]) / 2, 0.0)
        self._view = view
        self._fit_x()

    def _fit_x(self) -> None:
        """The view's range, with room beyond the bars' ends for their labels ("1.49×" was cut by the axis in a
        narrow plot), and the centre line's label whole: centred on its line, else beside it, else only "likely
        1.77×" (the legend says the rest)."""
        view = self._view
        if view is None:
            return
        width = self.plot.vb.width()
        metrics = QFontMetrics(self.chart_style.font(0.9))
        x0, x1 = view.x_range
        if view.bars and width > 0:
            pad = metrics.horizontalAdvance("  ")
            low = min([b.low for b in view.bars] + [view.centre])
            high = max([b.high for b in view.bars] + [view.centre])
            left_px = max(metrics.horizontalAdvance(b.low_text) for b in view.bars) + pad
            right_px = max(metrics.horizontalAdvance(b.high_text) for b in view.bars) + pad
            span, room = high - low, width - left_px - right_px
            if span > 0 and room > width * 0.2:
                x0 = max(min(x0, low - left_px * span / room), 0.0)
                x1 = max(x1, high + right_px * span / room)
        self.set_ranges((x0, x1), (-0.6, max(len(view.bars), 1) - 0.4 + 0.5))
        self._place_centre(view, (x0, x1), width)

    def _place_centre(self, view: TornadoView, x_range: tuple[float, float], width: float) -> None:
        """The centre line's label, its text set once: the whole of it where it fits, else the short one."""
        label = self.centre.label
        chosen: tuple[str, tuple[float, float]] = (view.centre_text, (0.5, 0))
        x0, x1 = x_range
        if view.bars and width > 0 and x1 > x0:
            at = (view.centre - x0) / (x1 - x0) * width  # the line, in pixels from the plot's left
            metrics = QFontMetrics(label.textItem.font())
            fits = (
                (text, anchor)
                for text in (view.centre_text, view.centre_short or view.centre_text)
                for anchor, reach in (((0.5, 0), (0.5, 0.5)), ((0, 0), (0.0, 1.0)), ((1, 0), (1.0, 0.0)))
                if at - reach[0] * (metrics.horizontalAdvance(text) + 8) >= 0
                and at + reach[1] * (metrics.horizontalAdvance(text) + 8) <= width
            )
            chosen = next(fits, (view.centre_short or view.centre_text, (0.5, 0)))
        text, anchor = chosen
        label.anchors = [anchor, anchor]
        set_line_text(self.centre, text)
        label.updatePosition()
