"""The Objectives sheet (Objective | Target time | Notes): read into objective specs, naming each bad cell."""

from __future__ import annotations

from ..model.objective_specs import ObjectiveSpec
from ..model.units import TimeUnit, convert
from ..model.values import ParseError
from .cells import cell_refusal, cell_time, column_decimal, scale_bare_times
from .grid import Grid, as_text, is_empty
from .headers import OBJECTIVE_HEADERS, find_header, header_field
from .sheet_layout import check_table
from .tables import TableReader

SHEET = "Objectives"


def read_objectives(reader: TableReader, grid: Grid | None, unit: TimeUnit) -> list[ObjectiveSpec]:
    """One spec per non-empty row; target times in ``unit`` (bare numbers are in the header's unit, else ``unit``).

    Problems go to ``reader`` at their cells; model-level ones (a name twice) are located through it later.
    """
    if grid is None or all(all(is_empty(v) for v in row) for row in grid.rows):
        return []
    found = find_header(grid, OBJECTIVE_HEADERS, ("name",))
    if found is None:
        reader.problem(
            f"{grid.sheet}!1:1", "no header row with an Objective column (Target time and Notes are optional)"
        )
        return []
    header, cols, _ = found
    check_table(grid, header, cols, lambda v: header_field(v, OBJECTIVE_HEADERS), reader.problem, reader.warn)
    target_col = cols.get("target_time")
    header_unit = None
    if target_col is not None:
        # "Target time (ms)": find_header keeps a unit only for a "time" field, so read it from the cell.
        from .headers import header_key, header_scale

        header_unit = header_key(grid.cell(header, target_col))[1]
        if (scale := header_scale(grid.cell(header, target_col))) != 1:
            scale_bare_times(grid, header + 1, target_col, scale)
    reader.resolve_formulas(grid, header + 1, list(cols.values()))
    decimal = column_decimal(grid, header + 1, target_col) if target_col is not None else None
    specs: list[ObjectiveSpec] = []
    for r in range(header + 1, len(grid.rows)):
        if all(is_empty(v) for v in grid.rows[r]):
            continue
        row = len(specs)
        for fld, col in cols.items():
            reader.locate_at("objectives", row, fld, grid.where(r, col))
        name = " ".join(as_text(grid.cell(r, cols["name"])).split())
        target = None
        if target_col is not None:
            value = grid.cell(r, target_col)
            if is_empty(value):
                why = grid.why_empty(r, target_col)
                if why:
                    reader.problem(grid.where(r, target_col), why)
            else:
                try:
                    number, written = cell_time(value, decimal)
                    target = convert(number, written or header_unit or unit, unit)
                except ParseError as exc:
                    reader.problem(grid.where(r, target_col), cell_refusal(exc, grid.csv))
        notes = as_text(grid.cell(r, cols["notes"])) if "notes" in cols else ""
        specs.append(ObjectiveSpec(name, target, notes))
    return specs
