"""Before and after per component, side by side, with the after-time the plan promised marked on each."""

from __future__ import annotations

import html
import math
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.comparison import Comparison, Status
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...model.units import format_speedup, format_time
from ..charts.base import ChartInputs
from ..charts.chart_style import INK, SCREEN, ChartFrame, Style, nice_ceiling, set_item_text

TOP = 10  # components shown by name (the largest, in the table's order); the rest are one "other" pair
BEFORE_COLOUR = "#b3bfcc"
STATUS_BAR = {
    Status.MET: "#2e8b57",
    Status.SHORT: "#d9822b",
    Status.REGRESSED: "#c0392b",
    Status.UNCHANGED: "#6b7785",
    Status.ADDED: "#1f5fa8",
    Status.REMOVED: "#6b7785",
}
OTHER_BAR = "#8a8f98"
BAR = 0.36  # height of one bar; a component's two bars sit ±GAP around its line
GAP = 0.2
NEEDS_COMPARISON = "this chart compares two profiles: open the after profile with File → Compare With…"


class Group(NamedTuple):
    name: str
    before: float
    after: float
    promised: float
    status: Status | None  # None: several components lumped together
    after_text: str


def groups(c: Comparison, top: int = TOP) -> list[Group]:
    """The chart's rows: the ``top`` largest components in the table's order, then the rest as one."""
    unit = c.unit

    def text(after: float, k: str) -> str:
        return f"{format_time(after, unit)} · {k}" if k else format_time(after, unit)

    def k_text(status: Status, measured: float | None, eliminated: bool) -> str:
        if status is Status.ADDED:
            return "new"
        if status is Status.REMOVED:
            return "gone"
        return "eliminated" if eliminated else format_speedup(measured) if measured is not None else ""

    rows = list(c.rows)
    size = [max(r.before or 0.0, r.after or 0.0) for r in rows]
    order = np.argsort(-np.asarray(size), kind="stable")
    shown = sorted(int(i) for i in order[:top])
    out = [
        Group(
            r.name,
            math.nan if r.before is None else r.before,
            math.nan if r.after is None else r.after,
            math.nan if r.predicted_after is None else r.predicted_after,
            r.status,
            text(r.after or 0.0, k_text(r.status, r.measured_k, r.eliminated)),
        )
        for r in (rows[i] for i in shown)
    ]
    rest = [rows[int(i)] for i in order[top:]]
    if rest:
        before = math.fsum(r.before or 0.0 for r in rest)
        after = math.fsum(r.after or 0.0 for r in rest)
        promised = math.fsum(r.predicted_after or 0.0 for r in rest)
        k = format_speedup(before / after) if after > 0 else ""
        out.append(Group(f"{len(rest):,} other components", before, after, promised, None, text(after, k)))
    return out


class ComparisonChart(ChartFrame):
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
        self.comparison: Comparison | None = None
        self._names: list[tuple[float, str]] = []

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        raise ProfileError(NEEDS_COMPARISON)

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color=INK, anchor=(0, 0.5))
            t.setFont(self.chart_style.font(0.95))
            self.plot.addItem(t)
            self.labels.append(t)
        return self.labels[i]

    def show_inputs(self, inputs: ChartInputs) -> None:
        if inputs.comparison is None:
            raise ProfileError(NEEDS_COMPARISON)
        self.show_comparison(inputs.comparison, inputs.profile.settings.boundary)

    def show_comparison(self, c: Comparison, boundary: str = "") -> None:
        """Draw ``c`` (``boundary`` is for the slide's subtitle; the chart has none)."""
        self.comparison = c
        unit = c.unit
        rows = groups(c)
        n = len(rows)
        x0: list[float] = []
        y: list[float] = []
        width: list[float] = []
        brushes = []
        px: list[float] = []
        py: list[float] = []
        self._ends = []
        for i, g in enumerate(rows):
            line = n - 1 - i  # the first component on top
            if not math.isnan(g.before):
                x0.append(0.0)
                y.append(line + GAP)
                width.append(g.before)
                brushes.append(pg.mkBrush(BEFORE_COLOUR))
                self._ends.append((g.before, line + GAP, format_time(g.before, unit)))
            if not math.isnan(g.after):
                x0.append(0.0)
                y.append(line - GAP)
                width.append(g.after)
                brushes.append(pg.mkBrush(STATUS_BAR[g.status] if g.status is not None else OTHER_BAR))
            if not math.isnan(g.promised):
                px += [g.promised, g.promised, math.nan]
                py += [line - GAP - BAR * 0.72, line - GAP + BAR * 0.72, math.nan]
            if not math.isnan(g.after) or g.status is Status.REMOVED:
                end = max(0.0 if math.isnan(g.after) else g.after, 0.0 if math.isnan(g.promised) else g.promised)
                self._ends.append((end, line - GAP, g.after_text if not math.isnan(g.after) else "gone"))
        self.bars.setOpts(x0=x0, y=y, width=width, brushes=brushes, pens=[pg.mkPen("w", width=0)] * len(x0))
        self.promised.setData(px, py)
        self._names = [(float(n - 1 - i), g.name) for i, g in enumerate(rows)]
        self.axis_label("bottom", f"Time ({unit.label})")
        self._ylim = (-0.65, n - 0.35)
        for t in self.labels:
            set_item_text(t, "")
        for i, (x, yy, text) in enumerate(self._ends):
            label = self._label(i)
            set_item_text(label, text)
            label.setPos(x, yy)
        self._fit()
        self._legend(rows)
        head = f"Before and after: {format_time(c.before_total, unit)} → {format_time(c.after_total, unit)}"
        plan = f" (the plan promised {format_time(c.predicted_total, unit)})"
        if self.chart_style.brief:
            self.set_title(head + plan)
        else:
            self.set_title(
                f"{head}{plan}: predicted {format_speedup(c.predicted_speedup)}, "
                f"measured {format_speedup(c.measured_speedup)}"
            )

    def _fit(self) -> None:
        """Names elided to a share of the width; room on the right for the longest label beyond its bar."""
        if not self._ends:
            return
        names = QFontMetrics(self.chart_style.font())
        most = max(self.width() * 0.3, names.horizontalAdvance("Autoregressive…"))
        self.set_ticks(
            "left", [(y, names.elidedText(name, Qt.TextElideMode.ElideRight, round(most))) for y, name in self._names]
        )
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

    def _legend(self, rows: list[Group]) -> None:
        present = []
        for status in (Status.MET, Status.SHORT, Status.REGRESSED, Status.UNCHANGED, Status.ADDED):
            if any(g.status is status for g in rows):
                present.append((STATUS_BAR[status], f"after: {status.label}"))
        entries = [(BEFORE_COLOUR, "■", "before")] + [(colour, "■", name) for colour, name in present]
        entries.append((INK.name(), "┃", "promised by the plan"))
        text = " &nbsp;&nbsp; ".join(
            f'<span style="white-space: nowrap;"><span style="color:{colour}; font-weight: bold;">{mark}</span>'
            f"&nbsp;{html.escape(name)}</span>"
            for colour, mark, name in entries
        )
        if self.legend_label.text() != text:
            self.legend_label.setText(text)
