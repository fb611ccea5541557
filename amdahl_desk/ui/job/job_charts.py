"""A job's charts: every rank's step time at every step (a heat map with its colour scale, the straggler's row
outlined and named), where each rank's step goes (stacked bars, the straggler's cost stated under the title), and
each collective's transfer against its skew. Views from ``present/job_charts``; drawn from ``ChartInputs.job``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ...present.colours import MUTED, RED
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.text import tied
from ..charts.frame import ChartFrame, set_item_text
from ..charts.style import INK, SCREEN, Style

if TYPE_CHECKING:
    from ...present.job_charts import RankBarsView, SkewView, StepMapView

HEAT = ("#fff7bc", "#fec44f", "#ec7014", "#8c2d04")  # short steps pale, long ones dark
STRAGGLER = RED
SCALE_STEPS = 64  # the colour bar's rectangles
MANY_BARS = 100  # from this many ranks their bars have no white outline


def fitting_ticks(
    ticks: tuple[tuple[float, str], ...], units_per_px: float, line_px: float, keep: float | None
) -> list[tuple[float, str]]:
    """As many of ``ticks`` (one per row, in order) as fit one text line apart at this scale, evenly spaced;
    the tick at ``keep`` (the straggler's) always, its neighbours giving way."""
    if not ticks or units_per_px <= 0:
        return list(ticks)
    gap = abs(ticks[1][0] - ticks[0][0]) if len(ticks) > 1 else 1.0
    rows_per_line = line_px * 1.3 * units_per_px / gap
    every = max(1, math.ceil(rows_per_line))
    kept = [t for i, t in enumerate(ticks) if i % every == 0]
    if keep is not None:
        room = every * gap
        kept = [t for t in kept if abs(t[0] - keep) >= room * 0.999] + [t for t in ticks if t[0] == keep]
    return sorted(kept)


def padded(low: float, high: float, height_px: float, line_px: float) -> tuple[float, float]:
    """The range ``low``–``high`` with room for half a line of text at each end (a row's label at the edge whole)."""
    if height_px <= line_px + 4:
        return low, high
    pad = (line_px / 2 + 2) * (high - low) / (height_px - line_px - 4)
    return low - pad, high + pad


class StepMapChart(ChartFrame["StepMapView"]):
    """Ranks down, steps across, each cell its step time in colour; a colour bar says what the colours are.

    Cells and the colour bar are rectangles, not an image: an SVG or PDF keeps them as vectors, sharp at any size."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        p = self.plot
        p.showGrid(x=False, y=False)
        # rank 0 at the top, as a table reads: row i is drawn from rows − i − 1 to rows − i (not invertY: a reversed
        # axis counts its range backwards)
        self.cmap = pg.ColorMap(np.linspace(0, 1, len(HEAT)), [QColor(c) for c in HEAT])
        self.cells = pg.BarGraphItem(x0=[], y0=[], width=[], height=[])
        p.addItem(self.cells)
        self.bar = pg.ColorBarItem(values=(0, 1), colorMap=self.cmap, interactive=False, width=int(style.size(14)))
        self.bar.bar.setVisible(False)  # its pixmap: drawn here as rectangles instead
        scale = np.linspace(0, 1, SCALE_STEPS, endpoint=False) + 0.5 / SCALE_STEPS
        height = 256 / SCALE_STEPS
        self.bar.addItem(
            pg.BarGraphItem(
                x0=[0.0] * SCALE_STEPS,
                y0=[i * height for i in range(SCALE_STEPS)],
                width=1.0,
                height=[height * 1.5] * (SCALE_STEPS - 1) + [height],  # overlapping: no seam between steps
                brushes=[pg.mkBrush(c) for c in self.cmap.map(scale, mode="qcolor")],
                pen=pg.mkPen(None),
            )
        )
        self.bar.setImageItem([], insert_in=p)
        self.bar.axis.setTickFont(style.font())
        self.bar.axis.setTextPen(pg.mkPen(INK))
        self.outline = pg.PlotCurveItem(pen=style.pen(STRAGGLER, 2.5))
        p.addItem(self.outline)
        self._line = QFontMetrics(style.font()).height()
        self._view: StepMapView | None = None
        p.vb.sigResized.connect(lambda _vb: self._place())

    def _place(self) -> None:
        view = self._view
        if view is None:
            return
        rows, cols = len(view.values), len(view.values[0]) if view.values else 0
        keep = rows - view.marked_row - 0.5 if view.marked_row >= 0 else None
        height = self.plot.vb.height()
        self.set_ranges((0, max(cols, 1)), padded(0, max(rows, 1), height, self._line))
        per_px = (max(rows, 1) / height) if height > 0 else 0.0
        flipped = tuple((rows - y, text) for y, text in view.row_ticks)  # rank 0 first, at the top
        self.set_ticks("left", fitting_ticks(flipped, per_px, self._line, keep))

    def view(self, inputs: ChartInputs, n: Numbers) -> StepMapView:
        from ...present.job_charts import step_map

        return step_map(inputs.job, n, self.brief)

    def draw(self, view: StepMapView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.x_label)
        self.axis_label("left", view.y_label)
        self.bar.setLabel("right", view.scale_label, **{"font-size": self.chart_style.css_size()})
        values = np.array(view.values, dtype=float) if view.values else np.zeros((0, 0))
        rows, cols = values.shape if values.ndim == 2 else (0, 0)
        if rows and cols:
            ys, xs = np.divmod(np.arange(rows * cols), cols)
            ys = rows - 1 - ys
            shade = np.clip((values.ravel() - view.low) / (view.high - view.low), 0, 1)
            brushes = [pg.mkBrush(c) for c in self.cmap.map(shade, mode="qcolor")]
            self.cells.setOpts(
                x0=xs.astype(float), y0=ys.astype(float), width=1.0, height=1.0, brushes=brushes, pens=None,
                pen=pg.mkPen(None),
            )  # fmt: skip
        else:
            self.cells.setOpts(x0=[], y0=[], width=[], height=[])
        self.bar.setLevels((view.low, view.high))
        self.bar.axis.setTicks([list(view.scale_ticks)])
        # as wide as its widest number, the tick, and its title's line: else pyqtgraph leaves the numbers out
        # (a slide's large text) or draws the title over them (the window's)
        metrics = QFontMetrics(self.chart_style.font())
        widest = max((metrics.horizontalAdvance(text) for _, text in view.scale_ticks), default=0)
        self.bar.axis.setWidth(int(widest + metrics.height() * 2 + self.chart_style.size(10)))
        self._view = view
        self.set_ticks("bottom", view.column_ticks)
        if view.marked_row >= 0:
            r = rows - 1 - view.marked_row
            self.outline.setData([0, cols, cols, 0, 0], [r, r, r + 1, r + 1, r])
        else:
            self.outline.setData([], [])
        self._place()


class RankBarsChart(ChartFrame["RankBarsView"]):
    """One stacked bar per rank: GPU compute, communication, waiting and the rest of its step."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.plot.showGrid(x=True, y=False, alpha=0.15)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7)
        self.plot.addItem(self.bars)
        # the job's step: its legend entry names it (a label on the line would lie across the bars' ends)
        self.job_step = pg.InfiniteLine(angle=90, pen=style.pen(INK, 1.5, Qt.PenStyle.DashLine))
        self.job_step.setZValue(10)
        self.plot.addItem(self.job_step, ignoreBounds=True)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.note.setFont(style.font())
        self.note.setStyleSheet(f"color: {STRAGGLER}; background: {style.background or 'transparent'};")
        layout = self.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(1, self.note)
        self._pen = pg.mkPen("w", width=style.size(0.5))
        self._marked = style.pen(STRAGGLER, 2)
        self._no_pen = pg.mkPen(None)
        self._line = QFontMetrics(style.font()).height()
        self._view: RankBarsView | None = None
        self.plot.vb.sigResized.connect(lambda _vb: self._place())

    def _place(self) -> None:
        view = self._view
        if view is None:
            return
        keep = next((float(len(view.bars) - 1 - i) for i, b in enumerate(view.bars) if b.straggler), None)
        count, height = max(len(view.bars), 1), self.plot.vb.height()
        self.set_ranges((0, view.x_max * 1.04), padded(-0.6, count - 0.4, height, self._line))
        per_px = count / height if height > 0 else 0.0
        self.set_ticks("left", fitting_ticks(view.ticks, per_px, self._line, keep))

    def view(self, inputs: ChartInputs, n: Numbers) -> RankBarsView:
        from ...present.job_charts import rank_bars

        return rank_bars(inputs.job, n, self.brief)

    def draw(self, view: RankBarsView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.axis)
        self.note.setText(tied(view.note))
        self.note.setVisible(bool(view.note))
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        brushes: list[QBrush] = []
        pens = []
        count = len(view.bars)
        plain = self._pen if count < MANY_BARS else self._no_pen  # thin rows: an outline would hide the bar
        for i, b in enumerate(view.bars):
            start = 0.0
            for value, colour in zip(b.parts, view.colours, strict=True):
                if value <= 0:
                    continue
                x0.append(start)
                y.append(count - 1 - i)
                width.append(value)
                brushes.append(pg.mkBrush(colour))
                pens.append(self._marked if b.straggler else plain)
                start += value
        if x0:
            height = 0.7 if count < 200 else 1.0
            self.bars.setOpts(x0=x0, y=y, width=width, height=height, brushes=brushes, pens=pens)
        else:  # (pyqtgraph 0.14 fails on an empty pens list)
            self.bars.setOpts(x0=[], y=[], width=[], height=0.7)
        self.job_step.setVisible(view.job_step is not None)
        if view.job_step is not None:
            self.job_step.setPos(view.job_step)
        self._view = view
        self._place()


class SkewChart(ChartFrame["SkewView"]):
    """Per collective three bars: its mean transfer, its mean skew and its largest skew."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.plot.showGrid(x=True, y=False, alpha=0.15)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.25)
        self.plot.addItem(self.bars)
        self.empty = pg.TextItem(color=MUTED, anchor=(0.5, 0.5))
        self.empty.setFont(style.font())
        self.plot.addItem(self.empty)
        self._pen = pg.mkPen("w", width=style.size(0.5))

    def view(self, inputs: ChartInputs, n: Numbers) -> SkewView:
        from ...present.job_charts import collective_skew

        return collective_skew(inputs.job, n, self.brief)

    def draw(self, view: SkewView) -> None:
        self.set_title(view.title)
        self.set_legend(view.legend)
        self.axis_label("bottom", view.axis)
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        brushes: list[QBrush] = []
        count = len(view.rows)
        for i, row in enumerate(view.rows):
            top = count - 1 - i
            for j, (value, colour) in enumerate(zip(row.values, view.colours, strict=True)):
                x0.append(0.0)
                y.append(top + 0.27 - 0.27 * j)
                width.append(max(value, 0.0))
                brushes.append(pg.mkBrush(colour))
        if x0:
            self.bars.setOpts(x0=x0, y=y, width=width, height=0.25, brushes=brushes, pens=[self._pen] * len(x0))
        else:
            self.bars.setOpts(x0=[], y=[], width=[], height=0.25)
        self.set_ticks("left", tuple((float(count - 1 - i), r.label) for i, r in enumerate(view.rows)))
        set_item_text(self.empty, view.empty)
        self.empty.setPos(view.x_max * 0.5, 0)
        self.set_ranges((0, view.x_max * 1.04), (-0.6, max(count, 1) - 0.4))
