"""The comparison chart and slide as PNG, SVG or PDF: built fresh in the slide style and painted like the others."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QWidget

from ...model.comparison import Comparison
from ..charts.chart_style import slide_style
from ..charts.export import render_image, render_pdf, render_svg
from ..charts.registry import CHART_TITLES, COMPARISON, FORMATS, chart_entry
from ..core.qt_util import settle_layout


class ComparisonDrawing(Protocol):
    """What every chart registered as needing a comparison offers, besides the Chart interface."""

    def show_comparison(self, c: Comparison, boundary: str = "") -> None: ...


def comparison_widget(
    name: str, c: Comparison, size: tuple[int, int], transparent: bool = False, boundary: str = ""
) -> QWidget:
    """The comparison chart (or slide) laid out at ``size`` pixels in the slide style, ready to paint."""
    entry = chart_entry(name)
    if entry.needs != COMPARISON:
        raise ValueError(f'"{name}" is not a comparison chart')
    widget = entry.load()(style=slide_style(size[0], transparent))  # type: ignore[call-arg]
    drawing: ComparisonDrawing = widget  # type: ignore[assignment]
    drawing.show_comparison(c, boundary)
    # As the other exports: vectors in SVG and PDF, not the screen's cached pixmaps.
    for plot in widget.findChildren(pg.PlotWidget):
        plot.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        for axis in ("left", "bottom", "right"):
            plot.getPlotItem().getAxis(axis).setCacheMode(QGraphicsItem.CacheMode.NoCache)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.resize(*size)
    widget.show()
    settle_layout()
    drawing.show_comparison(c, boundary)  # labels are placed from the final geometry
    settle_layout()
    return widget


def export_comparison(
    c: Comparison,
    name: str,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
    boundary: str = "",
) -> Path:
    """Write the comparison chart or slide as PNG, SVG or PDF; returns the path written (OSError when it cannot)."""
    if fmt not in FORMATS:
        raise ValueError(f'"{fmt}" is not a chart format; expected png, svg or pdf')
    path = Path(path)
    widget = comparison_widget(name, c, size, transparent, boundary)
    title = c.title if name.endswith("slide") else CHART_TITLES[name]
    try:
        if fmt == "png":
            if not render_image(widget, size, transparent).save(str(path), "PNG"):  # type: ignore[call-overload]
                raise OSError(f"cannot write {path}")
        elif fmt == "svg":
            render_svg(widget, size, path, title)
        else:
            render_pdf(widget, size, path, title)
    finally:
        widget.close()
        widget.deleteLater()
    if not path.exists() or path.stat().st_size == 0:
        raise OSError(f"cannot write {path}")
    return path
