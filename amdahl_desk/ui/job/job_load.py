"""Reading a job of many ranks off the GUI thread: each rank's compact graph (in worker processes when the job is
large), the ranks matched and joined at their collectives, the job analysed, and the straggler's trace imported as
the profile the window shows. Progress counts ranks; Cancel stops between ranks and lets go of what was read.

The worker lives on its :class:`QThread` and talks through signals, which Qt delivers on the GUI thread. A
refusal (a rank with fewer steps, collectives that cannot be matched, a damaged file) is the command line's
message naming the file, never a traceback; nothing of a refused or cancelled job reaches the document.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ...model.errors import BadInputError, ProfileError
from ...model.names import STEP_PREFIX
from ...present.refusals import error_text
from ..core.locale_text import locale_numbers

log = logging.getLogger(__name__)
POOL_FROM_BYTES = 16_000_000  # a job this large (all its files) is read in worker processes, one rank each
POOL_FROM_RANKS = 8  # so is one of this many ranks
CANCEL_POLL_S = 0.1  # how often a read in worker processes looks for Cancel


@dataclass(frozen=True)
class LoadedJob:
    """A job read and analysed, with the profile of its representative rank (the straggler, else the slowest)."""

    paths: tuple[str, ...]
    step: str
    graph: Any  # model.job.join.JobGraph
    job: Any  # model.job.analysis.Job
    profile: Any  # model.profile.Profile: the representative rank's import
    representative: Path  # its file
    rank: int


class CancelledError(Exception):
    """The person cancelled the read."""


def give_back_memory() -> None:
    """Collect, and let glibc return freed pages to the system (what a stopped read built is garbage now)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class JobWorker(QObject):
    """Reads one job, once; ``stop`` (set from the GUI thread) is looked at between ranks."""

    progressed = Signal(int, int)  # ranks read, ranks in all
    joining = Signal()  # every rank is read: matching, joining, analysing
    loaded = Signal(object)  # LoadedJob
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, step: str = STEP_PREFIX, with_profile: bool = True) -> None:
        super().__init__()
        self.stop = threading.Event()
        self.step = step
        self.with_profile = with_profile  # False: the job alone (a workbook's profile stands for it already)
        self.numbers = locale_numbers()  # the desktop's, read on the window's thread: a refusal's numbers
        self.outcome = ""  # "loaded", "failed" or "cancelled", once over

    @Slot(object)
    def load(self, paths: Sequence[str]) -> None:
        try:
            loaded = self.read(list(paths))
        except CancelledError:
            self._end("cancelled")
        except ProfileError as exc:
            self._end("failed", error_text(exc, self.numbers))
        except BadInputError as exc:
            self._end("failed", str(exc))
        except MemoryError:
            self._end("failed", "not enough memory to read the job's ranks")
        except Exception as exc:  # noqa: BLE001 - the promise: a message, never a traceback; the document intact
            log.exception("unexpected error while reading a job")
            self._end("failed", f"unexpected error while reading the job: {exc}")
        else:
            if self.stop.is_set():
                self._end("cancelled")
            else:
                self.outcome = "loaded"
                self.loaded.emit(loaded)

    def _end(self, outcome: str, message: str = "") -> None:
        self.outcome = outcome
        give_back_memory()
        if outcome == "failed":
            self.failed.emit(message)
        else:
            self.cancelled.emit()

    def read(self, paths: list[str]) -> LoadedJob:
        """The job in ``paths`` read and analysed (on the calling thread)."""
        from ...files import load_any
        from ...files.traces.job import job_files
        from ...model.job.analysis import analyse_job
        from ...model.job.join import match
        from ...model.job.representative import representative_source
        from ...model.traces.errors import TraceError

        files = job_files(paths)
        self.progressed.emit(0, len(files))
        ranks = self._read(files)
        self.joining.emit()
        graph = match(ranks)
        del ranks
        job = analyse_job(graph)
        if self.stop.is_set():
            raise CancelledError
        rank, source = representative_source(job)
        path = Path(next(f.path for f in files if f.source == source))
        try:
            profile = load_any(path).profile if self.with_profile else None
        except TraceError as exc:
            raise TraceError(
                f"the rank's profile cannot be imported: {error_text(exc, self.numbers)}", path.name
            ) from None
        return LoadedJob(tuple(f.path for f in files), self.step, graph, job, profile, path, rank)

    def _read(self, files: Sequence[Any]) -> list[Any]:
        return read_ranks(files, self.step, (), self.stop.is_set, self.progressed.emit)


def read_ranks(
    files: Sequence[Any],
    step: str,
    speedups: Sequence[Any],
    stopped: Callable[[], bool],
    progress: Callable[[int, int], object] | None = None,
) -> list[Any]:
    """Every rank's compact graph (``files``: :class:`~amdahl_desk.files.traces.job.RankFile`), in worker
    processes when the job is large; raises :class:`CancelledError` as soon as ``stopped()`` (between ranks), and the
    first bad rank's :class:`TraceError` naming its file."""
    from ...files.traces.job import read_rank_file
    from ...model.traces.errors import TraceError

    size = sum(Path(f.path).stat().st_size for f in files if Path(f.path).exists())
    workers = min(len(files), _cores())
    results: list[Any] = [None] * len(files)
    if workers > 1 and (size >= POOL_FROM_BYTES or len(files) >= POOL_FROM_RANKS):
        # A fresh interpreter per worker (forkserver): a fork of the window would copy its threads' locks.
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
        try:
            futures: dict[Future[Any], int] = {
                ex.submit(read_rank_file, f, step, tuple(speedups), None): i for i, f in enumerate(files)
            }
            pending = set(futures)
            while pending:
                if stopped():
                    raise CancelledError
                done, pending = wait(pending, timeout=CANCEL_POLL_S, return_when=FIRST_COMPLETED)
                for fut in done:
                    results[futures[fut]] = fut.result()
                if done and progress is not None:
                    progress(len(files) - len(pending), len(files))
        finally:
            ex.shutdown(wait=False, cancel_futures=True)
    else:
        for i, f in enumerate(files):
            if stopped():
                raise CancelledError
            results[i] = read_rank_file(f, step, tuple(speedups), None)
            if progress is not None:
                progress(i + 1, len(files))
    for r in results:
        if isinstance(r, tuple):
            raise TraceError(*r)
    return results


class JobSession(QObject):
    """One job's read on a thread of its own."""

    start = Signal(object)

    def __init__(
        self, paths: Sequence[str], step: str = STEP_PREFIX, parent: QObject | None = None, with_profile: bool = True
    ) -> None:
        super().__init__(parent)
        self.paths = list(paths)
        self.reader = QThread()
        self.worker = JobWorker(step, with_profile)
        self.worker.moveToThread(self.reader)
        self.start.connect(self.worker.load)
        for signal in (self.worker.loaded, self.worker.failed, self.worker.cancelled):
            signal.connect(self.reader.quit)
        self.reader.start()
        self.start.emit(self.paths)

    def cancel(self) -> None:
        self.worker.stop.set()

    def close(self) -> None:
        """Stop the read and wait for its thread (a rank being read in this process ends first)."""
        self.worker.stop.set()
        self.reader.quit()
        self.reader.wait()
