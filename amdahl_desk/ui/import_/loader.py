"""Reading and summarising a trace on a thread of its own, so the window answers while hundreds of megabytes stream in.

The worker lives on its :class:`QThread`; the dialog asks it through queued signals and hears back
through signals. Cancel is a flag the read's progress callback looks at every block (4 MB), so a
cancelled read stops within one block, not at the end of the file.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from ...files.traces import LoadedTrace, Progress, load_trace
from ...files.traces.grouping_note import grouping_note
from ...model.errors import ProfileError
from ...model.traces import Cancelled, ImportOptions, ImportResult
from ...present.numbers import Numbers
from ...present.refusals import error_text, refusal_text
from ..core.locale_text import locale_numbers

log = logging.getLogger(__name__)
# A trace larger than this is previewed from its events alone, streamed as the command line's import reads it:
# its dependencies (for the preview's critical-path column) took the window past 2 GB on a 762 MB trace.
DEPENDENCIES_UP_TO = 64_000_000  # bytes of trace files
# What reading a trace may add to the window's memory: past this, the read stops and the trace is refused, naming
# its size (a window that already holds much after a long day is not what a small trace is refused for).
MEMORY_LIMIT = 1_000_000_000  # bytes resident, over the window's own at the read's start
PROGRESS_EVERY_S = 0.05  # at most 20 progress reports a second: enough for a bar, cheap for the event loop
CLOSE_WAIT_MS = 500  # a read stops within a block; a summary of a huge trace may not: it is left to finish alone
_LINGERING: set[TraceSession] = set()  # sessions closed while their thread still summarises


class TraceWorker(QObject):
    """Loads once, then summarises for each set of options asked; only the newest request is worked on."""

    progressed = Signal(float, float)  # bytes read, bytes in all (floats: files pass 2**31 bytes)
    loaded = Signal(object)  # the LoadedTrace
    failed = Signal(str)  # a message naming the file and the place
    cancelled = Signal()
    summarised = Signal(int, object)  # request number, ImportResult
    enriched = Signal(int, object)  # request number, the same ImportResult with the critical path's figures
    refused = Signal(int, str)  # request number, why these options give no profile
    suggested = Signal(int, str)  # request number, which grouping would explain the trace ("" when this one does)

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()  # set from the GUI thread; read by the progress callback
        self.latest = 0  # the newest request number (set from the GUI thread before asking)
        self.trace: LoadedTrace | None = None
        self.outcome = ""  # "loaded", "cancelled" or "failed", once the read is over
        self.too_large = ""  # why the read was stopped for the window's memory ("" while it was not)
        self.memory_limit = MEMORY_LIMIT
        self.numbers = locale_numbers()  # the desktop's, read here on the window's thread: every message's numbers

    def _progress(self) -> Progress:
        last = 0.0
        before = resident_bytes() or 0

        def progress(done: int, total: int) -> bool | None:
            nonlocal last
            if self.stop.is_set():
                return False
            held = resident_bytes()
            if held is not None and held - before > self.memory_limit:
                n = self.numbers
                self.too_large = (
                    f"reading it took {n.number((held - before) / 1e9, 2)} GB more of the window's memory at "
                    f"{n.number(done / 1e6)} MB of {n.number(total / 1e6)} MB, so the read was stopped"
                )
                return False
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY_S or done >= total:
                last = now
                self.progressed.emit(float(done), float(total))
            return None

        return progress

    @Slot(object)
    def load(self, paths: Sequence[Path]) -> None:
        size = _size(paths)
        try:
            self.trace = load_trace(list(paths), self._progress(), dependencies=size <= DEPENDENCIES_UP_TO)
        except Cancelled:
            if self.too_large:
                self._end("failed", too_large_message(paths, size, self.too_large, self.numbers))
            else:
                self._end("cancelled")
        except ProfileError as exc:
            self._end("failed", error_text(exc, self.numbers))
        except MemoryError:
            self._end("failed", f"{_names(paths)}: not enough memory to read the trace")
        except Exception as exc:  # noqa: BLE001 - the promise: a message, never a traceback; the document intact
            log.exception("unexpected error while reading %s", _names(paths))
            self._end("failed", f"{_names(paths)}: unexpected error while reading: {exc}")
        else:
            self._end("cancelled" if self.stop.is_set() else "loaded")

    def _end(self, outcome: str, message: str = "") -> None:
        self.outcome = outcome
        if outcome == "loaded":
            self.loaded.emit(self.trace)
            return
        self.trace = None
        give_back_memory()  # what a stopped read built is garbage now: return it, not keep it in the heap
        if outcome == "failed":
            self.failed.emit(message)
        else:
            self.cancelled.emit()

    @Slot(int, object)
    def summarise(self, request: int, options: ImportOptions) -> None:
        if request < self.latest or self.trace is None:
            return  # a newer request is already queued: this preview would be stale before it is shown
        try:
            result = self.trace.summarise(options)
        except ProfileError as exc:
            self.refused.emit(request, _first_problem(exc, self.numbers))
        except Exception as exc:  # noqa: BLE001 - shown in the dialog, which stays usable
            log.exception("unexpected error while summarising")
            self.refused.emit(request, f"unexpected error: {exc}")
        else:
            self.summarised.emit(request, result)
            self._suggest(request, options, result)
            enrich = result.group_by == "annotation" and result.steps is not None and not options.total
            if enrich and self.has_dependencies:
                self._enrich.emit(request, options)  # after the requests queued meanwhile

    def _suggest(self, request: int, options: ImportOptions, result: ImportResult) -> None:
        """Which grouping would explain the trace, when the preview's explains almost nothing."""
        if self.trace is None or request < self.latest:
            return
        try:
            hint = grouping_note(self.trace, result, options, window=True, n=self.numbers)
        except Exception:  # noqa: BLE001 - a hint left out; the preview stands
            log.exception("unexpected error while trying other groupings")
            return
        if hint and request >= self.latest:
            self.suggested.emit(request, hint[0].upper() + hint[1:])

    _enrich = Signal(int, object)

    @Slot(int, object)
    def enrich(self, request: int, options: ImportOptions) -> None:
        """The preview's critical-path times: the import's result asked with the critical path (a second or two
        on a large trace), unless a newer preview was asked meanwhile."""
        if request < self.latest or self.trace is None:
            return
        try:
            result = self.trace.summarise(replace(options, critical_path=True))
        except ProfileError:
            return  # the preview shows the result without them; the import does not need them
        except Exception:  # noqa: BLE001 - the preview stays as it is
            log.exception("unexpected error while finding the critical path")
            return
        if request >= self.latest:
            self.enriched.emit(request, result)

    @property
    def has_dependencies(self) -> bool:
        """Whether the trace was read with what its critical path needs (not for one over DEPENDENCIES_UP_TO)."""
        return self.trace is not None and all(r.deps is not None for r in self.trace.ranks)


def _size(paths: Sequence[Path]) -> int:
    """The bytes of the trace files (a folder's files summed); 0 where one cannot be read (the read says why)."""
    total = 0
    for p in paths:
        path = Path(p)
        try:
            files = [f for f in path.iterdir() if f.is_file()] if path.is_dir() else [path]
            total += sum(f.stat().st_size for f in files)
        except OSError:
            pass
    return total


def too_large_message(paths: Sequence[Path], size: int, why: str, n: Numbers) -> str:
    names = _names(paths)
    return (
        f"{names} ({n.number(size / 1e6)} MB) is too large for the window's import: {why}. Make the profile with "
        f"the command line, which streams it in a fraction of that (amdahl-desk import {names} --out "
        "profile.xlsx), and open profile.xlsx."
    )


def resident_bytes() -> int | None:
    """This process's resident memory now (Linux: /proc/self/statm); None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * _PAGE


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # not a POSIX system: no /proc either
    _PAGE = 4096


def give_back_memory() -> None:
    """Collect, and let glibc return freed pages to the system (after a trace is let go)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _names(paths: Sequence[Path]) -> str:
    return ", ".join(Path(p).name for p in paths)


def _first_problem(exc: ProfileError, n: Numbers) -> str:
    """What is wrong, and what to do about it with the window's controls, its numbers as ``n`` writes them."""
    from ...present.import_notes import refusal_remedy

    return (refusal_text(exc.problems[0], n) if exc.problems else str(exc)) + refusal_remedy(exc, window=True)


class TraceSession(QObject):
    """A worker and its thread, asked through signals; :meth:`close` stops both (cancelling a read)."""

    _load = Signal(object)
    _summarise = Signal(int, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reader = QThread(self)
        self.reader.setObjectName("trace import")
        self.worker = TraceWorker()
        self.worker.moveToThread(self.reader)
        self.reader.finished.connect(self.worker.deleteLater)  # deleted on its own thread, as it ends
        # Queued: the worker asks itself, behind the previews asked meanwhile.
        self.worker._enrich.connect(self.worker.enrich, Qt.ConnectionType.QueuedConnection)
        self._load.connect(self.worker.load)
        self._summarise.connect(self.worker.summarise)
        self._requests = 0
        self.closed = False
        self.reader.start()

    def load(self, paths: Sequence[Path]) -> None:
        self._load.emit(list(paths))

    def summarise(self, options: ImportOptions) -> int:
        """Ask for a preview; returns its request number (results of older numbers are stale)."""
        self._requests += 1
        self.worker.latest = self._requests
        self._summarise.emit(self._requests, options)
        return self._requests

    @property
    def latest(self) -> int:
        """The newest preview asked for (results of older numbers are stale)."""
        return self._requests

    def cancel(self) -> None:
        self.worker.stop.set()

    def close(self) -> None:
        """Stop the read (at the next block) and the thread; waits for it, so nothing runs on after the dialog."""
        if self.closed:
            return
        self.closed = True
        self.worker.stop.set()
        self.worker.latest = self._requests + 1  # queued previews are skipped
        self.reader.quit()
        if self.reader.wait(CLOSE_WAIT_MS):
            self._let_go()
        else:
            # A summary cannot be interrupted: the dialog goes now, the thread ends on its own and is then let go.
            self.setParent(None)
            _LINGERING.add(self)
            self.reader.finished.connect(self._release)

    def _release(self) -> None:
        self.reader.wait()
        _LINGERING.discard(self)
        self._let_go()
        self.deleteLater()

    def _let_go(self) -> None:
        """The thread has ended: the trace it read goes, and its memory back to the system."""
        self.worker.trace = None
        give_back_memory()


def lingering() -> int:
    """How many closed sessions still have a summary running (for tests)."""
    return len(_LINGERING)
