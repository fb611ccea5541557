"""A table view that repaints the cells a model change touched, not its whole viewport.

Qt's item views repaint the whole viewport when a change covers more than one cell. A 10,000-row
components table whose share column is recomputed for every row on every edit would repaint every
visible cell at every keystroke; this view repaints the visible cells of a changed range only, and
in its computed columns (recomputed for every row on every change) only the cells whose look (the
text and colour shown) changed: one edit of one time repaints that row and, in the share column,
the rows whose percentage or bar moved. What a cell shows is noted when it is scheduled and when it is
painted: rows just scrolled into view are compared with what they show, not repainted on trust.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QAccessible, QColor, QPaintEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView, QWidget

ModelIndex = QModelIndex | QPersistentModelIndex
_UNSEEN = object()


def released(editor: QWidget, view: QAbstractItemView) -> bool:
    """Whether ``editor`` is one the view has already let go (closed, or dropped when its rows were reset or removed).

    Qt hides such an editor; it may still lose the focus afterwards, and its delegate then commits it, to a cell it
    no longer edits (Qt warns "commitData called with an editor that does not belong to this view"). Its text is
    not the cell's any more: nothing is committed. An editor in a hidden tab is not hidden itself, and commits.
    """
    return not editor.isVisibleTo(view.viewport())


class ChangedCellsTableView(QTableView):
    """Subclasses name the columns recomputed on every change in ``computed_columns`` and may say
    what a cell looks like in :meth:`cell_look` (its text and colour unless they say otherwise)."""

    computed_columns: frozenset[int] = frozenset()

    def __init__(self, parent: QWidget | None = None) -> None:
        # What each visible cell of a computed column was last scheduled to show: {column: {row: look}}.
        self._looks: dict[int, dict[int, object]] = {}
        super().__init__(parent)

    def setModel(self, model: QAbstractItemModel | None) -> None:  # noqa: N802 - Qt's name
        super().setModel(model)
        if model is not None:
            # Rows that now hold other items: what was on screen for them says nothing any more.
            for signal in (
                model.modelReset,
                model.layoutChanged,
                model.rowsInserted,
                model.rowsRemoved,
                model.rowsMoved,
                model.columnsInserted,
                model.columnsRemoved,
                model.columnsMoved,
            ):
                signal.connect(self.forget_looks)

    def commitData(self, editor: QWidget) -> None:  # noqa: N802 - Qt's name
        if released(editor, self):
            return
        super().commitData(editor)

    def forget_looks(self, *_args: object) -> None:
        self._looks.clear()

    def cell_look(self, index: QModelIndex) -> object:
        """What a cell shows: its text and its colour."""
        model = index.model()
        color = model.data(index, Qt.ItemDataRole.ForegroundRole)
        return model.data(index), color.name() if isinstance(color, QColor) else color

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        model = self.model()
        if not self.computed_columns or model is None:
            return
        # What the computed cells just painted show: the next change repaints those whose look it changes.
        columns = [
            (c, self.columnViewportPosition(c), self.columnWidth(c))
            for c in self.computed_columns
            if not self.isColumnHidden(c)
        ]
        cells: set[tuple[int, int]] = set()
        for rect in cast(Iterable[QRect], event.region()):  # iterable, though its stubs do not say so
            top = self.rowAt(rect.top())
            if top < 0:
                continue
            bottom = self.rowAt(rect.bottom())
            bottom = model.rowCount() - 1 if bottom < 0 else bottom
            for col, x, width in columns:
                if x <= rect.right() and x + width > rect.left():
                    cells.update((row, col) for row in range(top, bottom + 1))
        for row, col in cells:
            self._looks.setdefault(col, {})[row] = self.cell_look(model.index(row, col))
        if cells:
            self._keep_in_sight()

    def _keep_in_sight(self) -> None:
        """Scrolled far and often: keep the looks of the rows in sight only."""
        top, bottom = self.rowAt(0), self.rowAt(self.viewport().height() - 1)
        if top < 0 or bottom < 0:  # the rows end above the viewport's bottom: all of them are in sight
            return
        for col, looks in self._looks.items():
            if len(looks) > 4 * (bottom - top + 1):
                self._looks[col] = {r: v for r, v in looks.items() if top <= r <= bottom}

    def dataChanged(  # noqa: N802 - Qt's name
        self, top_left: ModelIndex, bottom_right: ModelIndex, roles: Sequence[int] = ()
    ) -> None:
        model = self.model()
        top = self.rowAt(0)
        if top_left == bottom_right and top_left.isValid():  # one cell: Qt repaints just it
            self._looks.get(top_left.column(), {}).pop(top_left.row(), None)
            super().dataChanged(top_left, bottom_right, list(roles))
            return
        if (
            model is None
            or not top_left.isValid()
            or not self.isVisible()
            or top < 0
            or QAccessible.isActive()  # a screen reader hears of the whole range, as Qt tells it
        ):
            self.forget_looks()
            super().dataChanged(top_left, bottom_right, list(roles))
            return
        bottom = self.rowAt(self.viewport().height() - 1)
        if bottom < 0:  # the rows end above the viewport's bottom
            bottom = model.rowCount(top_left.parent()) - 1
        first, last = max(top_left.row(), top), min(bottom_right.row(), bottom)
        parent = top_left.parent()
        if self.state() == QAbstractItemView.State.EditingState:
            current = self.currentIndex()  # an open editor follows its cell's value, seen or not
            if (
                top_left.row() <= current.row() <= bottom_right.row()
                and top_left.column() <= current.column() <= bottom_right.column()
                and not first <= current.row() <= last
            ):
                QTableView.dataChanged(self, current, current, list(roles))
        for col in range(top_left.column(), bottom_right.column() + 1):
            looks = self._looks.setdefault(col, {}) if col in self.computed_columns else None
            if looks is not None:
                # Rows of the range out of sight: their looks are unknown once they change.
                for row in [r for r in looks if top_left.row() <= r <= bottom_right.row() and not first <= r <= last]:
                    del looks[row]
            if self.isColumnHidden(col):
                self._looks.pop(col, None)  # all of it is painted afresh when it shows again
                continue
            for row in range(first, last + 1):
                index = model.index(row, col, parent)
                if looks is not None:
                    look = self.cell_look(index)
                    if looks.get(row, _UNSEEN) == look:
                        continue
                    looks[row] = look
                QTableView.dataChanged(self, index, index, list(roles))  # one cell: Qt repaints just it
