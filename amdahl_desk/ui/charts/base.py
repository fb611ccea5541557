"""The one small interface every chart implements, so the results pane, the slide and the exports treat all alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.comparison import Comparison
from ...model.fit import FitResult
from ...model.profile import Profile

if TYPE_CHECKING:  # chart_style defines the frame every plot uses, on top of this interface
    from .chart_style import Style


@dataclass(frozen=True)
class ChartInputs:
    """Everything a chart can be drawn from; which part a chart needs, its registry entry's source says."""

    profile: Profile
    analysis: Analysis | None
    selected: int = -1  # the current optimization, or -1
    fit: FitResult | None = None  # the measured runs' fits
    comparison: Comparison | None = None  # the document (before) against a profile measured after


class Chart(QWidget):
    """A widget that draws itself from an analysis and what the person has selected.

    Subclasses take ``(parent=None, style=SCREEN)`` and implement :meth:`show_analysis`, which must
    be cheap to repeat (update items in place; change a label only when its text changes): the
    results pane calls it at most once a frame, and only when something the chart depends on (its
    registry entry says what) has changed. Export to PNG, SVG or PDF is the same for every chart:
    ``charts.export`` builds a fresh one in the slide style at the output size and has Qt paint it.
    """

    def __init__(self, parent: QWidget | None = None, style: Style | None = None) -> None:
        super().__init__(parent)

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int) -> None:
        """Draw ``analysis`` of ``profile`` (None: nothing to chart); ``selected`` is the current optimization or -1."""
        raise NotImplementedError

    def show_fit(self, fit: FitResult | None) -> None:
        """The fits to the measured runs, for charts that draw them (they draw at the next :meth:`show_analysis`).

        Called before ``show_analysis`` by whoever draws the chart; charts without measured runs ignore it.
        """

    def show_inputs(self, inputs: ChartInputs) -> None:
        """Draw from everything at hand, as an export or a slide does: the fits first, then the analysis.

        A chart drawn from a comparison overrides this (its ``show_analysis`` has nothing to draw).
        """
        self.show_fit(inputs.fit)
        self.show_analysis(inputs.profile, inputs.analysis, inputs.selected)
