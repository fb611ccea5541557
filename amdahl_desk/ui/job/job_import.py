"""File → Import Profile from Folder… (or several traces chosen or dropped): the job of many ranks opens.

A small dialog counts the ranks read ("37 of 128 ranks") with Cancel; Cancel, a refusal or closing the window
leave the document as it was. A job read becomes the document as one undo step: its profile is the representative
rank's import, and the job itself is held by ``doc.job`` (:mod:`..core.job_link`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QProgressBar, QVBoxLayout, QWidget

from ...model.profile import Profile
from ...present.refusals import error_text
from ..core.document import Document
from ..core.job_link import HeldJob
from ..core.locale_text import locale_numbers

if TYPE_CHECKING:  # read when a job is opened: the first frame needs none of it (process pools, the job's words)
    from .job_load import JobSession, LoadedJob

Apply = Callable[[Profile, Path, str], None]


class JobPrompts(Protocol):
    def show_error(self, title: str, text: str) -> None: ...

    def show_status(self, text: str, ms: int = 0) -> None: ...


def is_job(paths: Sequence[Path]) -> bool:
    """Whether ``paths`` are a job of several ranks: several traces, or a folder with several."""
    from ...files.traces.detect import trace_files
    from ...model.traces.errors import TraceError

    if len(paths) > 1:
        return True
    if len(paths) == 1 and paths[0].is_dir():
        try:
            return len(trace_files(paths[0])) > 1
        except (TraceError, OSError):
            return False
    return False


class JobDialog(QDialog):
    """Ranks read so far, and Cancel."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Importing the job {name}")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        from ...present.job_words import loading_text

        self.label = QLabel(loading_text(0, 0))
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.bar.setTextVisible(False)  # the label above counts the ranks: one count, never two that disagree
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for w in (self.label, self.bar, buttons):
            layout.addWidget(w)
        self.setMinimumWidth(420)

    def progressed(self, done: int, total: int) -> None:
        from ...present.job_words import loading_text

        self.label.setText(loading_text(done, total))
        if total:
            self.bar.setRange(0, total)
            self.bar.setValue(done)

    def joining(self) -> None:
        from ...present.job_words import loading_text

        self.label.setText(loading_text(-1, 0))
        self.bar.setRange(0, 0)


class JobImport(QObject):
    """Reads a job for the window and makes it the document; one at a time."""

    finished = Signal(bool)  # True when a job was opened

    def __init__(self, doc: Document, prompts: JobPrompts, apply: Apply, window: QWidget) -> None:
        super().__init__(window)
        self.doc, self.prompts, self.apply, self.window = doc, prompts, apply, window
        self.session: JobSession | None = None
        self.dialog: JobDialog | None = None
        self._restoring: Path | None = None  # the workbook whose job is being read again
        self._restoring_source = ""
        self._saved_rank: int | None = None
        self._plan_on: tuple[int, ...] | None = None  # the ranks the saved plan was on (None: every rank)

    def start(self, paths: Sequence[Path], restoring: Path | None = None) -> JobDialog:
        """Read the job of ``paths``; with ``restoring`` (a workbook just opened that names them), hold it for the
        profile the workbook opened instead of importing one."""
        if self.dialog is not None:
            self.dialog.raise_()
            return self.dialog
        name = paths[0].name if len(paths) == 1 else f"{paths[0].parent.name or paths[0].name} ({len(paths)} files)"
        dialog = JobDialog(restoring.name if restoring is not None else name, self.window)
        self._restoring = restoring
        self._restoring_source = self.doc.profile.settings.trace_source
        from .job_load import JobSession

        session = JobSession([str(p) for p in paths], parent=self, with_profile=restoring is None)
        w = session.worker
        w.progressed.connect(dialog.progressed)
        w.joining.connect(dialog.joining)
        w.loaded.connect(self._loaded)
        w.failed.connect(self._failed)
        w.cancelled.connect(self._cancelled)
        dialog.rejected.connect(session.cancel)
        self.session, self.dialog = session, dialog
        self._origin = paths[0] if len(paths) == 1 else paths[0].parent
        dialog.open()
        return dialog

    def settle(self, most_seconds: float = 300.0) -> bool:
        """Run the event loop until a read in progress ended (a screenshot); False past the limit."""
        import time

        from PySide6.QtCore import QCoreApplication, QEventLoop

        end = time.monotonic() + most_seconds
        while self.session is not None:
            if time.monotonic() > end:
                return False
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        return True

    def cancel(self) -> None:
        if self.session is not None:
            self.session.cancel()

    def close(self) -> None:
        """The window closes: stop a read in progress."""
        if self.session is not None:
            self.session.close()
            self._done(False)

    def _done(self, opened: bool) -> None:
        session, dialog = self.session, self.dialog
        self.session = self.dialog = None
        if dialog is not None:
            dialog.done(QDialog.DialogCode.Accepted if opened else QDialog.DialogCode.Rejected)
            dialog.deleteLater()
        if session is not None:
            session.reader.wait()
            session.deleteLater()
        self.finished.emit(opened)

    def _failed(self, message: str) -> None:
        restoring = self._restoring
        self._done(False)
        if restoring is not None:
            from ...present.job_words import job_refused_text

            rank = self._saved_rank
            self.prompts.show_error("The job is not restored", job_refused_text(restoring.name, message, rank))
            return
        self.prompts.show_error("Cannot import the job", f"{message}\n\nThe open profile is unchanged.")

    def _cancelled(self) -> None:
        restoring = self._restoring
        self._done(False)
        if restoring is not None:
            self.prompts.show_status(f"{restoring.name} opened without its job's view (its read was cancelled)", 8000)
            return
        self.prompts.show_status("Import of the job cancelled; the open profile is unchanged", 5000)

    def restore(self, sheet: Any, workbook: Path) -> None:
        """A workbook saved with its job (``sheet``: its Ranks sheet) was opened: read the rank traces it names
        again and hold the job for that profile; traces that can no longer be read are named, and the profile
        stays alone."""
        from ...present.job_words import not_restored_text

        paths: list[Path] = sheet.paths(workbook.resolve().parent)
        self._saved_rank = next((r.rank for r in sheet.rows if r.straggler), None)
        self._plan_on = sheet.plan_on
        unreadable = []
        for row, p in zip(sheet.rows, paths, strict=True):
            if not p.exists():
                unreadable.append((row.rank, row.trace, f"no such file: {p}"))
            elif not p.is_file() or not os.access(p, os.R_OK):
                unreadable.append((row.rank, row.trace, f"cannot be read: {p}"))
        if unreadable:
            self.prompts.show_error(
                "The job is not restored", not_restored_text(workbook.name, unreadable, self._saved_rank)
            )
            return
        self.start(paths, restoring=workbook)

    def open_now(self, paths: Sequence[Path]) -> bool:
        """Read the job on this thread and open it (a screenshot of a job); a refusal is said as ever."""
        from ...model.errors import BadInputError, ProfileError

        try:
            from .job_load import JobWorker

            loaded = JobWorker().read([str(p) for p in paths])
        except (ProfileError, BadInputError) as exc:
            said = error_text(exc, locale_numbers()) if isinstance(exc, ProfileError) else str(exc)
            self.prompts.show_error("Cannot import the job", f"{said}\n\nThe open profile is unchanged.")
            return False
        self._origin = paths[0] if len(paths) == 1 else paths[0].parent
        self._open(loaded)
        return True

    def _loaded(self, loaded: LoadedJob) -> None:
        if self.session is None or self.session.worker.stop.is_set():  # cancelled as it ended
            self._cancelled()
            return
        restoring = self._restoring
        self._done(True)
        if restoring is not None:
            self._hold_again(loaded, restoring)
            return
        self._open(loaded)

    def _hold_again(self, loaded: LoadedJob, workbook: Path) -> None:
        """The job read again for the workbook's profile (if that is still the document's)."""
        from ...present.job_charts import JobFigures

        if self.doc.profile.settings.trace_source != self._restoring_source:
            return  # another profile was opened meanwhile
        name = workbook.stem
        ranks = set(loaded.job.ranks)
        on = self._plan_on if self._plan_on is not None and ranks.issuperset(self._plan_on) else None
        figures = JobFigures(loaded.job, name, loaded.paths, loaded.step, profile_rank=loaded.rank, on_ranks=on)
        self.doc.job.hold(HeldJob(self._restoring_source, loaded.paths, loaded.graph, figures))
        self.prompts.show_status(f"Opened {workbook.name} with its job of {len(loaded.job.ranks)} ranks", 8000)

    def _open(self, loaded: LoadedJob) -> None:
        from ...present.job_charts import JobFigures

        n = len(loaded.job.ranks)
        self.apply(loaded.profile, self._origin, f"Import the job {self._origin.name} ({n} ranks)")
        figures = JobFigures(loaded.job, self._origin.name, loaded.paths, loaded.step, profile_rank=loaded.rank)
        self.doc.job.hold(HeldJob(self.doc.profile.settings.trace_source, loaded.paths, loaded.graph, figures))
        self.prompts.show_status(
            f"Opened the job {self._origin.name}: {n} ranks; the profile is rank {loaded.rank}'s "
            f"({loaded.representative.name}); Undo brings back the profile that was open",
            15000,
        )
