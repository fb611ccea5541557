"""The open document: a profile, its file, its undo stack and its current analysis.

Views never change the profile directly: they push commands (``commands.py``) whose
redo/undo call the raw setters here; each setter emits one precise signal and
re-analyses once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ...model.analysis import Analysis, analyse
from ...model.errors import ProfileError
from ...model.profile import Component, Optimization, Profile, Settings
from ...model.units import TimeUnit

log = logging.getLogger(__name__)


class Document(QObject):
    """A profile being edited, with everything the views need to follow it."""

    # rows whose components changed in place
    componentRowsChanged = Signal(list)
    componentsAboutToBeInserted = Signal(int, int)  # first row, count
    componentsInserted = Signal()
    componentsAboutToBeRemoved = Signal(int, int)
    componentsRemoved = Signal()
    componentsAboutToBeReordered = Signal()
    componentsReordered = Signal()
    optimizationsChanged = Signal()
    settingsChanged = Signal()
    profileReset = Signal()
    analysisChanged = Signal()
    pathChanged = Signal()

    def __init__(self, profile: Profile | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.profile = profile or Profile()
        self.path: Path | None = None
        self.warnings: list[str] = []
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(500)
        self.analysis: Analysis | None = None
        self.analysis_error: str | None = None
        self.revision = 0  # counts every change, merged edits too
        self._analyse()

    # -- whole document ----------------------------------------------------
    def reset(self, profile: Profile, path: Path | None, warnings: Sequence[str] = ()) -> None:
        """Show another profile: a new file, New, Revert. Clears undo history."""
        self.profile = profile
        self.path = path
        self.warnings = list(warnings)
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.revision += 1
        self._analyse()
        self.profileReset.emit()
        self.pathChanged.emit()
        self.analysisChanged.emit()

    def set_path(self, path: Path | None) -> None:
        self.path = path
        self.pathChanged.emit()

    @property
    def unit(self) -> TimeUnit:
        return self.profile.unit

    def _analyse(self) -> None:
        try:
            self.analysis = analyse(self.profile)
            self.analysis_error = None
        except ProfileError as exc:
            self.analysis = None
            self.analysis_error = str(exc)

    def refresh(self) -> None:
        self.revision += 1
        self._analyse()
        self.analysisChanged.emit()

    # -- raw setters, for commands only --------------------------------------
    def replace_component_rows(self, rows: list[int], components: Sequence[Component]) -> None:
        before = self.profile.optimizations
        if len(rows) == 1:
            self.profile.set_component(rows[0], components[0])
        else:
            self.profile.replace_components(rows, components)
        self.componentRowsChanged.emit(rows)
        if self.profile.optimizations is not before:
            self.optimizationsChanged.emit()
        self.refresh()

    def insert_components(self, row: int, components: Sequence[Component]) -> None:
        self.componentsAboutToBeInserted.emit(row, len(components))
        self.profile.insert_components(row, components)
        self.componentsInserted.emit()
        self.refresh()

    def remove_components(self, row: int, count: int, optimizations: Sequence[Optimization]) -> None:
        """Remove rows, with the optimizations as they must be without them (targets dropped)."""
        self.profile.set_optimizations_unchecked(optimizations)
        self.componentsAboutToBeRemoved.emit(row, count)
        self.profile.remove_components(row, count)
        self.componentsRemoved.emit()
        self.optimizationsChanged.emit()
        self.refresh()

    def set_components(self, components: Sequence[Component]) -> None:
        """Same components in another order (sort, move)."""
        self.componentsAboutToBeReordered.emit()
        self.profile.set_components(components)
        self.componentsReordered.emit()
        self.refresh()

    def set_optimizations(self, optimizations: Sequence[Optimization]) -> None:
        self.profile.set_optimizations(optimizations)
        self.optimizationsChanged.emit()
        self.refresh()

    def set_settings(self, settings: Settings) -> None:
        self.profile.set_settings(settings)
        self.settingsChanged.emit()
        self.refresh()

    def set_unit(self, unit: TimeUnit) -> None:
        self.profile.set_unit(unit)
        self.componentRowsChanged.emit(list(range(len(self.profile.components))))
        self.settingsChanged.emit()
        self.refresh()

    def restore_unit(self, unit: TimeUnit, components: Sequence[Component], settings: Settings) -> None:
        self.profile.unit = unit
        self.profile.set_components(components)
        self.profile.set_settings(settings)
        self.componentRowsChanged.emit(list(range(len(self.profile.components))))
        self.settingsChanged.emit()
        self.refresh()
