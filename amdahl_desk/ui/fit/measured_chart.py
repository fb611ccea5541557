"""What the measured-scaling charts share: layers a legend click hides, the runs with their spread, the peak."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from ...present import colours
from ...present.measured import MeasuredView
from ..charts.callouts import clear_line_labels, curve_points
from ..charts.chart_items import set_series
from ..charts.frame import ChartFrame, set_item_text, set_line_text
from ..charts.legend_text import join_entries, legend_entry
from ..charts.style import INK, LABEL_FILL, RED, SCREEN, Style

PURPLE = QColor(colours.PURPLE)
PEAK_BELOW = -0.8  # the peak's label this much of its height under its star
MARKS = {"line": "━━", "dash": "╺╸╺╸", "dot": "┅┅", "star": "★", "point": "●", "bar": "┃"}


class MeasuredChart(ChartFrame[MeasuredView]):
    """A chart of measured runs drawn from a :class:`MeasuredView`: curves by layer key, the runs and their
    spread, a peak and horizontal reference lines.

    On screen each legend entry is a link that hides or shows its layer; exports draw every layer.
    """

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.look = style  # ChartFrame's ``style`` shadows QWidget.style() for type checkers; the same object
        self.items: dict[str, tuple[pg.GraphicsObject, ...]] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.lines: dict[str, pg.InfiniteLine] = {}
        self.hidden: set[str] = set()
        self.interactive = style.text_px is None
        # Short titles and fewer ticks on a slide, where the chart has a third of the width.
        self.brief = not self.interactive and style.brief
        self.spread = pg.ErrorBarItem(pen=style.pen(INK, 1.5))
        self.runs = self.points_item()
        self.peak = self.points_item(RED, "star", 16)
        # Under its star: the fits bend down on either side of the peak, and what runs above it (the ideal line,
        # the profile's model) would cross a label put over it.
        self.peak_label = pg.TextItem(color=RED, anchor=(0.5, PEAK_BELOW), fill=LABEL_FILL)
        self.peak_label.setFont(style.font(0.95, bold=True))
        for item in (self.spread, self.runs, self.peak, self.peak_label):
            self.plot.addItem(item)
        self._view: MeasuredView | None = None
        # The lines' labels are placed in pixels: again whenever the plot's size changes.
        self.plot.vb.sigResized.connect(lambda _vb: self.place_line_labels())
        if self.interactive:
            self.legend_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
            self.legend_label.setToolTip("Click an entry to hide or show it")
            self.legend_label.linkActivated.connect(self.toggle_layer)

    def add_curve(self, key: str, pen: object) -> pg.PlotDataItem:
        item = self.plot.plot(pen=pen)
        self.curves[key] = item
        return item

    def add_line(self, key: str, color: QColor, style: Qt.PenStyle) -> pg.InfiniteLine:
        line = self.marker_line(0, color, style, 0.03, (0, 1))
        self.lines[key] = line
        return line

    def draw(self, view: MeasuredView) -> None:
        self._view = view
        self.set_title(view.title)
        self.axis_label("bottom", view.x_axis)
        self.axis_label("left", view.y_axis)
        given = dict(view.curves)
        for key, item in self.curves.items():
            set_series(item, given.get(key))
        set_series(self.runs, view.points)
        s = view.spread
        if s.x:
            x, mean, low, high = (np.array(a) for a in (s.x, s.mean, s.low, s.high))
            self.spread.setData(x=x, y=mean, top=high - mean, bottom=mean - low, beam=0)
        else:
            self.spread.setData(x=np.zeros(0), y=np.zeros(0), top=0, bottom=0)
        peak = view.peak
        self.peak.setData([peak.x] if peak else [], [peak.y] if peak else [])
        set_item_text(self.peak_label, peak.text if peak else "")
        if peak is not None:
            self.peak_label.setPos(peak.x, peak.y)
            self.peak_label.setAnchor((1.0 if view.peak_on_left else 0.5, PEAK_BELOW))
        lines = dict(view.lines)
        for key, line in self.lines.items():
            mark = lines.get(key)
            if mark is not None:
                line.setPos(mark.y)
                set_line_text(line, mark.text)
        self.set_ticks("bottom", view.x_ticks)
        self.set_ticks("left", view.y_ticks)
        self.set_ranges(view.x_range, view.y_range)
        self._apply_layers()
        self.place_line_labels()

    def place_line_labels(self) -> None:
        """Each line's label (the limit γ/α, the ideal) along its line where no curve or point runs through it."""
        vb = self.plot.vb
        if self._view is None or vb.width() < 10 or vb.height() < 10:  # not laid out yet: placed at its resize
            return
        shown = [c for c in self.curves.values() if c.isVisible()]
        points = [curve_points(vb, c) for c in shown]
        clear_line_labels(vb, list(self.lines.values()), np.concatenate(points) if points else np.empty((0, 2)))

    # -- layers ------------------------------------------------------------
    def _items(self, key: str) -> tuple[pg.GraphicsObject, ...]:
        fixed = {"runs": (self.runs, self.spread), "peak": (self.peak, self.peak_label)}
        bands = (self.curves.get(f"{key}_low"), self.curves.get(f"{key}_high"))  # a fit's band goes with it
        found = fixed.get(key) or tuple(x for x in (self.curves.get(key), self.lines.get(key), *bands) if x is not None)
        return found

    def toggle_layer(self, key: str) -> None:
        self.hidden ^= {key}
        self._apply_layers()

    def _apply_layers(self) -> None:
        view = self._view
        if view is None:
            return
        for layer in view.layers:
            visible = layer.present and layer.key not in self.hidden
            for item in self._items(layer.key):
                item.setVisible(visible)
        self.flow_legend()

    def legend_text(self, whole: Callable[[str], bool], most: int = 0) -> str:
        """The present layers' entries; on screen each a link that hides or shows its layer (struck through while
        hidden)."""
        parts = []
        for layer in self._view.layers if self._view is not None else ():
            if not layer.present:
                continue
            mark = f'<span style="color:{layer.colour}; font-weight: bold;">{MARKS[layer.mark]}</span>'
            fits = whole(f"{MARKS[layer.mark]} {layer.name}")
            entry = legend_entry(mark, layer.name, fits)
            if self.interactive:
                colour = colours.INK if layer.key not in self.hidden else "#aaa"
                strike = " line-through" if layer.key in self.hidden else " none"
                entry = f'<a href="{layer.key}" style="color:{colour}; text-decoration:{strike};">{entry}</a>'
            parts.append((entry, fits))
        return join_entries(parts)

    # -- items -------------------------------------------------------------
    def points_item(self, color: QColor = INK, symbol: str = "o", size: float = 9) -> pg.ScatterPlotItem:
        return pg.ScatterPlotItem(
            size=self.look.size(size), symbol=symbol, brush=pg.mkBrush(color), pen=pg.mkPen(INK, width=0.8)
        )
