"""The comparison per component as a Qt item model: before, after, planned and measured k, the verdict in colour."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont

from ...model.comparison import ComponentComparison, Status
from ...present.colours import ERROR
from ...present.comparison import STATUS_TIPS, VERDICT_TIP, measured_tip, row_figures, total_figures
from ...present.numbers import POINT, Numbers
from ..core.locale_text import locale_numbers
from .session import ComparisonSession

NAME, AFTER_NAME, BEFORE, AFTER, PLANNED, PROMISED, MEASURED, VERDICT = range(8)
COLUMNS = 8
FIGURE_KEYS = {BEFORE: "before", AFTER: "after", PLANNED: "planned", PROMISED: "promised", MEASURED: "measured"}
ModelIndex = QModelIndex | QPersistentModelIndex
CHOICES_ROLE = Qt.ItemDataRole.UserRole + 20  # the after names a before row can be paired with
STATUS_ROLE = Qt.ItemDataRole.UserRole + 21
UNPAIR = ""  # the choice that undoes a pair made by hand

# Verdicts in colour: a tint behind dark text, readable in print and for the colour-blind (the word is there too).
STATUS_COLOURS = {
    Status.MET: "#d8efdc",
    Status.SHORT: "#fbe3c4",
    Status.REGRESSED: "#f6d0cc",
    Status.UNCHANGED: "#eceef1",
    Status.ADDED: "#d9e6f5",
    Status.REMOVED: "#e4dfef",
}
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class ComparisonTableModel(QAbstractTableModel):
    """One row per component of either profile, and the total; the after-name cell pairs a renamed one."""

    pairRequested = Signal(str, str)  # before name, after name (UNPAIR: match by name again)

    def __init__(self, session: ComparisonSession) -> None:
        super().__init__(session)
        self.session = session
        self.rows: tuple[ComponentComparison, ...] = ()
        session.changed.connect(self._reset)
        session.closed.connect(self._reset)
        self._reset()

    def _reset(self) -> None:
        c = self.session.comparison
        rows = c.rows if c is not None else ()
        if rows and [_identity(r) for r in rows] == [_identity(r) for r in self.rows]:
            # The same rows with new figures (the plan was edited): an open pairing combo stays open.
            self.rows = rows
            self.dataChanged.emit(self.index(0, 0), self.index(len(rows), COLUMNS - 1))
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMNS - 1)
            return
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    @property
    def total_row(self) -> int:
        return len(self.rows)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() or not self.rows else len(self.rows) + 1

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < COLUMNS:
            return None
        c = self.session.comparison
        unit = c.unit.label if c is not None else ""
        if role == Qt.ItemDataRole.DisplayRole:
            # Two lines: the figures are narrower than their names, and the columns must fit a half window.
            return [
                "Component",
                "After\nname",
                f"Before\n({unit})",
                f"After\n({unit})",
                "Planned\nk",
                f"Promised\n({unit})",
                "Measured\nk",
                "Verdict",
            ][section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _TIPS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and BEFORE <= section <= MEASURED:
            return _RIGHT
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == AFTER_NAME and index.row() < len(self.rows) and self.rows[index.row()].before is not None:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() > len(self.rows) or not self.rows:
            return None
        row, col = index.row(), index.column()
        if row == len(self.rows):
            return self._total(col, role)
        r = self.rows[row]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            edit = role == Qt.ItemDataRole.EditRole
            return self._text(r, col, edit, POINT if edit else locale_numbers())
        if role == Qt.ItemDataRole.TextAlignmentRole and BEFORE <= col <= MEASURED:
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole and col == VERDICT:
            return QColor(STATUS_COLOURS[r.status])
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == AFTER_NAME and not r.renamed:
                return QColor("#777")
            if col == MEASURED and r.status is Status.REGRESSED:
                return QColor(ERROR)
        if role == Qt.ItemDataRole.FontRole and col == AFTER_NAME and r.renamed:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(r, col)
        if role == CHOICES_ROLE and r.before is not None:
            choices = [(name, name) for name in self.session.choices(r.name)]
            if r.after_name is None:
                choices.insert(0, ("(not paired)", UNPAIR))
            elif self.session.hand_paired(r.name):
                choices.append(("(unpair: match by name)", UNPAIR))
            return choices
        if role == STATUS_ROLE:
            return r.status.value
        return None

    def _text(self, r: ComponentComparison, col: int, edit: bool, n: Numbers = POINT) -> str:
        if col == NAME:
            return r.name
        if col == AFTER_NAME:
            if edit:
                return r.after_name or UNPAIR
            if r.before is None:
                return "(new)"
            if r.after_name is None:
                return "(not measured)"
            return r.after_name if r.renamed else "(same name)"
        if col in FIGURE_KEYS:
            return row_figures(r, n)[FIGURE_KEYS[col]]
        return r.status.label

    def _tip(self, r: ComponentComparison, col: int) -> str | None:
        if col == VERDICT:
            return STATUS_TIPS[r.status]
        if col == AFTER_NAME and r.before is not None:
            how = "paired by hand" if self.session.hand_paired(r.name) else "matched by name"
            now = f"{how} with “{r.after_name}”" if r.after_name else "not found in the after profile"
            return f"{now}. Double-click or press F2 to pair it with another after component."
        if col == PLANNED and r.optimizations:
            return "Planned by: " + ", ".join(r.optimizations)
        if col == MEASURED:
            return measured_tip(r, locale_numbers())
        if col == NAME:
            return r.name
        return None

    def _total(self, col: int, role: int) -> Any:
        c = self.session.comparison
        if c is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if col == NAME:
                return "Total"
            if col == VERDICT:
                return c.verdict.value
            return total_figures(c, locale_numbers()).get(FIGURE_KEYS.get(col, ""), "")
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and BEFORE <= col <= MEASURED:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                PLANNED: "Predicted S: the plan's combined speedup",
                PROMISED: "The after total the plan promised",
                MEASURED: "Measured S = before total ÷ after total",
                VERDICT: "The measured after total against the promised one: short of the plan, better, or as planned",
            }.get(col)
        return None

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not (self.flags(index) & Qt.ItemFlag.ItemIsEditable):
            return False
        r = self.rows[index.row()]
        after = str(value or UNPAIR)
        if after == (r.after_name or UNPAIR):
            return False
        # Applied by the session after this call returns: a pairing can add and remove rows.
        self.pairRequested.emit(r.name, after)
        return True


def _identity(r: ComponentComparison) -> tuple[str, str | None, bool]:
    return r.name, r.after_name, r.before is None


_TIPS = [
    "The component as the before profile names it (an added one: as the after profile does)",
    "How the after profile names it; double-click or F2 to pair a renamed component by hand",
    "Measured before the change",
    "Measured after the change, in the before profile's unit",
    "Predicted k: the product of the enabled optimizations' k on it (1× when the plan leaves it alone)",
    "The after-time the plan promised: before ÷ planned k",
    "Measured k = before ÷ after",
    VERDICT_TIP,
]
