"""Reading profile workbooks (.xlsx) with calamine, after the container checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import python_calamine

from ..model.errors import ProfileError
from ..model.units import TimeUnit
from .container import ContainerReport, check_xlsx_container
from .formula_cells import SheetRows, WorkbookFormulas
from .grid import Grid, is_empty
from .measurements import read_grid
from .objectives_sheet import read_objectives
from .tables import Loaded, TableReader

MAX_ROWS = 500_000  # 50 times the largest profiles this is built for; memory stays bounded


def sheet_grid(book: Any, name: str, report: ContainerReport, source: str, formulas: WorkbookFormulas) -> Grid:
    sheet = book.get_sheet_by_name(name)
    if sheet.total_height > MAX_ROWS:
        raise ProfileError(
            f"sheet {name} has {sheet.total_height:,} rows, more than the {MAX_ROWS:,} a profile "
            "can have here; split it or sum small components into groups",
            source=source,
        )
    rows = sheet.to_python(skip_empty_area=True)
    start = sheet.start or (0, 0)
    formulas.use_rows(name, (rows, start[0], start[1]))
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
    )


def other_sheet(book: Any, name: str) -> SheetRows | None:
    """A sheet a formula refers to, loaded on first use."""
    try:
        sheet = book.get_sheet_by_name(name)
    except Exception:  # calamine raises its own type for a missing sheet
        return None
    if sheet.total_height > MAX_ROWS:
        return None
    start = sheet.start or (0, 0)
    return sheet.to_python(skip_empty_area=True), start[0], start[1]


def read_workbook(path: str | Path) -> Loaded:
    """Read a profile workbook; raises one :class:`ProfileError` naming every bad cell."""
    path = Path(path)
    report = check_xlsx_container(path)
    try:
        book = python_calamine.CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
    except Exception as exc:  # calamine raises its own types for damaged parts
        raise ProfileError(
            f"the workbook is damaged and cannot be read ({exc}); expected a complete xlsx file", source=path.name
        ) from None
    if not names:
        raise ProfileError("the workbook has no sheets", source=path.name)
    lower = {n.strip().lower(): n for n in names}
    reader = TableReader(path.name)
    formulas = WorkbookFormulas(report.sheet_xml, report.full_calc_on_load, lambda name: other_sheet(book, name))

    def grid_of(key: str) -> Grid | None:
        return sheet_grid(book, lower[key], report, path.name, formulas) if key in lower else None

    measurements = None
    try:
        try:
            comp_grid = sheet_grid(book, lower.get("components", names[0]), report, path.name, formulas)
            opt_grid, set_grid, obj_grid = grid_of("optimizations"), grid_of("settings"), grid_of("objectives")
            runs_grid = grid_of("measurements")
        except ProfileError:
            raise
        except Exception as exc:
            raise ProfileError(
                f"a sheet of the workbook is damaged and cannot be read ({exc})", source=path.name
            ) from None
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
    finally:
        book.close()
    return reader.build(read[0] if read else None, unit, opts, settings, specs, measurements)
