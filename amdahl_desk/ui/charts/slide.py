"""A slide's frame: one image for a design review — the result as a title, the headline numbers, a footer."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...present import colours
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.slide import SlideView
from ...present.text import tied
from ...present.tones import TONE_COLOURS
from ..core.locale_text import locale_numbers
from ..core.style_sheets import MUTED_TEXT
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
        self.setStyleSheet(f"#slide {{ background: {background}; }} QLabel {{ color: {colours.INK}; }}")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        pad = self.pad = round(style.size(12))
        layout = self.box = QVBoxLayout(self)
        layout.setContentsMargins(pad * 3, round(pad * 1.5), pad * 3, round(pad * 1.5))
        layout.setSpacing(round(pad * 0.75))
        self.title = QLabel(self)
        self.title.setFont(style.font(1.7, bold=True))
        self.title.setWordWrap(True)
        self.subtitle = QLabel(self)
        self.subtitle.setFont(style.font(1.0))
        self.subtitle.setStyleSheet(MUTED_TEXT)
        self.subtitle.setWordWrap(True)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        # The decision in one to three sentences (the odds, the cheapest plan, the plan on the trace's dependencies and
        # the sum beside it), each in its tone's colour, under the title: what the review decides on.
        self.decision: list[QLabel] = []
        for _ in range(3):
            line = QLabel(self)
            line.setFont(style.font(1.0))
            line.setWordWrap(True)
            line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            line.hide()
            layout.addWidget(line)
            self.decision.append(line)
        figures = QGridLayout()
        figures.setHorizontalSpacing(pad * 4)
        figures.setVerticalSpacing(0)
        self.values: list[QLabel] = []
        self.captions: list[QLabel] = []
        for col in range(4):
            value, caption = QLabel(self), QLabel(self)
            value.setFont(style.font(1.7, bold=True))
            caption.setFont(style.font(0.95))
            caption.setStyleSheet(MUTED_TEXT)
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
        self.title.setText(tied(view.title))
        fit_lines(self.title, self.width() - margins.left() - margins.right())
        self.subtitle.setText(tied(view.subtitle))
        width = self.width() - margins.left() - margins.right()
        for i, line in enumerate(self.decision):
            said = view.decision[i] if i < len(view.decision) else None
            line.setVisible(said is not None)
            if said is not None:
                line.setText(tied(said.text))
                line.setStyleSheet(f"color: {TONE_COLOURS[said.tone]};")
                fit_lines(line, width, 2, 0.8)
                flags = int(Qt.TextFlag.TextWordWrap)
                used = QFontMetrics(line.font()).boundingRect(QRect(0, 0, max(width, 1), 100_000), flags, line.text())
                line.setFixedHeight(used.height() + 2)
        for figure, v_label, c_label in zip(view.figures, self.values, self.captions, strict=True):
            v_label.setText(figure.value)
            c_label.setText(figure.caption)
            v_label.setStyleSheet(f"color: {TONE_COLOURS[figure.tone]};")
        self.footer.setText(tied(view.footer))
