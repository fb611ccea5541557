"""A slide's frame: one image for a design review — the result as a title, the headline numbers, a footer."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.slide import SlideView
from ...present.tones import TONE_COLOURS
from ..core.locale_text import locale_numbers
from .base import Chart
from .style import SCREEN, Style


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


# A tone's colour on a slide (a good headline in green; the rest in ink).


class SlideFrame(Chart[SlideView]):
    """A slide's frame: its background, a title, a subtitle and four headline figures over what a
    subclass adds to ``self.box`` (padded by ``self.pad``), ending in its ``footer``."""

    footer: QLabel  # the subclass adds it last, below its charts

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent)
        self.slide_style = style
        background = style.background or "transparent"
        self.setObjectName("slide")
        self.setStyleSheet(f"#slide {{ background: {background}; }} QLabel {{ color: #222; }}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        pad = self.pad = round(style.size(12))
        layout = self.box = QVBoxLayout(self)
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

    def show_inputs(self, inputs: ChartInputs, n: Numbers | None = None) -> None:
        """Always drawn: the charts on a slide change with what its words do not say (the selection, the runs);
        each of them keeps a picture that would not change."""
        view = self.view(inputs, n if n is not None else locale_numbers())
        self.drawn = view
        self.draw(view)

    def draw_words(self, view: SlideView) -> None:
        """The slide's words, already formatted for the locale; the footer may be rich text."""
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        self.title.setText(view.title)
        fit_lines(self.title, self.width() - margins.left() - margins.right())
        self.subtitle.setText(view.subtitle)
        for figure, v_label, c_label in zip(view.figures, self.values, self.captions, strict=True):
            v_label.setText(figure.value)
            c_label.setText(figure.caption)
            v_label.setStyleSheet(f"color: {TONE_COLOURS[figure.tone]};")
        self.footer.setText(view.footer)
