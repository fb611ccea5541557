"""The Measurements table from a CSV, a workbook's Measurements sheet (or its first), and back to rows."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..model.errors import Problem, ProfileError
from ..model.measurements import (
    MAX_RUNS,
    TABLE,
    MeasureKind,
    Measurement,
    Measurements,
    count_word,
    measurement_problems,
    parse_throughput,
    parse_worker_count,
    too_many_runs,
)
from ..model.numbers import Decimal
from ..model.units import UNITS_ACCEPTED, TimeUnit, convert
from ..model.values import ParseError
from .cells import SPREADSHEET_ERROR, bounded_text, cell_refusal, cell_time, column_decimal, scale_bare_times
from .csv_table import csv_grid, escape_field
from .grid import CellValue, Grid, StoredDuration, as_text, is_empty, shown
from .headers import HEADER_SCAN_ROWS, header_scale, unit_in_header
from .sheet_layout import check_table

CSV_SUFFIXES = (".csv", ".tsv", ".txt")
_MEASURE_WORDS = {"time": MeasureKind.TIME, "runtime": MeasureKind.TIME, "throughput": MeasureKind.THROUGHPUT}
_LABEL_WORDS = {
    "label": "label",
    "run": "label",
    "name": "label",
    "notes": "notes",
    "note": "notes",
    "comment": "notes",
}
_EXPECTED = (
    "a header row with a count column (GPUs, N, Workers, Nodes, Threads, Users, Concurrency or Load) "
    "and a Time or Throughput column"
)


@dataclass
class LoadedMeasurements:
    """Measurements read from a file, with where each row came from so a later problem can name its cell."""

    measurements: Measurements
    source: str
    warnings: list[Problem] = field(default_factory=list)
    grid: Grid | None = None
    grid_rows: list[int] = field(default_factory=list)
    columns: dict[str, int] = field(default_factory=dict)
    header_row: int = 0

    def locate(self, problem: Problem) -> Problem:
        """The problem placed on the sheet: its cell for a row and field, the header row for the whole table."""
        if problem.where or self.grid is None:
            return problem
        if problem.row is not None and problem.row < len(self.grid_rows):
            return problem.located(self.grid.where(self.grid_rows[problem.row], self.columns.get(problem.field or "")))
        return problem.located(self.table_range())

    def table_range(self) -> str:
        """Where the whole table is: ``Measurements!A1:B8``, or ``rows 2–8`` of a CSV."""
        assert self.grid is not None
        last = self.grid_rows[-1] if self.grid_rows else self.header_row
        if self.grid.csv:
            first = self.grid_rows[0] if self.grid_rows else self.header_row
            return f"rows {first + 1}–{last + 1}" if last != first else f"row {first + 1}"
        left, right = min(self.columns.values()), max(self.columns.values())
        return f"{self.grid.sheet}!{self.grid.ref(self.header_row, left)}:{self.grid.ref(last, right)}"


def _split_header(value: CellValue) -> tuple[str, str]:
    """``"Throughput (req/s)"`` → ``("throughput", "req/s")``; the unit keeps its spelling for labels."""
    text = " ".join(as_text(value).replace("_", " ").split())
    match = unit_in_header(text)
    if match:
        return match.group("base").lower(), (match.group("a") or match.group("b") or "").strip()
    return text.lower(), ""


@dataclass(frozen=True)
class MeasurementHeader:
    """A header row of measured runs: where each field is, what N counts and what the runs measure.

    The one vocabulary of a runs table's header: files read by it, and the window's paste with a header row.
    """

    columns: dict[str, int]  # "count" and "value", and "label" and "notes" when the row has them
    count_name: str  # the count's header as written ("GPUs")
    kind: MeasureKind
    unit: str  # the unit the value's header names ("ms", "req/s"), or ""


def measurement_header(row: Sequence[CellValue]) -> MeasurementHeader | None:
    """``row`` read as a header: a count column and a Time or Throughput column (throughput wins), or ``None``."""
    cols: dict[str, int] = {}
    count_name, measures = "", {}
    for c, value in enumerate(row):
        base, unit = _split_header(value)
        if "count" not in cols and count_word(base):
            cols["count"], count_name = c, as_text(value)
        elif base in _MEASURE_WORDS and _MEASURE_WORDS[base] not in measures:
            measures[_MEASURE_WORDS[base]] = (c, unit)
        elif base in _LABEL_WORDS and _LABEL_WORDS[base] not in cols:
            cols[_LABEL_WORDS[base]] = c
    if "count" not in cols or not measures:
        return None
    kind = MeasureKind.THROUGHPUT if MeasureKind.THROUGHPUT in measures else MeasureKind.TIME
    cols["value"], unit = measures[kind]
    return MeasurementHeader(cols, count_name, kind, unit)


def _find_header(grid: Grid) -> tuple[int, dict[str, int], str, MeasureKind, str] | None:
    """Row, columns, the count header as written, the kind and the header's unit; throughput wins over time."""
    for r in range(min(len(grid.rows), HEADER_SCAN_ROWS)):
        found = measurement_header(grid.rows[r])
        if found is not None:
            return r, found.columns, found.count_name, found.kind, found.unit
    return None


def _read_count(value: CellValue, decimal: Decimal | None) -> float:
    if isinstance(value, (bool, dt.date, dt.time, dt.timedelta, StoredDuration)):
        raise ParseError(f'"{shown(value)}" is not a count; expected a number above 0, like 8')
    if isinstance(value, (int, float)):
        return parse_worker_count(repr(float(value)), ".")
    return parse_worker_count(bounded_text(value, "a count"), decimal)


def _read_throughput(value: CellValue, decimal: Decimal | None) -> tuple[float, str]:
    if isinstance(value, (bool, dt.date, dt.time, dt.timedelta, StoredDuration)):
        raise ParseError(f'"{shown(value)}" is not a throughput; expected a number above 0, like 1884')
    if isinstance(value, (int, float)):
        return parse_throughput(repr(float(value)), ".")
    text = bounded_text(value, "a throughput")
    if SPREADSHEET_ERROR.match(text):
        raise ParseError(f"the cell shows the spreadsheet error {text}; fix its formula and save again")
    return parse_throughput(text, decimal)


def read_grid(grid: Grid, source: str) -> LoadedMeasurements:
    """The runs in ``grid``; one :class:`ProfileError` names every bad cell."""
    found = _find_header(grid)
    if found is None:
        first = next((r for r, row in enumerate(grid.rows) if any(not is_empty(v) for v in row)), None)
        where = grid.where(first) if first is not None else ("the file" if grid.csv else grid.sheet)
        what = f"no measurements header in the first {HEADER_SCAN_ROWS} rows; expected {_EXPECTED}"
        raise ProfileError([Problem(what, TABLE, where=where)], source=source)
    header, cols, count_name, kind, header_unit = found
    if len(grid.rows) - header - 1 > MAX_RUNS:  # said before a cell is read: a minute of work saved
        filled = sum(1 for row in grid.rows[header + 1 :] if any(not is_empty(v) for v in row))
        too_many = too_many_runs(filled)
        if too_many is not None:
            raise ProfileError([too_many.located(grid.where(header))], source=source)
    warnings: list[Problem] = []
    book = grid.formulas
    if book is not None and book.has_formulas(grid.sheet):
        from .formula_cells import resolve_column  # formulas computed as for the components' times

        for col in (cols["count"], cols["value"]):
            warnings.extend(replace(p, table=TABLE) for p in resolve_column(grid, book, col, header + 1))
    # Each column decides its decimal separator once, from the cells that show it (as components' times do).
    n_decimal = column_decimal(grid, header + 1, cols["count"])
    v_decimal = column_decimal(grid, header + 1, cols["value"])
    header_time = _time_unit(header_unit) if kind is MeasureKind.TIME else None
    if header_time is not None and (scale := header_scale(grid.cell(header, cols["value"]))) != 1:
        scale_bare_times(grid, header + 1, cols["value"], scale)  # Time (min), Time (h): read in seconds
    found_at: dict[tuple[int, int], Problem] = {}  # (row, column) → problem; sorted, one per cell
    layout: list[Problem] = []  # merged ranges, a second count or time column (files/sheet_layout.py)
    if kind is MeasureKind.TIME and header_unit and header_time is None:
        layout.append(
            Problem(
                f'the header "{shown(grid.cell(header, cols["value"]))}" names the unit "{header_unit}", which is '
                f"not a time unit; expected {UNITS_ACCEPTED}, like Time (ms)",
                TABLE,
                where=grid.where(header, cols["value"]),
            )
        )

    def key_of(value: CellValue) -> str | None:
        base = _split_header(value)[0]
        if count_word(base):
            return "count"
        if _MEASURE_WORDS.get(base) is kind:
            return "value"
        return _LABEL_WORDS.get(base)

    check_table(
        grid,
        header,
        cols,
        key_of,
        lambda where, what: layout.append(Problem(what, TABLE, where=where)),
        lambda where, note: warnings.append(replace(note, table=TABLE, where=where)),
    )

    def problem(r: int, col: int, what: str | Problem) -> None:
        typed = what if isinstance(what, Problem) else Problem(what)
        found_at.setdefault((r, col), replace(typed, table=TABLE, where=grid.where(r, col)))

    raw: list[tuple[int, float, float, TimeUnit | None, str, str]] = []
    width = max(cols.values()) + 1
    for r in range(header + 1, len(grid.rows)):
        cells = list(grid.rows[r]) + [""] * max(0, width - len(grid.rows[r]))
        if all(is_empty(v) for v in cells):
            continue
        n_cell, v_cell = cells[cols["count"]], cells[cols["value"]]
        n = value = float("nan")
        unit: TimeUnit | None = None
        for col, cell in ((cols["count"], n_cell), (cols["value"], v_cell)):
            if is_empty(cell):
                missing = "N" if col == cols["count"] else f"{kind.value}"
                what = grid.why_empty(r, col) or f"no {missing}; every run needs its N and its {kind.value}"
                problem(r, col, what)
        try:
            if not is_empty(n_cell):
                n = _read_count(n_cell, n_decimal)
        except ParseError as exc:
            problem(r, cols["count"], cell_refusal(exc, grid.csv))
        try:
            if is_empty(v_cell):
                pass
            elif kind is MeasureKind.TIME:
                value, unit = cell_time(v_cell, v_decimal)
            else:
                value, written = _read_throughput(v_cell, v_decimal)
                header_unit = header_unit or written
        except ParseError as exc:
            problem(r, cols["value"], cell_refusal(exc, grid.csv))
        label = as_text(cells[cols["label"]]) if "label" in cols else ""
        notes = as_text(cells[cols["notes"]]) if "notes" in cols else ""
        raw.append((r, n, value, unit, label, notes))
    # Times: bare cells are in the header's unit; written units convert to it (or to the first one written).
    table_unit = header_time or next((u for *_, u, _l, _n in raw if u is not None), None)
    rows = []
    for _r, n, value, unit, label, notes in raw:
        if unit is not None and table_unit is not None and value == value:
            value = convert(value, unit, table_unit)
        rows.append(Measurement(n, value, label, notes))
    unit_label = table_unit.label if table_unit is not None else header_unit
    loaded_rows = [r for r, *_ in raw]
    for p in measurement_problems(rows, kind):  # a cell that did not parse is already named
        assert p.row is not None
        problem(loaded_rows[p.row], cols["count"] if p.field == "n" else cols["value"], p.what)
    if found_at or layout:
        raise ProfileError(layout + [found_at[k] for k in sorted(found_at)], source=source)
    m = Measurements(tuple(rows), kind, unit_label, count_name)
    return LoadedMeasurements(m, source, warnings, grid, loaded_rows, cols, header)


def _time_unit(text: str) -> TimeUnit | None:
    from ..model.values import parse_header_unit

    try:
        return parse_header_unit(text)[0] if text else None
    except ParseError:
        return None


def _read_workbook(path: Path) -> LoadedMeasurements:
    from .formula_cells import WorkbookFormulas
    from .workbook import other_sheet, sheet_grid
    from .workbook_sheets import parse_workbook

    parsed = parse_workbook(path, profile_sheets=False)
    book = parsed.book
    try:
        report = parsed.report
        formulas = WorkbookFormulas(
            report.sheet_xml,
            report.full_calc_on_load,
            lambda name: other_sheet(book, name, report.sheet_xml, parsed.time_styles),
            parsed.time_styles,
        )
        try:
            # The Measurements sheet, else the first visible sheet (as for the components).
            grid = sheet_grid(parsed, parsed.lower.get("measurements", parsed.components), path.name, formulas)
        except ProfileError:
            raise
        except Exception as exc:
            raise ProfileError(f"the sheet cannot be read ({exc})", source=path.name) from None
        # Read while the book is open: a formula may refer to any of its sheets.
        return read_grid(grid, path.name)
    finally:
        book.close()


def read_measurements(path: str | Path) -> LoadedMeasurements:
    """Runs from a CSV (by suffix) or an xlsx workbook's Measurements sheet, else its first visible sheet."""
    path = Path(path)
    if not path.exists():
        raise ProfileError("no such file", source=str(path))
    if path.is_dir():
        raise ProfileError("is a folder, not a measurements file", source=str(path))
    if path.suffix.lower() in CSV_SUFFIXES:
        return read_grid(csv_grid(path, f"{_EXPECTED}, and a row per run"), path.name)
    return _read_workbook(path)


def measurement_rows(m: Measurements) -> list[list[object]]:
    """The sheet as plain values, header first: what a workbook writer puts on a ``Measurements`` sheet.

    Text is returned as typed; a writer that turns ``=…`` strings into formulas must escape them.
    """
    header: list[object] = [m.count_name or "N", m.value_header, "Label", "Notes"]
    return [header] + [[_plain(r.n), _plain(r.value), r.label, r.notes] for r in m.rows]


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


def write_measurements_csv(m: Measurements, path: str | Path) -> None:
    """The table as UTF-8 CSV that :func:`read_measurements` reads back; text fields are injection-escaped."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in measurement_rows(m):
        writer.writerow([escape_field(v) if isinstance(v, str) else v for v in row])
    Path(path).write_text(out.getvalue(), encoding="utf-8", newline="")
