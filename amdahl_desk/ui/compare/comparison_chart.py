"""Before and after per component, side by side, with the after-time the plan promised marked on each."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QBrush, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...model.comparison import Comparison
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...present.axes import nice_ceiling
from ...present.comparison import BEFORE_COLOUR, NEEDS_COMPARISON, ComparisonChartView, comparison_chart
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..charts.axis_labels import distinct_elided
from ..charts.frame import ChartFrame, set_item_text
from ..charts.style import INK, SCREEN, Style

BAR = 0.36  # height of one bar; a component's two bars sit ±GAP around its line
GAP = 0.2


class ComparisonChart(ChartFrame[ComparisonChartView]):
    """Two bars per component, before (grey) over after (coloured by verdict); a black tick where the plan said."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.chart_style: Style = style  # typed: ChartFrame's ``style`` shadows QWidget.style() for the checker
        item = self.plot
        item.showGrid(x=True, y=False, alpha=0.15)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR)
        item.addItem(self.bars)
        self.promised = pg.PlotDataItem([], [], pen=style.pen(INK, 3), connect="finite")
        self.promised.setZValue(10)
        item.addItem(self.promised)
        self.labels: list[pg.TextItem] = []
        self._ends: list[tuple[float, float, str]] = []  # (x where the label starts, y, text)
        item.vb.sigResized.connect(lambda _vb: self._fit())
        # Room on the left for the names: the axis sizes itself to them, the widget edge must not cut them.
        item.setContentsMargins(style.size(6), 0, 0, 0)
        self._names: list[tuple[float, str]] = []
        self._brushes: dict[str, QBrush] = {}

    def view(self, inputs: ChartInputs, n: Numbers) -> ComparisonChartView:
        if inputs.comparison is None:
            raise ProfileError(NEEDS_COMPARISON)
        return comparison_chart(inputs.comparison, n, self.brief)

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color=INK, anchor=(0, 0.5))
            t.setFont(self.chart_style.font(0.95))
            self.plot.addItem(t)
            self.labels.append(t)
        return self.labels[i]

    def show_comparison(self, c: Comparison) -> None:
        """Draw ``c`` (the comparison tab's own chart, drawn whenever its session changes)."""
        self.show_inputs(ChartInputs(Profile(), None, comparison=c))

    def draw(self, view: ComparisonChartView) -> None:
        rows = view.groups
        count = len(rows)
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        brushes = []
        px: list[float] = []
        py: list[float] = []
        self._ends = []
        for i, g in enumerate(rows):
            line = count - 1 - i  # the first component on top
            if not math.isnan(g.before):
                x0.append(0.0)
                y.append(line + GAP)
                width.append(g.before)
                brushes.append(self._brush(BEFORE_COLOUR))
                self._ends.append((g.before, line + GAP, g.before_text))
            if not math.isnan(g.after):
                x0.append(0.0)
                y.append(line - GAP)
                width.append(g.after)
                brushes.append(self._brush(g.colour))
            if not math.isnan(g.promised):
                px += [g.promised, g.promised, math.nan]
                py += [line - GAP - BAR * 0.72, line - GAP + BAR * 0.72, math.nan]
            if not math.isnan(g.after) or g.after_text == "gone":
                end = max(0.0 if math.isnan(g.after) else g.after, 0.0 if math.isnan(g.promised) else g.promised)
                self._ends.append((end, line - GAP, g.after_text))
        self.bars.setOpts(x0=x0, y=y, width=width, brushes=brushes, pens=[pg.mkPen("w", width=0)] * len(x0))
        self.promised.setData(px, py)
        self._names = [(float(count - 1 - i), g.name) for i, g in enumerate(rows)]
        self.axis_label("bottom", view.axis)
        self._ylim = (-0.65, count - 0.35)
        for t in self.labels:
            set_item_text(t, "")
        for i, (x, yy, text) in enumerate(self._ends):
            label = self._label(i)
            set_item_text(label, text)
            label.setPos(x, yy)
        self._fit()
        self.set_legend(view.legend)
        self.set_title(view.title)

    def _brush(self, colour: str) -> QBrush:
        brush = self._brushes.get(colour)
        if brush is None:
            brush = self._brushes[colour] = pg.mkBrush(colour)
        return brush

    def _fit(self) -> None:
        """Names elided to a share of the width; room on the right for the longest label beyond its bar."""
        if not self._ends:
            return
        names = QFontMetrics(self.chart_style.font())
        most = max(self.width() * 0.3, names.horizontalAdvance("Autoregressive…"))
        shown = distinct_elided(names, [name for _, name in self._names], round(most))
        self.set_ticks("left", [(y, text) for (y, _), text in zip(self._names, shown, strict=True)])
        pixels = max(self.plot.vb.width(), 1.0)
        metrics = QFontMetrics(self.chart_style.font(0.95))
        # Bars too thin for a label each: the after bars keep theirs (time and measured k), the before bars not.
        ylo, yhi = self._ylim
        bar_px = self.plot.vb.height() / (yhi - ylo) * 2 * GAP
        crowded = bar_px < metrics.height()
        for label, (_end, y, text) in zip(self.labels, self._ends, strict=False):
            set_item_text(label, "" if crowded and (y - round(y)) > 0 else text)
        xmax = 0.0
        for end, _y, text in self._ends:
            share = (metrics.horizontalAdvance(text) + self.chart_style.size(14)) / pixels
            xmax = max(xmax, end / (1 - share) if share < 0.75 else end * 4)
        self.set_ranges((0.0, nice_ceiling(xmax)), self._ylim)
