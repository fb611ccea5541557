"""The Optimizations sheet: name, targets, k (and its estimate), enabled, built and notes, each problem at its cell."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from ..model.profile import Optimization
from ..model.values import ParseError
from .cells import cell_refusal, column_decimal, parse_enabled, parse_speedup_cell, split_targets
from .estimate_columns import EstimateCells, optimization_with
from .grid import Grid, as_text, is_empty
from .headers import OPTIMIZATION_HEADERS, find_header, header_field
from .sheet_layout import check_table

if TYPE_CHECKING:
    from .tables import TableReader


def read_optimizations(reader: TableReader, grid: Grid | None) -> list[Optimization]:
    """The Optimizations sheet's rows, each problem named at its cell through ``reader``."""
    if grid is None:
        return []
    if all(all(is_empty(v) for v in row) for row in grid.rows):
        return []
    found = find_header(grid, OPTIMIZATION_HEADERS, ("name", "targets", "speedup"))
    if found is None:
        reader.problem(
            f"{grid.sheet}!1:1",
            "no header row with Optimization, Targets and Speedup columns (Enabled and Notes are optional)",
        )
        return []
    header, cols, _ = found
    check_table(grid, header, cols, lambda v: header_field(v, OPTIMIZATION_HEADERS), reader.problem, reader.warn)
    reader.resolve_formulas(grid, header + 1, list(cols.values()))
    opts: list[Optimization] = []
    decimal = column_decimal(grid, header + 1, cols["speedup"])
    estimates = EstimateCells(grid, header + 1, cols)
    for r in range(header + 1, len(grid.rows)):
        if all(is_empty(v) for v in grid.rows[r]):
            continue
        name = as_text(grid.cell(r, cols["name"]))
        if not name:
            reader.problem(grid.where(r, cols["name"]), "this optimization has no name")
        elif not name.isprintable():
            name = reader._one_line(name, grid.where(r, cols["name"]))
        targets = split_targets(grid.cell(r, cols["targets"]))
        speedup = math.nan
        try:
            speedup = parse_speedup_cell(grid.cell(r, cols["speedup"]), decimal)
        except ParseError as exc:
            reader.problem(
                grid.where(r, cols["speedup"]), grid.why_empty(r, cols["speedup"]) or cell_refusal(exc, grid.csv)
            )
        enabled = True
        if "enabled" in cols:
            try:
                enabled = parse_enabled(grid.cell(r, cols["enabled"]))
            except ParseError as exc:
                reader.problem(grid.where(r, cols["enabled"]), str(exc))
        notes = as_text(grid.cell(r, cols["notes"])) if "notes" in cols else ""
        for fld, col in cols.items():
            reader.where_of[("optimizations", len(opts), fld)] = grid.where(r, col)
        opt = Optimization(name, targets, speedup if math.isfinite(speedup) else 1.0, enabled, notes)
        opt = optimization_with(opt, estimates.read(r, reader.problem))
        if "built" in cols and not is_empty(grid.cell(r, cols["built"])):
            try:
                if parse_enabled(grid.cell(r, cols["built"])):
                    opt = replace(opt, built=True, enabled=False)
            except ParseError as exc:
                reader.problem(grid.where(r, cols["built"]), str(exc))
        opts.append(opt)
    return opts
