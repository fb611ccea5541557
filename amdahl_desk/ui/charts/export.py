"""Charts and slides for a meeting: PNG at any size, SVG with real vectors, PDF — drawn by Qt itself.

Each export builds fresh chart widgets in the slide style at the output's pixel size
(24 px text on a 1920-wide image, lines scaled alike) and has Qt paint them into a
QImage, a QSvgGenerator or a QPdfWriter. Qt's SVG keeps curves in data coordinates with
strokes kept thin by a vector effect only browsers honour, and it cannot clip; the SVG written
here has every point mapped to the page and each plot clipped to its axes (``svg_render``), so
rsvg-convert, CairoSVG, Inkscape and office suites draw it as the PNG looks.
pyqtgraph's own exporters are not used: they mis-scale labels at custom sizes and its SVG
exporter fails on Qt 6.11 and later.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QByteArray, QMarginsF, QPoint, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QImage, QImageWriter, QPageLayout, QPageSize, QPainter, QPdfWriter, QRegion
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsView,
    QLabel,
    QWidget,
)

from ...files import atomic_write
from ...model.errors import ProfileError
from ...present.inputs import ChartInputs
from ...present.text import clause
from ..core.messages import install_message_filter
from ..core.qt_util import parse_size, settle_layout
from .base import Chart
from .registry import CHART_TITLES, CHARTS, FORMATS, PRESETS, chart_entry, chart_title
from .style import Style, slide_style
from .svg_render import render_svg

__all__ = [
    "CHARTS",
    "CHART_TITLES",
    "FORMATS",
    "PRESETS",
    "ChartInputs",
    "ChartMaker",
    "NothingToDrawError",
    "chart_widget",
    "export_chart",
    "parse_size",
    "render_image",
]


ChartMaker = Callable[[str, Style], Chart[Any]]


class NothingToDrawError(ProfileError):
    """A chart whose view draws nothing for its inputs (the speedup against k with no optimization, the odds' charts
    with nothing uncertain in the plan): as a file it would be an empty frame passed on as a result."""


def chart_widget(
    make: ChartMaker, name: str, inputs: ChartInputs, size: tuple[int, int], transparent: bool = False
) -> Chart[Any]:
    """A chart (or the slide) laid out at ``size`` pixels in the slide style, ready to paint.

    ``make`` builds a chart by key (the window's chart factory); ``inputs`` holds what it is drawn from.
    Raises :class:`ProfileError` when the chart's source is missing (a profile chart without an analysis,
    a comparison chart without a comparison), :class:`NothingToDrawError` when its view draws nothing (what it needs).
    """
    install_message_filter()  # the offscreen plugin's propagateSizeHints lines are noise on a command line
    entry = chart_entry(name)
    why = entry.source.missing(inputs)
    if why is not None:
        raise ProfileError(why)
    widget = make(name, slide_style(size[0], transparent))
    widget.show_inputs(inputs)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.resize(*size)
    widget.show()
    settle_layout()
    # Charts place their labels from the final geometry: draw once more now that it is known.
    widget.drawn = None
    widget.show_inputs(inputs)
    settle_layout()
    nothing = _nothing(widget, inputs)
    if nothing:
        widget.close()
        widget.deleteLater()
        raise NothingToDrawError(nothing)
    _vectors_only(widget)
    return widget


def _nothing(widget: Chart[Any], inputs: ChartInputs) -> str:
    """What the chart needs where it draws nothing, or a slide's chart does; "" when everything draws."""
    said = str(getattr(widget.drawn, "nothing", ""))
    if said:
        return clause(said)
    parts = getattr(widget, "parts", {})
    for key in getattr(widget, "shown", ()):  # a slide: each of its charts
        said = str(getattr(getattr(parts.get(key), "drawn", None), "nothing", ""))
        if said:
            return f"the slide's chart “{chart_title(key, inputs.profile)}” has nothing to draw: {clause(said)}"
    return ""


def _vectors_only(widget: QWidget) -> None:
    """No cached pixmaps: on screen axes, some curves and every marker are; in an SVG or PDF they must be vectors.

    Done after the last draw: a curve with symbols hands its scatter its own ``useCache`` at every
    ``setData``, so markers switched off before a redraw come back as pixmaps.
    """
    for item in widget.findChildren(pg.PlotWidget):
        item.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        for shown in item.getPlotItem().scene().items():
            shown.setCacheMode(QGraphicsItem.CacheMode.NoCache)
            if isinstance(shown, pg.PlotDataItem):
                shown.opts["useCache"] = False
            if isinstance(shown, pg.ScatterPlotItem):
                shown.opts["useCache"] = False  # markers as shapes, not cached pixmaps


def render_image(widget: QWidget, size: tuple[int, int], transparent: bool = False) -> QImage:
    image = QImage(QSize(*size), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(0, 0, 0, 0) if transparent else QColor("white"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    # Without the window background a transparent slide stays transparent around the charts.
    flags = (
        QWidget.RenderFlag.DrawChildren
        if transparent
        else (QWidget.RenderFlag.DrawWindowBackground | QWidget.RenderFlag.DrawChildren)
    )
    widget.render(painter, QPoint(0, 0), QRegion(), flags)
    painter.end()
    return image


def render_pdf(widget: QWidget, size: tuple[int, int], path: Path, title: str) -> None:
    writer = QPdfWriter(str(path))
    writer.setTitle(title)
    writer.setCreator("Amdahl Desk")
    writer.setResolution(96)  # one widget pixel is one PDF pixel at 96 dpi
    page = QPageSize(QSizeF(size[0] * 72 / 96, size[1] * 72 / 96), QPageSize.Unit.Point, "Slide")
    writer.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    widget.render(painter, QPoint(0, 0))
    painter.end()


def _write_bytes(path: str, data: bytes) -> None:
    Path(path).write_bytes(data)


def export_chart(
    make: ChartMaker,
    name: str,
    inputs: ChartInputs,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
) -> Path:
    """Write one chart (or the slide) as PNG, SVG or PDF; returns the path written."""
    if fmt not in FORMATS:
        raise ValueError(f'"{fmt}" is not a chart format; expected png, svg or pdf')
    path = Path(path)
    widget = chart_widget(make, name, inputs, size, transparent)
    title = getattr(widget, "title", "")
    title = title.text() if isinstance(title, QLabel) else str(title or chart_title(name, inputs.profile))
    try:
        if fmt == "png":
            writer = QImageWriter(str(path), QByteArray(b"png"))
            if not writer.write(render_image(widget, size, transparent)):
                raise OSError(f"cannot write {path}: {writer.errorString()}")
        elif fmt == "svg":
            data = render_svg(widget, size, title)
            atomic_write(path, lambda tmp: _write_bytes(tmp, data))
        else:
            render_pdf(widget, size, path, title)
    finally:
        widget.close()
        widget.deleteLater()
    if not path.exists() or path.stat().st_size == 0:
        raise OSError(f"cannot write {path}")
    return path
