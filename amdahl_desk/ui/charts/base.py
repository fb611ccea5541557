"""The one small interface every chart implements, so the results pane, the slide and the exports treat all alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from ...model.analysis import Analysis
from ...model.profile import Profile
from ...present.inputs import ChartInputs
from ...present.numbers import Numbers
from ..core.locale_text import locale_numbers

View = TypeVar("View")

__all__ = ["Chart", "ChartInputs", "ChartSlot"]


class Chart(QWidget, Generic[View]):
    """A widget that draws one frozen view from the presentation layer.

    A subclass implements :meth:`view` (which presentation function makes its view from the inputs) and
    :meth:`draw` (put that view on screen). :meth:`show_inputs` is the one way in, for the results pane, the
    slide and every export alike: a view equal to the one drawn (every text the same, no curve moved by a
    tenth of a pixel) draws nothing. ``draw`` updates items in place: the results pane calls it at most once
    a frame, and only when something the chart depends on (its registry entry says what) has changed.
    Export to PNG, SVG or PDF is the same for every chart: ``charts.export`` builds a fresh one in the slide
    style at the output size and has Qt paint it.
    """

    brief = False  # short titles: on screen, and on a slide whose own title states the result

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.drawn: View | None = None
        # Whether the inputs the drawn view was made from are still the document's: the window's results pane says
        # (no change the chart depends on waits for its redraw); an export's chart keeps its inputs for good.
        self.inputs_current: Callable[[], bool] = lambda: True

    def view(self, inputs: ChartInputs, n: Numbers) -> View:
        """What this chart shows of ``inputs``, worded and formatted with ``n``."""
        raise NotImplementedError

    def draw(self, view: View) -> None:
        """Put ``view`` on screen."""
        raise NotImplementedError

    def show_inputs(self, inputs: ChartInputs, n: Numbers | None = None) -> None:
        """Draw from everything at hand (in the desktop's number format unless ``n`` says otherwise)."""
        view = self.view(inputs, n if n is not None else locale_numbers())
        if view == self.drawn:
            return
        self.drawn = view
        self.draw(view)

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        """Draw ``analysis`` of ``profile`` alone (no runs, no comparison): a shorthand for tests and the slide."""
        self.show_inputs(ChartInputs(profile, analysis, selected))


class ChartSlot(QWidget):
    """Where one chart lives: a placeholder frame until the chart is built; moved whole between the
    side-by-side splitters and the tabs, so building a chart and reflowing the pane never meet."""

    def __init__(self) -> None:
        super().__init__()
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.content: QWidget = QFrame()
        self.content.setMinimumSize(120, 120)
        self.box.addWidget(self.content)

    def put(self, widget: QWidget) -> None:
        old = self.content
        self.box.replaceWidget(old, widget)
        old.deleteLater()
        self.content = widget
        widget.show()  # now, not at the next pass of the event loop: the first redraw sees it on screen
