"""Work off the GUI thread: one Python thread runs jobs in turn; each lane keeps only its newest request.

A job is a plain callable given a ``stale()`` test (True once a newer request of its lane came, or the runner
closed): a long job asks it between its parts and stops early. Its result (or the message of a
:class:`~amdahl_desk.model.errors.ProfileError` it raised) comes back on the GUI thread through a queued
signal, and only while its request is still the lane's newest: a result of an older request is dropped, never
shown. A daemon thread, so a window closed while a trace is read does not hold the application open.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ...model.errors import ProfileError
from ...present.refusals import error_text
from .locale_text import locale_numbers

log = logging.getLogger(__name__)
Stale = Callable[[], bool]
Job = Callable[[Stale], Any]
Done = Callable[[Any], None]
Failed = Callable[[str], None]


class Background(QObject):
    """Runs :data:`Job` s on one thread; ``submit`` returns the request's number in its lane."""

    _result = Signal(str, int, bool, object)  # lane, request, succeeded, result or message

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._latest: dict[str, int] = {}
        self._handlers: dict[tuple[str, int], tuple[Done, Failed]] = {}
        self._queue: queue.Queue[tuple[str, int, Job] | None] = queue.Queue()
        self._closed = threading.Event()
        self._busy = 0  # requests submitted whose answer has not come back (or been dropped)
        self._result.connect(self._deliver)
        self._thread: threading.Thread | None = None
        self._numbers = locale_numbers()  # the desktop's, read on the window's thread: a refusal's counts

    @property
    def busy(self) -> bool:
        """Whether a job is waiting or running (tests and screenshots wait for this to end)."""
        return self._busy > 0

    def latest(self, lane: str) -> int:
        return self._latest.get(lane, 0)

    def submit(self, lane: str, job: Job, done: Done, failed: Failed) -> int:
        """Run ``job`` after the jobs before it; ``done(result)`` or ``failed(message)`` on the GUI thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="amdahl-desk background", daemon=True)
            self._thread.start()
        number = self._latest.get(lane, 0) + 1
        self._latest[lane] = number
        self._handlers = {k: v for k, v in self._handlers.items() if k[0] != lane}  # older answers are dropped
        self._handlers[(lane, number)] = (done, failed)
        self._busy += 1
        self._queue.put((lane, number, job))
        return number

    def drop(self, lane: str) -> None:
        """Forget the lane's pending request: its answer, when it comes, is dropped."""
        self._latest[lane] = self._latest.get(lane, 0) + 1
        self._handlers = {k: v for k, v in self._handlers.items() if k[0] != lane}

    def close(self) -> None:
        """Stop taking work; a running job is told it is stale and its answer is dropped."""
        self._closed.set()
        self._handlers.clear()
        self._queue.put(None)

    def _stale(self, lane: str, number: int) -> Stale:
        return lambda: self._closed.is_set() or self._latest.get(lane, 0) != number

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None or self._closed.is_set():
                return
            lane, number, job = item
            stale = self._stale(lane, number)
            if stale():
                self._emit(lane, number, False, None)
                continue
            try:
                result, ok = job(stale), True
            except ProfileError as exc:
                result, ok = error_text(exc, self._numbers), False
            except MemoryError:
                result, ok = "not enough memory for the trace's critical path", False
            except Exception as exc:  # noqa: BLE001 - a message in the window, never a traceback; the work goes on
                if stale():  # stopped because a newer request came (a cancelled read): nobody waits for it
                    result, ok = None, False
                else:
                    log.exception("unexpected error in the background")
                    result, ok = f"unexpected error: {exc}", False
            self._emit(lane, number, ok, result)

    def _emit(self, lane: str, number: int, ok: bool, result: object) -> None:
        with contextlib.suppress(RuntimeError):  # the window went while the job ran
            self._result.emit(lane, number, ok, result)

    def _deliver(self, lane: str, number: int, ok: bool, result: object) -> None:
        self._busy = max(self._busy - 1, 0)
        handlers = self._handlers.pop((lane, number), None)
        if handlers is None or self._latest.get(lane) != number or result is None and not ok:
            return
        done, failed = handlers
        if ok:
            done(result)
        else:
            failed(str(result))
