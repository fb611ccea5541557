"""What the window knows of the profile's trace: the figures that came back from the background, announced.

The document composes one :class:`TraceLink`. The what-if room (``ui/whatif``) fills it as the trace is read
and each plan is computed; the tables, the summary, the charts and a comparison read :attr:`TraceLink.figures`
(a frozen :class:`~amdahl_desk.present.trace_plan.TraceFigures`) and hear of a new one as the document's
``changed({Aspect.TRACE})``. The figures say which plan they are of, so a view that reads them between a
change of the plan and its answer shows "computing", never the figures of the plan before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from ...present.trace_plan import NO_TRACE, TraceFigures, trace_based
from .background import Background
from .state import Aspect

if TYPE_CHECKING:
    from .document import Document

ANNOUNCED = frozenset({Aspect.TRACE})


class TraceLink(QObject):
    """The trace's figures as they are now, its planner once read (for a comparison), and the thread they are
    computed on (made when a profile first names a trace)."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self.figures: TraceFigures = NO_TRACE
        self.planner: Any = None  # the model's TracePlanner of the trace read, asked off the GUI thread only
        self._work: Background | None = None

    @property
    def work(self) -> Background:
        if self._work is None:
            self._work = Background(self)
        return self._work

    @property
    def busy(self) -> bool:
        return self._work is not None and self._work.busy

    def drop(self, *lanes: str) -> None:
        """Forget what these lanes were asked (their answers are dropped when they come)."""
        if self._work is not None:
            for lane in lanes:
                self._work.drop(lane)

    def show(self, figures: TraceFigures) -> None:
        """New figures: every view that shows them hears of it once."""
        if figures == self.figures:
            return
        self.figures = figures
        self.doc.announce(*ANNOUNCED)

    def answer(self) -> Any:
        """The profile's answer with its trace's dependencies (a :class:`~amdahl_desk.model.traces.plan_answer.
        TraceAnswer`) as the window knows it now; None without a usable trace or while the plan is computed."""
        doc = self.doc
        figures, analysis = self.figures, doc.analysis
        if analysis is None or not trace_based(figures):
            return None
        found = figures.current(doc.profile)
        if found is None:
            return None
        from ...model.traces.plan_answer import plan_answer

        return plan_answer(doc.profile, analysis, found)

    def close(self) -> None:
        if self._work is not None:
            self._work.close()
