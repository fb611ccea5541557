"""Following the document's trace: read it off the GUI thread when the profile names one, then answer each plan.

When the profile's Settings name a trace (``trace_source``, ``trace_grouping``, ``trace_events``) it is read
with its dependencies on the background thread (Cancel: a newer trace, another profile, the window closing),
its kept steps made ready and each component's events found once (``files/traces/linked.py``). Then, in turn:
the plan's answer, and each component's time on the path and slack. Every change of the plan (a tick, a k step;
component times do not change the trace) asks again after :data:`PAUSE_MS` without another change, so a drag
asks once it rests; an answer of a plan other than the newest is dropped, and the views say "computing" until
the newest comes (they compare the plan an answer is of with the profile's own, ``present/trace_plan``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer

from ...present.trace_plan import NO_TRACE, TraceFigures
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.state import Aspect

PAUSE_MS = 60  # a change of the plan is computed once the plan has rested this long (a drag: at its pauses)
KEPT_ANSWERS = 32  # plans answered lately, shown at once when one comes back (untick and tick again, undo)
KEPT_TRACES = 2  # traces read lately, with their components' figures: an import undone and redone reads nothing
LOAD, PLAN, PATHS, CURVES = "trace", "plan", "components", "curves"


class TraceWhatIf(QObject):
    """Keeps ``doc.trace`` current for the profile's trace and plan."""

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc, self.link = doc, doc.trace
        self._key: tuple[Any, ...] | None = None  # the trace read (or being read), with the options that matter
        self._answers: OrderedDict[Any, Any] = OrderedDict()
        self._read: OrderedDict[Any, list[Any]] = OrderedDict()  # trace key → [planner, components or None]
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(PAUSE_MS)
        self._pause.timeout.connect(self._ask_plan)
        doc.subscribe({Aspect.SETTINGS}, self._follow_trace)  # an import, an open, undo: settings are touched
        # the plan, and what its targets ask of it: the target times and the baseline they are a share of
        doc.subscribe({Aspect.OPTIMIZATIONS, Aspect.OBJECTIVES, Aspect.COMPONENTS}, self._plan_changed)
        self._follow_trace()

    # -- the trace ---------------------------------------------------------------------------------
    def _follow_trace(self) -> None:
        s = self.doc.profile.settings
        base = self.doc.path.parent if self.doc.path is not None else None
        where: tuple[Path, ...] | str = ()
        n = locale_numbers()  # a refusal's counts as the desktop writes them (read here, on the window's thread)
        if s.trace_source:
            from ...files.traces.linked import trace_paths, why
            from ...model.traces.errors import TraceError

            try:
                where = tuple(p.resolve() for p in trace_paths(s.trace_source, base))
            except TraceError as exc:
                where = why(exc, n)
        key = (s.trace_source, where, s.trace_grouping, s.trace_events)
        if key == self._key:
            self._plan_changed()  # the same trace: another profile may still bring another plan
            return
        self._key = key
        self._pause.stop()
        self._answers.clear()
        self.link.planner = None
        self.link.drop(LOAD, PLAN, PATHS)
        if not s.trace_source:
            self.link.show(NO_TRACE)
            return
        if isinstance(where, str):  # not there: said at once, nothing to read
            self.link.show(TraceFigures(s.trace_source, problem=where))
            return
        kept = self._read.get(key)
        if kept is not None:  # read lately: at once
            self._read.move_to_end(key)
            self._read_done(key, kept[0], kept[1])
            return
        self.link.show(TraceFigures(s.trace_source))
        settings = s

        def read(stale: Any) -> Any:
            from ...files.traces.linked import open_linked, why
            from ...model.traces.errors import TraceError

            def progress(_done: int, _total: int) -> bool | None:
                return False if stale() else None

            try:
                return open_linked(settings, base, progress)
            except TraceError as exc:
                return why(exc, n)

        self.link.work.submit(
            LOAD, read, lambda result: self._read_back(key, result), lambda why: self._failed(key, why)
        )

    def _failed(self, key: tuple[Any, ...], why: str) -> None:
        if key == self._key:
            self.link.show(TraceFigures(str(key[0]), problem=why))

    def _read_back(self, key: tuple[Any, ...], result: Any) -> None:
        if key != self._key:
            return
        if isinstance(result, str):
            self._failed(key, result)
            return
        self._read[key] = [result, None]
        while len(self._read) > KEPT_TRACES:
            self._read.popitem(last=False)
        self._read_done(key, result, None)

    def _read_done(self, key: tuple[Any, ...], planner: Any, components: Any) -> None:
        self.link.planner = planner
        figures = TraceFigures(str(key[0]), ready=True, steps=len(planner.pt.steps), baseline=planner.baseline)
        self.link.show(replace(figures, components=components))
        self._ask_plan()
        if components is None:
            self.link.work.submit(PATHS, planner.components, lambda f: self._components(key, f), self._paths_failed)

    def _components(self, key: tuple[Any, ...], found: Any) -> None:
        if key in self._read:
            self._read[key][1] = found
        if found is not None and key == self._key and self.link.figures.ready:
            self.link.show(replace(self.link.figures, components=found))

    def _paths_failed(self, why: str) -> None:
        self.link.show(replace(self.link.figures, problem=why))

    # -- the plan --------------------------------------------------------------------------------
    def _plan_changed(self) -> None:
        if self.link.planner is None:
            return
        key = self._plan_key()
        kept = self._answers.get(key)
        if kept is not None:  # answered lately: at once
            self._pause.stop()
            self.link.work.drop(PLAN)
            self.link.show(replace(self.link.figures, answers=kept))
            return
        self._pause.start()

    def _options(self) -> tuple[tuple[tuple[str, ...], float], ...]:
        return tuple((o.targets, float(o.speedup)) for o in self.doc.profile.optimizations)

    def _plan_key(self) -> tuple[Any, ...]:
        """The plan, each optimization alone and the step speedups the target times ask: what one answer is for."""
        from ...model.traces.plan_answer import profile_needs
        from ...model.traces.plan_path import plan_of

        profile = self.doc.profile
        return (plan_of(profile.optimizations), self._options(), profile_needs(profile))

    def _ask_plan(self) -> None:
        planner = self.link.planner
        if planner is None:
            return
        from ...model.traces.plan_path import answers

        key = self._plan_key()
        plan, options, needs = key
        if key in self._answers:
            self._plan_changed()
            return

        def job(_stale: Any) -> Any:
            return answers(planner, plan, options, needs)

        def done(result: Any) -> None:
            if self.link.planner is not planner:
                return
            self._answers[key] = result
            while len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
            self.link.show(replace(self.link.figures, answers=result))

        self.link.work.submit(PLAN, job, done, self._paths_failed)
        # Then each optimization's speedup against k on the path (the speedup chart), after the plan's answer on the
        # same thread: the headline never waits for the curves; they join the plan's answers when they come.
        optimizations = tuple(self.doc.profile.optimizations)

        def curves(_stale: Any) -> Any:
            from ...model.traces.plan_curves import plan_curves

            return plan_curves(planner, optimizations)

        def drawn(result: Any) -> None:
            found = self._answers.get(key)
            if self.link.planner is not planner or found is None:
                return
            shown = self.link.figures.answers is found
            self._answers[key] = found = replace(found, curves=result)
            if shown:
                self.link.show(replace(self.link.figures, answers=found))

        self.link.work.submit(CURVES, curves, drawn, lambda _why: None)  # the chart keeps the sum's, said so

    # -- waiting (a screenshot, a test) ------------------------------------------------------------
    @property
    def idle(self) -> bool:
        """Nothing waits: the trace read, the plan and the components' figures answered (or none asked)."""
        return not self._pause.isActive() and not self.link.busy

    def settle(self, most_seconds: float = 120.0) -> bool:
        """Run the event loop until :attr:`idle` (for a screenshot of a trace-based profile); False past the limit.

        Waits for events (an answer, the pause's timer, a tick of its own every 100 ms), never spins."""
        end = time.monotonic() + most_seconds
        tick = QTimer(self)
        tick.start(100)
        try:
            while not self.idle:
                if time.monotonic() > end:
                    return False
                QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        finally:
            tick.stop()
            tick.deleteLater()
        return True
