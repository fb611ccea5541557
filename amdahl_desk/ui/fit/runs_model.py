"""The Measurements spreadsheet as a Qt item model over the document's runs: typed text in, per-run figures out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from ...model.errors import ProfileError
from ...model.measurement_table import MeasurementTable
from ...model.measurements import MeasureKind, Measurement, parse_throughput, parse_worker_count
from ...model.numbers import Decimal
from ...model.units import TimeUnit, convert
from ...model.values import ParseError, parse_time_text, parse_unit
from ...present.cells import exact_text, run_cell, run_figure_cells, run_tip
from ...present.numbers import POINT, Numbers
from ..core.cell_refusal import CellError, refuse_edit
from ..core.change import Move, RowMove
from ..core.document import Document
from ..core.locale_text import locale_numbers

COUNT, VALUE, LABEL, NOTES, SPEEDUP, EFFICIENCY, KARP_FLATT = range(7)
EDITABLE = (COUNT, VALUE, LABEL, NOTES)  # first, in the order a CSV of runs has them, so a pasted block lands whole
NAN = math.nan
WAITING = QColor(255, 228, 228)
ModelIndex = QModelIndex | QPersistentModelIndex


_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EDITABLE_FLAGS = _FLAGS | Qt.ItemFlag.ItemIsEditable


def is_blank(row: Measurement) -> bool:
    return math.isnan(row.n) and math.isnan(row.value) and not row.label.strip() and not row.notes.strip()


class MeasurementTableModel(QAbstractTableModel):
    """Rows are the runs plus one empty row at the end: typing there adds a run."""

    editRejected = Signal(int, int, str, str, bool)  # row, column, message, text refused, single-cell edit
    editAccepted = Signal()  # a typed or pasted edit was taken

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc
        self._plan: tuple[str, int, int] = ("same", 0, 0)
        self._fit_rows: dict[int, int] = {}  # table row → index of the run in the fit's points
        self._fit_revision = -1
        self._decimals: dict[int, Decimal | None] = {}  # each column's decimal separator while an edit is parsed
        doc.rowsMoving.connect(self._rows_moving)

    def _rows_moving(self, move: RowMove) -> None:
        if move.move is Move.RUNS and move.table is not None:
            self._changed(move.table) if move.done else self._about_to_change(move.table)

    # -- reading -----------------------------------------------------------
    @property
    def table(self) -> MeasurementTable:
        return self.doc.measurements

    @property
    def rows(self) -> tuple[Measurement, ...]:
        return self.doc.measurements.rows

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows) + 1

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 7

    def value_header(self) -> str:
        t = self.table
        base = "Time" if t.kind is MeasureKind.TIME else "Throughput"
        return f"{base} ({t.unit})" if t.unit else base

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole:
                return str(section + 1) if section < len(self.rows) else "*"
            if role == Qt.ItemDataRole.ToolTipRole and section >= len(self.rows):
                return "Type N or a time here to add a run"
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            names = [self.table.count_name or "N", self.value_header(), "Label", "Notes"]
            return (names + ["Speedup", "Efficiency", "Karp–Flatt e"])[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _HEADER_TIPS[section].replace("{0.6}", locale_numbers().number(0.6))
        if role == Qt.ItemDataRole.TextAlignmentRole and section in (COUNT, VALUE, SPEEDUP, EFFICIENCY, KARP_FLATT):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        # Asked once per cell a selection covers (a pasted block of thousands of runs): no flag arithmetic here.
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return _EDITABLE_FLAGS if index.column() in EDITABLE else _FLAGS

    def _fit_row(self, row: int) -> int | None:
        """Where a table row's run is in the fit's points (only complete runs are fitted)."""
        if self._fit_revision != self.doc.revision:
            self._fit_revision = self.doc.revision
            complete = [i for i, r in enumerate(self.rows) if not (math.isnan(r.n) or math.isnan(r.value))]
            self._fit_rows = {r: i for i, r in enumerate(complete)}
        return self._fit_rows.get(row)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if row >= len(self.rows):
            return "Type here to add a run" if role == Qt.ItemDataRole.ToolTipRole else None
        run = self.rows[row]
        if role == Qt.ItemDataRole.EditRole:
            return (
                exact_text(run.n)
                if col == COUNT
                else exact_text(run.value)
                if col == VALUE
                else self._shown(run, row, col)
            )
        if role == Qt.ItemDataRole.DisplayRole:
            return self._shown(run, row, col, locale_numbers())
        if role == Qt.ItemDataRole.TextAlignmentRole and col not in (LABEL, NOTES):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        waiting = (col == COUNT and math.isnan(run.n)) or (col == VALUE and math.isnan(run.value))
        if role == Qt.ItemDataRole.BackgroundRole and waiting:
            return WAITING
        if role == Qt.ItemDataRole.ToolTipRole:
            if waiting:
                what = "its N" if col == COUNT else f"its {self.table.kind.value}"
                return f"This run needs {what} before the fit can use it"
            return self._tip(run, row, col)
        return None

    def _shown(self, run: Measurement, row: int, col: int, n: Numbers = POINT) -> str:
        """A cell's text in ``n``'s separators (the desktop's as shown; the files' for an editor or a copy)."""
        if col == COUNT:
            return run_cell(run.n, n)
        if col == VALUE:
            return run_cell(run.value, n)
        if col == LABEL:
            return run.label
        if col == NOTES:
            return run.notes
        i = self._fit_row(row)
        if i is None:
            return ""
        points = self.doc.fit.points
        cells = run_figure_cells(float(points.speedup[i]), float(points.efficiency[i]), float(points.karp_flatt[i]), n)
        return cells[(SPEEDUP, EFFICIENCY, KARP_FLATT).index(col)]

    def _tip(self, run: Measurement, row: int, col: int) -> str | None:
        i = self._fit_row(row)
        if col == NOTES and run.notes:
            return run.notes
        if i is None or col not in (SPEEDUP, EFFICIENCY, KARP_FLATT):
            return None
        fit = self.doc.fit
        n0 = fit.baseline_n or 1.0
        column = {SPEEDUP: "speedup", EFFICIENCY: "efficiency", KARP_FLATT: "karp_flatt"}[col]
        return run_tip(column, n0, run.n / n0, float(fit.points.speedup[i]), locale_numbers())

    # -- writing -----------------------------------------------------------
    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        header = str(self.headerData(index.column(), Qt.Orientation.Horizontal)).split(" (")[0]
        return self.set_cells([(index.row(), index.column(), "" if value is None else str(value))], f"Edit {header}")

    def set_cells(
        self,
        edits: Sequence[tuple[int, int, str]],
        text: str,
        decimals: Mapping[int, Decimal | None] | None = None,
        **fmt: Any,
    ) -> bool:
        """Ask the document to apply text to cells as one undoable step; rows past the end become new runs.

        ``decimals`` is each column's decimal separator when the edit decided it (a paste, as a file's column);
        ``fmt`` may change the table's kind, unit or count name in the same step (a pasted header).
        Rows left with nothing in them go. On a bad value nothing changes and ``editRejected`` says why.
        """
        self._decimals = dict(decimals or {})
        try:
            table = replace(self.table, **fmt) if fmt else self.table
            self.doc.edit_measurements(self._parsed(table, edits), text)
        except (CellError, ProfileError) as exc:
            refuse_edit(
                self.editRejected, edits, exc, lambda field: COUNT if field == "n" else VALUE, self._takes, self.header
            )
            return False
        self.editAccepted.emit()
        return True

    def header(self, col: int) -> str:
        """A column's name without its unit: "Time"."""
        return str(self.headerData(col, Qt.Orientation.Horizontal)).split(" (")[0]

    def _takes(self, row: int, col: int, value: str) -> bool:
        """Whether one cell, alone, takes ``value`` (a refused paste names its other refused cells)."""
        try:
            if col == COUNT:
                self._count(row, value)
            elif col == VALUE:
                self._value(self.table, row, value)
        except CellError:
            return False
        return True

    def _parsed(self, table: MeasurementTable, edits: Sequence[tuple[int, int, str]]) -> MeasurementTable:
        rows = list(table.rows)
        # Each row's fields gathered first and its run made once: a paste of thousands of runs made a run per cell.
        changes: dict[int, dict[str, Any]] = {}
        for row, col, value in edits:
            if col not in EDITABLE:
                continue
            fields = changes.setdefault(row, {})
            if col == COUNT:
                fields["n"] = self._count(row, value)
            elif col == VALUE:
                fields["value"], table = self._value(table, row, value)
            elif col == LABEL:
                fields["label"] = value.strip()
            else:
                fields["notes"] = value
        if changes:
            rows.extend(Measurement(NAN, NAN) for _ in range(len(rows), max(changes) + 1))
        for row, fields in changes.items():
            old = rows[row]
            rows[row] = Measurement(
                fields.get("n", old.n),
                fields.get("value", old.value),
                fields.get("label", old.label),
                fields.get("notes", old.notes),
            )
        kept = tuple(r for i, r in enumerate(rows) if i not in changes or not is_blank(r))
        return replace(table, rows=kept)

    def _count(self, row: int, text: str) -> float:
        if not text.strip():
            return NAN
        try:
            return parse_worker_count(text, self._decimals.get(COUNT))
        except ParseError as exc:
            raise CellError(row, COUNT, str(exc)) from None

    def _value(self, table: MeasurementTable, row: int, text: str) -> tuple[float, MeasurementTable]:
        """The number typed, in the table's unit; a unit typed into a table without one becomes its unit."""
        if not text.strip():
            return NAN, table
        try:
            decimal = self._decimals.get(VALUE)
            if table.kind is MeasureKind.THROUGHPUT:
                value, unit = parse_throughput(text, decimal)
                if unit and not table.unit:
                    table = replace(table, unit=unit)
                return value, table
            value, written = parse_time_text(text, decimal)
        except ParseError as exc:
            raise CellError(row, VALUE, str(exc)) from None
        if written is None:
            return value, table
        ours = _time_unit(table.unit)
        if ours is not None:
            return convert(value, written, ours), table
        if not table.unit:
            return value, replace(table, unit=written.label)
        raise CellError(
            row,
            VALUE,
            f'"{text.strip()}" is in {written.label}, but this table counts in {table.unit}; type a bare number',
        )

    def remove_rows(self, rows: Sequence[int]) -> bool:
        chosen = {r for r in rows if 0 <= r < len(self.rows)}
        if not chosen:
            return False
        kept = tuple(r for i, r in enumerate(self.rows) if i not in chosen)
        text = f"Delete {len(chosen)} run{'s' if len(chosen) > 1 else ''}"
        return self.doc.edit_measurements(replace(self.table, rows=kept), text)

    def sort_by(self, col: int, descending: bool = False) -> bool:
        """Reorder the runs by a column (empty cells last); undoable."""
        rows = list(self.rows)
        i_points = {r: self._fit_row(r) for r in range(len(rows))}
        fit = self.doc.fit

        def key(i: int) -> tuple[bool, Any]:
            r = rows[i]
            if col in (LABEL, NOTES):
                text = r.label if col == LABEL else r.notes
                return (not text, text.casefold())
            if col in (COUNT, VALUE):
                v = r.n if col == COUNT else r.value
            else:
                j = i_points[i]
                arrays = {SPEEDUP: fit.points.speedup, EFFICIENCY: fit.points.efficiency}
                v = NAN if j is None else float(arrays.get(col, fit.points.karp_flatt)[j])
            return (math.isnan(v), -v if descending and not math.isnan(v) else v)

        order = sorted(range(len(rows)), key=key)
        if descending and col in (LABEL, NOTES):
            order = [i for i in reversed(order) if key(i)[1]] + [i for i in order if not key(i)[1]]
        header = str(self.headerData(col, Qt.Orientation.Horizontal))
        return self.doc.edit_measurements(replace(self.table, rows=tuple(rows[i] for i in order)), f"Sort by {header}")

    def set_format(self, text: str, **fmt: Any) -> bool:
        """Another kind, unit or count name for the runs (the numbers stay as typed)."""
        try:
            return self.doc.edit_measurements(replace(self.table, **fmt), text)
        except ProfileError:
            return False

    # -- following the document --------------------------------------------
    def _about_to_change(self, new: MeasurementTable) -> None:
        old = self.table
        n_old, n_new = len(old.rows), len(new.rows)
        fmt = (old.kind, old.unit, old.count_name)
        if n_old == n_new:
            self._plan = ("same", 0, 0)
        elif n_new > n_old and MeasurementTable(new.rows[:n_old], *fmt) == old:
            self._plan = ("append", n_old, n_new - 1)  # before the empty row, which stays last
            self.beginInsertRows(QModelIndex(), n_old, n_new - 1)
        elif n_new < n_old and MeasurementTable(old.rows[:n_new], *fmt) == MeasurementTable(new.rows, *fmt):
            self._plan = ("truncate", n_new, n_old - 1)
            self.beginRemoveRows(QModelIndex(), n_new, n_old - 1)
        else:
            self._plan = ("reset", 0, 0)
            self.beginResetModel()

    def _changed(self, _old: MeasurementTable) -> None:
        kind = self._plan[0]
        if kind == "append":
            self.endInsertRows()
        elif kind == "truncate":
            self.endRemoveRows()
        elif kind == "reset":
            self.endResetModel()
            return
        # Speedups, efficiencies and e depend on every run (the baseline may have moved): one signal for all.
        last = self.rowCount() - 1
        self.dataChanged.emit(self.index(0, 0), self.index(last, self.columnCount() - 1))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, last)


def _time_unit(text: str) -> TimeUnit | None:
    try:
        return parse_unit(text) if text.strip() else None
    except ParseError:
        return None


_HEADER_TIPS = [
    "How many GPUs, workers, nodes, threads or users the run had: a number above 0",
    'The measured runtime of the fixed job ("560 ms", "{0.6} s"), or the throughput (work per unit of time)',
    "A name for the run",
    "Free notes",
    "Speedup against the baseline N0, the smallest N measured: T(N0)/T(N), or X(N)/X(N0) for throughputs",
    "Speedup ÷ (N/N0): 100% is perfect scaling",
    "Karp–Flatt experimentally determined serial fraction e = (1/S − 1/p)/(1 − 1/p), p = N/N0",
]
