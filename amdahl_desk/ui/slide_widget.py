"""The slide: one image for a design review — the result as a title, the decision in one to three sentences, the
headline numbers and the two charts that carry the answer, large enough to read from the back of a room."""

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
from .charts.registry import slide_charts
from .charts.slide import SlideFrame
from .charts.style import SCREEN, Style


class SlideWidget(SlideFrame):
    """One image for a review: the result as a title, the decision, the headline numbers, two charts side by side
    (chosen in ``ChartInputs.slide_charts``, else the two that carry this profile's answer)."""

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
        self._make = make
        self._brief = replace(style, brief=True)
        layout, pad = self.box, self.pad
        self.charts_row = QHBoxLayout()
        self.charts_row.setSpacing(pad * 3)
        # Built when first shown, kept while the slide lives: a chart the choice leaves out is hidden.
        self.parts: dict[str, Chart[Any]] = {}
        self.shown: tuple[str, ...] = ()
        self._inputs: ChartInputs | None = None
        self._n: Numbers | None = None
        layout.addLayout(self.charts_row, 1)
        self.footer = QLabel(self)
        self.footer.setFont(style.font(1.0, bold=True))
        self.footer.setWordWrap(True)
        self.footer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.footer)

    def view(self, inputs: ChartInputs, n: Numbers) -> SlideView:
        if inputs.analysis is None:
            raise ProfileError("there is nothing to chart: the profile needs components with times above 0")
        try:
            self.shown = slide_charts(inputs)
        except ValueError as exc:
            raise ProfileError(str(exc)) from None
        self._inputs, self._n = replace(inputs, selected=slide_selection(inputs.profile, inputs.selected)), n
        return slide(
            inputs.profile, inputs.analysis, n, trace=inputs.trace, decided=_decided(inputs, n), job=inputs.job
        )

    def chart(self, key: str) -> Chart[Any]:
        """The slide's chart ``key``, made on first use."""
        if key not in self.parts:
            self.parts[key] = self._make(key, self._brief)
            self.charts_row.addWidget(self.parts[key], 1)
        return self.parts[key]

    def draw(self, view: SlideView) -> None:
        self.draw_words(view)
        inputs = self._inputs
        if inputs is None:
            return
        for key in self.shown:
            self.chart(key)
        for i, key in enumerate(self.shown):  # left to right in the order chosen
            self.charts_row.removeWidget(self.parts[key])
            self.charts_row.insertWidget(i, self.parts[key], 1)
        for key, chart in self.parts.items():
            chart.setVisible(key in self.shown)
            if key in self.shown:
                chart.show_inputs(inputs, self._n)


def _decided(inputs: ChartInputs, n: Numbers) -> Any:
    """The summary's lines about the odds and the cheapest plan, from what the window computed, else worked out
    here (an export from the command line); None when the profile has neither ranges nor a plan to look for."""
    profile, analysis = inputs.profile, inputs.analysis
    assert analysis is not None
    uncertain = profile.has_uncertainty()
    planning = profile.wants_plan() and profile.settings.target_time is not None
    if not uncertain and not planning:
        return None
    from ..model.uncertainty import UncertaintyFigures
    from ..present.decision import decision_view

    figures = inputs.uncertainty if isinstance(inputs.uncertainty, UncertaintyFigures) else None
    search = inputs.plan
    if inputs.job is not None:  # the job's odds come with it (each draw replayed through its ranks), or none:
        if not any(o.enabled for o in profile.optimizations):  # nothing ticked, the job's step is as measured
            return None
        return decision_view(profile, analysis, figures, None, n, job=True)  # never the profile's own rank's
    if (uncertain and figures is None) or (planning and search is None):
        from ..model.decision import decide

        decided = decide(profile, analysis)
        if decided is not None:
            figures = figures if figures is not None else decided.figures
            search = search if search is not None else decided.search
    return decision_view(profile, analysis, figures, search, n)
