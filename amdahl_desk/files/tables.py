"""Turns the Components, Optimizations and Settings tables into a profile, naming the cell of every problem."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING

from ..model.errors import Problem, ProfileError, Refusal
from ..model.measurements import Measurements
from ..model.numbers import Decimal
from ..model.objective_specs import ObjectiveSpec, objective_spec_problems, parse_objectives
from ..model.objectives import objective_notes
from ..model.profile import (
    SCALING_WORDS,
    CheckedColumns,
    Component,
    Optimization,
    Profile,
    Scaling,
    Settings,
    component_problems,
    name_problem,
    one_line,
    optimization_problems,
    settings_problems,
)
from ..model.units import UNITS_ACCEPTED, TimeUnit, convert, time_ok
from ..model.values import AmbiguousNumberError, ParseError, parse_unit
from .cells import (
    cell_refusal,
    cell_time,
    column_decimal,
    scale_bare_times,
)
from .estimate_columns import read_time_ranges
from .grid import CellValue, Grid, as_text, is_empty, shown
from .guessed_column import with_guesses
from .headers import (
    COMPONENT_HEADERS,
    find_header,
    header_field,
    header_scale,
    unknown_unit,
)
from .plain_rows import PlainColumns, plain_columns
from .sheet_layout import check_table
from .total_line import Row as _Row
from .total_line import drop_total_line, is_total_line

if TYPE_CHECKING:
    from .job_sheet import JobSheet

__all__ = ["Loaded", "TableReader"]


@dataclass
class Loaded:
    """A profile read from a file, with what was worth a warning."""

    profile: Profile
    warnings: list[Problem] = field(default_factory=list)
    # Where the times are (Components!B2:B6, or rows 2–6, column 2 of a CSV), for a refusal of them all.
    time_cells: str = ""
    # Made from a profiler trace by :func:`~amdahl_desk.files.load_any`, not read from a table.
    from_trace: bool = False
    # The job of many ranks the profile stands for: a workbook's Ranks sheet (files/job_sheet.py), else None.
    job: JobSheet | None = None

    @property
    def measurements(self) -> Measurements | None:
        """The workbook's Measurements sheet (kept on the profile, so save, undo and recovery carry it)."""
        return self.profile.measurements


class TableReader:
    """Reads the three tables of one document, collecting every problem before giving up."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.where_of: dict[tuple[str, int | None, str | None], str] = {}
        # Components are many: keep their grid rows and name a cell only when a problem needs it.
        self._component_cells: tuple[Grid, Sequence[int], dict[str, int]] | None = None
        self._row_errors = False  # a components row with a refused or missing time
        self._checked: CheckedColumns | None = None  # the names and times of a plain table, checked column by column
        self.time_cells = ""
        self.settings_decimal: Decimal | None = None
        # Time cells that read two ways (1,500): their readings, until the total line may settle them.
        self._ambiguous: dict[int, tuple[tuple[float, float], TimeUnit | None]] = {}

    def problem(self, where: str, what: str | Problem) -> None:
        """A problem found at ``where``: words, or a typed problem."""
        self.problems.append(what.located(where) if isinstance(what, Problem) else Problem(what, where=where))

    def warn(self, where: str, problem: Problem) -> None:
        """A typed warning found at ``where``."""
        self.warnings.append(problem.located(where))

    def note(self, problem: Problem) -> None:
        """A typed warning, already placed (``present/refusals.py`` words it with the reader's numbers)."""
        self.warnings.append(problem)

    def _one_line(self, name: str, where: str) -> str:
        """A name with line breaks or control characters (a multi-line cell), made one line, with a warning."""
        fixed = one_line(name)
        if fixed != name:
            bad = name_problem(name)
            self.warn(where, Problem("", why=Refusal.NAME_MADE_ONE_LINE, values=(name, bad, fixed.strip())))
        return fixed

    def locate_at(self, table: str, row: int | None, fld: str, where: str) -> None:
        """Remember the cell of (table, row, field), so a model-level problem found later names it."""
        self.where_of[(table, row, fld)] = where

    def resolve_formulas(self, grid: Grid, first_row: int, columns: list[int]) -> None:
        """Formulas in the columns read: computed, checked against their saved values, or refused at the cell."""
        book = grid.formulas
        if book is None or not book.has_formulas(grid.sheet):
            return
        from .formula_cells import resolve_column

        for col in columns:
            self.warnings.extend(resolve_column(grid, book, col, first_row))

    # -- settings (files/settings_sheet.py) --------------------------------
    def read_settings(self, grid: Grid | None) -> tuple[Settings, TimeUnit | None, dict[str, CellValue]]:
        """Settings sheet rows; times are resolved later, once the profile's unit is known."""
        from .settings_sheet import read_settings

        return read_settings(self, grid)

    def resolve_setting_times(self, settings: Settings, values: dict[str, CellValue], unit: TimeUnit) -> Settings:
        from .settings_sheet import resolve_setting_times

        return resolve_setting_times(self, settings, values, unit)

    # -- components --------------------------------------------------------
    def read_components(self, grid: Grid, unit_setting: TimeUnit | None) -> tuple[list[Component], TimeUnit] | None:
        found = find_header(grid, COMPONENT_HEADERS, ("name", "time"))
        if found is None:
            self._missing_header(grid)
            return None
        header, cols, header_unit = found
        check_table(grid, header, cols, lambda v: header_field(v, COMPONENT_HEADERS), self.problem, self.warn)
        if (scale := header_scale(grid.cell(header, cols["time"]))) != 1:
            scale_bare_times(grid, header + 1, cols["time"], scale)  # Time (min), Time (h): read in seconds
        # A big sheet's formulas are looked for in the time column only: that is where a wrong number hides.
        big = len(grid.rows) > 5_000
        self.resolve_formulas(grid, header + 1, [cols["time"]] if big else list(cols.values()))
        # Every time a bare number in the profile's unit, every cell plain (the usual big sheet): column by column.
        unit = unit_setting or header_unit or TimeUnit.MS
        if header_unit in (None, unit) and (plain := plain_columns(grid.rows, header + 1, cols)) is not None:
            return self._with_ranges(grid, header, cols, *self._plain_components(grid, header, cols, plain, unit), unit)
        rows = self._component_rows(grid, header, cols)
        if not rows:
            self.problem(
                grid.where(header),
                "the Components table has a header but no components below it; "
                "expected a row per component with its name and time",
            )
            return None
        written = next((r.time[1] for r in rows if r.time is not None and r.time[1] is not None), None)
        unit = unit_setting or header_unit or written or TimeUnit.MS
        bare_unit = header_unit or unit
        rows = drop_total_line(grid, cols, rows, unit, bare_unit, self._ambiguous, self.note)
        self._component_cells = (grid, [row.grid_row for row in rows], cols)
        self.time_cells = grid.span(rows[0].grid_row, rows[-1].grid_row, cols["time"]) if rows else ""
        new_tuple = tuple.__new__
        if written is None and bare_unit is unit and not self._row_errors:
            # Every time a plain number in the table's unit, no cell refused (the usual big sheet): one pass at
            # C speed. The reader's names are already stripped: tuple.__new__ skips Component.__new__.
            made = [new_tuple(Component, (r[1], r[2][0], r[3], r[4], r[5], r[7], False, None, None)) for r in rows]  # type: ignore[index]
            return self._with_ranges(grid, header, cols, self._with_guesses(made), unit, bare_unit)
        components: list[Component] = []
        for row in rows:
            if row.error is not None:
                self.problem(*row.error)
            # A row whose time is bad still takes part in the name checks (its time never reaches a profile).
            if row.time is None:
                time = 0.0
            elif row.time[1] is None and bare_unit is unit:
                time = row.time[0]
            else:
                time = convert(row.time[0], row.time[1] or bare_unit, unit)
            # The reader's names are already stripped: tuple.__new__ skips Component.__new__ and its strip().
            components.append(
                new_tuple(
                    Component, (row.name, time, row.scaling, row.group, row.notes, row.objectives, False, None, None)
                )
            )
        return self._with_ranges(grid, header, cols, self._with_guesses(components), unit, bare_unit)

    def _with_ranges(
        self, grid: Grid, header: int, cols: dict[str, int], components: list[Component], unit: TimeUnit, bare: TimeUnit
    ) -> tuple[list[Component], TimeUnit]:
        """The components with their Time low and Time high columns, when the table has them."""
        if ("time_low" in cols or "time_high" in cols) and self._component_cells is not None:
            rows = self._component_cells[1]
            components = read_time_ranges(grid, header, cols, rows, components, (unit, bare), self.problem)
        return components, unit

    def _plain_components(
        self, grid: Grid, header: int, cols: dict[str, int], plain: PlainColumns, unit: TimeUnit
    ) -> tuple[list[Component], TimeUnit]:
        """The components of a plain table (every time a number in ``unit``), built column by column."""
        first, count = header + 1, len(plain.names)
        last = _Row(first + count - 1, plain.names[-1], (plain.times[-1], None), plain.scalings[-1], "", "")
        above = math.fsum(plain.times[:-1])
        if is_total_line(grid, cols, last, plain.times[-1], above, count - 1, unit, self.note):
            count -= 1
        self._component_cells = (grid, range(first, first + count), cols)
        self._checked = CheckedColumns(plain.names[:count], plain.times[:count])
        self.time_cells = grid.span(first, first + count - 1, cols["time"]) if count else ""
        # The names are stripped already: tuple.__new__ skips Component.__new__ and its strip().
        # strict=False: the names stop before a total line; the other columns run on to it.
        fields = zip(
            plain.names[:count],
            plain.times,
            plain.scalings,
            plain.groups,
            plain.notes,
            plain.objectives,
            repeat(False),
            repeat(None),  # no time ranges in a plain table
            repeat(None),
            strict=False,
        )
        return self._with_guesses(list(map(tuple.__new__, repeat(Component), fields))), unit

    def _with_guesses(self, components: list[Component]) -> list[Component]:
        assert self._component_cells is not None  # set by both paths before they build the components
        return with_guesses(components, *self._component_cells, self.problem)

    def _missing_header(self, grid: Grid) -> None:
        first = next((r for r in range(len(grid.rows)) if any(not is_empty(v) for v in grid.rows[r])), None)
        if first is None:
            self.problem(
                f"{grid.sheet}" if not grid.csv else "the file",
                "the components table is empty; expected a header row (Component, Time) and a row per component",
            )
            return
        found_name = find_header(grid, COMPONENT_HEADERS, ("name",))
        found_time = find_header(grid, COMPONENT_HEADERS, ("time",))
        unit_cell = (
            next(
                (
                    (c, unit)
                    for c, v in enumerate(grid.rows[found_name[0]])
                    if (unit := unknown_unit(v, COMPONENT_HEADERS["time"])) is not None
                ),
                None,
            )
            if found_name and not found_time
            else None
        )
        if found_name and unit_cell is not None:
            col, unit = unit_cell
            what = (
                f'the header "{shown(grid.cell(found_name[0], col))}" names the unit "{unit}", which is not a time '
                f"unit; expected {UNITS_ACCEPTED}, like Time (ms)"
            )
            where = grid.where(found_name[0], col)
        elif found_name and not found_time:
            what = (
                "no time column; expected a header Time, Baseline time or Duration (optionally with a unit: Time (ms))"
            )
            where = grid.where(found_name[0])
        elif found_time and not found_name:
            what = "no name column; expected a header Component, Stage or Name"
            where = grid.where(found_time[0])
        else:
            what = (
                "no header row with a name column (Component, Stage or Name) and a time column "
                "(Time, Baseline time or Duration) in the first 50 rows"
            )
            where = grid.where(first)
        self.problem(where, what)

    def _component_rows(self, grid: Grid, header: int, cols: dict[str, int]) -> list[_Row]:
        """One :class:`_Row` per non-empty row; written for speed, as profiles can have 100,000 rows."""
        rows: list[_Row] = []
        name_col, time_col = cols["name"], cols["time"]
        scaling_col, group_col, notes_col = cols.get("scaling"), cols.get("group"), cols.get("notes")
        objectives_col = cols.get("objectives")
        width = max(cols.values()) + 1
        words = SCALING_WORDS
        serial = Scaling.SERIAL
        grid_rows = grid.rows
        decimal = column_decimal(grid, header + 1, time_col)
        # tuple.__new__ straight: _Row(...) runs a generated __new__ and _Row._make a Python frame per row.
        new_tuple = tuple.__new__
        for r in range(header + 1, len(grid_rows)):
            cells = grid_rows[r]
            if len(cells) < width:
                cells = list(cells) + [""] * (width - len(cells))
            name_value, time_value = cells[name_col], cells[time_col]
            name = name_value.strip() if type(name_value) is str else as_text(name_value)
            if not name and is_empty(time_value) and all(is_empty(v) for v in cells):
                continue
            if not name.isprintable():
                name = self._one_line(name, grid.where(r, name_col))
            time: tuple[float, TimeUnit | None] | None = None
            error: tuple[str, str | Problem] | None = None
            if time_ok(time_value):
                time = (time_value, None)
            elif is_empty(time_value):
                error = (
                    grid.where(r, time_col),
                    grid.why_empty(r, time_col)
                    or f'"{shown(name) or "(no name)"}" has no time; expected a number or a value like "120 ms"',
                )
            else:
                try:
                    time = cell_time(time_value, decimal)
                except ParseError as exc:
                    error = (grid.where(r, time_col), cell_refusal(exc, grid.csv))
                    if isinstance(exc, AmbiguousNumberError):
                        unit_match = re.search(r"[a-zA-Zµμ]+\s*$", as_text(time_value))
                        written = parse_unit(unit_match.group()) if unit_match else None
                        self._ambiguous[r] = (exc.readings, written)
            if not name:
                self.problem(
                    grid.where(r, name_col),
                    grid.why_empty(r, name_col)
                    or "this row has no component name; every component needs a unique name",
                )
            scaling = serial
            if scaling_col is not None:
                value = cells[scaling_col]
                found = words.get(value) if type(value) is str else None
                if found is None and type(value) is str:
                    found = words.get(value.strip().lower())
                if found is not None:
                    scaling = found
                elif not is_empty(value):
                    try:
                        scaling = Scaling.parse(as_text(value))
                    except ParseError as exc:
                        self.problem(grid.where(r, scaling_col), str(exc))
            group = notes = ""
            if group_col is not None:
                cell = cells[group_col]
                group = cell.strip() if type(cell) is str else as_text(cell)
            if notes_col is not None:
                cell = cells[notes_col]
                notes = cell.strip() if type(cell) is str else as_text(cell)
            objectives: tuple[str, ...] = ()
            if objectives_col is not None:
                cell = cells[objectives_col]
                objectives = parse_objectives(cell if type(cell) is str else as_text(cell)) if cell else ()
            if error is not None or time is None:
                self._row_errors = True
            rows.append(new_tuple(_Row, (r, name, time, scaling, group, notes, error, objectives)))
        return rows

    # -- optimizations -----------------------------------------------------
    def read_optimizations(self, grid: Grid | None) -> list[Optimization]:
        from .optimizations_sheet import read_optimizations

        return read_optimizations(self, grid)

    # -- the whole document ------------------------------------------------
    def build(
        self,
        components: list[Component] | None,
        unit: TimeUnit,
        optimizations: list[Optimization],
        settings: Settings,
        objectives: Sequence[ObjectiveSpec] = (),
        measurements: Measurements | None = None,
    ) -> Loaded:
        """The profile, or one :class:`ProfileError` listing every problem found."""
        profile = None
        if components is not None and not self.problems:
            try:
                profile = Profile(
                    components, optimizations, settings, unit, objectives, measurements, checked=self._checked
                )
            except ProfileError as exc:
                # The model words a duplicate by list position; say it again naming the first copy's cell.
                named = component_problems(components, row_name=self._component_place)
                others = [p for p in exc.problems if p.table != "components"]
                self.problems.extend(self._locate(p) for p in named + others)
        elif components is not None:
            # Report model-level problems too (duplicates, unknown targets), alongside the cell errors.
            more = component_problems(components, row_name=self._component_place)
            more += optimization_problems(optimizations, components)
            more += settings_problems(settings) + objective_spec_problems(objectives, settings.target_time)
            self.problems.extend(self._locate(p) for p in more)
        if self.problems or profile is None:
            raise ProfileError(_unique(self.problems), source=self.source)
        # An objective named on a component but missing from the sheet (or listed and never used): a note.
        notes = objective_notes(profile.objectives_of_components(), profile.objectives)
        self.warnings.extend(self._locate(p) for p in notes)
        return Loaded(profile, self.warnings, self.time_cells)

    def _component_place(self, row: int) -> str:
        """Where component ``row`` (a list position) is in the file: its name's cell, or its CSV row."""
        if self._component_cells is None:
            return f"row {row + 1}"
        grid, grid_rows, cols = self._component_cells
        return grid.where(grid_rows[row]) if grid.csv else grid.where(grid_rows[row], cols["name"])

    def _locate(self, p: Problem) -> Problem:
        if p.table == "components" and p.row is not None and self._component_cells is not None:
            grid, grid_rows, cols = self._component_cells
            if grid.csv and p.field == "objectives" and "objectives" in cols:
                return p.located(grid.where(grid_rows[p.row], cols["objectives"]))
            return p.located(grid.where(grid_rows[p.row], cols.get(p.field or "name", cols["name"])))
        where = self.where_of.get((p.table or "", p.row, p.field)) or self.where_of.get((p.table or "", None, p.field))
        return p.located(where or (p.table or "").capitalize())


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, str]] = set()
    result = []
    for p in problems:
        if (p.where, p.what) not in seen:
            seen.add((p.where, p.what))
            result.append(p)
    return result
