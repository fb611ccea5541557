"""The comparison slide: predicted against measured as the title, the figures, the chart, what to do next."""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ...model.analysis import Analysis
from ...model.comparison import Comparison
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...model.units import format_percent, format_speedup, format_time
from ..charts.base import ChartInputs
from ..charts.chart_style import SCREEN, Style
from ..charts.slide import SlideFrame
from .comparison_chart import NEEDS_COMPARISON, ComparisonChart


def plan_verdict(c: Comparison) -> str:
    """ "120 ms short of the plan", "30 ms better than the plan", "exactly as planned": the model's one verdict."""
    return c.verdict_text()


def slide_title(c: Comparison) -> str:
    """ "Predicted 1.43×, measured 1.28×: 120 ms short of the plan"."""
    return f"{c.title}: {plan_verdict(c)}"


def details(c: Comparison) -> str:
    """The reviewer's sentence without its head (the title already states predicted and measured)."""
    head = f"{c.title}: "
    return c.sentence[len(head) :] if c.sentence.startswith(head) else c.sentence


def _short(name: str, most: int = 28) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


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

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        raise ProfileError(NEEDS_COMPARISON)

    def show_inputs(self, inputs: ChartInputs) -> None:
        if inputs.comparison is None:
            raise ProfileError(NEEDS_COMPARISON)
        self.show_comparison(inputs.comparison, inputs.profile.settings.boundary)

    def show_comparison(self, c: Comparison, boundary: str = "") -> None:
        unit = c.unit
        b = c.bottleneck
        gap = plan_verdict(c)
        largest = (
            f"{_short(b.after_name)} now (was {_short(b.before_name)}, {format_percent(b.before_share)})"
            if b.moved
            else f"{_short(b.after_name)}, still the largest (was {format_percent(b.before_share)})"
        )
        figures = [
            (format_speedup(c.predicted_speedup), "predicted by the plan"),
            (format_speedup(c.measured_speedup), "measured end to end"),
            (format_time(abs(c.shortfall), unit), gap.split(" ", 2)[-1] if gap != "exactly as planned" else gap),
            (format_percent(b.after_share), largest),
        ]
        self.show_texts(
            slide_title(c),
            f"{boundary or 'Measured profile'} · before {format_time(c.before_total, unit)}, "
            f"after {format_time(c.after_total, unit)}; the plan promised {format_time(c.predicted_total, unit)}",
            [(value, caption.strip()) for value, caption in figures],
            f"<b>{html.escape(details(c))}</b><br>{html.escape(b.sentence)}",
        )
        measured_ok = c.verdict.delivered
        self.values[1].setStyleSheet("color: #1a6e2e;" if measured_ok else "color: #b35c00;")
        self.chart.show_comparison(c)
