"""The step's critical path before and after the plan: a bar by kind over a strip of the components on it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...present.colours import IDLE, INK, LAUNCH, NOWHERE, OTHER, PALETTE
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.frame import ChartFrame, set_item_text
from ..charts.style import SCREEN, Style

if TYPE_CHECKING:
    from ...present.critical_path import CriticalPathView, PathSegment

# Rows, top down: the baseline's path by kind, its components; the plan's by kind, its components.
KIND_HEIGHT, STRIP_HEIGHT = 0.4, 0.26
ROWS = (
    (1.0, KIND_HEIGHT, True, True),
    (0.63, STRIP_HEIGHT, False, True),
    (0.0, KIND_HEIGHT, True, False),
    (-0.37, STRIP_HEIGHT, False, False),
)
DARK = {IDLE, NOWHERE, LAUNCH, OTHER, PALETTE[5], PALETTE[7], PALETTE[4]}  # light fills: dark labels


class CriticalPathChart(ChartFrame["CriticalPathView"]):
    """Four stacked bars: the path by kind and by component, before and after the plan, labelled where they fit."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=True, y=False, alpha=0.15)
        self.axis_label("bottom", "Time on the critical path")
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.4)
        item.addItem(self.bars)
        item.vb.sigResized.connect(lambda _vb: self._place())
        item.getAxis("left").setTickFont(style.font(1.1, bold=True))
        self.labels: list[pg.TextItem] = []
        self._brushes: dict[str, QBrush] = {}
        self._pen = pg.mkPen("w", width=style.size(1))
        self._metrics = QFontMetrics(style.font(0.9))
        self._view: CriticalPathView | None = None

    def view(self, inputs: ChartInputs, n: Numbers) -> CriticalPathView:
        from ...present.critical_path import TOP, critical_path  # the trace's model loads with the first trace

        return self.named_to_fit(lambda top: critical_path(inputs, n, self.brief, top), TOP)

    def draw(self, view: CriticalPathView) -> None:
        self._view = view
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.axis)
        ticks = ((1.0, f"Baseline\n{view.baseline_text}"), (0.0, f"After\n{view.after_text}"))
        self.set_ticks("left", ticks if view.kinds else ((1.0, "Baseline"), (0.0, "After")))
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        height: list[float] = []
        brushes: list[QBrush] = []
        for row_y, h, by_kind, before in ROWS:
            start = 0.0
            for seg in view.kinds if by_kind else view.components:
                value = seg.before if before else seg.after
                if value <= 0:
                    continue
                x0.append(start)
                y.append(row_y)
                width.append(value)
                height.append(h)
                brushes.append(self._brush(seg.colour))
                start += value
        if x0:
            self.bars.setOpts(x0=x0, y=y, width=width, height=height, brushes=brushes, pens=[self._pen] * len(x0))
        else:  # (pyqtgraph 0.14 fails on an empty pens list)
            self.bars.setOpts(x0=[], y=[], width=[], height=0.4)
        self._place()

    def _brush(self, colour: str) -> QBrush:
        brush = self._brushes.get(colour)
        if brush is None:
            brush = self._brushes[colour] = pg.mkBrush(QColor(colour))
        return brush

    def _x_max(self, view: CriticalPathView) -> float:
        x_max = max(view.x_max, 1e-300) * 1.03
        step = 10.0 ** math.floor(math.log10(x_max)) / 20
        return math.ceil(x_max / step - 1e-9) * step

    def _place(self) -> None:
        view = self._view
        if view is None:
            return
        self.set_ranges((0, self._x_max(view)), (-0.6, 1.3))
        px = self.plot.vb.viewPixelSize()[0]
        placed: list[tuple[str, float, float, bool]] = []
        for row_y, _h, by_kind, before in ROWS:
            start = 0.0
            for seg in view.kinds if by_kind else view.components:
                value = seg.before if before else seg.after
                if value <= 0:
                    continue
                text = self._fitting(seg, value, before, px)
                if text:
                    placed.append((text, start + value / 2, row_y, seg.colour in DARK))
                start += value
        for i, (text, x, row_y, dark) in enumerate(placed):
            label = self._label(i)
            set_item_text(label, text)
            if getattr(label, "_dark", None) != dark:
                label._dark = dark
                label.setColor(INK if dark else "w")
            label.setPos(x, row_y)
        for label in self.labels[len(placed) :]:
            set_item_text(label, "")

    def _fitting(self, seg: PathSegment, value: float, before: bool, px: float) -> str:
        """The segment's name and time where both fit on one line, its time where only that fits, else nothing."""
        if not px:
            return ""
        room = value / px - 8
        time = seg.before_text if before else seg.after_text
        both = f"{seg.label} {time}"
        if room >= self._metrics.horizontalAdvance(both):
            return both
        return time if room >= self._metrics.horizontalAdvance(time) else ""

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color="w", anchor=(0.5, 0.5))
            t.setFont(self.chart_style.font(0.9))
            self.plot.addItem(t)
            self.labels.append(t)
        return self.labels[i]
