"""Reading profile workbooks (.xlsx) with calamine, after the container checks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..model.errors import ProfileError
from ..model.units import TimeUnit
from .duration_cells import use_stored_durations
from .formula_cells import SheetRows, WorkbookFormulas
from .grid import Grid, is_empty
from .measurements import read_grid
from .objectives_sheet import read_objectives
from .tables import Loaded, TableReader
from .workbook_sheets import MAX_ROWS, ParsedWorkbook, parse_workbook


def sheet_grid(parsed: ParsedWorkbook, name: str, source: str, formulas: WorkbookFormulas) -> Grid:
    sheet = parsed.sheet(name, source)
    rows = sheet.to_python(skip_empty_area=True)
    start = sheet.start or (0, 0)
    if parsed.time_styles:
        use_stored_durations(rows, start[0], start[1], parsed.report.sheet_xml.get(name, b""), parsed.time_styles)
    formulas.use_rows(name, (rows, start[0], start[1]))
    report = parsed.report
    merged = [
        (t - start[0], lf - start[1], b - start[0], r - start[1]) for (t, lf), (b, r) in sheet.merged_cell_ranges or ()
    ]
    # A workbook keeps numbers as numbers; numbers typed as text (1.234 us) use the decimal point unless
    # a cell of their column shows a decimal comma, as the values Amdahl Desk itself writes do.
    return Grid(
        name,
        rows,
        start[0],
        start[1],
        uncomputed=lambda ref: report.never_calculated(name, ref),
        formulas=formulas,
        decimal_hint=".",
        merged=merged,
    )


def other_sheet(book: Any, name: str, sheet_xml: dict[str, bytes], styles: dict[int, bool]) -> SheetRows | None:
    """A sheet a formula refers to, loaded on first use."""
    try:
        sheet = book.get_sheet_by_name(name)
    except Exception:  # calamine raises its own type for a missing sheet
        return None
    if sheet.total_height > MAX_ROWS:
        return None
    start = sheet.start or (0, 0)
    rows = sheet.to_python(skip_empty_area=True)
    use_stored_durations(rows, start[0], start[1], sheet_xml.get(name, b""), styles)
    return rows, start[0], start[1]


def read_workbook(path: str | Path, parsed: ParsedWorkbook | None = None) -> Loaded:
    """Read a profile workbook (``parsed``: already opened by :func:`parse_workbook`); raises one
    :class:`ProfileError` naming every bad cell."""
    path = Path(path)
    if parsed is None:
        parsed = parse_workbook(path)
    book, names, lower = parsed.book, parsed.names, parsed.lower
    reader = TableReader(path.name)
    report = parsed.report
    formulas = WorkbookFormulas(
        report.sheet_xml,
        report.full_calc_on_load,
        lambda name: other_sheet(book, name, report.sheet_xml, parsed.time_styles),
        parsed.time_styles,
    )

    def grid_of(key: str) -> Grid | None:
        return sheet_grid(parsed, lower[key], path.name, formulas) if key in lower else None

    measurements = None
    job = None
    try:
        try:
            comp_grid = sheet_grid(parsed, parsed.components or names[0], path.name, formulas)
            opt_grid, set_grid, obj_grid = grid_of("optimizations"), grid_of("settings"), grid_of("objectives")
            runs_grid = grid_of("measurements")
            ranks_grid = grid_of("ranks")
        except ProfileError:
            raise
        except Exception as exc:
            raise ProfileError(
                f"a sheet of the workbook is damaged and cannot be read ({exc})", source=path.name
            ) from None
        if parsed.components_note is not None:
            reader.warn(parsed.components, parsed.components_note)
        # The book stays open while the tables are read: a formula may refer to any of its sheets.
        settings, unit_setting, setting_times = reader.read_settings(set_grid)
        read = reader.read_components(comp_grid, unit_setting)
        unit = read[1] if read else (unit_setting or TimeUnit.MS)
        settings = reader.resolve_setting_times(settings, setting_times, unit)
        opts = reader.read_optimizations(opt_grid) if read else []
        specs = read_objectives(reader, obj_grid, unit)
        if runs_grid is not None and any(any(not is_empty(v) for v in row) for row in runs_grid.rows):
            try:
                runs = read_grid(runs_grid, path.name)
                measurements = runs.measurements
                reader.warnings.extend(runs.warnings)
            except ProfileError as exc:
                reader.problems.extend(exc.problems)
        if ranks_grid is not None:
            from .job_sheet import read_job_sheet

            job, job_problems = read_job_sheet(ranks_grid)
            reader.warnings.extend(job_problems)
    finally:
        parsed.close()
    loaded = reader.build(read[0] if read else None, unit, opts, settings, specs, measurements)
    return replace(loaded, job=job) if job is not None else loaded
