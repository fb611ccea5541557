"""The comparison table on screen: columns sized to their content, a combo to pair a renamed component."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from .comparison_table import AFTER_NAME, CHOICES_ROLE, NAME, UNPAIR, ComparisonTableModel

ModelIndex = QModelIndex | QPersistentModelIndex


class PairCombo(QComboBox):
    """A combo that says when a choice was made in its popup (a click, or Enter in the list).

    Arrow keys on the closed combo only move the choice: Enter (or leaving the cell) takes it, as in
    any table; a pick from the popup is already a decision and is taken at once.
    """

    chosen = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._from_popup = False
        self.activated.connect(self._activated)

    def hidePopup(self) -> None:
        super().hidePopup()
        self._from_popup = True  # the activation that follows (if any) came from the list

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._from_popup = False
        super().keyPressEvent(event)

    def _activated(self, _index: int) -> None:
        if self._from_popup:
            self._from_popup = False
            self.chosen.emit()


class PairDelegate(QStyledItemDelegate):
    """A combo of the after components a before component can be paired with; choosing one pairs it."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        combo = PairCombo(parent)
        combo.setAccessibleName("Pair with after component")
        for label, value in index.data(CHOICES_ROLE) or []:
            combo.addItem(label, value)
        combo.chosen.connect(lambda c=combo: self._commit(c))
        return combo

    def _commit(self, combo: QComboBox) -> None:
        self.commitData.emit(combo)
        self.closeEditor.emit(combo, QStyledItemDelegate.EndEditHint.SubmitModelCache)

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        if isinstance(editor, QComboBox):
            current = index.data(Qt.ItemDataRole.EditRole) or UNPAIR
            editor.setCurrentIndex(max(0, editor.findData(current)))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)


class ComparisonTableView(QTableView):
    """Read-only but for the after-name column; keyboard: arrows to move, F2 or Enter-less typing to pair."""

    def __init__(self, model: ComparisonTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setObjectName("comparisonTable")
        self.setAccessibleName("Comparison per component")
        self.setItemDelegateForColumn(AFTER_NAME, PairDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.setTabKeyNavigation(False)  # Tab leaves the table for the buttons
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.pair_action = QAction("&Pair With…", self)
        self.pair_action.setShortcut(QKeySequence(Qt.Key.Key_F2))
        self.pair_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.pair_action.setStatusTip("Pair the selected component with a renamed one in the after profile")
        self.pair_action.triggered.connect(self.edit_pair)
        self.addAction(self.pair_action)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # Figures change width with the plan: fit again, measuring at most a few hundred rows (a trace has thousands).
        header.setResizeContentsPrecision(200)
        model.modelReset.connect(self.fit_columns)
        model.dataChanged.connect(lambda *_: self.fit_columns())

    def edit_pair(self) -> bool:
        """Open the pairing combo on the current row (the first editable one when none is chosen)."""
        model = self.model()
        row = self.currentIndex().row()
        if row < 0:
            row = 0
        index = model.index(row, AFTER_NAME)
        if not (model.flags(index) & Qt.ItemFlag.ItemIsEditable):
            return False
        self.setColumnHidden(AFTER_NAME, False)  # nothing to pair with shows as a one-item list
        self.setCurrentIndex(index)  # an editor open on another cell is committed and closed
        if self.state() == QAbstractItemView.State.EditingState:
            return True  # the pairing's own editor is open already (Pair With… asked twice): it stays
        # Qt's edit(index) says "edit: editing failed" while a click on the selected cell waits its double-click
        # time to open that cell's editor; then this editor opens once that wait is over.
        if not self.edit(index, QAbstractItemView.EditTrigger.AllEditTriggers, None):  # type: ignore[call-overload]
            later = QPersistentModelIndex(index)
            QTimer.singleShot(QApplication.doubleClickInterval() + 1, self, lambda: self._edit_later(later))
        return True

    def _edit_later(self, index: QPersistentModelIndex) -> None:
        """The pairing's editor, asked for while another edit was about to start, once that one has."""
        if index.isValid() and self.isVisible() and self.state() != QAbstractItemView.State.EditingState:
            at = self.model().index(index.row(), index.column())
            self.setCurrentIndex(at)
            self.edit(at, QAbstractItemView.EditTrigger.AllEditTriggers, None)  # type: ignore[call-overload]

    def rows_height(self, most: int = 12) -> int:
        """The height that shows every row (at most ``most``) and the header without a scroll bar."""
        rows = min(self.model().rowCount(), most)
        header = max(self.horizontalHeader().height(), self.horizontalHeader().sizeHint().height())
        return header + rows * self.verticalHeader().defaultSectionSize() + 2 * self.frameWidth()

    def fit_columns(self) -> None:
        """Every column as wide as its content (measured when the rows change), the names giving way first.

        The after-name column shows only when there is something to pair: a component found on one
        side only, or a pair made by hand.
        """
        model = self.model()
        pairing = any(model.index(r, AFTER_NAME).data() != "(same name)" for r in range(max(0, model.rowCount() - 1)))
        self.setColumnHidden(AFTER_NAME, not pairing)
        self.resizeColumnsToContents()
        self._name_width = self.horizontalHeader().sectionSize(NAME)
        self._fit_names()

    def _fit_names(self) -> None:
        # Component names are elided (full in the tooltip) before any figure is cut; spare room goes to them too.
        header = self.horizontalHeader()
        others = header.length() - header.sectionSize(NAME)
        floor = self.fontMetrics().horizontalAdvance("Autoregressive dec…") + 12
        room = self.viewport().width() - others
        header.resizeSection(NAME, max(min(self._name_width, floor), room))

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        if hasattr(self, "_name_width"):
            self._fit_names()
