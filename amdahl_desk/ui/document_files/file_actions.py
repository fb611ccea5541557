"""Files of one window: open, save, recent files, revert, and crash recovery — a controller the window composes.

It asks its window only for what :class:`Prompts` declares (questions, errors, file choosers, the
status line), and tells it what happened through signals; the window's module holds layout and wiring.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import shiboken6
from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QMenu, QMessageBox

from ...files import load_profile, save_profile, stamp
from ...model.errors import Problem, ProfileError
from ...model.profile import Profile
from ...present.refusals import error_text, problem_text
from ...resources import resources_dir
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.saving import write_safely
from .recovery import RecoveryStore
from .recovery_keeper import RecoveryKeeper

if TYPE_CHECKING:
    from ...files.preload import ReadAhead

MAX_RECENT = 8
log = logging.getLogger(__name__)
FILTERS = "Profiles (*.xlsx *.xlsm *.csv);;Excel workbooks (*.xlsx *.xlsm);;CSV tables (*.csv);;All files (*)"
Button = QMessageBox.StandardButton


def is_bundled(path: Path) -> bool:
    """A file inside the installation (the bundled examples): opened as an untitled copy, never written."""
    try:
        return path.resolve().is_relative_to(resources_dir().resolve())
    except (OSError, FileNotFoundError):
        return False


def _bare_name(path: Path) -> str:
    """``trace.json.gz`` → ``trace``, ``example.xlsx`` → ``example``: a name for the workbook a copy is saved as."""
    name = path.name
    for suffix in (".gz", ".json", ".csv", ".tsv", ".txt", ".xlsx", ".xlsm"):
        name = name[: -len(suffix)] if name.lower().endswith(suffix) else name
    return name or "profile"


class Prompts(Protocol):
    """What the file controller needs from its window: one place each, so tests can answer."""

    def ask(self, title: str, text: str, buttons: Button, default: Button) -> Button: ...

    def show_error(self, title: str, text: str) -> None: ...

    def choose_file(self, save: bool, suggested: str = "", filters: str = FILTERS, title: str = "") -> str: ...

    def show_status(self, text: str, ms: int = 0) -> None: ...


class FileActions(QObject):
    """Opening and saving profiles without ever losing what the user typed."""

    opened = Signal()  # a profile was read into the document
    jobNamed = Signal(object, object)  # a workbook opened names its job's rank traces: (JobSheet, the workbook)
    sourceChanged = Signal()  # the file the document came from (path or CSV import) changed

    def __init__(
        self,
        doc: Document,
        settings: QSettings,
        prompts: Prompts,
        recovery: RecoveryStore | None,
        remember: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc, self.settings, self.prompts, self.recovery = doc, settings, prompts, recovery
        self.remember = remember  # recent files and the last folder (not for screenshots)
        self.imported_from: Path | None = None  # a CSV or a trace read in: saving asks where the workbook goes
        self.example_copy = False  # a bundled example opened as an untitled copy of itself
        self.disk_stamp: tuple[int, int] | None = None
        # Unsaved work is copied to the data folder a few seconds behind every change (recovery_keeper.py).
        self.keeper = RecoveryKeeper(doc, recovery, parent=self) if recovery is not None else None
        doc.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, clean: bool) -> None:
        # The stack says "clean" once more while it is destroyed (at exit after Ctrl+C): that keeps the copy.
        stack = self.doc.undo_stack
        if clean and self.keeper is not None and shiboken6.isValid(stack) and stack.isClean():
            self.keeper.clear()

    def close(self) -> None:
        """The window closes with the work saved or discarded: nothing is left to recover."""
        if self.keeper is not None:
            self.keeper.clear()

    def write_recovery(self) -> bool:
        """Copy unsaved work to the recovery folder now; True when a copy is on disk (none for a saved document)."""
        if self.keeper is None or not shiboken6.isValid(self.doc.undo_stack):
            return False
        try:
            return self.keeper.write_now()
        except OSError:
            return False

    def keep_for_recovery(self) -> str:
        """The program is being stopped (Ctrl+C): copy unsaved work for the next start and say where, in a line.

        Raises OSError when the copy cannot be written."""
        if self.keeper is None or not self.keeper.write_now():
            return ""
        return f"unsaved work kept in {self.keeper.store.workbook}; the next start offers it back"

    def offer_recovery(self) -> bool:
        """After a crash: offer the newest copy left behind; True when it was restored."""
        if self.recovery is None:
            return False
        left = self.recovery.left_behind()
        if not left:
            return False
        newest = left[0]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(newest.saved_at))
        where = newest.path.name if newest.path else "an unsaved profile"
        answer = self.prompts.ask(
            "Restore unsaved work?",
            f"Amdahl Desk did not close normally. Unsaved changes to {where} were kept at {when}.\n\n"
            "Restore them? (Discard deletes the copy.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard,
            QMessageBox.StandardButton.Yes,
        )
        for item in left:
            for file in item.files:
                file.unlink(missing_ok=True)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.doc.reset(newest.profile, newest.path)
        self.doc.undo_stack.resetClean()  # restored work is unsaved work
        self.sourceChanged.emit()
        self.write_recovery()
        self.prompts.show_status(f"Restored unsaved work from {when}; save it to keep it", 15000)
        if newest.job is not None:  # the job it stood for: its rank traces read again (written whole in the copy)
            self.jobNamed.emit(newest.job, newest.path or newest.files[0])
        return True

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or unchanged)."""
        if self.doc.undo_stack.isClean():
            return True
        name = self.doc.path.name if self.doc.path else "this profile"
        answer = self.prompts.ask(
            "Unsaved changes",
            f"Save the changes to {name}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_document(self) -> None:
        if self.maybe_save():
            self.imported_from = None
            self.doc.reset(Profile(), None)
            self.sourceChanged.emit()
            self.prompts.show_status("New profile: type or paste components into the table", 8000)
            self.opened.emit()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.prompts.choose_file(save=False)
        if path:
            self.open_path(Path(path), ask=False)

    def open_path(self, path: str | Path, ask: bool = True, ahead: ReadAhead | None = None) -> bool:
        """Open a profile; a file that cannot be read leaves the current document as it was. ``ahead``: the
        launch's read-ahead, taken when it is of this file."""
        path = Path(path)
        if ask and not self.maybe_save():
            return False
        try:
            loaded = load_profile(path, ahead=ahead)
        except ProfileError as exc:
            self.prompts.show_error("Cannot open profile", error_text(exc, locale_numbers()))
            return False
        except Exception as exc:  # noqa: BLE001 - the promise: never a traceback, the document intact
            self.prompts.show_error("Cannot open profile", f"{path.name}: unexpected error while reading: {exc}")
            return False
        csv = path.suffix.lower() in (".csv", ".tsv", ".txt")
        # A bundled example opens as an untitled copy: Save asks where, so the installation is never written.
        untitled = csv or is_bundled(path)
        self.imported_from = path if untitled else None
        self.example_copy = untitled and not csv
        self.doc.reset(loaded.profile, None if untitled else path.resolve(), loaded.warnings)
        self.disk_stamp = None if untitled else stamp(path)
        self.sourceChanged.emit()
        self._remember(path)
        # Say what the document is: an untitled copy of an example (or of a CSV table) saves elsewhere.
        opened = (
            f"Opened an untitled copy of the example {path.name} (Save asks where to keep it)"
            if self.example_copy
            else f"Opened {path.name} as an untitled workbook (Save asks where to keep it)"
            if csv
            else f"Opened {path.name}"
        )
        if loaded.warnings:
            self.prompts.show_status(
                f"{opened} with {len(loaded.warnings)} warning(s): "
                + problem_text(loaded.warnings[0], locale_numbers()),
                15000,
            )
        else:
            self.prompts.show_status(opened, 8000 if untitled else 5000)
        self.opened.emit()
        if loaded.job is not None:
            self.jobNamed.emit(loaded.job, path)
        return True

    def adopt_import(self, profile: Profile, origin: Path, text: str) -> None:
        """An imported profile (from a trace) becomes the document, untitled, as one undo step.

        Undo brings back the document before, its file included; saving the import asks where.
        """
        before = (self.imported_from, self.disk_stamp, self.example_copy)

        def follow(forward: bool) -> None:
            self.imported_from, self.disk_stamp, self.example_copy = (origin, None, False) if forward else before
            self.sourceChanged.emit()

        self.doc.replace_profile(profile, text, None, (), follow)
        self.opened.emit()

    def start_from(self, profile: Profile, source: Path, notes: Sequence[str] = ()) -> bool:
        """A profile made from another file (a comparison's after profile) becomes the document, unsaved.

        As opening a file: the current work is saved first, or not; saving the new one asks where.
        """
        if not self.maybe_save():
            return False
        self.imported_from, self.disk_stamp, self.example_copy = source, None, False
        self.doc.reset(profile, None, [Problem(note) for note in notes])
        self.doc.undo_stack.resetClean()  # new work, saved nowhere yet
        self.sourceChanged.emit()
        self.write_recovery()
        self.opened.emit()
        return True

    def _remember(self, path: Path) -> None:
        if not self.remember:
            return
        path = path.resolve()
        recent = [p for p in self._recent() if p != str(path)]
        self.settings.setValue("files/recent", [str(path)] + recent[: MAX_RECENT - 1])
        if not is_bundled(path):  # the next Save As must not start inside the installation
            self.settings.setValue("files/last_folder", str(path.parent))
        self.settings.setValue("files/last_document", str(path))

    def _recent(self) -> list[str]:
        value = self.settings.value("files/recent", [])
        if isinstance(value, str):  # QSettings gives a one-item list back as a string
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def fill_recent(self, menu: QMenu) -> None:
        menu.clear()
        recent = self._recent()
        if not recent:
            menu.addAction("(none)").setEnabled(False)
        for i, p in enumerate(recent, start=1):
            act = menu.addAction(f"&{i} {Path(p).name}")
            act.setStatusTip(p)
            act.triggered.connect(lambda _=False, p=p: self.open_path(p))

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        path = self.doc.path
        current = stamp(path)
        if current is not None and self.disk_stamp is not None and current != self.disk_stamp:
            answer = self.prompts.ask(
                "File changed on disk",
                f"{path.name} has changed on disk since it was opened (another program or person "
                "saved it). Replace it with your version?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Save:
                return False
        return self._write(path)

    def save_as(self) -> bool:
        suggested = (
            self.doc.path.name
            if self.doc.path
            else (_bare_name(self.imported_from) + ".xlsx")
            if self.imported_from
            else "profile.xlsx"
        )
        path = self.prompts.choose_file(save=True, suggested=suggested, filters="Excel workbooks (*.xlsx)")
        if not path:
            return False
        target = Path(path)
        if target.suffix.lower() != ".xlsx":
            target = target.with_suffix(".xlsx")
        if is_bundled(target):
            self.prompts.show_error(
                "Cannot save here",
                f"{target.parent} belongs to the Amdahl Desk installation; save your copy somewhere of yours.",
            )
            return False
        if self._write(target):
            self.imported_from, self.example_copy = None, False
            self.doc.set_path(target.resolve())
            self.sourceChanged.emit()
            self._remember(target)
            return True
        return False

    def export_csv(self) -> None:
        base = self.doc.path or self.imported_from
        path = self.prompts.choose_file(
            save=True,
            suggested=(base.stem if base else "components") + ".csv",
            filters="CSV tables (*.csv)",
            title="Export Components as CSV",
        )
        if path:
            self._write(Path(path), mark_clean=False)

    def _write(self, path: Path, mark_clean: bool = True) -> bool:
        """Save through a temporary file beside the target: a failed save leaves the old file as it was."""
        as_csv = path.suffix.lower() == ".csv"
        traced = None if as_csv else self.doc.trace.answer()
        job = None if as_csv else self._job_sheet(path)
        decision = None
        shown_job = self.doc.job.figures if job is not None else None
        link = self.doc.decision
        if (traced is not None and traced.usable) or shown_job is not None:
            from ...model.decision import Decision

            # The odds and the cheapest plan the window has through the trace's dependencies (the rank's, for a
            # job); one still being computed is left out of the Summary sheet rather than written as the sum's.
            decision = Decision(link.profile_figures, link.profile_search)
        if shown_job is not None:  # the job's odds as the window shows them now (none while they are computed)
            odds = shown_job.current_odds(link.profile_figures)
            from dataclasses import replace

            shown_job = replace(shown_job, odds=(None, odds) if odds is not None else None)
        why = write_safely(
            path,
            lambda tmp: save_profile(
                self.doc.profile,
                tmp,
                self.doc.analysis,
                csv=as_csv,
                trace=traced,
                decision=decision,
                job=job,
                job_figures=shown_job,
            ),
        )
        if why is not None:
            self.prompts.show_error("Cannot save", why)  # the document stays as it was: modified, unsaved
            return False
        if mark_clean:
            self.doc.undo_stack.setClean()
            self.disk_stamp = stamp(path)
        self.prompts.show_status(f"Saved {path.name}" + (" with its job's ranks" if job is not None else ""), 5000)
        return True

    def _job_sheet(self, path: Path) -> Any:
        """The Ranks sheet of the job the profile stands for (every rank's trace, relative to ``path``'s folder)."""
        held, shown = self.doc.job.held, self.doc.job.figures
        if held is None or shown is None:
            return None
        from ...files import ranks_sheet

        return ranks_sheet(held.figures.job, held.paths, path.resolve().parent, shown.on_ranks)

    def revert(self) -> None:
        if self.doc.path is None:
            return
        if not self.doc.undo_stack.isClean():
            answer = self.prompts.ask(
                "Revert",
                f"Discard all changes and reload {self.doc.path.name}?",
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Discard:
                return
        self.open_path(self.doc.path, ask=False)

    def start(self, path: str | None, default_profile: str, ahead: ReadAhead | None = None) -> None:
        """What a launch opens: work left by a crash, the given file, the last document, or the bundled example.

        ``ahead``: the given file's sheets, parsed on another thread since the launch began (files.preload).
        """
        if not path and self.offer_recovery():
            return
        if path:
            if self.open_path(path, ask=False, ahead=ahead):
                return
        elif self.remember:
            last = self.settings.value("files/last_document", "")
            if last and Path(str(last)).is_file() and self.open_path(str(last), ask=False):
                return
        self.open_path(default_profile, ask=False)
