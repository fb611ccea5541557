"""Files of the main window: open, save, recent files, revert, and crash recovery.

A mixin of :class:`MainWindow`, which provides ``doc``, ``ask``, ``show_error``,
``choose_file``, ``settings`` and the status bar; kept apart so that the window's
module holds layout and wiring only.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtWidgets import QMessageBox

from ...files import load_profile, save_profile
from ...files.atomic import atomic_write
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...resources import resources_dir

if TYPE_CHECKING:
    pass

MAX_RECENT = 8
log = logging.getLogger(__name__)


def is_bundled(path: Path) -> bool:
    """A file inside the installation (the bundled examples): opened as an untitled copy, never written."""
    try:
        return path.resolve().is_relative_to(resources_dir().resolve())
    except (OSError, FileNotFoundError):
        return False


def stamp(path: Path) -> tuple[int, int] | None:
    """When and how big the file on disk is, to notice another program saving it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class FileActions:
    """Opening and saving profiles without ever losing what the user typed."""

    def _optimizations_changed(self) -> None:
        # Adding or removing one is structural; ticking one or dragging its k is not (that waits for the minute).
        count = len(self.doc.profile.optimizations)
        if count != self._optimization_count:
            self._optimization_count = count
            self.recovery_soon.start()

    def _clean_changed(self, clean: bool) -> None:
        if clean and self.recovery is not None:
            self.recovery.clear()

    def write_recovery(self) -> bool:
        """Copy unsaved work to the recovery folder (nothing to do when the document is saved)."""
        if self.recovery is None or not shiboken6.isValid(self.doc.undo_stack):
            return False
        stack = self.doc.undo_stack
        if stack.isClean():
            self.recovery.clear()
            self._recovered_state = None
            return False
        state = self.doc.revision
        if state == getattr(self, "_recovered_state", None) and self.recovery.workbook.exists():
            return True  # nothing new since the last copy
        try:
            self.recovery.write(self.doc.profile, self.doc.path)
        except OSError as exc:
            log.warning("cannot write the recovery copy: %s", exc)
            return False
        self._recovered_state = state
        return True

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
        answer = self.ask(
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
        self._update_title()
        self.write_recovery()
        self.statusBar().showMessage(f"Restored unsaved work from {when}; save it to keep it", 15000)
        return True

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or unchanged)."""
        if self.doc.undo_stack.isClean():
            return True
        name = self.doc.path.name if self.doc.path else "this profile"
        answer = self.ask(
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
            self.statusBar().showMessage("New profile: type or paste components into the table", 8000)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.choose_file(save=False)
        if path:
            self.open_path(Path(path), ask=False)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open a profile; a file that cannot be read leaves the current document as it was."""
        path = Path(path)
        if ask and not self.maybe_save():
            return False
        try:
            loaded = load_profile(path)
        except ProfileError as exc:
            self.show_error("Cannot open profile", str(exc))
            return False
        except Exception as exc:  # noqa: BLE001 - the promise: never a traceback, the document intact
            self.show_error("Cannot open profile", f"{path.name}: unexpected error while reading: {exc}")
            return False
        csv = path.suffix.lower() in (".csv", ".tsv", ".txt")
        # A bundled example opens as an untitled copy: Save asks where, so the installation is never written.
        untitled = csv or is_bundled(path)
        self.imported_from = path if untitled else None
        self.doc.reset(loaded.profile, None if untitled else path.resolve(), [str(w) for w in loaded.warnings])
        self.disk_stamp = None if untitled else stamp(path)
        self.table.fit_columns()
        self._remember(path)
        if loaded.warnings:
            self.statusBar().showMessage(
                f"Opened {path.name} with {len(loaded.warnings)} warning(s): " + str(loaded.warnings[0]), 15000
            )
        else:
            self.statusBar().showMessage(f"Opened {path.name}", 5000)
        if self.optimization_model.rowCount():
            self.optimizations.select_row(0)
        return True

    def _remember(self, path: Path) -> None:
        if self.fresh:
            return
        path = path.resolve()
        recent = [p for p in self._recent() if p != str(path)]
        self.settings.setValue("files/recent", [str(path)] + recent[: MAX_RECENT - 1])
        if not is_bundled(path):  # the next Save As must not start inside the installation
            self.settings.setValue("files/last_folder", str(path.parent))
        self.settings.setValue("files/last_document", str(path))

    def _recent(self) -> list[str]:
        value = self.settings.value("files/recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self._recent()
        if not recent:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for i, p in enumerate(recent, start=1):
            act = self.recent_menu.addAction(f"&{i} {Path(p).name}")
            act.setStatusTip(p)
            act.triggered.connect(lambda _=False, p=p: self.open_path(p))

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        path = self.doc.path
        current = stamp(path)
        if current is not None and self.disk_stamp is not None and current != self.disk_stamp:
            answer = self.ask(
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
            else (self.imported_from.stem + ".xlsx")
            if self.imported_from
            else "profile.xlsx"
        )
        path = self.choose_file(save=True, suggested=suggested, filters="Excel workbooks (*.xlsx)")
        if not path:
            return False
        target = Path(path)
        if target.suffix.lower() != ".xlsx":
            target = target.with_suffix(".xlsx")
        if is_bundled(target):
            self.show_error(
                "Cannot save here",
                f"{target.parent} belongs to the Amdahl Desk installation; save your copy somewhere of yours.",
            )
            return False
        if self._write(target):
            self.imported_from = None
            self.doc.set_path(target.resolve())
            self._remember(target)
            return True
        return False

    def export_csv(self) -> None:
        base = self.doc.path or self.imported_from
        path = self.choose_file(
            save=True,
            suggested=(base.stem if base else "components") + ".csv",
            filters="CSV tables (*.csv)",
            title="Export Components as CSV",
        )
        if path:
            self._write(Path(path), mark_clean=False)

    def _write(self, path: Path, mark_clean: bool = True) -> bool:
        """Save through a temporary file beside the target: a failed save leaves the old file as it was."""
        try:
            as_csv = path.suffix.lower() == ".csv"
            atomic_write(path, lambda tmp: save_profile(self.doc.profile, tmp, self.doc.analysis, csv=as_csv))
        except OSError as exc:
            self.show_error("Cannot save", f"{path}: {exc.strerror or exc}. The file on disk is unchanged.")
            return False
        if mark_clean:
            self.doc.undo_stack.setClean()
            self.disk_stamp = stamp(path)
        self.statusBar().showMessage(f"Saved {path.name}", 5000)
        return True

    def revert(self) -> None:
        if self.doc.path is None:
            return
        if not self.doc.undo_stack.isClean():
            answer = self.ask(
                "Revert",
                f"Discard all changes and reload {self.doc.path.name}?",
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Discard:
                return
        self.open_path(self.doc.path, ask=False)

    def start(self, path: str | None, default_profile: str) -> None:
        """What a launch opens: work left by a crash, the given file, the last document, or the bundled example."""
        if not path and self.offer_recovery():
            return
        if path:
            if self.open_path(path, ask=False):
                return
        elif not self.fresh:
            last = self.settings.value("files/last_document", "")
            if last and Path(str(last)).is_file() and self.open_path(str(last), ask=False):
                return
        self.open_path(default_profile, ask=False)
