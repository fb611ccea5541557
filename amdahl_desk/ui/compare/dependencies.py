"""Two traces compared: the before trace's critical path with each component's measured k, off the GUI thread.

When the document was imported from a trace it can read (its trace's planner is ready, ``doc.trace``) and the
after profile is a trace too, the comparison tab says what the trace's dependencies predict from the components'
measured changes, beside the sum's prediction and the steps' measured speedup, as ``amdahl-desk compare`` does.
The after trace is read once per file (for its mean step); each new set of measured k is one scheduler pass on
the document's background thread. Until the answer comes the line says it is being computed; an answer of an
older comparison is dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from ...files import is_trace
from ...present.trace_plan import LEAD
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.state import Aspect
from .session import ComparisonSession

LANE = "comparison"


class DependencyLine(QObject):
    """``text``: the comparison with the trace's dependencies, "" when either side is no trace."""

    changed = Signal()

    def __init__(self, session: ComparisonSession, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.doc = session, doc
        self.text = ""
        self._key: Any = None
        self._steps: dict[Path, float | None] = {}  # each after trace's mean step (ms), read once
        session.changed.connect(self.refresh)
        doc.subscribe({Aspect.TRACE}, self.refresh)

    def _set(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.changed.emit()

    def refresh(self) -> None:
        c, after, planner = self.session.comparison, self.session.after_path, self.doc.trace.planner
        events = self.doc.profile.settings.trace_events
        if c is None or after is None or planner is None or not events or not is_trace(after):
            self._key = None
            self.doc.trace.drop(LANE)
            self._set("")
            return
        from ...model.traces.trace_comparison import measured_ks

        ks = measured_ks(c)
        times = {comp.name: comp.time for comp in self.doc.profile.components}
        key = (id(planner), after, tuple(ks.items()), tuple(times.items()))
        if key == self._key:
            return
        self._key = key
        self._set(f"{LEAD} computing the measured changes on the before trace's critical path …")
        known = self._steps.get(after, -1.0)

        def job(_stale: Any) -> Any:
            from ...files.traces.graph_source import load_rank_graph
            from ...model.traces.trace_comparison import check_with_dependencies, mean_step
            from ...model.traces.trace_index import find_step_windows

            step = known
            if step is not None and step < 0:
                second = load_rank_graph(after)
                step = mean_step([(s.start, s.end) for s in find_step_windows(second.trace)])
            check = None if step is None else check_with_dependencies(planner.pt, events, times, ks, step)
            return step, check

        def done(result: Any) -> None:
            from ...present.trace_plan import comparison_line

            step, check = result
            self._steps[after] = step
            shown = (
                comparison_line(check, locale_numbers())
                if check is not None
                else f"{LEAD} the after trace has no steps."
            )
            self._set(shown)

        # Why it cannot say is the trace reader's refusal, its place's counts in the desktop's numbers.
        self.doc.trace.work.submit(LANE, job, done, lambda why: self._set(f"{LEAD} cannot say: {why}"))
