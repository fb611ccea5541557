"""Charts and slides for a meeting: PNG at any size, SVG with real vectors, PDF — drawn by Qt itself.

Each export builds fresh chart widgets in the slide style at the output's pixel size
(24 px text on a 1920-wide image, lines scaled alike) and has Qt paint them into a
QImage, a QSvgGenerator or a QPdfWriter. pyqtgraph's own exporters are not used: they
mis-scale labels at custom sizes and its SVG exporter fails on Qt 6.11 and later.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPoint, QRect, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsView,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...model.analysis import Analysis
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...model.report import target_sentence
from ...model.units import format_percent, format_speedup, format_time
from ..core.messages import install_message_filter
from ..core.qt_util import parse_size, settle
from ..profile.breakdown_chart import BreakdownChart
from ..profile.speedup_plot import SpeedupPlot
from ..scaling.scaling_plot import ScalingPlot
from .chart_style import Style, phrases, slide_style
from .registry import CHART_TITLES, CHARTS, FORMATS, PRESETS

__all__ = ["CHARTS", "CHART_TITLES", "FORMATS", "PRESETS", "chart_widget", "export_chart", "parse_size", "render_image"]


def slide_title(profile: Profile, analysis: Analysis) -> str:
    """A title that states the result, e.g. "Matmul 4× → 1.82× end to end (ceiling 2.5×)".

    Its phrases are held together with no-break spaces: a title that wraps does so between
    "on 60% of the time" and "→ 1.82× end to end", never inside "(ceiling 2.5×)".
    """
    c = analysis.combined
    enabled = [o for o in profile.optimizations if o.enabled]
    if len(enabled) == 1:
        o = enabled[0]
        return f"{o.name}: " + phrases(
            f"{format_speedup(o.speedup)} on {format_percent(c.fraction)} of the time",
            f"→ {format_speedup(c.overall_speedup)} end to end",
            f"(ceiling {format_speedup(c.ceiling)})",
        )
    if enabled:
        return phrases(
            f"{len(enabled)} optimizations together:",
            f"{format_time(analysis.baseline_total, profile.unit)} → {format_time(c.new_total, profile.unit)},",
            f"{format_speedup(c.overall_speedup)} end to end",
            f"(ceiling {format_speedup(c.ceiling)})",
        )
    return phrases(f"Baseline {format_time(analysis.baseline_total, profile.unit)}:", "where the time goes")


def fit_lines(label: QLabel, width: int, lines: int = 2, smallest: float = 0.75) -> None:
    """Shrink a wrapping label's font (to ``smallest`` of its size at most) until its text takes ``lines`` lines."""
    font = label.font()
    size = font.pixelSize()
    if size <= 0 or width <= 0:
        return
    base = getattr(label, "_base_px", size)
    label._base_px = base  # type: ignore[attr-defined]
    px = base
    while True:
        font.setPixelSize(px)
        metrics = QFontMetrics(font)
        used = metrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), label.text())
        if used.height() <= metrics.lineSpacing() * lines + 1 or px <= base * smallest:
            break
        px -= 1
    label.setFont(font)


class SlideWidget(QWidget):
    """One image for a review: the result as a title, the headline numbers, two key charts."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.style_ = style
        background = style.background or "transparent"
        self.setObjectName("slide")
        self.setStyleSheet(f"#slide {{ background: {background}; }} QLabel {{ color: #222; }}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        pad = round(style.size(12))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(pad * 3, pad * 2, pad * 3, pad * 2)
        layout.setSpacing(pad)
        self.title = QLabel(self)
        self.title.setFont(style.font(1.75, bold=True))
        self.title.setWordWrap(True)
        self.subtitle = QLabel(self)
        self.subtitle.setFont(style.font(1.0))
        self.subtitle.setStyleSheet("color: #555;")
        self.subtitle.setWordWrap(True)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        figures = QGridLayout()
        figures.setHorizontalSpacing(pad * 4)
        self.values: list[QLabel] = []
        self.captions: list[QLabel] = []
        for col in range(4):
            value, caption = QLabel(self), QLabel(self)
            value.setFont(style.font(2.2, bold=True))
            caption.setFont(style.font(0.95))
            caption.setStyleSheet("color: #555;")
            figures.addWidget(value, 0, col)
            figures.addWidget(caption, 1, col)
            self.values.append(value)
            self.captions.append(caption)
        figures.setColumnStretch(4, 1)
        layout.addLayout(figures)
        charts = QHBoxLayout()
        charts.setSpacing(pad * 2)
        brief = replace(style, brief=True)
        self.breakdown = BreakdownChart(style=brief)
        self.speedup = SpeedupPlot(style=brief)
        charts.addWidget(self.breakdown, 1)
        charts.addWidget(self.speedup, 1)
        layout.addLayout(charts, 1)
        self.footer = QLabel(self)
        self.footer.setFont(style.font(1.0, bold=True))
        self.footer.setWordWrap(True)
        self.footer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.footer)

    def update_analysis(self, profile: Profile, analysis: Analysis, row: int = -1) -> None:
        unit = profile.unit
        c = analysis.combined
        self.title.setText(slide_title(profile, analysis))
        margins = self.layout().contentsMargins()
        fit_lines(self.title, self.width() - margins.left() - margins.right())
        boundary = profile.settings.boundary or "Measured profile"
        self.subtitle.setText(
            f"{boundary} · baseline {format_time(analysis.baseline_total, unit)} over "
            f"{len(profile.components):,} components"
        )
        figures = [
            (format_speedup(c.overall_speedup), "end-to-end speedup"),
            (format_time(c.new_total, unit), f"new time (from {format_time(analysis.baseline_total, unit)})"),
            (format_time(c.time_saved, unit), "saved per run"),
            (format_speedup(c.ceiling) if c.enabled else "—", f"ceiling 1/(1−f), f = {format_percent(c.fraction)}"),
        ]
        for (value, caption), v_label, c_label in zip(figures, self.values, self.captions, strict=True):
            v_label.setText(value)
            c_label.setText(caption)
        self.values[0].setStyleSheet("color: #1a6e2e;" if c.overall_speedup > 1 else "color: #222;")
        self.breakdown.update_analysis(profile, analysis)
        self.speedup.update_analysis(profile, analysis, row)
        sentence = target_sentence(profile, analysis)
        self.footer.setText(sentence or "Amdahl's law: S = 1/((1−f)+f/k); speedups of separate parts never add.")


def chart_widget(
    name: str, profile: Profile, analysis: Analysis, size: tuple[int, int], transparent: bool = False, row: int = -1
) -> QWidget:
    """A chart (or the slide) laid out at ``size`` pixels in the slide style, ready to paint."""
    install_message_filter()  # the offscreen plugin's propagateSizeHints lines are noise on a command line
    style = slide_style(size[0], transparent)
    widget: QWidget
    if name == "slide":
        slide = SlideWidget(style)
        slide.update_analysis(profile, analysis, row)
        widget = slide
    elif name == "breakdown":
        chart = BreakdownChart(style=style)
        chart.update_analysis(profile, analysis)
        widget = chart
    elif name == "speedup":
        speed = SpeedupPlot(style=style)
        speed.update_analysis(profile, analysis, row)
        widget = speed
    elif name == "scaling":
        scaling = ScalingPlot(style=style)
        scaling.update_analysis(analysis, profile.settings.overhead_model.value)
        widget = scaling
    else:
        raise ValueError(f'"{name}" is not a chart; expected one of {", ".join(CHARTS)}')
    # On screen, axes are cached pixmaps; in an SVG or PDF they must stay vectors.
    for item in widget.findChildren(pg.PlotWidget):
        item.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        for axis in ("left", "bottom", "right"):
            item.getPlotItem().getAxis(axis).setCacheMode(QGraphicsItem.CacheMode.NoCache)
        for scatter in item.getPlotItem().scene().items():
            if isinstance(scatter, pg.ScatterPlotItem):
                scatter.opts["useCache"] = False  # markers as shapes, not cached pixmaps
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.resize(*size)
    widget.show()
    settle()
    # Charts place their labels from the final geometry: update once more now that it is known.
    if isinstance(widget, SlideWidget):
        widget.update_analysis(profile, analysis, row)
    elif isinstance(widget, BreakdownChart):
        widget.update_analysis(profile, analysis)
    settle()
    return widget


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


def render_svg(widget: QWidget, size: tuple[int, int], path: Path, title: str) -> None:
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(QSize(*size))
    generator.setViewBox(QRect(0, 0, *size))
    generator.setResolution(96)
    generator.setTitle(title)
    generator.setDescription("Made with Amdahl Desk")
    painter = QPainter(generator)
    widget.render(painter, QPoint(0, 0))
    painter.end()


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


def export_chart(
    profile: Profile,
    analysis: Analysis | None,
    name: str,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
    row: int = -1,
) -> Path:
    """Write one chart (or the slide) as PNG, SVG or PDF; returns the path written."""
    if analysis is None:
        raise ProfileError("there is nothing to chart: the profile needs components with times above 0")
    if fmt not in FORMATS:
        raise ValueError(f'"{fmt}" is not a chart format; expected png, svg or pdf')
    path = Path(path)
    widget = chart_widget(name, profile, analysis, size, transparent, row)
    title = getattr(widget, "title", "")
    title = title.text() if isinstance(title, QLabel) else str(title or CHART_TITLES[name])
    try:
        if fmt == "png":
            if not render_image(widget, size, transparent).save(str(path), "PNG"):
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


def chart_png_bytes(profile: Profile, analysis: Analysis, name: str, size: tuple[int, int] = (1920, 1080)) -> bytes:
    """A chart as PNG bytes (for tests and the clipboard)."""
    widget = chart_widget(name, profile, analysis, size)
    image = render_image(widget, size)
    widget.close()
    widget.deleteLater()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())
