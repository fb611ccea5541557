"""Redraws coalesced to the display's frame rate: views subscribe with what they depend on.

One single-shot QTimer per window, throttling with a leading edge: the first change after a quiet
frame redraws on the next pass of the event loop; changes that come faster (a slider drag, a burst
of pastes) are merged and drawn once per frame, from the document as it is then, so a drag never
queues stale work. A plain QTimer rather than superqt's ``qthrottled``: it is the one timer
this needs, it needs no new dependency, and the aspects to merge are ours to keep anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from .document import Document
from .state import Aspect


class RedrawScheduler(QObject):
    """Collects what changed (document aspects and the selection) and calls subscribers once per frame."""

    redrawn = Signal()  # after every subscriber that needed to has redrawn

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.selected_optimization = -1
        self._subscribers: list[tuple[frozenset[Aspect], Callable[[], None]]] = []
        self._pending: set[Aspect] = set(Aspect)  # everything is new to a view that has not drawn yet
        self._last = -1e9
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self.flush)
        doc.changed.connect(lambda change: self.request(change.aspects))

    @staticmethod
    def frame_seconds() -> float:
        screen = QGuiApplication.primaryScreen()
        rate = screen.refreshRate() if screen is not None else 60.0
        return 1.0 / (rate if 20 <= rate <= 500 else 60.0)

    def subscribe(self, depends_on: Iterable[Aspect], redraw: Callable[[], None]) -> None:
        """Call ``redraw`` (at most once a frame) whenever one of ``depends_on`` changed."""
        self._subscribers.append((frozenset(depends_on), redraw))
        self.request(frozenset(depends_on))

    def select_optimization(self, row: int) -> None:
        if row != self.selected_optimization:
            self.selected_optimization = row
            self.request(frozenset({Aspect.SELECTION}))

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def waiting(self, depends_on: frozenset[Aspect]) -> bool:
        """Whether a change of one of ``depends_on`` waits for the next frame's redraw."""
        return not self._pending.isdisjoint(depends_on)

    def request(self, aspects: frozenset[Aspect]) -> None:
        self._pending |= aspects
        if self._pending and not self._timer.isActive():
            wait = self._last + self.frame_seconds() - time.monotonic()
            self._timer.start(max(0, round(wait * 1000)))

    def flush(self) -> None:
        """Redraw now what waits (the timer does this; a screenshot or an export may too)."""
        self._timer.stop()
        if not self._pending:
            return
        aspects, self._pending = self._pending, set()
        self._last = time.monotonic()
        for depends_on, redraw in self._subscribers:
            if depends_on & aspects:
                redraw()
        self.redrawn.emit()
