"""The one small interface every chart implements, so the results pane, the slide and the exports treat all alike."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.fit import FitResult
from ...model.profile import Profile


class Chart(QWidget):
    """A widget that draws itself from an analysis and what the person has selected.

    Subclasses take ``(parent=None, style=SCREEN)`` and implement :meth:`show_analysis`, which must
    be cheap to repeat (update items in place; change a label only when its text changes): the
    results pane calls it at most once a frame, and only when something the chart depends on (its
    registry entry says what) has changed. Export to PNG, SVG or PDF is the same for every chart:
    ``charts.export`` builds a fresh one in the slide style at the output size and has Qt paint it.
    """

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int) -> None:
        """Draw ``analysis`` of ``profile`` (None: nothing to chart); ``selected`` is the current optimization or -1."""
        raise NotImplementedError

    def show_fit(self, fit: FitResult | None) -> None:
        """The fits to the measured runs, for charts that draw them (they draw at the next :meth:`show_analysis`).

        Called before ``show_analysis`` by whoever draws the chart; charts without measured runs ignore it.
        """
