"""File → Import Profile… and dropped traces: which files go to the import, the dialog's life, the result applied.

A controller the window composes: it asks its window only for what :class:`ImportPrompts` declares
and hands the chosen profile to ``apply``, which makes it the document as one undoable step.
The trace readers and the dialog are imported when an import starts, not with the window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

from ...files import Kind, classify, is_trace, load_any
from ...model.errors import ProfileError
from ...model.profile import Profile
from ...present.refusals import error_text
from ..core.locale_text import locale_numbers

if TYPE_CHECKING:
    from .import_dialog import ImportDialog

TRACE_FILTERS = (
    "Profiler files (*.json *.json.gz *.gz *.csv);;PyTorch / Kineto traces (*.json *.json.gz);;"
    "speedscope profiles (*.json);;Nsight Systems stats reports (*.csv);;All files (*)"
)


class ImportPrompts(Protocol):
    """What the import needs from its window: one place each, so tests can answer."""

    def choose_trace(self, folder: bool = False) -> list[str]: ...

    def show_error(self, title: str, text: str) -> None: ...

    def show_status(self, text: str, ms: int = 0) -> None: ...


# apply(profile, where it came from, undo text)
Apply = Callable[[Profile, Path, str], None]


def may_be_dropped(path: Path) -> bool:
    """Worth accepting while dragging (no file is read yet): a folder, a profile or a profiler's file."""
    return classify(path, look_inside=False) is not Kind.UNKNOWN


def route_drop(paths: Sequence[Path]) -> tuple[str, list[Path]]:
    """``("open", [profile])`` for a workbook or a components CSV; ``("import", paths)`` for traces and folders.

    A CSV is an nsys report when its header says so, else a components table. Several files are
    imported together (one per rank) when all of them are profiler files; otherwise the first is opened.
    """
    if not paths:
        return "", []
    if all(is_trace(p) for p in paths):
        return "import", list(paths)
    return "open", [paths[0]]


class TraceImport(QObject):
    """Starts the import dialog for chosen or dropped files and applies what the person imports."""

    finished = Signal(bool)  # the dialog closed: True when a profile was imported

    def __init__(self, prompts: ImportPrompts, apply: Apply, window: QWidget) -> None:
        super().__init__(window)
        self.prompts, self.apply, self.window = prompts, apply, window
        self.dialog: ImportDialog | None = None

    def choose(self, folder: bool = False) -> None:
        paths = self.prompts.choose_trace(folder)
        if paths:
            self.start([Path(p) for p in paths])

    def start(self, paths: Sequence[Path]) -> ImportDialog:
        """Open the dialog on ``paths`` (reading starts at once); one import at a time."""
        if self.dialog is not None:
            self.dialog.raise_()
            self.dialog.activateWindow()
            return self.dialog
        from .import_dialog import ImportDialog

        dialog = ImportDialog(paths, self.window)
        dialog.failed.connect(self._failed)
        dialog.finished.connect(self._finished)
        self.dialog = dialog
        dialog.open()
        return dialog

    def import_at_once(self, path: Path) -> bool:
        """Import the trace (or folder of ranks) ``path`` with the preview's first choices, without the dialog
        (a screenshot of a trace)."""
        try:
            loaded = load_any(path)
        except ProfileError as exc:
            self._failed(error_text(exc, locale_numbers()))
            return False
        self.apply(loaded.profile, path, f"Import {path.name}")
        self.prompts.show_status(f"Imported {len(loaded.profile.components)} components from {path.name}", 15000)
        return True

    def _failed(self, message: str) -> None:
        self.prompts.show_error("Cannot import", f"{message}\n\nThe open profile is unchanged.")

    def _finished(self, code: int) -> None:
        dialog, self.dialog = self.dialog, None
        imported = False
        if dialog is not None and code == QDialog.DialogCode.Accepted and dialog.preview_result is not None:
            imported = self._apply(dialog)
        elif dialog is not None and dialog.session.worker.outcome == "cancelled":
            self.prompts.show_status("Import cancelled; the open profile is unchanged", 5000)
        if dialog is not None:
            dialog.deleteLater()
        self.finished.emit(imported)

    def _apply(self, dialog: ImportDialog) -> bool:
        result = dialog.preview_result
        assert result is not None
        origin = dialog.paths[0] if len(dialog.paths) == 1 else dialog.paths[0].parent
        try:
            profile = result.to_profile()
        except ProfileError as exc:
            self.prompts.show_error(
                "Cannot import", f"{error_text(exc, locale_numbers())}\n\nThe open profile is unchanged."
            )
            return False
        self.apply(profile, origin, f"Import {result.source}")
        self.prompts.show_status(
            f"Imported {len(profile.components)} components from {result.source}; "
            "Undo brings back the profile that was open",
            15000,
        )
        return True
