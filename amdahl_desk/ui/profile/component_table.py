"""The components spreadsheet as a Qt item model over the document's profile."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from ...model.analysis import Analysis
from ...model.errors import ProfileError
from ...model.objective_specs import objectives_text, parse_objectives
from ...model.profile import Component, Scaling
from ...model.values import ParseError, parse_time
from ...present.cells import DASH, exact_text, new_time_tip, share_cell, share_tip, time_cell
from ...present.colours import GUESSED
from ...present.columns import COMPONENT_SHORT_TITLES, WINDOW_COMPONENT_COLUMNS, component_titles
from ...present.numbers import POINT, Numbers
from ...present.tones import TONE_COLOURS, Tone
from ...present.trace_plan import (
    COMPONENT_TIPS,
    component_cells,
    component_tip,
    edited_since_import,
    new_time_path_tip,
)
from ..core.cell_refusal import CellError, refuse_edit
from ..core.change import Change, Move, RowMove
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.state import FIGURES, Aspect
from ..core.wrapping_header import SHORT_TITLE_ROLE

NAME, TIME, SHARE, SCALING, NEW_TIME, GROUP, OBJECTIVES, NOTES, ON_PATH, SLACK, K_MOVES, TIME_LOW, TIME_HIGH = (
    COLUMNS
) = range(13)
PATH_COLUMNS = (ON_PATH, SLACK, K_MOVES)  # on the trace's critical path: a trace-based profile only
RANGE_COLUMNS = (TIME_LOW, TIME_HIGH)  # a time's range: shown with ranges (an import's step spread, typed ones)
NUMBER_COLUMNS = frozenset({TIME, SHARE, NEW_TIME, *PATH_COLUMNS, *RANGE_COLUMNS})
EDITABLE = {NAME, TIME, SCALING, GROUP, OBJECTIVES, NOTES, TIME_LOW, TIME_HIGH}
SHARE_ROLE = Qt.ItemDataRole.UserRole + 1
ModelIndex = QModelIndex | QPersistentModelIndex
# Bound once: data() runs for every role of every cell painted, and each Qt.X.Y lookup costs 0.2 µs.
_DISPLAY, _EDIT, _ALIGN, _FOREGROUND, _TIP = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.EditRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.ToolTipRole,
)
_ROLES = frozenset({_DISPLAY, _EDIT, _ALIGN, _FOREGROUND, _TIP, SHARE_ROLE})
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FASTER, _SLOWER, _GUESSED = QColor(TONE_COLOURS[Tone.GOOD]), QColor(TONE_COLOURS[Tone.BAD]), QColor(GUESSED)
GUESS_MARK = "?"  # after a scaling class the import guessed, until a person chooses one
GUESSED_TIP = (
    "“{scaling}” is the import's guess: the trace does not say how this time scales. "
    "Choose a class to confirm it or change it; until then the summary says P rests on guesses."
)
_FLAGS = tuple(
    Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | (Qt.ItemFlag.ItemIsEditable if col in EDITABLE else Qt.ItemFlag.NoItemFlags)
    for col in COLUMNS
)
_SHARE_ROLES = [Qt.ItemDataRole.DisplayRole, SHARE_ROLE]
_RUNS = 32  # more rows changed than this: one signal for the range they span


class ComponentTableModel(QAbstractTableModel):
    """Rows are components plus one empty row at the end: typing there adds a component."""

    editRejected = Signal(int, int, str, str, bool)  # row, column, message, text refused, single-cell edit
    editAccepted = Signal()  # a typed or pasted edit was taken

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._appended_at: int | None = None
        self._announced: Analysis | None = None  # the analysis the computed columns were last announced for
        self._path_edited: bool | None = None  # whether the path columns showed "—" for an edited table
        doc.rowsMoving.connect(self._rows_moving)
        doc.changed.connect(self._changed)

    # -- reading -----------------------------------------------------------
    @property
    def components(self) -> list[Component]:
        return self.doc.profile.components

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.components) + 1

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole:
                return str(section + 1) if section < len(self.components) else "*"
            if role == Qt.ItemDataRole.ToolTipRole and section >= len(self.components):
                return "Type a name or a time here to add a component"
            return None
        unit = self.doc.unit.label
        if role == Qt.ItemDataRole.DisplayRole:
            return component_titles(WINDOW_COMPONENT_COLUMNS, unit)[section]
        if role == SHORT_TITLE_ROLE:  # where the table is narrow; the whole title leads the tooltip
            return COMPONENT_SHORT_TITLES[section].replace("{unit}", unit)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _HEADER_TIPS[section].replace("{unit}", unit).replace("{0.9}", locale_numbers().number(0.9))
        if role == Qt.ItemDataRole.TextAlignmentRole and section in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        return _FLAGS[index.column()] if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:  # a repaint asks ~10 roles per cell; most are none of ours
            return None
        row, comps = index.row(), self.doc.profile.components
        if not 0 <= row < len(comps):  # the empty row at the end, or an invalid index (row -1)
            return "Type here to add a component" if role == _TIP and row >= 0 else None
        col = index.column()
        comp = comps[row]
        a = self.doc.analysis
        if role in (_DISPLAY, _EDIT):
            if role == _EDIT and col in (TIME, SCALING):  # what an editor starts from: the plain value
                return exact_text(comp.time) if col == TIME else comp.scaling.value
            if role == _EDIT and col in RANGE_COLUMNS:
                bound = comp.time_low if col == TIME_LOW else comp.time_high
                return "" if bound is None else exact_text(bound)
            return self._text(comp, row, col, a, locale_numbers() if role == _DISPLAY else POINT)
        if role == _ALIGN:
            return _RIGHT if col in NUMBER_COLUMNS else None
        if role == SHARE_ROLE:
            return float(a.fractions[row]) if a is not None else 0.0
        if role == _FOREGROUND:
            if col == SCALING:
                return _GUESSED if comp.scaling_guessed else None
            if col != NEW_TIME or a is None or a.component_speedup[row] == 1.0:
                return None
            return _FASTER if a.component_speedup[row] > 1 else _SLOWER
        if col == SCALING and comp.scaling_guessed:
            return GUESSED_TIP.format(scaling=comp.scaling.value)
        if col == NEW_TIME and a is not None and a.component_speedup[row] != 1:
            tip = new_time_tip(comp, row, a, self.doc.unit.label, locale_numbers())
            path = new_time_path_tip(
                self.doc.trace.figures, self.doc.profile, comp.name, self.doc.unit, locale_numbers()
            )
            return f"{tip}: {path}" if path else tip
        if col == SHARE and a is not None:
            return share_tip(comp, row, a, self.doc.unit.label, locale_numbers())
        if col == NOTES and comp.notes:
            return comp.notes
        if col in PATH_COLUMNS:
            figures, unit = self.doc.trace.figures, self.doc.unit
            edited = edited_since_import(figures, None if a is None else a.baseline_total, unit)
            return component_tip(figures, comp, unit, locale_numbers(), edited=edited)
        return None

    def _text(self, comp: Component, row: int, col: int, a: Analysis | None, n: Numbers = POINT) -> str:
        """What a cell shows, in ``n``'s separators (the desktop's on screen; the files' for an editor or a copy)."""
        if col == NAME:
            return comp.name
        if col == TIME:
            return time_cell(comp.time, n)
        if col == SHARE:
            return share_cell(float(a.fractions[row]), n) if a is not None else DASH
        if col == SCALING:
            return comp.scaling.value + GUESS_MARK if comp.scaling_guessed else comp.scaling.value
        if col == NEW_TIME:
            return time_cell(float(a.new_times[row]), n) if a is not None else DASH
        if col == GROUP:
            return comp.group
        if col == OBJECTIVES:
            return objectives_text(comp.objectives)
        if col in PATH_COLUMNS:
            figures, unit = self.doc.trace.figures, self.doc.unit
            edited = edited_since_import(figures, None if a is None else a.baseline_total, unit)
            return component_cells(figures, [comp], unit, n, edited=edited)[0][col - ON_PATH]
        if col in RANGE_COLUMNS:
            bound = comp.time_low if col == TIME_LOW else comp.time_high
            return "" if bound is None else time_cell(bound, n)
        return comp.notes

    def _paths_changed(self) -> None:
        last = len(self.components) - 1
        if last >= 0:
            self.dataChanged.emit(self.index(0, ON_PATH), self.index(last, K_MOVES))

    def texts(self, col: int, rows: Iterable[int]) -> set[str]:
        """The texts that ``rows`` show in column ``col`` (the columns' fit reads the widest rows')."""
        comps, a, n = self.components, self.doc.analysis, locale_numbers()
        return {self._text(comps[r], r, col, a, n) for r in rows}

    # -- writing -----------------------------------------------------------
    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        return self.set_cells(
            [(index.row(), index.column(), "" if value is None else str(value))],
            "Edit " + self.headerData(index.column(), Qt.Orientation.Horizontal).split(" (")[0].lower(),
        )

    def set_cells(self, edits: Sequence[tuple[int, int, str]], text: str) -> bool:
        """Ask the document to apply text to cells as one undoable step; rows past the end become new components.

        On a bad value nothing changes and ``editRejected`` says which cell and why.
        """
        try:
            changes, added = self._parse(edits)
            self.doc.edit_components(changes, text, added, cell=(edits[0][0], edits[0][1]) if len(edits) == 1 else None)
        except (CellError, ProfileError) as exc:
            column = {"name": NAME, "objectives": OBJECTIVES, "time_low": TIME_LOW, "time_high": TIME_HIGH}
            refuse_edit(self.editRejected, edits, exc, lambda f: column.get(f or "", TIME), self._takes, self.header)
            return False
        self.editAccepted.emit()
        return True

    def header(self, col: int) -> str:
        """A column's name without its unit: "Time"."""
        return str(self.headerData(col, Qt.Orientation.Horizontal)).split(" (")[0]

    def _takes(self, row: int, col: int, value: str) -> bool:
        """Whether one cell, alone, takes ``value`` (a refused paste names its other refused cells)."""
        if col not in EDITABLE:
            return True
        existing = row < len(self.components)
        if not existing and (col == NAME or (col == TIME and not value.strip())):
            return True  # a new row's name is checked with the row; its time may wait
        try:
            self._with_cell(self.components[row] if existing else Component("new", 0.0), row, col, value)
        except CellError:
            return False
        return True

    def _parse(self, edits: Sequence[tuple[int, int, str]]) -> tuple[dict[int, Component], list[Component]]:
        """Typed text as component values: rows changed, and new rows for text past the end."""
        comps = self.components
        n = len(comps)
        changed: dict[int, Component] = {}
        added: dict[int, dict[int, str]] = {}
        for row, col, value in edits:
            if col not in EDITABLE:
                continue
            if row >= n:
                added.setdefault(row, {})[col] = value
                continue
            changed[row] = self._with_cell(changed.get(row, comps[row]), row, col, value)
        new_rows = [
            self._new_component(row, cells)
            for row, cells in sorted(added.items())
            if any(v.strip() for v in cells.values())
        ]
        return changed, new_rows

    def _with_cell(self, comp: Component, row: int, col: int, value: str) -> Component:
        try:
            if col == NAME:
                name = value.strip()
                if not name:
                    raise CellError(row, col, "a component needs a name; to delete the row, use Delete Rows")
                return comp._replace(name=name)
            if col == TIME:
                if not value.strip():
                    raise CellError(row, col, "a component needs a time; type 0 for none")
                return comp.with_time(parse_time(value, self.doc.unit, locale_decimal()))
            if col == SCALING:  # a class a person gives is no longer a guess, even the one guessed
                return comp._replace(
                    scaling=Scaling.parse(value.strip().removesuffix(GUESS_MARK)), scaling_guessed=False
                )
            if col == GROUP:
                return comp._replace(group=value.strip())
            if col == OBJECTIVES:
                return comp._replace(objectives=parse_objectives(value))
            if col == NOTES:
                return comp._replace(notes=value)
            if col in RANGE_COLUMNS:  # empty: no range on that side
                bound = parse_time(value, self.doc.unit, locale_decimal()) if value.strip() else None
                return comp._replace(time_low=bound) if col == TIME_LOW else comp._replace(time_high=bound)
        except ParseError as exc:
            raise CellError(row, col, str(exc)) from None
        return comp

    def _new_component(self, row: int, cells: dict[int, str]) -> Component:
        name = cells.get(NAME, "").strip()
        if not name:
            raise CellError(row, NAME, "a new component needs a name; type it in the Component column first")
        comp = Component(name, 0.0)
        for col, value in cells.items():
            if col == TIME and not value.strip():
                continue
            if col != NAME:
                comp = self._with_cell(comp, row, col, value)
        return comp

    def add_component(self, row: int, component: Component, text: str = "Insert component") -> None:
        self.doc.insert_components(row, [component], text)

    # -- following the document --------------------------------------------
    def _rows_moving(self, move: RowMove) -> None:
        if move.move is Move.INSERT:
            self._inserted() if move.done else self._about_to_insert(move.first, move.count)
        elif move.move is Move.REMOVE:
            if move.done:
                self.endRemoveRows()
            else:
                self.beginRemoveRows(QModelIndex(), move.first, move.first + move.count - 1)
        elif move.move is Move.REORDER:
            (self.layoutChanged if move.done else self.layoutAboutToBeChanged).emit()

    def _changed(self, change: Change) -> None:
        if change.reset:
            self.beginResetModel()
            self.endResetModel()
        elif change.rows is None:
            self._rows_changed(range(len(self.components)))
        else:
            self._rows_changed(change.rows)
        if Aspect.SETTINGS in change:  # the unit in the time columns' titles
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, TIME, TIME_HIGH)
        if change.touches(FIGURES):
            self._computed_changed()
        if Aspect.TRACE in change:
            self._paths_changed()

    def _about_to_insert(self, row: int, count: int) -> None:
        if row == len(self.components):
            # Appending: the empty row the user typed in becomes the first new component and the new rows
            # come after it, so an editor open on that row (Tab from the name to the time) stays on it.
            self._appended_at = row
            self.beginInsertRows(QModelIndex(), row + 1, row + count)
        else:
            self._appended_at = None
            self.beginInsertRows(QModelIndex(), row, row + count - 1)

    def _inserted(self) -> None:
        self.endInsertRows()
        if self._appended_at is not None:
            row = self._appended_at
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
            self.headerDataChanged.emit(Qt.Orientation.Vertical, row, self.rowCount() - 1)

    def _rows_changed(self, rows: Sequence[int]) -> None:
        if rows:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), self.columnCount() - 1))

    def _computed_changed(self) -> None:
        """Share and new time depend on every row: announce the rows whose value moved (an edit moves every
        share, a tick or a k step the new times of its targets only); views repaint what shows of them."""
        analysis, before = self.doc.analysis, self._announced
        self._announced = analysis
        edited = edited_since_import(
            self.doc.trace.figures, None if analysis is None else analysis.baseline_total, self.doc.unit
        )
        if self._path_edited is not None and self._path_edited != edited:  # the path columns turn to "—" or back
            self._paths_changed()
        self._path_edited = edited
        if analysis is None or before is None or len(before.times) != len(analysis.times):
            last = self.rowCount() - 1
            self.dataChanged.emit(self.index(0, SHARE), self.index(last, SHARE), _SHARE_ROLES)
            self.dataChanged.emit(self.index(0, NEW_TIME), self.index(last, NEW_TIME))
            return
        # Compared row by row: a value that stays in its row shows the same, whatever moved around it.
        self._announce_rows(SHARE, np.flatnonzero(analysis.fractions != before.fractions), _SHARE_ROLES)
        moved = (analysis.new_times != before.new_times) | (analysis.component_speedup != before.component_speedup)
        self._announce_rows(NEW_TIME, np.flatnonzero(moved), [])

    def _announce_rows(self, col: int, rows: np.ndarray, roles: list[int]) -> None:
        """One signal per run of rows; many rows as one range (views look at the rows they show)."""
        if not rows.size:
            return
        if rows.size > _RUNS:
            self.dataChanged.emit(self.index(int(rows[0]), col), self.index(int(rows[-1]), col), roles)
            return
        breaks = np.flatnonzero(np.diff(rows) > 1)
        for first, last in zip(
            rows[np.r_[0, breaks + 1]].tolist(), rows[np.r_[breaks, rows.size - 1]].tolist(), strict=True
        ):
            self.dataChanged.emit(self.index(first, col), self.index(last, col), roles)


_HEADER_TIPS = [
    "Component name: unique; renaming keeps the optimizations that target it",
    'Measured baseline time in {unit}. Type a number, or a time with a unit ("{0.9} s", "250 us")',
    "Share of the baseline total: time ÷ Σ times. This is the f of Amdahl's law for an optimization of this row",
    "serial: does not scale with GPUs; parallel: divides by N; communication: follows the overhead model",
    "Time after the enabled optimizations: time ÷ (product of their k). Σ of this column is the new total",
    "Free grouping label",
    'The objectives this component belongs to, separated by ";" (TTFT; End to end). End to end holds every one',
    "Free notes",
    *COMPONENT_TIPS,
    "The fastest this time is measured or expected to be, in {unit} (an import: the fastest step). Empty: no range",
    "The slowest this time is measured or expected to be, in {unit} (an import: the slowest step). Empty: no range",
]
