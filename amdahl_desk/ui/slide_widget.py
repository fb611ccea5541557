"""The slide: one image for a design review — the result as a title, the headline numbers, the key charts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from ..model.errors import ProfileError
from ..present.inputs import ChartInputs
from ..present.numbers import Numbers
from ..present.slide import SlideView, slide, slide_selection
from .charts.base import Chart
from .charts.registry import SLIDE_CHARTS, ChartEntry, Source, chart_entry
from .charts.slide import SlideFrame
from .charts.style import SCREEN, Style


class SlideWidget(SlideFrame):
    """One image for a review: the result as a title, the headline numbers, two key charts."""

    def __init__(
        self,
        parent: QWidget | None = None,
        style: Style = SCREEN,
        make: Callable[[str, Style], Chart[Any]] | None = None,
    ) -> None:
        """``make`` builds the slide's charts by key (the window's chart factory)."""
        super().__init__(parent, style)
        if make is None:
            raise TypeError("a slide needs make: the chart factory that builds its charts")
        layout, pad = self.box, self.pad
        charts = QHBoxLayout()
        charts.setSpacing(pad * 2)
        brief = replace(style, brief=True)
        # The registry's slide charts, by key: the slide needs no knowledge of the rooms that define them.
        # Each is shown when its source has something to show (measured runs only when there are runs).
        self.parts: dict[str, tuple[ChartEntry, Chart[Any]]] = {}
        self._inputs: ChartInputs | None = None
        self._n: Numbers | None = None
        for key in SLIDE_CHARTS:
            entry = chart_entry(key)
            chart = make(key, brief)
            chart.setVisible(entry.source is Source.PROFILE and entry.slide_when is None and entry.shown_when is None)
            charts.addWidget(chart, 1)
            self.parts[key] = (entry, chart)
        self.breakdown, self.speedup = self.parts["breakdown"][1], self.parts["speedup"][1]
        self.measured = self.parts["measured_scaling"][1]
        layout.addLayout(charts, 1)
        self.footer = QLabel(self)
        self.footer.setFont(style.font(1.0, bold=True))
        self.footer.setWordWrap(True)
        self.footer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.footer)

    def view(self, inputs: ChartInputs, n: Numbers) -> SlideView:
        if inputs.analysis is None:
            raise ProfileError("there is nothing to chart: the profile needs components with times above 0")
        self._inputs, self._n = replace(inputs, selected=slide_selection(inputs.profile, inputs.selected)), n
        return slide(inputs.profile, inputs.analysis, n)

    def draw(self, view: SlideView) -> None:
        self.draw_words(view)
        inputs = self._inputs
        if inputs is None:
            return
        for entry, chart in self.parts.values():
            shown = entry.on_slide_for(inputs)
            chart.setVisible(shown)
            if shown:
                chart.show_inputs(inputs, self._n)
