"""The checklist's table view (Enter moves down a row) and its cell editors: the targets picker and k's spin box."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QDoubleSpinBox,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ..core.changed_cells import ChangedCellsTableView
from ..core.document import Document
from .component_delegates import ElidedTipDelegate
from .optimization_table import COMPUTED, TARGETS_ROLE


class OptimizationsView(ChangedCellsTableView):
    """Each optimization's own figures move with every edit of a time: repaint those whose text changed.

    Enter commits and moves down a row (Shift+Enter up), as in the components table: efforts typed one after
    another with Enter land in one row each, not all in the first."""

    computed_columns = frozenset(COMPUTED)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and self.state() != QAbstractItemView.State.EditingState:
            up = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self._go(self.currentIndex().row() + (-1 if up else 1))
            return
        super().keyPressEvent(event)

    refused = False  # the edit being committed was refused: its cell keeps the focus and the message

    def closeEditor(self, editor: QWidget, hint: QAbstractItemDelegate.EndEditHint) -> None:  # noqa: N802
        row = self.currentIndex().row()
        super().closeEditor(editor, hint)
        refused, self.refused = self.refused, False
        if hint == QAbstractItemDelegate.EndEditHint.SubmitModelCache and not refused:
            self._go(row + 1)

    def _go(self, row: int) -> None:
        """Make ``row`` (kept within the table) current, in the current column."""
        model, column = self.model(), self.currentIndex().column()
        if model is None or column < 0 or not model.rowCount():
            return
        index = model.index(max(0, min(row, model.rowCount() - 1)), column)
        self.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.scrollTo(index)


ModelIndex = QModelIndex | QPersistentModelIndex


class TargetPicker(QWidget):
    """A filterable list of component names with checkboxes: the targets of one optimization."""

    def __init__(self, names: list[str], chosen: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAutoFillBackground(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter components…")
        self.filter.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        chosen_keys = {c.casefold() for c in chosen}
        for name in names:
            item = QListWidgetItem(name, self.list)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name.casefold() in chosen_keys else Qt.CheckState.Unchecked)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        self.filter.textChanged.connect(self._filter)
        self.setFocusProxy(self.filter)

    def _filter(self, text: str) -> None:
        key = text.casefold()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(bool(key) and key not in item.text().casefold())

    def chosen(self) -> list[str]:
        return [
            self.list.item(i).text()
            for i in range(self.list.count())
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]


class TargetsDelegate(ElidedTipDelegate):
    """Edits the Targets cell with a :class:`TargetPicker` over the component names."""

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        names = [c.name for c in self.doc.profile.components]
        return TargetPicker(names, index.data(TARGETS_ROLE) or [], parent)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        rect = option.rect
        rect.setWidth(max(rect.width(), 280))
        rect.setHeight(240)
        viewport = editor.parentWidget()
        if viewport is not None and rect.bottom() > viewport.height():
            rect.moveBottom(max(viewport.height(), rect.height()))
        editor.setGeometry(rect)

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        pass

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        assert isinstance(editor, TargetPicker)
        model.setData(index, editor.chosen(), Qt.ItemDataRole.EditRole)


class SpeedupDelegate(ElidedTipDelegate):
    """k typed in a spin box: any value above 0 (below 1 is a slowdown)."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        box = QDoubleSpinBox(parent)
        box.setRange(0.001, 1e6)
        box.setDecimals(3)
        box.setSuffix("×")
        box.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)
        return box

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        assert isinstance(editor, QDoubleSpinBox)
        editor.setValue(float(index.data(Qt.ItemDataRole.EditRole)))
        editor.setProperty("opened", editor.value())  # k to the box's decimals: what it shows
        editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        assert isinstance(editor, QDoubleSpinBox)
        editor.interpretText()
        if editor.value() == editor.property("opened"):  # untouched: k keeps the digits the box cannot show
            return
        model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
