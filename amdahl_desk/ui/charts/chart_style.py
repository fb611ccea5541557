"""Shared look of the charts: colours, pens, fonts, and log-axis ticks people can read."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPen
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...present.text import NBSP
from ..core.layout_fence import FixedHeightHolder
from ..core.locale_text import localize_numbers
from .base import Chart
from .chart_items import set_curve

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
        localize_ticks(axis)
    # A bare right axis keeps the last x tick label clear of the widget's edge.
    item.showAxis("right")
    item.getAxis("right").setStyle(showValues=False)
    item.getAxis("right").setWidth(int(style.size(18)))
    return widget


def localize_ticks(axis: pg.AxisItem) -> None:
    """The axis' own tick labels (0.5, 1,000) in the machine's locale (0,5 and 1.000 on a German desktop)."""
    model_strings = axis.tickStrings

    def tick_strings(values: list[float], scale: float, spacing: float) -> list[str]:
        return [localize_numbers(text) for text in model_strings(values, scale, spacing)]

    axis.tickStrings = tick_strings


def set_line_text(line: pg.InfiniteLine, text: str) -> None:
    """A reference line's label, its numbers in the machine's locale; laid out again only when it changes."""
    shown = localize_numbers(text)
    if getattr(line, "_shown_text", None) != shown:
        line._shown_text = shown
        line.label.setFormat(shown)


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
        layout.addWidget(FixedHeightHolder(self.title_label, self))  # a new title lays out nothing
        layout.addWidget(self.widget, 1)
        layout.addWidget(self.legend_label)
        self.title = ""

    def set_ticks(self, axis: str, ticks: list[tuple[float, str]] | None) -> None:
        """Set an axis' ticks only when they change: each change makes pyqtgraph redraw the axis."""
        key = f"_ticks_{axis}"
        if getattr(self, key, object()) != ticks:
            setattr(self, key, ticks)
            shown = None if ticks is None else [(v, localize_numbers(text)) for v, text in ticks]
            self.plot.getAxis(axis).setTicks(None if shown is None else [shown])

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
            self.plot.setLabel(axis, localize_numbers(text), color=color, **{"font-size": self.chart_style.css_size()})

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
        """``title`` is the plain text; the label keeps its phrases (no-break spaces) and hyphenated words
        ("tensor-core": a word joiner after the hyphen) together when it wraps."""
        plain = text.replace(NBSP, " ")
        shown = localize_numbers(text).replace("-", "-\u2060")
        if plain != self.title or shown != self.title_label.text():
            self.title = plain
            self.title_label.setText(shown)

    def set_legend(self, entries: list[tuple[str, str, str]]) -> None:
        """Entries of (colour, kind, name); kind is "bar", "line", "dash" or "dot"."""
        marks = {"bar": "■", "line": "━━", "dash": "╺╸╺╸", "dot": "┅┅", "star": "★", "point": "●"}
        parts = [
            f'<span style="white-space: nowrap;"><span style="color:{color}; font-weight: bold;">'
            f"{marks.get(kind, '■')}</span>&nbsp;{_unbroken(localize_numbers(name))}</span>"
            for color, kind, name in entries
        ]
        text = " &nbsp;&nbsp; ".join(parts)
        if self.legend_label.text() != text:
            self.legend_label.setText(text)


def _unbroken(name: str) -> str:
    """A legend entry that never wraps inside itself: Qt's rich text breaks after "/" and at spaces even in a
    nowrap span ("Ceiling 1/" over "(1−f)"); no-break spaces and a word joiner after each "/" hold it."""
    return html.escape(name).replace(" ", "&nbsp;").replace("/", "/\u2060")


def set_item_text(item: pg.TextItem, text: str) -> None:
    """Change a chart label only when its text changes (each change lays the text out again); its
    numbers in the machine's locale."""
    if getattr(item, "_shown_text", None) != text:
        item._shown_text = text
        item.setText(localize_numbers(text))


class Picture:
    """What a chart drew: its curves as they land on an axis from ``lo`` to ``hi`` (as fractions of its
    length) and everything else it shows (``rest``: texts, ranges, choices), so that a redraw that would
    move no curve by 1/10,000 of the axis (a tenth of a pixel) and change nothing else can be skipped.
    Compared with what was drawn, not with the last skipped request: small changes never add up unseen.
    """

    def __init__(self, lo: float, hi: float, curves: list[np.ndarray | float], rest: tuple[object, ...]) -> None:
        span = hi - lo if hi > lo else 1.0
        self.curves = [np.nan_to_num((np.asarray(c, float) - lo) / span, posinf=1e9, neginf=-1e9) for c in curves]
        self.rest = rest

    def same_as(self, drawn: Picture | None) -> bool:
        return (
            drawn is not None
            and drawn.rest == self.rest
            and len(drawn.curves) == len(self.curves)
            and all(
                a.shape == b.shape and bool(np.all(np.abs(a - b) <= 1e-4))
                for a, b in zip(drawn.curves, self.curves, strict=True)
            )
        )


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


# -- callouts that collide with nothing ---------------------------------------------------------------------------

# Where a callout may sit around its point, tried in order: the label's top-left at
# point + (fx·width + gx·gap, fy·height + gy·gap); first close beside the point, then farther off
# (with a leader line back to the point).
_NEAR: list[tuple[float, float, float, float]] = [  # (fx, fy, gx, gy)
    (0, 0, 1, 1),
    (0, -1, 1, -1),
    (-1, -1, -1, -1),
    (-1, 0, -1, 1),
    (-0.5, 0, 0, 1.5),
    (-0.5, -1, 0, -1.5),
]
_FAR: list[tuple[float, float, float, float]] = [
    (0, 0, 2, 4),
    (0, -1, 2, -4),
    (-1, 0, -2, 4),
    (-1, -1, -2, -4),
    (0, -0.5, 6, 0),
    (-1, -0.5, -6, 0),
    (0, 0, 2, 8),
    (0, -1, 2, -8),
    (-1, 0, -2, 8),
    (-1, -1, -2, -8),
    (-0.5, 0, 0, 12),
    (-0.5, -1, 0, -12),
]


def view_to_scene(vb: pg.ViewBox, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Data coordinates of a view box to scene pixels, for whole arrays at once."""
    t = vb.childGroup.sceneTransform()
    return t.m11() * x + t.m21() * y + t.dx(), t.m12() * x + t.m22() * y + t.dy()


def curve_points(vb: pg.ViewBox, item: pg.PlotDataItem, step_px: float = 3.0) -> np.ndarray:
    """A drawn curve as scene points no more than ``step_px`` apart (so a label cannot slip between two)."""
    if not item.isVisible():
        return np.empty((0, 2))
    x, y = item.getData()
    if x is None or len(x) == 0:
        return np.empty((0, 2))
    ok = np.isfinite(x) & np.isfinite(y)
    sx, sy = view_to_scene(vb, np.asarray(x, float)[ok], np.asarray(y, float)[ok])
    if len(sx) < 2:
        return np.column_stack([sx, sy])
    seg = np.hypot(np.diff(sx), np.diff(sy))
    dist = np.concatenate([[0.0], np.cumsum(seg)])
    samples = np.linspace(0.0, dist[-1], max(2, int(dist[-1] / step_px) + 2))
    return np.column_stack([np.interp(samples, dist, sx), np.interp(samples, dist, sy)])


def label_size(item: pg.TextItem) -> QSizeF:
    """A label's size in scene pixels (text items ignore the view's scaling)."""
    size: QSizeF = item.textItem.boundingRect().size()
    return size


def collisions(rect: QRectF, obstacles: list[QRectF], points: np.ndarray) -> int:
    hits = sum(1 for o in obstacles if o.isValid() and rect.intersects(o))
    if len(points):
        inside = (
            (points[:, 0] >= rect.left())
            & (points[:, 0] <= rect.right())
            & (points[:, 1] >= rect.top())
            & (points[:, 1] <= rect.bottom())
        )
        hits += int(inside.sum())
    return hits


def place_callout(
    vb: pg.ViewBox,
    label: pg.TextItem,
    leader: pg.PlotDataItem,
    at: tuple[float, float],
    obstacles: list[QRectF],
    points: np.ndarray,
    gap: float,
) -> QRectF:
    """Put ``label`` beside the data point ``at`` where it covers no curve point, obstacle or edge of the plot.

    Near places come first; when all are taken the label moves farther off with a leader line to its
    point; when every place is taken the one with the fewest collisions wins. Returns the label's scene rect.
    """
    view = vb.sceneBoundingRect().adjusted(2, 2, -2, -2)
    size = label_size(label)
    w, h = size.width(), size.height()
    px, py = (float(v[0]) for v in view_to_scene(vb, np.array([at[0]]), np.array([at[1]])))
    marker = QRectF(px - gap, py - gap, 2 * gap, 2 * gap)
    best: tuple[int, int, QRectF, bool] | None = None
    for order, (fx, fy, gx, gy) in enumerate(_NEAR + _FAR):
        far = order >= len(_NEAR)
        rect = QRectF(px + fx * w + gx * gap, py + fy * h + gy * gap, w, h)
        if not view.contains(rect):
            continue
        score = collisions(rect, [*obstacles, marker], points)
        if best is None or (score, order) < (best[0], best[1]):
            best = (score, order, rect, far)
        if score == 0:
            break
    if best is None:  # no place inside the plot at all (a tiny plot): keep the label in, over whatever is there
        left = min(max(px + gap, view.left()), view.right() - w)
        rect = QRectF(left, min(max(py + gap, view.top()), view.bottom() - h), w, h)
        best = (0, 0, rect, False)
    _, _, rect, far = best
    label.setAnchor((0, 0))
    top_left = vb.mapSceneToView(rect.topLeft())
    label.setPos(top_left.x(), top_left.y())
    if far:
        # From the point to the nearest spot on the label's edge.
        ex = min(max(px, rect.left()), rect.right())
        ey = min(max(py, rect.top()), rect.bottom())
        end = QPointF(ex, ey)
        tip = vb.mapSceneToView(end)
        set_curve(leader, np.array([at[0], tip.x()]), np.array([at[1], tip.y()]))
        leader.setVisible(True)
    else:
        set_curve(leader, None, None)
        leader.setVisible(False)
    return rect
