"""How a table sits on its sheet: merged ranges, two columns with one meaning, and a leading index column.

Every table reader (components, optimizations, settings, objectives, measurements) asks these once it
has found its header row and columns, before it reads a row:

- **merged ranges** below the header: Excel and LibreOffice show a merged value on every row it covers,
  but the file keeps it in the top-left cell only. In a column where one value can belong to several
  rows (Scaling, Group, Notes, Objectives, Targets, Enabled) the value is given to every covered cell;
  in a name, time, speedup or count column a merged range is refused, naming the range.
- **two columns with one meaning** (two ``Time (ms)``, ``Time`` and ``Duration``, two ``Component``):
  refused naming both header cells, unless they hold the same value on every row, when the first is
  read and a warning names both.
- **a leading unnamed index column** (what pandas ``to_excel`` writes by default: an empty header cell
  over 0, 1, 2…) is not part of the table: its cells are emptied, so a row that holds only its index
  counts as empty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model.errors import Problem, Refusal
from .grid import CellValue, Grid, as_text, is_empty

Report = Callable[[str, str], None]  # (where, what)
Note = Callable[[str, Problem], None]  # (where, a typed warning)


def spread_merged(
    grid: Grid, header: int, cols: dict[str, int], fill: Iterable[str], problem: Report, labels: dict[str, str]
) -> None:
    """Give each merged range below ``header`` to the cells it covers in the ``fill`` columns; refuse it in others.

    ``labels``: how a message names each field's column (``{"time": "time"}``). A range that covers
    no column of the table is left alone.
    """
    if not grid.merged:
        return
    fill = set(fill)
    by_col = {col: fld for fld, col in cols.items()}
    for top, left, bottom, right in grid.merged:
        if top <= header or (bottom == top and right == left):
            continue
        covered = [by_col[c] for c in range(left, right + 1) if c in by_col]
        if not covered:
            continue
        where = f"{grid.where(top, left)}:{grid.ref(bottom, right)}" if not grid.csv else grid.where(top, left)
        refused = [f for f in covered if f not in fill]
        if refused or len(covered) > 1:
            what = ", ".join(labels.get(f, f) for f in (refused or covered))
            own = labels.get((refused or covered)[0], "value")
            problem(
                where,
                f"a merged range over {bottom - top + 1} rows of the {what} column"
                f"{'s' if len(refused or covered) > 1 else ''}; the file keeps its value in the first cell only, "
                f"and each row needs its own {own}: unmerge the cells and fill in every row",
            )
            continue
        value = grid.cell(top, left)
        for r in range(top + 1, min(bottom, len(grid.rows) - 1) + 1):
            cells = grid.rows[r]
            if left < len(cells) and is_empty(cells[left]):
                _put(grid, r, left, value)


def _put(grid: Grid, r: int, c: int, value: CellValue) -> None:
    cells = grid.rows[r]
    if not isinstance(cells, list):
        cells = list(cells)
        grid.rows[r] = cells  # type: ignore[index]
    cells[c] = value


def same_meaning(
    grid: Grid,
    header: int,
    cols: dict[str, int],
    key_of: Callable[[CellValue], str | None],
    problem: Report,
    warn: Note,
    labels: dict[str, str],
) -> None:
    """Refuse (or, when every row agrees, warn about) a second header cell in row ``header`` with a field of ``cols``.

    ``key_of``: a header cell → its field, or ``None``. Two columns agree when every row below the header
    shows the same text in both and their headers say the same unit.
    """
    cells = grid.rows[header] if header < len(grid.rows) else ()
    for c, value in enumerate(cells):
        fld = key_of(value)
        if fld is None or fld not in cols or cols[fld] == c:
            continue
        first = cols[fld]
        both = f"{grid.where(header, first)}, {grid.where(header, c)}"
        label = labels.get(fld, fld)
        differ = _first_difference(grid, header, first, c)
        if differ is None and as_text(grid.cell(header, first)).casefold() == as_text(value).casefold():
            warn(both, Problem("", why=Refusal.SAME_COLUMN_TWICE, values=(label, grid.where(header, first))))
            continue
        why = f"they differ at row {grid.row0 + differ + 1}" if differ is not None else "their headers differ"
        problem(
            both,
            f'two {label} columns ("{as_text(grid.cell(header, first))}" and "{as_text(value)}"), and {why}; '
            "which one to read cannot be told: delete or rename one of them",
        )


def _first_difference(grid: Grid, header: int, a: int, b: int) -> int | None:
    for r in range(header + 1, len(grid.rows)):
        if as_text(grid.cell(r, a)) != as_text(grid.cell(r, b)):
            return r
    return None


def drop_index_column(grid: Grid, header: int, cols: dict[str, int]) -> None:
    """Empty a leading unnamed index column (an empty header cell over whole numbers) below ``header``."""
    index = 0
    if index in cols.values() or not is_empty(grid.cell(header, index)):
        return
    values = [grid.cell(r, index) for r in range(header + 1, len(grid.rows))]
    numbers = [v for v in values if not is_empty(v)]
    if not numbers or not all(_whole(v) for v in numbers):
        return
    for r in range(header + 1, len(grid.rows)):
        if index < len(grid.rows[r]) and not is_empty(grid.rows[r][index]):
            _put(grid, r, index, None)


def _whole(value: CellValue) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return float(value).is_integer()
    text = as_text(value)
    return text.isdigit()


LABELS = {
    "name": "name",
    "time": "time",
    "scaling": "Scaling",
    "group": "Group",
    "notes": "Notes",
    "objectives": "Objectives",
    "enabled": "Enabled",
    "targets": "Targets",
    "speedup": "speedup",
    "target_time": "target time",
    "label": "label",
    "count": "count",
    "value": "measured value",
    "setting": "setting",
}
# Columns where one value may stand for several rows: a merged range there belongs to every row it covers.
SPREADABLE = frozenset({"scaling", "group", "notes", "objectives", "enabled", "targets", "label"})


def check_table(
    grid: Grid,
    header: int,
    cols: dict[str, int],
    key_of: Callable[[CellValue], str | None],
    problem: Report,
    warn: Note,
) -> None:
    """The three checks of the module's docstring for one table, in the order that makes them agree."""
    drop_index_column(grid, header, cols)
    same_meaning(grid, header, cols, key_of, problem, warn, LABELS)
    spread_merged(grid, header, cols, SPREADABLE, problem, LABELS)
