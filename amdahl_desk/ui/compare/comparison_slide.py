"""The comparison slide: predicted against measured as the title, the figures, the chart, what to do next."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ...model.errors import ProfileError
from ...present.comparison import NEEDS_COMPARISON, comparison_chart, comparison_slide
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ...present.slide import SlideView
from ..charts.slide import SlideFrame
from ..charts.style import SCREEN, Style
from .comparison_chart import ComparisonChart


class ComparisonSlide(SlideFrame):
    """One image for the review after the change: did the plan deliver, where is the time now."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        layout = self.box
        self.chart = ComparisonChart(style=replace(style, brief=True))
        layout.addWidget(self.chart, 1)
        self.footer = QLabel(self)
        self.footer.setFont(style.font(1.0))
        self.footer.setWordWrap(True)
        self.footer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.footer)
        self._inputs: ChartInputs | None = None
        self._n: Numbers | None = None

    def view(self, inputs: ChartInputs, n: Numbers) -> SlideView:
        if inputs.comparison is None:
            raise ProfileError(NEEDS_COMPARISON)
        self._inputs, self._n = inputs, n
        return comparison_slide(inputs.comparison, inputs.profile.settings.boundary, n)

    def draw(self, view: SlideView) -> None:
        self.draw_words(view)
        if self._inputs is not None and self._n is not None:
            self.chart.draw(comparison_chart(self._inputs.comparison, self._n, brief=True))
