"""A spreadsheet view that explains a refused value beside its cell and gives the typed text back to fix."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, SignalInstance
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLineEdit,
    QWidget,
)

from .cell_message import CellMessage
from .changed_cells import ChangedCellsTableView
from .clipboard import ClipboardError, from_tsv
from .style_sheets import REFUSED_FIELD


class RefusingTableView(ChangedCellsTableView):
    """The table views of the window share this: a refusal is shown beside its cell (``CellMessage``) and
    stays while the editor, reopened with the refused text, is open; it goes with Escape, a fix or another cell.

    Subclasses set ``table`` (their model, whose ``editRejected(row, col, message, refused, single)`` they
    connect to :meth:`_show_rejection`) and ``GIVE_BACK`` (the columns whose refused text is given back).
    """

    GIVE_BACK: tuple[int, ...] = ()
    table: QAbstractItemModel

    def __init__(self, parent: QWidget | None = None) -> None:
        # Set before setModel: it calls currentChanged.
        self._message_at: QPersistentModelIndex | None = None
        self._reopening = False
        self._left = False  # the editor being committed has lost the focus (a click elsewhere, another tab)
        self.last_rejection = ""
        super().__init__(parent)
        self.message = CellMessage(self.viewport(), area=self)
        # A spreadsheet: select ranges, type over a cell to replace it, one line per row of fixed height.
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalScrollBar().valueChanged.connect(lambda _v: self._place_message())
        self.horizontalScrollBar().valueChanged.connect(lambda _v: self._place_message())

    def commitData(self, editor: QWidget) -> None:
        # Qt commits an editor when it loses the focus. Refused then, it must not come back: the keys that follow
        # belong to the widget the person went to (another table, another tab), not to a hidden editor.
        self._left = not self._holds_focus(editor)
        try:
            super().commitData(editor)
        finally:
            self._left = False

    def _holds_focus(self, widget: QWidget) -> bool:
        focus = QApplication.focusWidget()
        return focus is not None and (focus is widget or widget.isAncestorOf(focus))

    def follow_refusals(
        self, edit_rejected: SignalInstance, edit_accepted: SignalInstance, changed: SignalInstance
    ) -> None:
        """Show the model's refusals beside their cells; hide one when an edit of this table is taken, or when
        the document changes while no cell is being typed in (a later paste, an undo)."""
        edit_rejected.connect(self._show_rejection)
        edit_accepted.connect(lambda: None if self._reopening else self.hide_message(over=True))
        changed.connect(
            lambda _aspects: (
                None if self.state() == QAbstractItemView.State.EditingState else self.hide_message(over=True)
            )
        )

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.state() != QAbstractItemView.State.EditingState:
            self.hide_message(over=True)  # Escape dismisses a refusal's message, as it closes an editor
        super().keyPressEvent(event)

    def closeEditor(self, editor: QWidget, hint: QAbstractItemDelegate.EndEditHint) -> None:
        """Enter commits and moves down, as in a spreadsheet; Tab moves right (Qt's own)."""
        row, col = self.currentIndex().row(), self.currentIndex().column()
        super().closeEditor(editor, hint)
        if not self._reopening:  # Escape in the editor given back ends the refusal; Enter's is taken or refused
            self.hide_message(over=hint == QAbstractItemDelegate.EndEditHint.RevertModelCache)
        if hint == QAbstractItemDelegate.EndEditHint.SubmitModelCache:
            self._go(row + 1, col)

    def _go(self, row: int, col: int) -> None:
        """Make (row, col) the current cell; each view knows its own bounds."""
        raise NotImplementedError

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:  # type: ignore[override]
        super().currentChanged(current, previous)
        at = self._message_at
        if not self._reopening and at is not None and (at.row(), at.column()) != (current.row(), current.column()):
            self.hide_message()

    def hide_message(self, over: bool = False) -> None:
        """The refusal's message hidden; ``over``: the refusal itself is (Escape, a value taken, the document
        changed), and the status line stops saying it too."""
        self._message_at = None
        if hasattr(self, "message"):
            self.message.hide()
            if over:
                self.message.take_back_status()

    def _place_message(self) -> None:
        at = self._message_at
        if at is None or not at.isValid():
            self.message.hide()
            return
        rect = self.visualRect(self.table.index(at.row(), at.column()))
        if rect.isValid() and self.viewport().rect().intersects(rect):
            self.message.show_at(rect, self.message.text())
        else:
            self.message.hide()

    def _show_rejection(self, row: int, col: int, message: str, refused: str, single: bool) -> None:
        # A pasted row past the end is refused before it exists: the message goes beside the row that adds rows.
        index = self.table.index(min(row, self.table.rowCount() - 1), col)
        self.scrollTo(index)
        self._message_at = QPersistentModelIndex(index)
        self.message.show_at(self.visualRect(index), message)
        self.last_rejection = message
        # The person went elsewhere: the cell keeps its value, and the status line says what was refused.
        kept = " (the cell keeps its value)" if self._left else ""
        self.message.tell_status(f"Not accepted: {message}{kept}")
        if self._left:
            return
        if refused and single and col in self.GIVE_BACK and self.table.rowCount() > row:
            # Give the typed text back to fix, rather than losing it; the message stays beside it.
            self._reopening = True
            QTimer.singleShot(0, self, lambda: self._reopen(QPersistentModelIndex(index), refused, message))

    def _reopen(self, persistent: QPersistentModelIndex, text: str, message: str) -> None:
        try:
            if not persistent.isValid() or not self.isVisible() or not self._holds_focus(self):
                return  # the person has gone elsewhere meanwhile: the keys are theirs, not this cell's
            if self.state() == QAbstractItemView.State.EditingState:
                return  # a paste from the menu while a cell is being typed in: that editor keeps its text
            index = self.table.index(persistent.row(), persistent.column())
            if not index.isValid() or not self.table.flags(index) & Qt.ItemFlag.ItemIsEditable:
                return  # its row went meanwhile (an undo)
            self.setCurrentIndex(index)
            self.edit(index)
            editor = self.focusWidget()
            if isinstance(editor, QLineEdit):
                editor.setText(text)
                editor.selectAll()
                editor.setToolTip(message)
                editor.setStyleSheet(REFUSED_FIELD)
            self._message_at = QPersistentModelIndex(index)
            self.message.show_at(self.visualRect(index), message)
        finally:
            self._reopening = False

    # -- the selection, as the clipboard actions of both tables take it ------------------
    def selected_block(self) -> tuple[int, int, int, int]:
        """Top, left, bottom, right of the selection (its bounding box); the current cell if none."""
        # The selection's ranges, not its cells: a whole column of 10,000 runs listed cell by cell took a third
        # of a second before a paste could start.
        selection = self.selectionModel().selection()
        ranges = [r for r in (selection.at(i) for i in range(selection.count())) if r.isValid()]
        if not ranges:
            cur = self.currentIndex()
            return cur.row(), cur.column(), cur.row(), cur.column()
        return (
            min(r.top() for r in ranges),
            min(r.left() for r in ranges),
            max(r.bottom() for r in ranges),
            max(r.right() for r in ranges),
        )

    def paste_target(self) -> tuple[int, int, int, int]:
        """Top, left, rows and columns of what a paste fills: the selection, or the first cell when none is current."""
        top, left, bottom, right = self.selected_block()
        top, left = max(top, 0), max(left, 0)
        return top, left, max(bottom - top + 1, 1), max(right - left + 1, 1)

    def clipboard_block(self) -> list[list[str]]:
        """The clipboard's cells; text that is not cells is refused at the cell the paste would fill."""
        try:
            return from_tsv(QGuiApplication.clipboard().text())
        except ClipboardError as exc:
            top, left, _rows, _cols = self.paste_target()
            self._show_rejection(top, left, str(exc), "", False)
            return []

    def copy_selection(self) -> None:
        raise NotImplementedError

    def clear_selection(self) -> None:
        raise NotImplementedError

    def cut_selection(self) -> None:
        self.copy_selection()
        self.clear_selection()
