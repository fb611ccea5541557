"""A chart's frame: a plot with its title above and its legend below, drawn from a view's texts as they are."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import pyqtgraph as pg
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QResizeEvent, QTextDocument, QTextOption
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...present import colours
from ...present.chart_parts import LegendEntry
from ...present.text import NBSP, tied
from ..core.layout_fence import FixedHeightHolder
from .axis_labels import localize_ticks, thinned
from .base import Chart
from .legend_text import MARKS, legend_html
from .style import INK, LABEL_FILL, SCREEN, Style

pg.setConfigOptions(antialias=True, background="w", foreground=colours.INK)  # before any plot is made

View = TypeVar("View")


class _HasLegend(Protocol):
    @property
    def legend(self) -> tuple[LegendEntry, ...] | list[LegendEntry]: ...


Legended = TypeVar("Legended", bound=_HasLegend)


class EdgeAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """The plot's right edge: its line, no ticks and no grid.

    It keeps the last x tick label clear of the widget's edge. pyqtgraph's ``showGrid`` gives the right axis the
    left one's grid: each horizontal line was drawn twice (darker than the vertical ones), and a chart whose
    ranges changed spent a fifth to a quarter of its repaint drawing them again (1.5-2.5 ms at 1600x1000).
    """

    def __init__(self) -> None:
        super().__init__("right", showValues=False)
        self.setTicks([[]])

    def setGrid(self, grid: int | float | bool) -> None:  # noqa: N802 - pyqtgraph's name
        super().setGrid(False)


class XAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """The x axis, whose end labels may reach past the plot's ends into the axes beside it, and whose title never
    runs into its tick labels (:func:`_title_short`).

    pyqtgraph drops a tick label that passes its axis' end, and with a grid shown it ignores its own
    ``hideOverlappingLabels`` allowance: "1,000" at the end of a breakdown 334 px wide was dropped for 2 px.
    """

    def __init__(self, reach: float) -> None:
        super().__init__("bottom")
        self.reach = reach

    def boundingRect(self) -> QRectF:  # noqa: N802 - pyqtgraph's name
        rect: QRectF = super().boundingRect()
        return rect.adjusted(-self.reach, 0, self.reach, 0)

    def _updateHeight(self) -> None:  # noqa: N802 - pyqtgraph's name
        super()._updateHeight()
        short = _title_short(self, self.fixedHeight)
        if short > 0:
            self.setMaximumHeight(self.maximumHeight() + short)
            self.setMinimumHeight(self.maximumHeight())


def _title_short(axis: pg.AxisItem, fixed: float | None) -> float:
    """How far an axis' title would lie on its tick labels: pyqtgraph gives the title 0.8 of its height and places it
    5 px past the axis' outer edge, so a title taller than 25 px (a slide's) lay on them ("0.00005" under "GPU-hours
    per run" on a 1920×1080 cost chart). 0 for an axis of a fixed size, or without a title."""
    if fixed is not None or not axis.isVisible() or not axis.label.isVisible():
        return 0.0
    return max(0.0, float(axis.label.boundingRect().height()) * 0.2 - 5)


class YAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """The y axis, whose title never runs into its tick labels (:func:`_title_short`)."""

    def __init__(self) -> None:
        super().__init__("left")

    def _updateWidth(self) -> None:  # noqa: N802 - pyqtgraph's name
        super()._updateWidth()
        short = _title_short(self, self.fixedWidth)
        if short > 0:
            self.setMaximumWidth(self.maximumWidth() + short)
            self.setMinimumWidth(self.maximumWidth())


def new_plot(style: Style = SCREEN) -> pg.PlotWidget:
    # No context menus: building them costs start-up time and they offer nothing here.
    edge = int(style.size(18))
    widget = pg.PlotWidget(
        background=style.background,
        viewBox=pg.ViewBox(enableMenu=False),
        axisItems={"left": YAxis(), "right": EdgeAxis(), "bottom": XAxis(edge)},
    )
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
        # Tick labels are written whole ("0.0005"), never scaled with a "(x0.001)" added to the axis's title
        axis.enableAutoSIPrefix(False)
        localize_ticks(axis)
    item.showAxis("right")
    item.getAxis("right").setWidth(edge)  # room for the x axis' last label (XAxis)
    return widget


def set_line_text(line: pg.InfiniteLine, text: str) -> None:
    """A reference line's label, laid out again only when it changes. The text is set whether or not the line is
    shown: pyqtgraph's label takes a new text only while visible, so a line hidden at the change showed the text of
    the document before once shown again ("likely 1.244× with the trace's dependencies" on a profile of no trace)."""
    if getattr(line, "_shown_text", None) != text:
        line._shown_text = text
        line.label.format = text  # the texts are plain: no "{value}" in them
        line.label.setText(text)
        line.label.updatePosition()


def set_item_text(item: pg.TextItem, text: str) -> None:
    """Change a chart label only when its text changes (each change lays the text out again)."""
    if getattr(item, "_shown_text", None) != text:
        item._shown_text = text
        item.setText(text)


LEGEND_SHARE = 0.22  # the most of a chart's height a legend of components' names takes before it names fewer
LEGEND_MOST = 0.4  # the most any legend takes before it shortens its longest names (a last resort: a tiny chart)
LEGEND_SHORTER = (40, 30, 22, 16)  # the names' lengths tried in turn


class ChartFrame(Chart[View]):
    """A plot with its title above and its legend below as Qt labels.

    Inside pyqtgraph's scene a long title or a wide legend sets a minimum width that
    clips the plot in a narrow panel; as wrapping labels outside the scene they never do.
    """

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent)
        self.chart_style = style
        self.brief = style.brief
        self.widget = new_plot(style)
        self.plot = self.widget.getPlotItem()
        background = style.background or "transparent"
        pad = round(style.size(4))
        self.title_label = QLabel(self)
        self.title_label.setWordWrap(True)
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title_label.setFont(style.font(style.title_rel, bold=True))
        self.title_label.setStyleSheet(
            f"background: {background}; color: {colours.INK}; padding: {pad}px {pad}px 0 {pad}px;"
        )
        self.legend_label = QLabel(self)
        self.legend_label.setWordWrap(True)
        self.legend_label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.legend_label.setStyleSheet(
            f"background: {background}; color: {colours.INK}; padding: 0 {pad}px {pad}px {pad}px;"
        )
        self.legend_label.setFont(style.font())
        for label in (self.title_label, self.legend_label):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # Two lines, always: a title that rewraps would resize the plot and redraw it all on every edit. A title
        # that needs more takes a smaller font (to 70%), then loses whole words at its end ("…", all of it in
        # the tooltip): never a third line cut off at the label's edge.
        self._title_font = QFont(self.title_label.font())
        self.title_label.setFixedHeight(QFontMetrics(self._title_font).lineSpacing() * 2 + 8)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(FixedHeightHolder(self.title_label, self))  # a new title lays out nothing
        layout.addWidget(self.widget, 1)
        layout.addWidget(self.legend_label)
        self.title = ""
        self._title_text = ""
        self._legend_entries: tuple[LegendEntry, ...] = ()
        self._refold: Callable[[], Any] | None = None  # the view named_to_fit makes, made again on a resize
        self._named = 0  # how many components named_to_fit named last: where its next search starts
        self._over: dict[tuple[tuple[LegendEntry, ...], int, float], bool] = {}  # legends' fits (a chart's one font)

    def set_ticks(self, axis: str, ticks: tuple[tuple[float, str], ...] | list[tuple[float, str]] | None) -> None:
        """Set an axis' ticks only when they change: each change makes pyqtgraph redraw the axis. Along the bottom,
        a row of labels too wide for the plot shows every 2nd (or 3rd…) of them, chosen again as the plot resizes."""
        key = f"_ticks_{axis}"
        shown = None if ticks is None else list(ticks)
        if getattr(self, key, object()) != shown:
            setattr(self, key, shown)
            if axis == "bottom" and not hasattr(self, "_ticks_follow"):
                self._ticks_follow = True
                self.plot.vb.sigResized.connect(lambda _vb: self._place_ticks("bottom"))
                self.plot.vb.sigXRangeChanged.connect(lambda *_: self._place_ticks("bottom"))
            self._place_ticks(axis)

    def _place_ticks(self, axis: str) -> None:
        shown = getattr(self, f"_ticks_{axis}", None)
        item = self.plot.getAxis(axis)
        if shown is not None and axis == "bottom":
            shown = thinned(item, shown)
        if getattr(self, f"_placed_{axis}", object()) != shown:
            setattr(self, f"_placed_{axis}", shown)
            item.setTicks(None if shown is None else [shown])

    def set_ranges(self, x: tuple[float, float], y: tuple[float, float]) -> None:
        """Set the view only when it changes (rounded so float noise does not count as change)."""
        key = (round(x[0], 9), round(x[1], 9), round(y[0], 9), round(y[1], 9))
        if getattr(self, "_ranges", None) != key:
            self._ranges = key
            self.plot.setXRange(*x, padding=0)
            self.plot.setYRange(*y, padding=0)

    def axis_label(self, axis: str, text: str, color: str = colours.INK) -> None:
        """An axis title in this style's size, whole along its axis: in a smaller size (to 70%) where the axis is
        shorter, else without its closing parenthesis ("(log scale)"); set only when it changes (each change redraws
        the axis)."""
        titles: dict[str, tuple[str, str]] = self.__dict__.setdefault("_axis_titles", {})
        if titles.get(axis) != (text, color):
            titles[axis] = (text, color)
            if len(titles) == 1:  # the first: placed again whenever the plot's size changes
                self.plot.vb.sigResized.connect(lambda _vb: self._fit_axis_titles())
            self._fit_axis_titles()

    def _fit_axis_titles(self) -> None:
        for axis, (text, color) in self.__dict__.get("_axis_titles", {}).items():
            vb = self.plot.vb  # as long as its axes, and resized first
            length = vb.width() if axis in ("bottom", "top") else vb.height()
            shown, rel = text, 1.0
            if length > 0:
                shorter = [text[: text.rindex(" (")]] if text.endswith(")") and " (" in text else []
                fitted = next(
                    (
                        (t, r / 20)
                        for t in (text, *shorter)
                        for r in range(20, 13, -1)
                        if QFontMetrics(self.chart_style.font(r / 20)).horizontalAdvance(t) + 16 <= length
                    ),
                    None,
                )
                shown, rel = fitted or ((shorter or [text])[0], 0.7)
            key = f"_label_{axis}"
            if getattr(self, key, None) != (shown, color, rel):
                setattr(self, key, (shown, color, rel))
                self.plot.setLabel(axis, shown, color=color, **{"font-size": self.chart_style.css_size(rel)})
                # pyqtgraph centres an axis title only in the axis' resizeEvent: one changed by this resize (the
                # axis already resized with the plot) would stay placed for its old length and be cut at an end.
                self.plot.getAxis(axis).resizeEvent()

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
        if plain != self.title:
            self.title = plain
            self._title_text = tied(text).replace("-", "-\u2060")
            self._fit_title()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.title:
            self._fit_title()
        if event.oldSize() != event.size():  # its width wraps the legend, its height caps it
            self.flow_legend()
            # Room for more components' names, or fewer: the view made again at this size, from its inputs while
            # they are current. After a change (rows deleted, another profile opened) they are not: the profile has
            # changed under the analysis they hold, and the redraw that waits makes the view at this size anyway.
            if self._refold is not None and self.drawn is not None and self.inputs_current():
                view = self._refold()
                if view != self.drawn:
                    self.drawn = view
                    self.draw(view)

    def _fit_title(self) -> None:
        label, text = self.title_label, self._title_text
        width = self.width() - 2 * round(self.chart_style.size(4)) - 4
        if width <= 0:
            return
        base = self._title_font
        room = QFontMetrics(base).lineSpacing() * 2 + 1
        flags = int(Qt.TextFlag.TextWordWrap)
        font = QFont(base)

        def fits(t: str, f: QFont) -> bool:  # in two lines, and no phrase wider than a line (it would be cut)
            used = QFontMetrics(f).boundingRect(QRect(0, 0, width, 100_000), flags, t)
            return used.height() <= room and used.width() <= width

        size = base.pixelSize() if base.pixelSize() > 0 else base.pointSizeF()
        step = 1 if base.pixelSize() > 0 else 0.5
        current = size
        while not fits(text, font) and current - step >= size * 0.7:
            current -= step
            if base.pixelSize() > 0:
                font.setPixelSize(int(current))
            else:
                font.setPointSizeF(current)
        shown = text
        if not fits(shown, font):  # a phrase wider than a line: it wraps at its words rather than be cut
            shown = text = text.replace(NBSP, " ")
        words = text.split(" ")
        while not fits(shown, font) and len(words) > 1:
            words.pop()
            shown = " ".join(words) + " …"
        if label.font() != font:
            label.setFont(font)
        if label.text() != shown:
            label.setText(shown)
        label.setToolTip("" if shown == text else self.title)

    def set_legend(self, entries: tuple[LegendEntry, ...] | list[LegendEntry]) -> None:
        entries = tuple(entries)
        if entries != self._legend_entries or not self.legend_label.text():
            self._legend_entries = entries
            self.flow_legend()

    def legend_text(self, whole: Callable[[str], bool], most: int = 0) -> str:
        """The legend's HTML, each entry whole on one line where ``whole`` says it fits on one (``most``: names
        shortened to this many characters, 0 for whole names)."""
        return legend_html(self._legend_entries, whole, most)

    def _legend_room(self) -> tuple[int, QFontMetrics, Callable[[str], bool]]:
        """The legend's line width, its font's metrics, and whether a text (mark and name) fits on one line."""
        room = self.width() - 2 * round(self.chart_style.size(4)) - 4
        metrics = QFontMetrics(self.legend_label.font())

        def whole(text: str) -> bool:
            return room <= 0 or metrics.horizontalAdvance(text) <= room

        return room, metrics, whole

    def _legend_over(self, entries: tuple[LegendEntry, ...], share: float) -> bool:
        """Whether ``entries``, each whole, would take more than ``share`` of the chart's height (and than three
        lines) at its width now; never before the chart is laid out."""
        room, metrics, whole = self._legend_room()
        if self.height() <= 0 or room <= 0:
            return False
        cap = max(share * self.height(), 3.2 * metrics.lineSpacing())
        key = (entries, room, cap)
        known = self._over
        if key not in known:  # every tick asks again: measuring 10 long names each time took 2 ms of a frame
            if len(known) > 64:
                known.clear()
            # Entries that add up to at most two lines' width fill at most three lines (any two lines in a row hold
            # more than one line's width, else the second's first entry would have joined the first): no layout.
            gap = metrics.horizontalAdvance("    ")
            wide = sum(metrics.horizontalAdvance(f"{MARKS.get(e.kind, '■')} {e.name}") + gap for e in entries)
            known[key] = wide > 2 * room and self._legend_height(legend_html(entries, whole), room) > cap
        return known[key]

    def named_to_fit(self, make: Callable[[int], Legended], most: int) -> Legended:
        """The view ``make(count)`` that names the most components (``most`` down to one) whose legend, each name
        whole, takes at most LEGEND_SHARE of the chart: the others fold into its "N other components". Fifteen long
        names shortened alike read "Vorverarbeitung…" eight times on a slide's half."""
        self._refold = lambda: self.named_to_fit(make, most)
        view = make(most)
        if not self._legend_over(tuple(view.legend), LEGEND_SHARE):  # all of them, or the most: no "other" entry
            self._named = most  # (one short of all reads "1 other components", which can be wider than a name)
            return view
        count = min(self._named, most - 1) if self._named > 0 else most - 1  # the last count next: it rarely changes
        view = make(count)
        if self._legend_over(tuple(view.legend), LEGEND_SHARE):
            while count > 1:
                count -= 1
                view = make(count)
                if not self._legend_over(tuple(view.legend), LEGEND_SHARE):
                    break
        else:
            while count < most - 1:
                more = make(count + 1)
                if self._legend_over(tuple(more.legend), LEGEND_SHARE):
                    break
                view, count = more, count + 1
        self._named = count
        return view

    def flow_legend(self) -> None:
        """The legend for the chart's width now: an entry that fits on a line is never broken across two (Qt's
        rich text fills a line greedily and breaks the entry that overflows it); one wider than a line wraps.

        Every entry is whole. Only a legend that would take more than LEGEND_MOST of the chart (a chart a few lines
        high in a small window) shortens its longest names ("…", each whole in the tooltip) until it does not."""
        room, metrics, whole = self._legend_room()
        text = self.legend_text(whole)
        most = 0
        if self._legend_over(self._legend_entries, LEGEND_MOST):
            cap = max(LEGEND_MOST * self.height(), 3.2 * metrics.lineSpacing())
            longest = max((len(e.name) for e in self._legend_entries if not e.explains), default=0)
            for most in (m for m in LEGEND_SHORTER if m < longest):
                text = self.legend_text(whole, most)
                if self._legend_height(text, room) <= cap:
                    break
        tip = "\n".join(e.name for e in self._legend_entries if not e.explains) if most else ""
        if self.legend_label.text() != text:
            self.legend_label.setText(text)
        if self.legend_label.toolTip() != tip:
            self.legend_label.setToolTip(tip)

    def _legend_height(self, text: str, width: int) -> float:
        """The legend's height, ``text`` laid out as its label lays it out at ``width``."""
        doc = QTextDocument()
        doc.setDefaultFont(self.legend_label.font())
        doc.setDocumentMargin(0)
        option = doc.defaultTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        doc.setDefaultTextOption(option)
        doc.setHtml(text)
        doc.setTextWidth(width)
        return float(doc.size().height())
