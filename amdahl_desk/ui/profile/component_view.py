"""The components table as a spreadsheet: keys, clipboard, row commands, in-cell bars, validation at the cell."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QWidget,
)

from ...files import component_header
from ...model.profile import Component
from ...present.trace_plan import trace_based
from ..core.change import Change
from ..core.clipboard import tile, to_tsv
from ..core.refusing_view import RefusingTableView
from ..core.state import FIGURES, Aspect
from ..core.wrapping_header import WrappingHeader
from .component_columns import ComponentColumns
from .component_delegates import ElidedTipDelegate, ScalingDelegate, ShareBarDelegate, bar_width
from .component_sorting import sort_keys
from .component_table import (
    EDITABLE,
    GROUP,
    NAME,
    NEW_TIME,
    NOTES,
    OBJECTIVES,
    PATH_COLUMNS,
    RANGE_COLUMNS,
    SCALING,
    SHARE,
    SHARE_ROLE,
    TIME,
    TIME_HIGH,
    TIME_LOW,
    ComponentTableModel,
)

ModelIndex = QModelIndex | QPersistentModelIndex
COMPUTED = (SHARE, NEW_TIME, *PATH_COLUMNS)


class ComponentTableView(RefusingTableView):
    """Moves, edits, copies and pastes like Excel or LibreOffice Calc."""

    GIVE_BACK = (NAME, TIME)
    columnsChanged = Signal()  # columns came or went (a trace's figures, the time ranges): the window may widen
    table: ComponentTableModel
    computed_columns = frozenset(COMPUTED)  # every row's share moves with the total: repaint those that show it

    def __init__(self, model: ComponentTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wrapping_header = WrappingHeader(self)
        self.setHorizontalHeader(self.wrapping_header)
        self.setModel(model)
        self.table = model
        self.columns = ComponentColumns(self, model, self.wrapping_header)
        self.setItemDelegate(ElidedTipDelegate(self, (TIME, TIME_LOW, TIME_HIGH)))  # the times typed as text
        self.setItemDelegateForColumn(SHARE, ShareBarDelegate(self))
        self.setItemDelegateForColumn(SCALING, ScalingDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setCornerButtonEnabled(True)
        header = self.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(False)
        header.sectionClicked.connect(self.sort_by_column)
        # Names take the room there is; every other column is as wide as its header and its content.
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(48)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setMinimumWidth(320)
        # Numbers grow with edits: widen their columns (once per change, after the table has the new values).
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self.fit_number_columns)
        model.doc.subscribe(FIGURES, self._refit.start)
        model.headerDataChanged.connect(lambda *_: self._refit.start())
        self._sort: tuple[int, bool] | None = None
        self.extra_context_actions: list[QAction] = []  # the window adds its own (Optimize Selected…)
        self.follow_refusals(model.editRejected, model.editAccepted, model.doc.changed)
        self._make_actions()
        # The Objectives column shows once the profile uses objectives (a component names one, or the
        # Objectives sheet lists one): most profiles have a single boundary and need the room for names.
        model.doc.changed.connect(self._show_objectives_if_used)
        self._show_objectives_if_used()
        # Time on the trace's critical path, slack, and the k where the path moves: for a trace-based profile.
        for col in PATH_COLUMNS:
            self.setColumnHidden(col, True)
        model.doc.changed.connect(self._show_path_columns)
        # A time's range (Time low, Time high): shown with a profile that has ranges, or when asked for (the
        # checklist's Ranges button, View → Ranges and Effort Columns).
        self.ranges_asked = False
        model.doc.changed.connect(self._show_ranges_if_used)
        self._show_ranges_if_used()
        self.fit_columns()

    def start_here(self) -> None:
        """Take the keyboard focus with the first time cell current (the first name cell of an empty table), as a
        spreadsheet opens: Ctrl+Home, an arrow and a typed number then edit a time."""
        col = TIME if self.table.components else NAME
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.selectionModel().setCurrentIndex(
            self.table.index(0, col), QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.scrollTo(self.currentIndex())

    # -- layout (component_columns.py) ---------------------------------------
    def fit_columns(self) -> None:
        """Every column but the names as wide as its header and content; names take the rest and elide."""
        self.columns.fit()

    def fit_number_columns(self) -> None:
        self.columns.fit_numbers()

    def cell_look(self, index: QModelIndex) -> object:
        if index.column() == SHARE:  # the percentage and the bar's pixels
            return self.table.data(index), bar_width(self.visualRect(index).width(), self.table.data(index, SHARE_ROLE))
        return super().cell_look(index)

    def _show_objectives_if_used(self, change: Change | None = None) -> None:
        if change is not None and not change.touches({Aspect.COMPONENTS, Aspect.OBJECTIVES}):
            return
        doc = self.table.doc
        used = bool(doc.profile.objectives) or doc.component_objectives.named()  # profile.uses_objectives()
        if self.isColumnHidden(OBJECTIVES) == used:
            self.setColumnHidden(OBJECTIVES, not used)
            self.columns.share_room()

    def show_ranges(self, asked: bool) -> None:
        """Show the time ranges' columns (asked) or leave them to whether the profile has ranges."""
        self.ranges_asked = asked
        self._show_ranges_if_used()

    def _show_ranges_if_used(self, change: Change | None = None) -> None:
        if change is not None and Aspect.COMPONENTS not in change:
            return
        if change is not None and change.reset:
            self.ranges_asked = False  # another profile: its own ranges decide
        # The profile's cached bounds: a pass over 10,000 components at every edit would cost a millisecond.
        shown = self.ranges_asked or self.table.doc.profile.has_time_ranges()
        if self.isColumnHidden(RANGE_COLUMNS[0]) == shown:
            for col in RANGE_COLUMNS:
                self.setColumnHidden(col, not shown)
            self.fit_columns()
            self.columnsChanged.emit()

    def _show_path_columns(self, aspects: Change) -> None:
        shown = trace_based(self.table.doc.trace.figures)
        if Aspect.TRACE in aspects and self.isColumnHidden(PATH_COLUMNS[0]) == shown:
            for col in PATH_COLUMNS:
                self.setColumnHidden(col, not shown)
            self.fit_columns()
            self.columnsChanged.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.columns.share_room()

    # -- actions -----------------------------------------------------------
    def _make_actions(self) -> None:
        def action(
            text: str,
            shortcut: QKeySequence.StandardKey | list[QKeySequence],
            slot: Callable[[], object],
            tip: str = "",
        ) -> QAction:
            act = QAction(text, self)
            act.setShortcuts(shortcut)
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            act.triggered.connect(slot)
            act.setStatusTip(tip)
            self.addAction(act)
            return act

        self.copy_action = action(
            "&Copy", QKeySequence.StandardKey.Copy, self.copy_selection, "Copy the selected cells as tab-separated text"
        )
        self.cut_action = action("Cu&t", QKeySequence.StandardKey.Cut, self.cut_selection)
        self.paste_action = action(
            "&Paste",
            QKeySequence.StandardKey.Paste,
            self.paste,
            "Paste cells from a spreadsheet; past the end adds components",
        )
        self.clear_action = action(
            "C&lear Cells",
            [QKeySequence(Qt.Key.Key_Delete)],
            self.clear_selection,
            "Clear the selected cells (times become 0; names stay)",
        )
        self.insert_action = action(
            "&Insert Component",
            [QKeySequence("Ctrl++"), QKeySequence("Ctrl+=")],
            self.insert_row,
            "Insert a component above the current row",
        )
        self.delete_rows_action = action(
            "&Delete Components", [QKeySequence("Ctrl+-")], self.delete_rows, "Delete the selected rows"
        )
        self.move_up_action = action("Move &Up", [QKeySequence("Alt+Up")], lambda: self.move_row(-1))
        self.move_down_action = action("Move Do&wn", [QKeySequence("Alt+Down")], lambda: self.move_row(1))
        self.select_all_action = action("Select &All", QKeySequence.StandardKey.SelectAll, self.selectAll)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for act in (
            self.cut_action,
            self.copy_action,
            self.paste_action,
            self.clear_action,
            None,
            self.insert_action,
            self.delete_rows_action,
            self.move_up_action,
            self.move_down_action,
        ):
            menu.addSeparator() if act is None else menu.addAction(act)
        if self.extra_context_actions:
            menu.addSeparator()
            for act in self.extra_context_actions:
                menu.addAction(act)
        menu.exec(self.viewport().mapToGlobal(pos))

    # -- keys --------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        current = self.currentIndex()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.state() != QAbstractItemView.State.EditingState:
            step = -1 if mods & Qt.KeyboardModifier.ShiftModifier else 1
            self._go(current.row() + step, current.column())
            return
        if ctrl and key in (
            Qt.Key.Key_Up,
            Qt.Key.Key_Down,
            Qt.Key.Key_Left,
            Qt.Key.Key_Right,
            Qt.Key.Key_Home,
            Qt.Key.Key_End,
        ):
            last_row = max(self.table.rowCount() - 2, 0)
            target = {
                Qt.Key.Key_Up: (0, current.column()),
                Qt.Key.Key_Down: (last_row, current.column()),
                Qt.Key.Key_Left: (current.row(), 0),
                Qt.Key.Key_Right: (current.row(), NOTES),
                Qt.Key.Key_Home: (0, 0),
                Qt.Key.Key_End: (last_row, NOTES),
            }[Qt.Key(key)]
            self._go(*target, extend=bool(mods & Qt.KeyboardModifier.ShiftModifier))
            return
        if key == Qt.Key.Key_Home and not mods:
            self._go(current.row(), 0)
            return
        if key == Qt.Key.Key_End and not mods:
            self._go(current.row(), NOTES)
            return
        super().keyPressEvent(event)

    def _go(self, row: int, col: int, extend: bool = False) -> None:
        """Make (row, col) current; with ``extend`` the selection stretches from the current cell to it."""
        row = max(0, min(row, self.table.rowCount() - 1))
        index = self.table.index(row, col)
        flags = QItemSelectionModel.SelectionFlag
        if extend:
            anchor = self.currentIndex()
            self.selectionModel().select(QItemSelection(anchor, index), flags.ClearAndSelect)
            self.selectionModel().setCurrentIndex(index, flags.NoUpdate)
        else:
            self.selectionModel().setCurrentIndex(index, flags.ClearAndSelect)
        self.scrollTo(index)

    # -- clipboard ---------------------------------------------------------
    def copy_selection(self) -> None:
        top, left, bottom, right = self.selected_block()
        if top < 0:
            return
        model = self.table
        last = min(bottom, model.rowCount() - 2)
        rows = []
        for r in range(top, last + 1):
            rows.append(
                [
                    str(model.data(model.index(r, c), Qt.ItemDataRole.EditRole) or "")
                    if c in EDITABLE
                    else str(model.data(model.index(r, c), Qt.ItemDataRole.EditRole) or "").replace(",", "")
                    for c in range(left, right + 1)
                ]
            )
        QGuiApplication.clipboard().setText(to_tsv(rows))

    def paste(self) -> None:
        block = self.clipboard_block()
        if not block:
            return
        top, left, rows, cols = self.paste_target()
        block = self._header_mapped(block, left)
        if not block:
            return  # a header alone: no cells to paste
        block = tile(block, rows, cols)
        columns = [c for c in range(left, self.table.columnCount())]
        edits: list[tuple[int, int, str]] = []
        for r, cells in enumerate(block):
            for c, value in enumerate(cells):
                if c < len(columns) and columns[c] in EDITABLE:
                    edits.append((top + r, columns[c], value))
        if self.table.set_cells(edits, "Paste"):
            height = len(block)
            width = max(len(r) for r in block)
            sel = QItemSelection(
                self.table.index(top, left),
                self.table.index(
                    min(top + height, self.table.rowCount()) - 1, min(left + width, self.table.columnCount()) - 1
                ),
            )
            self.selectionModel().select(sel, self.selectionModel().SelectionFlag.ClearAndSelect)

    def _header_mapped(self, block: list[list[str]], left: int) -> list[list[str]]:
        """A pasted block whose first row is a header (Component, Time (ms), …) lands in the matching columns."""
        found = component_header(block[0]) if block else None
        if found is None:
            return block
        cols, unit = found
        ours = {
            "name": NAME,
            "time": TIME,
            "scaling": SCALING,
            "group": GROUP,
            "objectives": OBJECTIVES,
            "notes": NOTES,
            "time_low": TIME_LOW,
            "time_high": TIME_HIGH,
        }
        width = TIME_HIGH + 1 - left
        result = []
        for row in block[1:]:
            out = [""] * width
            for fld, src in cols.items():
                if fld not in ours:  # a column the table has not (Scaling guessed): left out
                    continue
                dest = ours[fld] - left
                if 0 <= dest < width and src < len(row):
                    value = row[src]
                    if (
                        fld in ("time", "time_low", "time_high")
                        and unit is not None
                        and value.strip()
                        and value.strip()[-1].isdigit()
                    ):
                        value = f"{value} {unit.value}"
                    out[dest] = value
            result.append(out)
        return result

    def clear_selection(self) -> None:
        top, left, bottom, right = self.selected_block()
        edits = []
        for index in self.selectionModel().selectedIndexes() or [self.currentIndex()]:
            if index.row() >= self.table.rowCount() - 1:
                continue
            col = index.column()
            if col == TIME:
                edits.append((index.row(), col, "0"))
            elif col == SCALING:
                edits.append((index.row(), col, "serial"))
            elif col in (GROUP, OBJECTIVES, NOTES):
                edits.append((index.row(), col, ""))
        if edits:
            self.table.set_cells(edits, "Clear cells")

    # -- rows --------------------------------------------------------------
    def _selected_rows(self) -> list[int]:
        last = self.table.rowCount() - 1
        rows = {i.row() for i in self.selectionModel().selectedIndexes()} or {self.currentIndex().row()}
        return sorted(r for r in rows if 0 <= r < last)

    def insert_row(self) -> None:
        row = self.currentIndex().row()
        row = len(self.table.components) if row < 0 else min(row, len(self.table.components))
        names = {c.name.casefold() for c in self.table.components}
        n = len(self.table.components) + 1
        while f"component {n}" in names:
            n += 1
        self.table.add_component(row, Component(f"Component {n}", 0.0))
        self.setCurrentIndex(self.table.index(row, NAME))
        self.edit(self.currentIndex())

    def delete_rows(self) -> None:
        rows = self._selected_rows()
        if not rows:
            return
        notes = self.table.doc.remove_components(rows, f"Delete {len(rows)} component{'s' if len(rows) > 1 else ''}")
        status = getattr(self.window(), "statusBar", None)
        if notes and callable(status):
            status().showMessage("Deleted; " + "; ".join(notes) + " (Undo brings them back)", 10000)

    def move_row(self, step: int) -> None:
        row = self.currentIndex().row()
        comps = list(self.table.components)
        dest = row + step
        if not (0 <= row < len(comps) and 0 <= dest < len(comps)):
            return
        comps.insert(dest, comps.pop(row))
        self.table.doc.reorder_components(comps, "Move component")
        self.setCurrentIndex(self.table.index(dest, self.currentIndex().column()))

    def sort_by_column(self, col: int) -> None:
        """Click a header to sort by it (numbers largest first); click again to reverse. Undoable."""
        comps = list(self.table.components)
        analysis = self.table.doc.analysis
        descending = self._sort != (col, True)
        keys = sort_keys(comps, analysis, self.table.doc.trace.figures)
        if col not in keys:
            return
        if col in (NAME, SCALING, GROUP, OBJECTIVES, NOTES):
            descending = self._sort == (col, False)
        order = sorted(range(len(comps)), key=keys[col], reverse=descending)
        self._sort = (col, descending)
        header = str(self.table.headerData(col, Qt.Orientation.Horizontal))
        self.table.doc.reorder_components([comps[i] for i in order], f"Sort by {header}")
        self.horizontalHeader().setSortIndicatorShown(True)
        self.horizontalHeader().setSortIndicator(
            col, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        )
