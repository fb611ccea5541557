"""Shared look of the charts: colours, pens, fonts, and log-axis ticks people can read."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPen
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from .base import Chart

pg.setConfigOptions(antialias=True, background="w", foreground="#222")

BLUE = QColor("#1f5fa8")
RED = QColor("#c0392b")
GREEN = QColor("#2e8b57")
GREY = QColor("#8a8f98")
ORANGE = QColor("#d9822b")
INK = QColor("#222")
# Component colours: distinguishable, calm, print well.
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]
OTHER = "#bab0ac"
LABEL_FILL = pg.mkBrush(255, 255, 255, 215)  # labels stay readable where a line crosses them


@dataclass(frozen=True)
class Style:
    """Sizes for one output: the screen (point sizes) or a slide (pixels scaled to its width).

    ``text_px`` None means the screen: 9-point text. Slides set it so that axis labels and
    ticks stay readable from the back of a room (24 px on a 1920-wide image), with lines
    and markers scaled alike; ``background`` None is transparent.
    """

    text_px: float | None = None
    scale: float = 1.0
    title_rel: float = 1.17
    background: str | None = "white"
    brief: bool = False  # short chart titles: on a slide the slide's own title states the result

    def font(self, rel: float = 1.0, bold: bool = False) -> QFont:
        f = QFont()
        if self.text_px is None:
            f.setPointSizeF(9 * rel)
        else:
            f.setPixelSize(max(1, round(self.text_px * rel)))
        f.setBold(bold)
        return f

    def css_size(self, rel: float = 1.0) -> str:
        return f"{9 * rel:.1f}pt" if self.text_px is None else f"{round(self.text_px * rel)}px"

    def pen(self, color: QColor | str, width: float = 2.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
        p: QPen = pg.mkPen(color=color, width=width * self.scale)
        p.setStyle(style)
        p.setCosmetic(True)
        return p

    def size(self, pixels: float) -> float:
        return pixels * self.scale


SCREEN = Style(brief=True)  # the summary panel beside the charts says the rest


def slide_style(width: int, transparent: bool = False) -> Style:
    """The slide look at ``width`` pixels: 24 px text at 1920 wide, lines 2.2× the screen's."""
    k = width / 1920
    return Style(text_px=24 * k, scale=2.2 * k, title_rel=1.25, background=None if transparent else "white")


def pen(color: QColor | str, width: float = 2.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    return SCREEN.pen(color, width, style)


def font(point_size: float, bold: bool = False) -> QFont:
    return SCREEN.font(point_size / 9, bold)


def new_plot(style: Style = SCREEN) -> pg.PlotWidget:
    # No context menus: building them costs start-up time and they offer nothing here.
    widget = pg.PlotWidget(background=style.background, viewBox=pg.ViewBox(enableMenu=False))
    item = widget.getPlotItem()
    item.setMenuEnabled(False)
    item.hideButtons()
    widget.setMouseEnabled(x=False, y=False)
    item.showGrid(x=True, y=True, alpha=0.15)
    for name in ("left", "bottom", "right"):
        axis = item.getAxis(name)
        axis.setTickFont(style.font())
        axis.setTextPen(INK)
        axis.setPen(pg.mkPen(INK, width=max(1.0, style.scale * 0.6)))
        # Axes change rarely but are repainted with every curve: keep them as cached pixmaps.
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    # A bare right axis keeps the last x tick label clear of the widget's edge.
    item.showAxis("right")
    item.getAxis("right").setStyle(showValues=False)
    item.getAxis("right").setWidth(int(style.size(18)))
    return widget


class ChartFrame(Chart):
    """A plot with its title above and its legend below as Qt labels.

    Inside pyqtgraph's scene a long title or a wide legend sets a minimum width that
    clips the plot in a narrow panel; as wrapping labels outside the scene they never do.
    """

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.chart_style = style
        self.widget = new_plot(style)
        self.plot = self.widget.getPlotItem()
        background = style.background or "transparent"
        pad = round(style.size(4))
        self.title_label = QLabel(self)
        self.title_label.setWordWrap(True)
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title_label.setFont(style.font(style.title_rel, bold=True))
        self.title_label.setStyleSheet(f"background: {background}; color: #222; padding: {pad}px {pad}px 0 {pad}px;")
        self.legend_label = QLabel(self)
        self.legend_label.setWordWrap(True)
        self.legend_label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.legend_label.setStyleSheet(f"background: {background}; color: #222; padding: 0 {pad}px {pad}px {pad}px;")
        self.legend_label.setFont(style.font())
        for label in (self.title_label, self.legend_label):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # Two lines, always: a title that rewraps would resize the plot and redraw it all on every edit.
        self.title_label.setFixedHeight(QFontMetrics(self.title_label.font()).lineSpacing() * 2 + 8)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title_label)
        layout.addWidget(self.widget, 1)
        layout.addWidget(self.legend_label)
        self.title = ""

    def set_ticks(self, axis: str, ticks: list[tuple[float, str]] | None) -> None:
        """Set an axis' ticks only when they change: each change makes pyqtgraph redraw the axis."""
        key = f"_ticks_{axis}"
        if getattr(self, key, object()) != ticks:
            setattr(self, key, ticks)
            self.plot.getAxis(axis).setTicks(None if ticks is None else [ticks])

    def set_ranges(self, x: tuple[float, float], y: tuple[float, float]) -> None:
        """Set the view only when it changes (rounded so float noise does not count as change)."""
        key = (round(x[0], 9), round(x[1], 9), round(y[0], 9), round(y[1], 9))
        if getattr(self, "_ranges", None) != key:
            self._ranges = key
            self.plot.setXRange(*x, padding=0)
            self.plot.setYRange(*y, padding=0)

    def axis_label(self, axis: str, text: str, color: str = "#222") -> None:
        """An axis title in this style's size (set only when it changes: each change redraws the axis)."""
        key = f"_label_{axis}"
        if getattr(self, key, None) != (text, color):
            setattr(self, key, (text, color))
            self.plot.setLabel(axis, text, color=color, **{"font-size": self.chart_style.css_size()})

    def marker_line(
        self, angle: int, color: QColor, style: Qt.PenStyle, position: float, anchor: tuple[float, float]
    ) -> pg.InfiniteLine:
        """A labelled reference line (ceiling, target) drawn over the data, its label on a white ground."""
        line = pg.InfiniteLine(
            angle=angle,
            pen=self.chart_style.pen(color, 2 if angle == 90 else 1.5, style),
            label="",
            labelOpts={"position": position, "color": color, "anchors": [anchor, anchor], "fill": LABEL_FILL},
        )
        line.label.setFont(self.chart_style.font(0.95))
        self.plot.addItem(line, ignoreBounds=True)
        return line

    def set_title(self, text: str) -> None:
        if text != self.title:
            self.title = text
            self.title_label.setText(text)

    def set_legend(self, entries: list[tuple[str, str, str]]) -> None:
        """Entries of (colour, kind, name); kind is "bar", "line", "dash" or "dot"."""
        marks = {"bar": "■", "line": "━━", "dash": "╺╸╺╸", "dot": "┅┅", "star": "★", "point": "●"}
        parts = [
            f'<span style="white-space: nowrap;"><span style="color:{color}; font-weight: bold;">'
            f"{marks.get(kind, '■')}</span>&nbsp;{html.escape(name)}</span>"
            for color, kind, name in entries
        ]
        text = " &nbsp;&nbsp; ".join(parts)
        if self.legend_label.text() != text:
            self.legend_label.setText(text)


def set_item_text(item: pg.TextItem, text: str) -> None:
    """Change a chart label only when its text changes: each change lays the text out again."""
    if getattr(item, "_shown_text", None) != text:
        item._shown_text = text
        item.setText(text)


def nice_ceiling(value: float) -> float:
    """The next 1-1.2-1.5-2-2.5-3-4-5-6-8 step at or above ``value``: ranges that move only now and then."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    exponent = math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * 10.0**exponent >= value * (1 - 1e-12):
            return step * 10.0**exponent
    return 10.0 ** (exponent + 1)


def log2_ticks(lo: int, hi: int, max_ticks: int = 12) -> list[tuple[float, str]]:
    """Ticks at powers of two between lo and hi, thinned to at most ``max_ticks``."""
    first, last = math.floor(math.log2(max(lo, 1))), math.ceil(math.log2(max(hi, 1)))
    exps = list(range(first, last + 1))
    step = max(1, math.ceil(len(exps) / max_ticks))
    return [(float(e), f"{2**e:,}") for e in exps[::step]]


def log10_ticks(lo: float, hi: float) -> list[tuple[float, str]]:
    """Ticks at 1-2-5 steps between lo and hi (positive), as log10 positions with plain labels."""
    ticks = []
    lo = max(lo, 1e-6)
    for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10.0**e
            if lo * 0.999 <= v <= hi * 1.001:
                ticks.append((math.log10(v), f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    if len(ticks) > 10:
        ticks = [t for t in ticks if t[1].lstrip("0.").startswith("1")]
    return ticks
