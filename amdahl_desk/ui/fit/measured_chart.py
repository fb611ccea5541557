"""What the measured-scaling charts share: the fit they draw, layers a legend click hides, and the spread of runs."""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.fit import FitResult
from ...model.fit_text import profile_p_at as profile_p_at
from ...model.laws import FloatArray
from ...model.profile import Profile
from ...present.fit import throughput_scale as throughput_scale
from ..charts.chart_style import INK, SCREEN, ChartFrame, Style
from ..core.locale_text import localize_numbers

PURPLE = QColor("#7b3fa0")
MARKS = {"line": "━━", "dash": "╺╸╺╸", "dot": "┅┅", "star": "★", "point": "●", "bar": "┃"}


@dataclass
class Layer:
    name: str
    color: str
    mark: str
    items: tuple[pg.GraphicsObject, ...]
    present: bool = False  # has something to draw now


def grouped(n: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per distinct N: the mean, lowest and highest of ``y`` (the spread of repeated runs)."""
    keys, inverse = np.unique(n, return_inverse=True)
    count = np.bincount(inverse).astype(float)
    mean = np.bincount(inverse, weights=y) / count
    low, high = np.full(keys.size, np.inf), np.full(keys.size, -np.inf)
    np.minimum.at(low, inverse, y)
    np.maximum.at(high, inverse, y)
    return keys, mean, low, high


class MeasuredChart(ChartFrame):
    """A chart of measured runs: :meth:`show_fit` hands it the fit, :meth:`show_analysis` draws.

    On screen each legend entry is a link that hides or shows its layer; exports draw every layer.
    """

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.look = style  # ChartFrame's ``style`` shadows QWidget.style() for type checkers; the same object
        self.fit: FitResult | None = None
        self.layers: dict[str, Layer] = {}
        self.hidden: set[str] = set()
        self.interactive = style.text_px is None
        if self.interactive:
            self.legend_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
            self.legend_label.setToolTip("Click an entry to hide or show it")
            self.legend_label.linkActivated.connect(self.toggle_layer)

    def show_fit(self, fit: FitResult | None) -> None:
        self.fit = fit

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        self.draw(analysis)
        self._apply_layers()

    def draw(self, analysis: Analysis | None) -> None:
        raise NotImplementedError

    def show_empty(self, title: str) -> None:
        """No runs to draw: every layer hidden and a bare frame — pyqtgraph's default range drew axes from
        −400 to 400 "(x0.001)" on a log chart, numbers that mean nothing, under a title saying there are none."""
        for key in self.layers:
            self.present(key, False)
        self.set_ticks("bottom", [])
        self.set_ticks("left", [])
        self.set_ranges((0.0, 1.0), (0.0, 1.0))
        self.set_title(title)

    # -- layers ------------------------------------------------------------
    def layer(self, key: str, name: str, color: QColor, mark: str, *items: pg.GraphicsObject) -> None:
        for item in items:
            if item not in self.plot.items:  # curves made by plot() and marker lines are in already
                self.plot.addItem(item)
        self.layers[key] = Layer(name, color.name(), mark, items)

    def present(self, key: str, shown: bool, name: str | None = None) -> None:
        """Whether a layer has something to draw now (an absent one leaves the legend)."""
        self.layers[key].present = shown
        if name is not None:
            self.layers[key].name = name

    def toggle_layer(self, key: str) -> None:
        self.hidden ^= {key}
        self._apply_layers()

    def _apply_layers(self) -> None:
        parts = []
        for key, layer in self.layers.items():
            visible = layer.present and key not in self.hidden
            for item in layer.items:
                item.setVisible(visible)
            if not layer.present:
                continue
            mark = f'<span style="color:{layer.color}; font-weight: bold;">{MARKS[layer.mark]}</span>'
            name = html.escape(localize_numbers(layer.name))
            if self.interactive:
                colour = "#222" if key not in self.hidden else "#aaa"
                strike = " line-through" if key in self.hidden else " none"
                entry = f'<a href="{key}" style="color:{colour}; text-decoration:{strike};">{mark}&nbsp;{name}</a>'
            else:
                entry = f"{mark}&nbsp;{name}"
            parts.append(f'<span style="white-space: nowrap;">{entry}</span>')
        text = " &nbsp;&nbsp; ".join(parts)
        if self.legend_label.text() != text:
            self.legend_label.setText(text)

    # -- items -------------------------------------------------------------
    def points_item(self, color: QColor = INK, symbol: str = "o", size: float = 9) -> pg.ScatterPlotItem:
        return pg.ScatterPlotItem(
            size=self.look.size(size), symbol=symbol, brush=pg.mkBrush(color), pen=pg.mkPen(INK, width=0.8)
        )

    def spread_item(self, color: QColor = INK) -> pg.ErrorBarItem:
        return pg.ErrorBarItem(pen=self.look.pen(color, 1.5))

    @staticmethod
    def set_spread(item: pg.ErrorBarItem, x: FloatArray, mean: FloatArray, low: FloatArray, high: FloatArray) -> None:
        """Bars from the lowest to the highest run at each N that was measured more than once."""
        several = high > low
        if not np.any(several):
            item.setData(x=np.zeros(0), y=np.zeros(0), top=0, bottom=0)
            return
        item.setData(x=x[several], y=mean[several], top=(high - mean)[several], bottom=(mean - low)[several], beam=0)
