"""A chart widget as SVG that rsvg-convert, CairoSVG, Inkscape and office suites draw as the PNG looks.

Qt's SVG generator has two faults for charts. It writes curves in data coordinates under the
plot's transform with strokes kept thin by ``vector-effect="non-scaling-stroke"``, which only
browsers honour (:mod:`.flat_svg` maps every point to the page instead). And SVG Tiny has no
clipping, while SVG 1.1's clip paths come out in the wrong place for child widgets and stay set
after the painter drops them. So the clipping is done here: the widget is painted without its
plots, each plot's scene is painted without what its views clip, then each view's contents alone,
and those go into the document inside a clip rectangle of the view.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QIODevice, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem, QWidget

from .flat_svg import Part, flatten


def _painter(buffer: QBuffer, size: QSize, title: str) -> tuple[QSvgGenerator, QPainter]:
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QRect(QPoint(0, 0), size))
    generator.setResolution(96)
    generator.setTitle(title)
    generator.setDescription("Made with Amdahl Desk")
    return generator, QPainter(generator)


def qt_svg(widget: QWidget, size: tuple[int, int], title: str, region: QRegion | None = None) -> bytes:
    """The widget (within ``region``) as Qt's SVG generator writes it: curves in data units, no clipping."""
    buffer = QBuffer()
    generator, painter = _painter(buffer, QSize(*size), title)
    widget.render(painter, QPoint(0, 0), region if region is not None else QRegion())
    painter.end()
    return bytes(buffer.data().data())


def render_svg(widget: QWidget, size: tuple[int, int], title: str) -> bytes:
    """The widget as SVG with every point in output coordinates, text as text and each plot clipped to its axes."""
    plots = [plot for plot in widget.findChildren(pg.PlotWidget) if plot.isVisibleTo(widget)]
    rest = QRegion(0, 0, *size)
    for plot in plots:
        rest -= QRegion(QRect(plot.mapTo(widget, QPoint(0, 0)), plot.size()))
    base = qt_svg(widget, size, title, rest)  # Qt paints no child widget that lies outside the region
    parts: list[Part] = []
    for plot in plots:
        parts += _plot_parts(plot, plot.viewport().mapTo(widget, QPoint(0, 0)), title)
    return flatten(base, parts)


def _plot_parts(plot: pg.PlotWidget, at: QPoint, title: str) -> list[Part]:
    """The plot's frame (axes, grid, labels), then each view's contents inside the view's rectangle."""
    scene = plot.scene()
    viewport = plot.viewport()
    source = plot.mapToScene(viewport.rect()).boundingRect()
    views = [item for item in scene.items(Qt.SortOrder.AscendingOrder) if isinstance(item, pg.ViewBox)]
    views = [v for v in views if v.isVisible()]

    def paint(background: bool) -> bytes:
        buffer = QBuffer()
        generator, painter = _painter(buffer, viewport.size(), title)
        if background and plot.backgroundBrush().style() != Qt.BrushStyle.NoBrush:
            painter.fillRect(QRect(QPoint(0, 0), viewport.size()), plot.backgroundBrush())
        scene.render(painter, QRectF(QPoint(0, 0), viewport.size()), source, Qt.AspectRatioMode.IgnoreAspectRatio)
        painter.end()
        return bytes(buffer.data().data())

    x, y = float(at.x()), float(at.y())
    with _unseen([v.childGroup for v in views]):
        parts = [Part(paint(background=True), x, y)]
    for view in views:
        box = plot.viewportTransform().mapRect(view.sceneBoundingRect())
        clip = (x + box.x(), y + box.y(), float(box.width()), float(box.height()))
        others = [i for i in scene.items() if not _related(i, view.childGroup)]
        with _unseen(others):
            parts.append(Part(paint(background=False), x, y, clip))
    return parts


def _related(item: QGraphicsItem, group: QGraphicsItem) -> bool:
    return item is group or group.isAncestorOf(item) or item.isAncestorOf(group)


@contextmanager
def _unseen(items: Sequence[QGraphicsItem]) -> Iterator[None]:
    """``items`` (and what they hold) left out of painting for a while: opacity, not visibility, so no layout moves."""
    before = [item.opacity() for item in items]
    for item in items:
        item.setOpacity(0.0)
    try:
        yield
    finally:
        for item, opacity in zip(items, before, strict=True):
            item.setOpacity(opacity)
