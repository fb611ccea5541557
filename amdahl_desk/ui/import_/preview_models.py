"""The import dialog's tables: the components an import would make, the trace's steps (tick to keep), its ranks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ...model.traces import ImportedComponent, RankInfo, StepInfo
from ...model.units import TimeUnit, format_number, format_percent

ModelIndex = QModelIndex | QPersistentModelIndex
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
FLAGGED = QColor("#b35c00")


class _Table(QAbstractTableModel):
    headers: tuple[str, ...] = ()
    right: frozenset[int] = frozenset()  # columns of numbers

    def __init__(self) -> None:
        super().__init__()
        self.unit = TimeUnit.MS

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows())

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section].replace("{unit}", self.unit.label)
        if role == Qt.ItemDataRole.TextAlignmentRole and section in self.right:
            return RIGHT
        return None

    def _rows(self) -> Sequence[object]:
        raise NotImplementedError

    def _align(self, index: ModelIndex, role: int) -> Any:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.right:
            return RIGHT
        return None


class ComponentPreviewModel(_Table):
    """The rows the import would put in the components table: name, time, share, scaling, what it stands for."""

    NAME, TIME, SHARE, SCALING, SOURCE = range(5)
    headers = ("Component", "Time ({unit})", "Share", "Scaling", "From the trace")
    right = frozenset({TIME, SHARE})

    def __init__(self) -> None:
        super().__init__()
        self.components: tuple[ImportedComponent, ...] = ()
        self.total = 0.0

    def set_components(self, components: Sequence[ImportedComponent], unit: TimeUnit) -> None:
        self.beginResetModel()
        self.components, self.unit = tuple(components), unit
        self.total = sum(c.time for c in components)
        self.endResetModel()

    def _rows(self) -> Sequence[object]:
        return self.components

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c, col = self.components[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.NAME:
                return c.name
            if col == self.TIME:
                return format_number(c.time)
            if col == self.SHARE:
                return format_percent(c.time / self.total) if self.total > 0 else "—"
            if col == self.SCALING:
                return c.scaling.value
            return c.source
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{c.name}: {c.source}" if c.source else c.name
        if role == Qt.ItemDataRole.UserRole:
            return c.time if col == self.TIME else None
        return self._align(index, role)


class StepTableModel(_Table):
    """The trace's steps: tick to keep a step in the mean; steps far from the median are marked."""

    NAME, TIME, NOTE = range(3)
    headers = ("Step", "Time ({unit})", "")
    right = frozenset({TIME})
    toggled = Signal(str, bool)  # step name, kept

    def __init__(self) -> None:
        super().__init__()
        self.steps: tuple[StepInfo, ...] = ()

    def set_steps(self, steps: Sequence[StepInfo], unit: TimeUnit) -> None:
        if tuple(steps) == self.steps and unit is self.unit:
            return
        self.beginResetModel()
        self.steps, self.unit = tuple(steps), unit
        self.endResetModel()

    def _rows(self) -> Sequence[object]:
        return self.steps

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsUserCheckable if index.column() == self.NAME else base

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s, col = self.steps[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.NAME:
                return s.name
            if col == self.TIME:
                return format_number(s.time)
            return "far from the median" if s.flagged else ""
        if role == Qt.ItemDataRole.CheckStateRole and col == self.NAME:
            return Qt.CheckState.Unchecked if s.excluded else Qt.CheckState.Checked
        if role == Qt.ItemDataRole.ForegroundRole and s.flagged:
            return QBrush(FLAGGED)
        if role == Qt.ItemDataRole.ToolTipRole:
            why = " It is more than 20% away from the median step (a warm-up, a checkpoint?)." if s.flagged else ""
            return f"Untick to leave {s.name} out of the mean.{why}"
        return self._align(index, role)

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or index.column() != self.NAME:
            return False
        keep = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
        self.toggled.emit(self.steps[index.row()].name, keep)
        return True


class RankTableModel(_Table):
    """One row per rank: its file and mean step time; the slowest marked (its lag is everyone's serial time)."""

    RANK, FILE, STEP = range(3)
    headers = ("Rank", "File", "Step ({unit})")
    right = frozenset({RANK, STEP})

    def __init__(self) -> None:
        super().__init__()
        self.ranks: tuple[RankInfo, ...] = ()

    def set_ranks(self, ranks: Sequence[RankInfo], unit: TimeUnit) -> None:
        if tuple(ranks) == self.ranks and unit is self.unit:
            return
        self.beginResetModel()
        self.ranks, self.unit = tuple(ranks), unit
        self.endResetModel()

    def _rows(self) -> Sequence[object]:
        return self.ranks

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, col = self.ranks[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.RANK:
                return f"{r.rank} (slowest)" if r.slowest else str(r.rank)
            if col == self.FILE:
                return r.source
            time = r.step_time if r.step_time is not None else r.total_time
            return format_number(time) + ("" if r.step_time is not None else " (whole)")
        if role == Qt.ItemDataRole.FontRole and r.slowest:
            bold = QFont()
            bold.setBold(True)
            return bold
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Rank {r.rank} ({r.source})" + (
                ": the slowest — every other rank waits for it, so its extra time is serial time too"
                if r.slowest
                else ""
            )
        return self._align(index, role)


def preview_table(model: object, stretch: int) -> QTableView:
    """A read-only table of one of these models: columns fit their content, ``stretch`` takes the rest."""
    view = QTableView()
    view.setModel(model)  # type: ignore[arg-type]
    view.verticalHeader().hide()
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    return view
