"""Undoable changes to the document. Each stores what it needs to go both ways and calls raw setters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtGui import QUndoCommand

from ...model.profile import Component, Optimization, Settings
from ...model.units import TimeUnit
from .document import Document

EDIT_CELL_ID = 1001
MERGE_IDS = {"SetOptimizationsCommand": 1002, "SetSettingsCommand": 1003}


class EditComponentsCommand(QUndoCommand):
    """New values for existing rows (typing, paste, clear). Consecutive edits of one cell merge."""

    def __init__(
        self,
        doc: Document,
        rows: list[int],
        old: Sequence[Component],
        new: Sequence[Component],
        text: str,
        cell: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(text)
        self.doc, self.rows, self.old, self.new = doc, rows, list(old), list(new)
        self.cell = cell  # (row, column) of a single-cell edit, for merging

    def redo(self) -> None:
        self.doc.replace_component_rows(self.rows, self.new)

    def undo(self) -> None:
        self.doc.replace_component_rows(self.rows, self.old)

    def id(self) -> int:
        return EDIT_CELL_ID if self.cell is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditComponentsCommand) or other.cell is None or other.cell != self.cell:
            return False
        self.new = other.new
        return True


class CompositeCommand(QUndoCommand):
    """Several commands as one undo step (a paste that edits rows and adds more)."""

    def __init__(self, text: str, parts: Sequence[QUndoCommand]) -> None:
        super().__init__(text)
        self.parts = list(parts)

    def redo(self) -> None:
        for part in self.parts:
            part.redo()

    def undo(self) -> None:
        for part in reversed(self.parts):
            part.undo()


class InsertComponentsCommand(QUndoCommand):
    def __init__(self, doc: Document, row: int, components: Sequence[Component], text: str) -> None:
        super().__init__(text)
        self.doc, self.row, self.components = doc, row, list(components)

    def redo(self) -> None:
        self.doc.insert_components(self.row, self.components)

    def undo(self) -> None:
        self.doc.remove_components(self.row, len(self.components), self.doc.profile.optimizations)


class RemoveComponentsCommand(QUndoCommand):
    """Delete a block of rows; optimizations lose those targets (and go when none is left), undoably."""

    def __init__(self, doc: Document, row: int, count: int, text: str) -> None:
        super().__init__(text)
        self.doc, self.row, self.count = doc, row, count
        self.removed = doc.profile.components[row : row + count]
        self.opts_before = list(doc.profile.optimizations)
        self.opts_after, self.changed, self.dropped = doc.profile.without_components({c.name for c in self.removed})

    def redo(self) -> None:
        self.doc.remove_components(self.row, self.count, self.opts_after)

    def undo(self) -> None:
        self.doc.insert_components(self.row, self.removed)
        self.doc.set_optimizations(self.opts_before)


class ReplaceCommand(QUndoCommand):
    """An old value and a new one, set through one raw setter of the document.

    Consecutive commands of one class with the same ``merge_key`` merge into one undo step
    (dragging the k slider, typing in a settings field); ``None`` never merges.
    """

    def __init__(self, text: str, setter: Callable[[Any], None], old: Any, new: Any, merge_key: object = None) -> None:
        super().__init__(text)
        self.setter, self.old, self.new, self.merge_key = setter, old, new, merge_key

    def redo(self) -> None:
        self.setter(self.new)

    def undo(self) -> None:
        self.setter(self.old)

    def id(self) -> int:
        return MERGE_IDS.get(type(self).__name__, -1) if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if type(other) is not type(self) or other.merge_key != self.merge_key:  # type: ignore[attr-defined]
            return False
        self.new = other.new  # type: ignore[attr-defined]
        return True


class ReorderComponentsCommand(ReplaceCommand):
    """Sort or move rows: the same components in a new order."""

    def __init__(self, doc: Document, new_order: Sequence[Component], text: str) -> None:
        super().__init__(text, doc.set_components, list(doc.profile.components), list(new_order))


class SetOptimizationsCommand(ReplaceCommand):
    """Any change to the optimization checklist: tick, rename, retarget, new k, add, remove."""

    def __init__(self, doc: Document, new: Sequence[Optimization], text: str, merge_key: object = None) -> None:
        super().__init__(text, doc.set_optimizations, list(doc.profile.optimizations), list(new), merge_key)


class SetSettingsCommand(ReplaceCommand):
    def __init__(self, doc: Document, new: Settings, text: str, merge_key: object = None) -> None:
        super().__init__(text, doc.set_settings, doc.profile.settings, new, merge_key)


class SetUnitCommand(QUndoCommand):
    """Express every time in another unit; undo restores the exact numbers that were there."""

    def __init__(self, doc: Document, unit: TimeUnit) -> None:
        super().__init__(f"Change unit to {unit.label}")
        self.doc, self.new = doc, unit
        self.old = (doc.profile.unit, list(doc.profile.components), doc.profile.settings)

    def redo(self) -> None:
        self.doc.set_unit(self.new)

    def undo(self) -> None:
        self.doc.restore_unit(*self.old)
