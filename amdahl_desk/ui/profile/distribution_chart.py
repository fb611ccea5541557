"""The distribution of the ticked plan's new time: the draws' histogram, the share meeting the target shaded, the
target line and p5 / median / p95 marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextOption
from PySide6.QtWidgets import QWidget

from ...present.axes import nice_ceiling
from ...present.colours import GREEN, MISSES
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.frame import ChartFrame, set_item_text
from ..charts.style import GREY, INK, LABEL_FILL, RED, SCREEN, Style

if TYPE_CHECKING:
    from ...present.uncertainty_charts import DistributionView

ROOM = 4  # pixels between the labels' rows, and above the first


class DistributionChart(ChartFrame["DistributionView"]):
    """Bars of the share of draws per bin of new time; green where the bin meets the target, grey where not."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=False, y=True, alpha=0.15)
        self.bars = pg.BarGraphItem(x=[], height=[], width=1.0)
        item.addItem(self.bars)
        self._brushes = {True: pg.mkBrush(QColor(GREEN)), False: pg.mkBrush(QColor(MISSES))}
        self._pen = pg.mkPen("w", width=style.size(0.5))
        self.target = self._line(RED, Qt.PenStyle.DashLine)
        # p5, median, p95: dotted. The lines' labels are items of their own, above every line and each on a row of
        # its own (the target's at the top, then p5, median, p95, above the bars: the share axis leaves the top of
        # the plot to them), so that no label covers a bar or another label and no line runs through a label.
        self.marks = [self._line(GREY, Qt.PenStyle.DotLine) for _ in range(3)]
        self.tags: list[pg.TextItem] = []
        for colour in (RED, GREY, GREY, GREY):
            tag = pg.TextItem(color=colour, anchor=(0, 0.5), fill=LABEL_FILL)
            tag.setFont(style.font(0.95))
            tag.setZValue(30)
            item.addItem(tag, ignoreBounds=True)
            self.tags.append(tag)
        self.note = pg.TextItem(color=INK, anchor=(0.5, 0.5))
        self.note.setFont(style.font(0.95))
        self.note.textItem.document().setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignHCenter))  # wrapped
        item.addItem(self.note, ignoreBounds=True)
        self._view: DistributionView | None = None
        self._at: dict[pg.TextItem, float] = {}  # each label's line
        item.vb.sigResized.connect(lambda _vb: self._place())  # the rows are in pixels: placed again at each size
        cap_ticks(item.getAxis("left"), 100.0)  # a share: the room above 100% is the labels', not a value to read

    def _line(self, colour: QColor, style: Qt.PenStyle) -> pg.InfiniteLine:
        line = pg.InfiniteLine(angle=90, pen=self.chart_style.pen(colour, 2, style))  # its label: one of the tags
        self.plot.addItem(line, ignoreBounds=True)
        return line

    def view(self, inputs: ChartInputs, n: Numbers) -> DistributionView:
        from ...present.uncertainty_charts import distribution  # the draws' module loads with the first range

        return distribution(inputs, n, self.brief)

    def draw(self, view: DistributionView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.x_axis)
        self.axis_label("left", view.y_axis)
        if view.centres:
            brushes = [self._brushes[m] for m in view.meets]
            self.bars.setOpts(
                x=list(view.centres),
                height=list(view.heights),
                width=view.width,
                brushes=brushes,
                pens=[self._pen] * len(brushes),
            )
        else:  # (pyqtgraph 0.14 fails on an empty pens list)
            self.bars.setOpts(x=[], height=[], width=1.0)
        target = next((line for line in view.lines if line.target), None)
        others = [line for line in view.lines if not line.target]
        middle = (view.x_range[0] + view.x_range[1]) / 2
        for mark, tag, line in zip(
            (self.target, *self.marks), self.tags, [target, *others, None, None, None], strict=False
        ):
            mark.setVisible(line is not None)
            tag.setVisible(line is not None)
            if line is None:
                self._at.pop(tag, None)
                continue
            mark.setPos(line.x)
            self._at[tag] = line.x
            set_item_text(tag, line.label)
            # On the side of its line towards the middle of the plot: by the left edge (a target of 600 ms in a
            # plot from 480 ms) or the right (p95) it would otherwise run out of it.
            tag.setAnchor((0.0, 0.5) if line.x < middle else (1.0, 0.5))
        set_item_text(self.note, view.note)
        self._view = view
        self._place()

    def _place(self) -> None:
        """The labels on rows of their own from the top of the plot down, the share axis tall enough that the bars
        stay under the last row; the note under the rows."""
        view = self._view
        if view is None:
            return
        height, width = self.plot.vb.height(), self.plot.vb.width()
        labelled = [tag for tag in self.tags if tag in self._at]  # the target's first, then p5, median, p95
        row = max((tag.boundingRect().height() for tag in labelled), default=0.0) + ROOM
        # Each label on the first row where it meets no label already there (the target's and p95's far apart
        # share the top row); the rows take at most 0.6 of a low plot: the labels that do not fit go (the last
        # first; their lines stay, and the summary and the report say the same figures), so none falls onto the bars.
        fit = len(labelled) if height <= 0 else max(0, min(len(labelled), int((0.6 * height - ROOM) / row - 0.5)))
        units = (view.x_range[1] - view.x_range[0]) / width if width > 0 else 0.0  # data units per pixel
        rows: list[list[tuple[float, float]]] = []
        placed: dict[pg.TextItem, int] = {}
        for tag in labelled:
            wide = (tag.boundingRect().width() + 2 * ROOM) * units
            x = self._at[tag]
            span = (x, x + wide) if tag.anchor.x() < 0.5 else (x - wide, x)
            at = next(
                (i for i, taken in enumerate(rows) if all(span[1] <= a or span[0] >= b for a, b in taken)), len(rows)
            )
            if at >= fit:
                continue
            if at == len(rows):
                rows.append([])
            rows[at].append(span)
            placed[tag] = at
        shown = [tag for tag in labelled if tag in placed]
        for tag in labelled:
            tag.setVisible(tag in shown)
        band = ROOM + row * (len(rows) + 0.5) if shown else 0.0  # the rows and half a row's gap above the bars
        top = view.y_range[1]
        tallest = max(view.heights, default=0.0)
        if 0 < band < height:
            top = max(top, nice_ceiling(tallest / (1 - band / height)))  # raised in a low plot, to a round step
        self.set_ranges(view.x_range, (view.y_range[0], top))
        share = 1 / height if height > 0 else 0.0
        # The lines end under the rows of labels: a label lies across no other line (a target between p5 and the
        # median, a p5 label wider than its gap to the target).
        end = 1.0 - band * share if 0 < band < height else 1.0
        for mark in (self.target, *self.marks):
            mark.setSpan(0.0, end)
        for tag in shown:
            tag.setPos(self._at[tag], top * (1 - (ROOM + row * (placed[tag] + 0.5)) * share))
        self._place_note(view, top * (1 - band * share) * 0.85)  # under the rows

    def _place_note(self, view: DistributionView, y: float) -> None:
        """The note centred in the plot when it crosses no line there; else in the widest room between the lines
        (and the plot's edges), wrapped to it: one bar with its line in the middle (every draw the same) left the
        sentence across the line."""
        width = self.plot.vb.width()
        lo, hi = view.x_range
        if width <= 0 or hi <= lo or not view.note:
            self.note.setPos((lo + hi) / 2, y)
            return
        self.note.setTextWidth(-1)  # on one line, to measure
        units = (hi - lo) / width  # data units per pixel
        wide = self.note.boundingRect().width() * units
        lines = sorted(m.value() for m in (self.target, *self.marks) if m.isVisible())
        middle = (lo + hi) / 2
        if not any(abs(x - middle) <= wide / 2 + ROOM * units for x in lines):
            self.note.setPos(middle, y)
            return
        edges = [lo, *(x for x in lines if lo < x < hi), hi]
        a, b = max(zip(edges[:-1], edges[1:], strict=False), key=lambda gap: gap[1] - gap[0])
        self.note.setTextWidth(max((b - a) / units - 8 * ROOM, 80.0))
        self.note.setPos((a + b) / 2, y)


def cap_ticks(axis: pg.AxisItem, most: float) -> None:
    """No tick (nor grid line) above ``most`` on ``axis``: pyqtgraph's own spacing, its values past ``most`` left out."""
    values = axis.tickValues

    def capped(low: float, high: float, size: float) -> list[tuple[float, list[float]]]:
        return [(spacing, [v for v in ticks if v <= most * (1 + 1e-9)]) for spacing, ticks in values(low, high, size)]

    axis.tickValues = capped
