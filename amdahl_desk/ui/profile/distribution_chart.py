"""The distribution of the ticked plan's new time: the draws' histogram, the share meeting the target shaded, the
target line and p5 / median / p95 marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.style import GREY, INK, RED, SCREEN, Style

if TYPE_CHECKING:
    from ...present.uncertainty_charts import DistributionView

MEETS, MISSES = "#2e8b57", "#9aa4b1"  # as present/uncertainty_charts.py names them in the legend


class DistributionChart(ChartFrame["DistributionView"]):
    """Bars of the share of draws per bin of new time; green where the bin meets the target, grey where not."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=False, y=True, alpha=0.15)
        self.bars = pg.BarGraphItem(x=[], height=[], width=1.0)
        item.addItem(self.bars)
        self._brushes = {True: pg.mkBrush(QColor(MEETS)), False: pg.mkBrush(QColor(MISSES))}
        self._pen = pg.mkPen("w", width=style.size(0.5))
        self.target = self.marker_line(90, RED, Qt.PenStyle.DashLine, 0.96, (1, 0))
        # p5, median, p95: dotted, labelled low in the plot so they do not meet the target's label at its top.
        self.marks = [self.marker_line(90, GREY, Qt.PenStyle.DotLine, 0.5 - 0.14 * i, (0, 0.5)) for i in range(3)]
        self.note = pg.TextItem(color=INK, anchor=(0.5, 0.5))
        self.note.setFont(style.font(0.95))
        item.addItem(self.note, ignoreBounds=True)

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
        self.target.setVisible(target is not None)
        if target is not None:
            self.target.setPos(target.x)
            set_line_text(self.target, target.label)
        others = [line for line in view.lines if not line.target]
        for mark, line in zip(self.marks, others + [None] * len(self.marks), strict=False):
            mark.setVisible(line is not None)
            if line is not None:
                mark.setPos(line.x)
                set_line_text(mark, line.label)
        self.set_ranges(view.x_range, view.y_range)
        middle = (view.x_range[0] + view.x_range[1]) / 2
        for line in (self.target, *self.marks):
            # Each label on the side of its line towards the middle of the plot: one by the left edge (a
            # target of 600 ms in a plot from 480 ms) or by the right (p95) would otherwise run out of it.
            height = line.label.anchors[0][1]
            side = (0.0, height) if line.value() < middle else (1.0, height)
            if line.label.anchors[0] != side:
                line.label.anchors = [side, side]
                line.label.updatePosition()
        set_item_text(self.note, view.note)
        self.note.setPos((view.x_range[0] + view.x_range[1]) / 2, view.y_range[1] * 0.85)
