"""The Objectives sheet in the window: objective, target time, notes — one row each, an empty row to add one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ...model.errors import ProfileError
from ...model.objective_specs import ObjectiveSpec
from ...model.values import ParseError, parse_target_time
from ...present.cells import exact_text, time_cell
from ...present.refusals import refusal_text
from ..core.change import Change
from ..core.changed_cells import released
from ..core.document import Document
from ..core.locale_editor import LocaleEditorDelegate
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.state import Aspect

NAME, TARGET, NOTES = COLUMNS = range(3)
FIELDS = {"name": NAME, "target_time": TARGET, "notes": NOTES}
ModelIndex = QModelIndex | QPersistentModelIndex


class ObjectivesSheetModel(QAbstractTableModel):
    """Rows are the profile's Objectives rows plus an empty one; every edit is one undoable document request."""

    editRejected = Signal(int, int, str)  # row, column, message

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._rows = len(doc.profile.objectives) + 1  # as last announced to the views (the empty row included)
        doc.changed.connect(self._follow)

    def _follow(self, change: Change) -> None:
        if change.reset:
            self._reset()
        elif Aspect.OBJECTIVES in change:
            self._changed()
        if Aspect.SETTINGS in change:  # the unit in the target's title
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, TARGET, TARGET)

    def _reset(self) -> None:
        self.beginResetModel()
        self._rows = len(self.specs) + 1
        self.endResetModel()

    def _changed(self) -> None:
        """Rows added or gone, and every cell's text: never a reset, which would orphan the editor whose commit
        made the change (Qt then warns that commitData came from an editor not of this view)."""
        rows = len(self.specs) + 1
        if rows > self._rows:  # the empty row became the new objective (its editor stays on it); a new empty row below
            self.beginInsertRows(QModelIndex(), self._rows, rows - 1)
            self._rows = rows
            self.endInsertRows()
        elif rows < self._rows:
            self.beginRemoveRows(QModelIndex(), rows - 1, self._rows - 2)
            self._rows = rows
            self.endRemoveRows()
        self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, len(COLUMNS) - 1))
        self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, rows - 1)

    @property
    def specs(self) -> tuple[ObjectiveSpec, ...]:
        return self.doc.profile.objectives

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1) if section < len(self.specs) else "*"
        return ["Objective", f"Target time ({self.doc.unit.label})", "Notes"][section]

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.specs):
            if role == Qt.ItemDataRole.ToolTipRole:
                return "Type an objective's name here to add it (TTFT, ITL …)"
            return None
        spec = self.specs[index.row()]
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == NAME:
                return spec.name
            if col == TARGET:  # shown in the desktop's separators; edited and copied exact, in the files' format
                if spec.target_time is None:
                    return ""
                if role == Qt.ItemDataRole.EditRole:
                    return exact_text(spec.target_time)
                return time_cell(spec.target_time, locale_numbers())
            return spec.notes
        if role == Qt.ItemDataRole.TextAlignmentRole and col == TARGET:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        row, col, text = index.row(), index.column(), str(value)
        specs = list(self.specs)
        adding = row >= len(specs)
        if adding and not text.strip():
            return False
        spec = ObjectiveSpec("") if adding else specs[row]
        try:
            if col == NAME:
                spec = replace(spec, name=text.strip())
            elif col == TARGET:
                target = parse_target_time(text, self.doc.unit, locale_decimal()) if text.strip() else None
                spec = replace(spec, target_time=target)
            else:
                spec = replace(spec, notes=text)
        except ParseError as exc:
            self.editRejected.emit(row, col, str(exc))
            return False
        if adding:
            specs.append(spec)
        else:
            specs[row] = spec
        what = ("Add objective " if adding else "Edit objective ") + (spec.name or "")
        try:
            self.doc.set_objectives(specs, what.strip())
        except ProfileError as exc:
            problem = exc.problems[0] if exc.problems else None
            column = FIELDS.get(problem.field or "", col) if problem is not None else col
            self.editRejected.emit(
                row, column, refusal_text(problem, locale_numbers()) if problem is not None else str(exc)
            )
            return False
        return True

    def remove_rows(self, rows: list[int]) -> bool:
        keep = [s for i, s in enumerate(self.specs) if i not in set(rows)]
        if len(keep) == len(self.specs):
            return False
        return self.doc.set_objectives(keep, "Delete objectives")


class ObjectivesSheetView(QTableView):
    """The small table; Delete removes the selected rows (one undo step); a refusal shows at the cell."""

    def __init__(self, model: ObjectivesSheetModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(LocaleEditorDelegate(self, (TARGET,)))
        self.setModel(model)
        self.sheet = model
        self.last_refusal = ""
        header = self.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TARGET, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().lineSpacing() + 8)
        model.editRejected.connect(self._refused)

    def commitData(self, editor: QWidget) -> None:  # noqa: N802 - Qt's name
        if not released(editor, self):
            super().commitData(editor)

    def _refused(self, row: int, column: int, message: str) -> None:
        from PySide6.QtWidgets import QToolTip

        self.last_refusal = message
        index = self.model().index(row, column)
        rect = self.visualRect(index)
        QToolTip.showText(self.viewport().mapToGlobal(rect.bottomLeft()), message, self)

    def keyPressEvent(self, event: Any) -> None:
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Backspace:
            rows = sorted({i.row() for i in self.selectedIndexes() if i.row() < len(self.sheet.specs)})
            if rows and self.state() != QAbstractItemView.State.EditingState:
                self.sheet.remove_rows(rows)
                return
        super().keyPressEvent(event)
