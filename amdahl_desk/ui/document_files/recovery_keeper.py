"""A recovery copy a few seconds behind every change: coalesced, and written off the GUI thread."""

from __future__ import annotations

import contextlib
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

from ...model.profile import Profile
from ..core.document import Document
from .recovery import RecoveryStore

if TYPE_CHECKING:  # a job's sheet is made only when the document stands for one
    from ...files import JobSheet

# How far the copy may lag a change. Writing a workbook takes seconds at 10,000 rows (tests/benchmarks/
# bench_soak.py --recovery), so it is written on a thread of its own and the window keeps answering.
RECOVERY_DELAY_MS = 2000
log = logging.getLogger(__name__)


class RecoveryKeeper(QObject):
    """Every change of the document (an edit, a paste, an undo: whatever lands on the undo stack) schedules a
    copy within ``delay_ms``; changes meanwhile join it, and a change during a write schedules the next one.
    A saved (clean) document has no copy."""

    written = Signal(int)  # the document's revision the copy now holds
    _wrote = Signal(int, bool)  # from the writing thread: revision, success

    def __init__(
        self, doc: Document, store: RecoveryStore, delay_ms: int = RECOVERY_DELAY_MS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.doc, self.store = doc, store
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(delay_ms)
        self.timer.timeout.connect(self._write_soon)
        self.kept: int | None = None  # the revision the copy on disk holds
        self._thread: threading.Thread | None = None
        self._writing: int | None = None  # the revision the thread writes
        self._wrote.connect(self._finished)
        doc.changed.connect(lambda _change: self.schedule())  # an edit, an undo, a save as

    @property
    def delay_ms(self) -> int:
        return self.timer.interval()

    @delay_ms.setter
    def delay_ms(self, ms: int) -> None:
        self.timer.setInterval(ms)

    @property
    def idle(self) -> bool:
        """No copy is due or being written."""
        return self._thread is None and not self.timer.isActive()

    def schedule(self) -> None:
        """A change: the copy follows within the delay (the first change of a burst starts the clock)."""
        if not self.timer.isActive():
            self.timer.start()

    def _unsaved(self) -> bool:
        stack = self.doc.undo_stack
        return shiboken6.isValid(stack) and not stack.isClean()

    def _write_soon(self) -> None:
        if not self._unsaved():
            self.clear()
            return
        if self.kept == self.doc.revision and self.store.workbook.exists():
            return
        if self._thread is not None:
            return  # one write at a time; its end schedules the next when the document has moved on
        # A copy of the profile's lists (microseconds at 10,000 rows): the thread writes what was, never a half-change.
        snapshot, path, revision = self.doc.snapshot(), self.doc.path, self.doc.revision
        self._writing = revision
        self._thread = threading.Thread(
            target=self._write, args=(snapshot, path, revision, self._job()), name="recovery copy", daemon=True
        )
        self._thread.start()

    def _job(self) -> JobSheet | None:
        """The job of many ranks the document stands for, its traces written whole (the copy is kept elsewhere)."""
        held, shown = self.doc.job.held, self.doc.job.figures
        if held is None or shown is None:
            return None
        from ...files import ranks_sheet

        return ranks_sheet(held.figures.job, held.paths, None, shown.on_ranks)

    def _write(self, profile: Profile, path: Path | None, revision: int, job: JobSheet | None = None) -> None:
        ok = True
        try:
            self.store.write(profile, path, job)
        except OSError as exc:
            log.warning("cannot write the recovery copy: %s", exc)
            ok = False
        with contextlib.suppress(RuntimeError):  # the window has gone meanwhile: nobody is left to tell
            self._wrote.emit(revision, ok)

    def _finished(self, revision: int, ok: bool) -> None:
        thread = self._thread
        # The report is the writer's last step: join it (it is ending) unless a later write is under way (wait()
        # joined ours and another started). Asking is_alive() here raced the thread's exit and could leave a
        # finished writer as "a write in progress" for ever, so no copy was written again.
        if thread is not None and self._writing == revision:
            thread.join()
            self._thread = None
        if not self._unsaved():
            self.wait()
            self.store.clear()  # saved while the copy was being written
            self.kept = None
            return
        if ok and (self.kept is None or revision > self.kept):
            self.kept = revision
            self.written.emit(revision)
        if self.doc.revision != (self.kept if ok else revision):
            self.schedule()  # changed while it was written (a failed write waits for the next change)

    def wait(self) -> None:
        """Let a write in progress end (before the copy is written here, cleared, or the program ends)."""
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None
            # Its report is queued; what it wrote is on disk, and write_now or clear decide what stays.

    def write_now(self) -> bool:
        """Write the copy here and now (Ctrl+C, a restored or continued document); True when one is on disk."""
        self.timer.stop()
        self.wait()
        if not self._unsaved():
            self.clear()
            return False
        if self.kept == self.doc.revision and self.store.workbook.exists():
            return True
        try:
            self.store.write(self.doc.profile, self.doc.path, self._job())
        except OSError as exc:
            log.warning("cannot write the recovery copy: %s", exc)
            raise
        self.kept = self.doc.revision
        self.written.emit(self.kept)
        return True

    def clear(self) -> None:
        """No copy: the work is saved or discarded."""
        self.timer.stop()
        self.wait()
        self.store.clear()
        self.kept = None
