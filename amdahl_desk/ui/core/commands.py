"""Undoable changes to the document, made only by the document: each stores both states and calls raw setters.

A command is pushed after the document has applied and validated its change, so its first
``redo`` (the one ``QUndoStack.push`` makes) does nothing. Every redo and undo runs inside
``Document.batch()``: a composite change analyses and redraws once. Merged commands that end
where they started mark themselves obsolete, and Qt drops them from the stack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from PySide6.QtGui import QUndoCommand, QUndoStack

from ...model.objective_specs import ObjectiveSpec
from ...model.profile import Component, Optimization, Settings
from ...model.units import TimeUnit

if TYPE_CHECKING:
    from ...model.measurement_table import MeasurementTable
    from .document import Document
    from .state import Snapshot

T = TypeVar("T")
EDIT_CELL_ID = 1001
SET_OPTIMIZATIONS_ID = 1002
SET_SETTINGS_ID = 1003
SET_MEASUREMENTS_ID = 1004


def push_merging(stack: QUndoStack, command: QUndoCommand) -> None:
    """``stack.push(command)``, but a command that merges into the last one (a cell typed again, a slider
    step) is merged here, as ``push`` would: given it, Qt deletes the merged command inside ``push`` and
    PySide then parents the dead command's wrapper to the stack, where it and the rows it holds stayed for
    the life of the window (a soak lost memory at every merged edit)."""
    index = stack.index()
    top = stack.command(index - 1) if index > 0 else None
    if (
        top is not None
        and command.id() != -1
        and top.id() == command.id()
        and index == stack.count()  # nothing to redo (push would first drop it)
        and index != stack.cleanIndex()  # Qt never merges into the saved state
        and top.mergeWith(command)
    ):
        if top.isObsolete():
            stack.undo()  # back where it started: Qt removes an obsolete command without undoing it
        else:
            stack.indexChanged.emit(index)
            stack.undoTextChanged.emit(stack.undoText())
        return
    stack.push(command)


class DocumentCommand(QUndoCommand):
    """A change the document has already made when it is pushed."""

    def __init__(self, doc: Document, text: str) -> None:
        super().__init__(text)
        self.doc = doc
        self._applied = True

    def redo(self) -> None:
        if self._applied:  # push() redoes at once; the document did that already
            self._applied = False
            return
        with self.doc.batch():
            self.forward()

    def undo(self) -> None:
        self._applied = False
        with self.doc.batch():
            self.backward()

    def forward(self) -> None:
        raise NotImplementedError

    def backward(self) -> None:
        raise NotImplementedError


class HeldChangeCommand(DocumentCommand):
    """A change of what the document holds beside its profile that a save keeps (the ranks a job's plan is on),
    made and unmade by its holder's own callbacks."""

    def __init__(self, doc: Document, text: str, forward: Callable[[], None], backward: Callable[[], None]) -> None:
        super().__init__(doc, text)
        self._forward, self._backward = forward, backward

    def forward(self) -> None:
        self.doc.held_changed(self._forward)

    def backward(self) -> None:
        self.doc.held_changed(self._backward)


class CompositeCommand(DocumentCommand):
    """Several changes as one undo step (a paste that edits rows and adds more)."""

    def __init__(self, doc: Document, text: str, parts: Sequence[DocumentCommand]) -> None:
        super().__init__(doc, text)
        self.parts = list(parts)

    def forward(self) -> None:
        for part in self.parts:
            part.forward()

    def backward(self) -> None:
        for part in reversed(self.parts):
            part.backward()


class EditComponentsCommand(DocumentCommand):
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
        super().__init__(doc, text)
        self.rows, self.old, self.new = rows, list(old), list(new)
        self.cell = cell  # (row, column) of a single-cell edit, for merging
        self.round = doc.merge_round

    def forward(self) -> None:
        self.doc.apply_component_rows(self.rows, self.new)

    def backward(self) -> None:
        self.doc.apply_component_rows(self.rows, self.old)

    def id(self) -> int:
        return EDIT_CELL_ID if self.cell is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (
            not isinstance(other, EditComponentsCommand)
            or other.cell is None
            or other.cell != self.cell
            or other.round != self.round
        ):
            return False
        self.new = other.new
        self.setText(other.text())
        self.setObsolete(self.new == self.old)  # typed back to what was there: no step left
        return True


class InsertComponentsCommand(DocumentCommand):
    def __init__(self, doc: Document, row: int, components: Sequence[Component], text: str) -> None:
        super().__init__(doc, text)
        self.row, self.components = row, list(components)

    def forward(self) -> None:
        self.doc.apply_insert(self.row, self.components)

    def backward(self) -> None:
        self.doc.apply_remove(self.row, len(self.components), self.doc.profile.optimizations)


class RemoveComponentsCommand(DocumentCommand):
    """Delete blocks of rows; optimizations lose those targets (and go when none is left), undoably."""

    def __init__(
        self,
        doc: Document,
        blocks: Sequence[tuple[int, int]],
        removed: Sequence[Sequence[Component]],
        opts_before: Sequence[Optimization],
        opts_after: Sequence[Optimization],
        text: str,
    ) -> None:
        super().__init__(doc, text)
        self.blocks, self.removed = list(blocks), [list(r) for r in removed]
        self.opts_before, self.opts_after = list(opts_before), list(opts_after)

    def apply(self) -> None:
        with self.doc.batch():
            self.forward()

    def forward(self) -> None:
        # From the bottom up, so the rows above keep their numbers.
        for first, count in reversed(self.blocks):
            self.doc.apply_remove(first, count, self.opts_after)

    def backward(self) -> None:
        for (first, _count), comps in zip(self.blocks, self.removed, strict=True):
            self.doc.apply_insert(first, comps)
        self.doc.apply_optimizations(self.opts_before)


class ReplaceCommand(DocumentCommand, Generic[T]):
    """An old value and a new one, set through one raw setter of the document.

    Consecutive commands of one class with the same ``merge_key`` (not None) in one merge round
    merge into one undo step (dragging the k slider); the text names the last value.
    """

    merge_id = -1

    def __init__(
        self, doc: Document, text: str, setter: Callable[[T], None], old: T, new: T, merge_key: object = None
    ) -> None:
        super().__init__(doc, text)
        self.setter, self.old, self.new, self.merge_key = setter, old, new, merge_key
        self.round = doc.merge_round

    def forward(self) -> None:
        self.setter(self.new)

    def backward(self) -> None:
        self.setter(self.old)

    def id(self) -> int:
        return self.merge_id if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (
            not isinstance(other, ReplaceCommand)
            or type(other) is not type(self)
            or other.merge_key != self.merge_key
            or other.round != self.round
        ):
            return False
        self.new = other.new
        self.setText(other.text())
        self.setObsolete(self.new == self.old)
        return True


class ReorderComponentsCommand(ReplaceCommand[Sequence[Component]]):
    """Sort or move rows: the same components in a new order."""

    def __init__(self, doc: Document, old: list[Component], new: list[Component], text: str) -> None:
        super().__init__(doc, text, doc.apply_components, old, new)


class SetOptimizationsCommand(ReplaceCommand[Sequence[Optimization]]):
    """Any change to the optimization checklist: tick, rename, retarget, new k, add, remove."""

    merge_id = SET_OPTIMIZATIONS_ID

    def __init__(
        self, doc: Document, old: list[Optimization], new: list[Optimization], text: str, merge_key: object = None
    ) -> None:
        super().__init__(doc, text, doc.apply_optimizations, old, new, merge_key)


class SetSettingsCommand(ReplaceCommand[Settings]):
    merge_id = SET_SETTINGS_ID

    def __init__(self, doc: Document, old: Settings, new: Settings, text: str, merge_key: object = None) -> None:
        super().__init__(doc, text, doc.apply_settings, old, new, merge_key)


class SetUnitCommand(DocumentCommand):
    """Express every time in another unit; undo restores the exact numbers that were there."""

    def __init__(self, doc: Document, unit: TimeUnit, old: tuple[TimeUnit, list[Component], Settings]) -> None:
        super().__init__(doc, f"Change unit to {unit.label}")
        self.new, self.old = unit, old

    def forward(self) -> None:
        self.doc.apply_unit(self.new)

    def backward(self) -> None:
        self.doc.restore_unit(*self.old)


class SetMeasurementsCommand(ReplaceCommand["MeasurementTable"]):
    """Any change to the measured runs: a typed cell, a paste, a sort, deleted rows, another kind or unit."""

    merge_id = SET_MEASUREMENTS_ID

    def __init__(
        self, doc: Document, old: MeasurementTable, new: MeasurementTable, text: str, merge_key: object = None
    ) -> None:
        super().__init__(doc, text, doc.apply_measurements, old, new, merge_key)


class SetObjectivesCommand(ReplaceCommand[Sequence[ObjectiveSpec]]):
    """The Objectives sheet's rows replaced: a row typed, added or deleted."""

    def __init__(self, doc: Document, old: Sequence[ObjectiveSpec], new: Sequence[ObjectiveSpec], text: str) -> None:
        super().__init__(doc, text, doc.apply_objectives, old, new)


class ReplaceProfileCommand(DocumentCommand):
    """The whole document replaced (an import): both snapshots, set through :meth:`Document.apply_snapshot`."""

    def __init__(
        self, doc: Document, text: str, old: Snapshot, new: Snapshot, on_apply: Callable[[bool], None] | None
    ) -> None:
        super().__init__(doc, text)
        self.old, self.new, self.on_apply = old, new, on_apply

    def forward(self) -> None:
        self.doc.apply_snapshot(self.new)
        if self.on_apply is not None:
            self.on_apply(True)

    def backward(self) -> None:
        self.doc.apply_snapshot(self.old)
        if self.on_apply is not None:
            self.on_apply(False)
