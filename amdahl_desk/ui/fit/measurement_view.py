"""The Measurements table as a spreadsheet: keys, clipboard (core.clipboard), row commands, refusals at the cell."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMainWindow,
    QMenu,
    QWidget,
)

from ...files import MeasurementHeader, measurement_header
from ...model.measurements import MeasureKind, too_many_runs
from ...model.numbers import decide_decimal
from ...present.paste import pasted_runs, pasting_runs
from ...present.refusals import refusal_text
from ..core.clipboard import tile, to_tsv
from ..core.locale_editor import LocaleEditorDelegate
from ..core.locale_text import locale_numbers
from ..core.refusing_view import RefusingTableView
from .runs_model import COUNT, EDITABLE, LABEL, NOTES, VALUE, MeasurementTableModel

_FIELDS = {"count": COUNT, "value": VALUE, "label": LABEL, "notes": NOTES}
# From this many pasted rows the paste takes more than a frame on a slow machine: the status line says so first.
PROGRESS_FROM_ROWS = 500


def pasted_columns(header: MeasurementHeader) -> tuple[dict[int, int], dict[str, object]]:
    """A pasted header row as the files layer reads it: pasted column → table column, and the kind, unit and
    count name it says."""
    columns = {src: _FIELDS[name] for name, src in header.columns.items()}
    fmt: dict[str, object] = {"count_name": header.count_name.strip(), "kind": header.kind}
    if header.unit:
        fmt["unit"] = header.unit
    return columns, fmt


class MeasurementTableView(RefusingTableView):
    """Moves, edits, copies and pastes like Excel or LibreOffice Calc."""

    GIVE_BACK = (COUNT, VALUE)
    table: MeasurementTableModel

    def __init__(self, model: MeasurementTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(LocaleEditorDelegate(self, (COUNT, VALUE)))  # N and the value typed as text
        self.setModel(model)
        self.table = model
        header = self.horizontalHeader()
        header.setSectionsClickable(True)
        header.sectionClicked.connect(self.sort_by_column)
        # The label and notes share the room there is; the numbers (N, the value, the derived columns) are as wide
        # as their header and value, so at 1280 px the table needs no sideways scrolling to show Karp–Flatt e.
        header.setStretchLastSection(False)
        for col in (LABEL, NOTES):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._sort: tuple[int, bool] | None = None
        self.follow_refusals(model.editRejected, model.editAccepted, model.doc.changed)
        self._make_actions()
        self.fit_columns()
        model.headerDataChanged.connect(lambda orientation, *_: self._header_changed(orientation))
        model.modelReset.connect(self.fit_columns)

    def _header_changed(self, orientation: Qt.Orientation) -> None:
        if orientation == Qt.Orientation.Horizontal:
            self.fit_columns()

    def fit_columns(self) -> None:
        """Each column as wide as its header (which names the unit) or a typical value, whichever is wider."""
        fm = self.fontMetrics()
        for col, chars in ((COUNT, 6), (VALUE, 9), (4, 7), (5, 8), (6, 6)):
            header = str(self.table.headerData(col, Qt.Orientation.Horizontal))
            width = max(fm.horizontalAdvance("0" * chars), fm.horizontalAdvance(header) + 12) + 16
            if self.columnWidth(col) != width:
                self.setColumnWidth(col, width)

    # -- actions -----------------------------------------------------------
    def _action(self, text: str, keys: list[QKeySequence], slot, tip: str = "") -> QAction:  # type: ignore[no-untyped-def]
        act = QAction(text, self)
        act.setShortcuts(keys)
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        act.triggered.connect(slot)
        act.setStatusTip(tip)
        self.addAction(act)
        return act

    def _make_actions(self) -> None:
        keys = QKeySequence.keyBindings
        std = QKeySequence.StandardKey
        self.copy_action = self._action(
            "&Copy", keys(std.Copy), self.copy_selection, "Copy cells as tab-separated text"
        )
        self.cut_action = self._action("Cu&t", keys(std.Cut), self.cut_selection)
        self.paste_action = self._action(
            "&Paste", keys(std.Paste), self.paste, "Paste runs from a spreadsheet; past the end adds runs"
        )
        self.clear_action = self._action(
            "C&lear Cells", [QKeySequence(Qt.Key.Key_Delete)], self.clear_selection, "Empty the selected cells"
        )
        self.delete_rows_action = self._action(
            "&Delete Runs", [QKeySequence("Ctrl+-")], self.delete_rows, "Delete the selected runs"
        )
        self.select_all_action = self._action("Select &All", keys(std.SelectAll), self.selectAll)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for act in (self.cut_action, self.copy_action, self.paste_action, self.clear_action, self.delete_rows_action):
            menu.addAction(act)
        menu.exec(self.viewport().mapToGlobal(pos))

    # -- keys --------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.state() != QAbstractItemView.State.EditingState:
            step = -1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            self._go(self.currentIndex().row() + step, self.currentIndex().column())
            return
        super().keyPressEvent(event)

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:  # type: ignore[override]
        # The new run is inserted above the empty row, which moves the current cell down with it; Qt would then
        # commit and close the editor again. The move is ours to undo (above), not a person's: let it pass.
        if getattr(self, "_appending", False):
            self.viewport().update()
            return
        super().currentChanged(current, previous)

    def _go(self, row: int, col: int) -> None:
        row = max(0, min(row, self.table.rowCount() - 1))
        index = self.table.index(row, col)
        self.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.scrollTo(index)

    def commitData(self, editor: QWidget) -> None:
        """A value typed into the empty last row adds a run there: stay on it (Tab goes on to its next cell)."""
        row, col = self.currentIndex().row(), self.currentIndex().column()
        count = self.table.rowCount()
        self._appending = row == count - 1
        try:
            super().commitData(editor)
            if self._appending and self.table.rowCount() > count:
                flag = QItemSelectionModel.SelectionFlag.NoUpdate
                self.selectionModel().setCurrentIndex(self.table.index(row, col), flag)
        finally:
            self._appending = False

    # -- clipboard ---------------------------------------------------------
    def copy_selection(self) -> None:
        top, left, bottom, right = self.selected_block()
        if top < 0:
            return
        m = self.table
        role = Qt.ItemDataRole.EditRole
        rows = [
            [str(m.data(m.index(r, c), role) or "") for c in range(left, right + 1)]
            for r in range(top, min(bottom, m.rowCount() - 2) + 1)
        ]
        QGuiApplication.clipboard().setText(to_tsv(rows))

    def paste(self) -> None:
        block = self.clipboard_block()
        if not block:
            return
        if len(block) < PROGRESS_FROM_ROWS:
            self._paste(block)
            return
        # Beyond a frame's work: say so, and show the busy cursor, before the first run is read.
        window = self.window()
        status = window.statusBar() if isinstance(window, QMainWindow) else None
        if status is not None:
            status.showMessage(pasting_runs(len(block), locale_numbers()))
            status.repaint()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            done = self._paste(block)
        finally:
            QGuiApplication.restoreOverrideCursor()
        if status is not None:
            if done:
                status.showMessage(pasted_runs(len(block), locale_numbers()), 5000)
            else:
                status.clearMessage()

    def _paste(self, block: list[list[str]]) -> bool:
        """Paste ``block`` at the selection as one undoable step; whether it was taken."""
        top, left, rows, cols = self.paste_target()
        fmt: dict[str, object] = {}
        header = measurement_header(block[0])
        if header is not None:
            block, fmt = self._from_header(block, *pasted_columns(header))
            if not block:
                return False
            right, left = left + cols - 1, COUNT
            cols = max(right - left + 1, 1)
        block = tile(block, rows, cols)
        too_many = too_many_runs(max(top + len(block), len(self.table.rows)))
        if too_many is not None:  # said before a cell is read: a million pasted rows took a minute to refuse
            said = refusal_text(too_many, locale_numbers())
            self._show_rejection(top, COUNT, f"Not pasted: {said}.", "", False)
            return False
        columns_from = [c for c in range(left, self.table.columnCount())]
        edits = [
            (top + r, columns_from[c], value)
            for r, cells in enumerate(block)
            for c, value in enumerate(cells)
            if c < len(columns_from) and columns_from[c] in EDITABLE
        ]
        # A pasted column is a column like a file's: one decimal separator, decided from the cells that show it.
        decimals = {col: decide_decimal(t for _r, c, t in edits if c == col) for col in (COUNT, VALUE)}
        if not self.table.set_cells(edits, "Paste runs", decimals, **fmt):
            return False
        height, width = len(block), max(len(r) for r in block)
        last_row = min(top + height, self.table.rowCount()) - 1
        last_col = min(left + width, self.table.columnCount()) - 1
        sel = QItemSelection(self.table.index(top, left), self.table.index(last_row, last_col))
        self.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        return True

    def _from_header(
        self, block: list[list[str]], columns: dict[int, int], fmt: dict[str, object]
    ) -> tuple[list[list[str]], dict[str, object]]:
        """A block under its header, rearranged into this table's columns; and the format to adopt, if any."""
        rows = []
        for row in block[1:]:
            out = [""] * len(EDITABLE)
            for src, dest in columns.items():
                out[dest] = row[src] if src < len(row) else ""
            rows.append(out)
        table = self.table.table
        unit = str(fmt.get("unit", ""))
        if len(table.complete()):
            if fmt["kind"] is not table.kind:
                what = "throughputs" if fmt["kind"] is MeasureKind.THROUGHPUT else "times"
                self._show_rejection(
                    max(self.currentIndex().row(), 0),
                    VALUE,
                    f"the pasted runs are {what}; change Measure first",
                    "",
                    False,
                )
                return [], {}
            fmt = {}  # the runs already there keep the table's unit and names
        if unit and (fmt.get("kind") or table.kind) is MeasureKind.TIME:
            # Bare times are in the header's unit; written so, they convert to the table's.
            for out in rows:
                if out[VALUE].strip()[-1:].isdigit():
                    out[VALUE] = f"{out[VALUE]} {unit}"
        return rows, fmt

    def clear_selection(self) -> None:
        indexes = self.selectionModel().selectedIndexes() or [self.currentIndex()]
        edits = [
            (i.row(), i.column(), "") for i in indexes if i.column() in EDITABLE and i.row() < self.table.rowCount() - 1
        ]
        if edits:
            self.table.set_cells(edits, "Clear cells")

    # -- rows --------------------------------------------------------------
    def delete_rows(self) -> None:
        rows = {i.row() for i in self.selectionModel().selectedIndexes()} or {self.currentIndex().row()}
        self.table.remove_rows(sorted(rows))

    def sort_by_column(self, col: int) -> None:
        """Click a header to sort by it (ascending); click again to reverse. Undoable."""
        descending = self._sort == (col, False)
        if self.table.sort_by(col, descending):
            self._sort = (col, descending)
            order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
            self.horizontalHeader().setSortIndicatorShown(True)
            self.horizontalHeader().setSortIndicator(col, order)
