"""Formulas in the cells a profile is read from: computed here, checked against the saved value, or refused.

A workbook's saved ("cached") value of a formula is only as good as the program that wrote it:
xlsxwriter saves 0 and asks Excel to recalculate on opening (``fullCalcOnLoad``), openpyxl saves
nothing. So a formula in a cell the reader uses is computed when it is simple arithmetic over the
workbook's cells; the saved value is compared with it when it can be trusted (a number other than
0 in a workbook not flagged for recalculation); and a formula that cannot be computed is accepted
only on a trustworthy saved value, never on a 0 or a flagged workbook.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..model.errors import Problem, Refusal
from .formulas import (
    MAX_DEPTH,
    MAX_RANGE_CELLS,
    Evaluator,
    Node,
    RangeRef,
    UnsupportedFormulaError,
    parse_formula,
    shift,
)
from .grid import CellValue, Grid, StoredDuration, column_letter

# A loaded sheet: its rows and where rows[0][0] sits on the sheet (0-based row, column).
SheetRows = tuple[list[list[CellValue]], int, int]
_ATTR = re.compile(rb'(\w+)="([^"]*)"')


def _xml_text(raw: bytes) -> str:
    return (
        raw.decode("utf-8", "replace")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def _ref_cell(ref: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Z]{1,3})(\d+)", ref)
    if m is None:
        raise UnsupportedFormulaError(f"{ref} is not a cell")
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)) - 1, col - 1


class WorkbookFormulas:
    """The formulas of one workbook, found column by column as the reader asks, and their values."""

    def __init__(
        self,
        sheet_xml: dict[str, bytes],
        full_calc: bool,
        load: Callable[[str], SheetRows | None],
        time_styles: dict[int, bool] | None = None,
    ) -> None:
        self.sheet_xml = sheet_xml
        # Cell styles that show a time (files/duration_cells.py): a formula in such a cell gives a duration.
        self.time_styles = time_styles or {}
        self._durations: dict[tuple[str, int], dict[int, bool]] = {}
        self.full_calc = full_calc
        self._load = load
        self._rows: dict[str, SheetRows | None] = {}
        self._columns: dict[tuple[str, int], dict[int, tuple[str, Node | UnsupportedFormulaError]]] = {}
        self._values: dict[tuple[str, int, int], CellValue] = {}
        self._busy: set[tuple[str, int, int]] = set()
        self._depth = 0
        self.evaluator = Evaluator(self.value, self._range)

    def use_rows(self, sheet: str, rows: SheetRows) -> None:
        """Rows already loaded for ``sheet`` (the reader's grid): read, never loaded twice."""
        self._rows[sheet] = rows

    def has_formulas(self, sheet: str) -> bool:
        return b"<f" in self.sheet_xml.get(sheet, b"")

    # -- finding formulas ---------------------------------------------------
    def column(self, sheet: str, col: int) -> dict[int, tuple[str, Node | UnsupportedFormulaError]]:
        """Row → (formula text, parsed formula or why not) for every formula in one column of ``sheet``."""
        key = (sheet, col)
        found = self._columns.get(key)
        if found is not None:
            return found
        found = {}
        xml = self.sheet_xml.get(sheet, b"")
        if b"<f" in xml:
            letters = column_letter(col).encode()
            # Only this column's cells are looked at: one scan at C speed, whatever the sheet holds elsewhere.
            pattern = re.compile(rb'<c r="' + letters + rb'([0-9]{1,7})"([^>]*)>\s*<f(\s[^>]*)?(?:/>|>([^<]*)</f>)')
            durations = self._durations.setdefault(key, {})
            for m in pattern.finditer(xml):
                row = int(m.group(1)) - 1
                attrs = dict(_ATTR.findall(m.group(3) or b""))
                text = _xml_text(m.group(4) or b"")
                found[row] = self._parsed(sheet, row, col, text, attrs)
                style = dict(_ATTR.findall(m.group(2))).get(b"s", b"0")
                if self.time_styles and style.isdigit() and int(style) in self.time_styles:
                    durations[row] = self.time_styles[int(style)]
        self._columns[key] = found
        return found

    def duration(self, sheet: str, row: int, col: int) -> bool | None:
        """Whether the formula at (row, col) is in a time-formatted cell: ``None`` if not, else whether elapsed."""
        self.column(sheet, col)
        return self._durations.get((sheet, col), {}).get(row)

    def _parsed(
        self, sheet: str, row: int, col: int, text: str, attrs: dict[bytes, bytes]
    ) -> tuple[str, Node | UnsupportedFormulaError]:
        kind = attrs.get(b"t", b"normal")
        if kind == b"array" or kind == b"dataTable":
            return text, UnsupportedFormulaError("an array or data-table formula")
        if kind == b"shared" and not text:
            master = self._shared_master(sheet, attrs.get(b"si", b""))
            if master is None:
                return "", UnsupportedFormulaError("a shared formula whose first cell is missing")
            m_text, m_row, m_col = master
            try:
                return m_text, shift(parse_formula(m_text), row - m_row, col - m_col)
            except UnsupportedFormulaError as exc:
                return m_text, exc
        try:
            return text, parse_formula(text)
        except UnsupportedFormulaError as exc:
            return text, exc

    def _shared_master(self, sheet: str, si: bytes) -> tuple[str, int, int] | None:
        xml = self.sheet_xml.get(sheet, b"")
        pattern = re.compile(
            rb'<c r="([A-Z]{1,3}[0-9]{1,7})"[^>]*>\s*<f(?=[^>]*\bt="shared")(?=[^>]*\bsi="' + re.escape(si) + rb'")'
            rb'(?=[^>]*\bref=")[^>]*>([^<]*)</f>'
        )
        m = pattern.search(xml)
        if m is None:
            return None
        row, col = _ref_cell(m.group(1).decode())
        return _xml_text(m.group(2)), row, col

    # -- values ---------------------------------------------------------------
    def _sheet(self, sheet: str) -> SheetRows:
        if sheet not in self._rows:
            self._rows[sheet] = self._load(sheet)
        rows = self._rows[sheet]
        if rows is None:
            raise UnsupportedFormulaError(
                f'a reference to the sheet "{sheet}", which the workbook does not have (#REF!)'
            )
        return rows

    def raw(self, sheet: str, row: int, col: int) -> CellValue:
        rows, row0, col0 = self._sheet(sheet)
        r, c = row - row0, col - col0
        if 0 <= r < len(rows) and 0 <= c < len(rows[r]):
            value = rows[r][c]
            return value.days if isinstance(value, StoredDuration) else value  # a formula computes in days
        return None

    def value(self, sheet: str, row: int, col: int) -> float | str | bool | None:
        """A cell's value as a formula sees it: computed when the cell holds a formula itself."""
        key = (sheet, row, col)
        if key in self._values:
            return self._values[key]  # type: ignore[return-value]
        formula = self.column(sheet, col).get(row)
        if formula is None:
            value = self.raw(sheet, row, col)
            if isinstance(value, str) and value.startswith("#"):
                raise UnsupportedFormulaError(f"{sheet}!{column_letter(col)}{row + 1} shows the error {value}")
            return value if isinstance(value, (float, str, bool)) or value is None else float(value)  # type: ignore[arg-type]
        return self.compute(sheet, row, col, formula[1])

    def compute(
        self, sheet: str, row: int, col: int, node: Node | UnsupportedFormulaError
    ) -> float | str | bool | None:
        key = (sheet, row, col)
        if isinstance(node, UnsupportedFormulaError):
            raise node
        if key in self._busy:
            raise UnsupportedFormulaError(f"a circular reference through {sheet}!{column_letter(col)}{row + 1}")
        if self._depth >= MAX_DEPTH:
            raise UnsupportedFormulaError(f"references nested more than {MAX_DEPTH} deep")
        self._busy.add(key)
        self._depth += 1
        try:
            result = self.evaluator.evaluate(node, sheet)
        finally:
            self._busy.discard(key)
            self._depth -= 1
        if result is None:
            result = 0.0  # a formula that is a reference to an empty cell shows 0
        if isinstance(result, float) and not math.isfinite(result):
            raise UnsupportedFormulaError("a result too large to represent (#NUM!)")
        self._values[key] = result
        return result

    def _range(self, sheet: str, ref: RangeRef) -> list[float | str | bool | None]:
        name = ref.first.sheet or sheet
        top, bottom = sorted((ref.first.row, ref.last.row))
        left, right = sorted((ref.first.col, ref.last.col))
        if (bottom - top + 1) * (right - left + 1) > MAX_RANGE_CELLS:
            raise UnsupportedFormulaError("a range of more cells than a profile could need")
        rows, row0, col0 = self._sheet(name)
        out: list[CellValue] = []
        first, stop = max(top, row0) - row0, min(bottom, row0 + len(rows) - 1) - row0 + 1
        for col in range(left, right + 1):
            formulas = self.column(name, col)
            c = col - col0
            # A list at C speed, not a generator step per cell: a SUM over 50,000 rows is common.
            values: list[CellValue] = [cells[c] if 0 <= c < len(cells) else None for cells in rows[first:stop]]
            for row in formulas:
                if first <= row - row0 < stop:
                    values[row - row0 - first] = self.compute(name, row, col, formulas[row][1])
            kinds = set(map(type, values))
            if StoredDuration in kinds:
                values = [v.days if isinstance(v, StoredDuration) else v for v in values]
            if str not in kinds:  # no text, so no error value (#REF!…): the usual case
                out.extend(values)
                continue
            for i, value in enumerate(values):
                if isinstance(value, str) and value.startswith("#") and value.endswith(("!", "?", "A")):
                    raise UnsupportedFormulaError(
                        f"{name}!{column_letter(col)}{row0 + first + i + 1} shows the error {value}"
                    )
            out.extend(values)
        return out  # type: ignore[return-value]


def _short(formula: str) -> str:
    """A formula quoted in a message: its first 80 characters."""
    return formula if len(formula) <= 80 else formula[:77] + "…"


def _trusted(book: WorkbookFormulas, cached: CellValue) -> tuple[bool, str]:
    """Whether a saved value can stand for its formula, and why not."""
    if book.full_calc:
        return False, "the workbook asks to be recalculated when opened, so its saved values are placeholders"
    if cached is None or (isinstance(cached, str) and not cached.strip()):
        return False, "the file has no saved value for it"
    if isinstance(cached, (int, float)) and not isinstance(cached, bool) and cached == 0:
        return False, "its saved value is 0, which writers that never calculate save for every formula"
    return True, ""


def resolve_column(grid: Grid, book: WorkbookFormulas, col: int, first_row: int) -> list[Problem]:
    """Replace each formula in ``col`` (grid rows from ``first_row``) by its value; returns warnings, placed.

    A formula that cannot be computed keeps a trustworthy saved value; otherwise the cell is refused
    (``grid.refused``) with the reason, and the reader reports it at the cell.
    """
    warnings: list[Problem] = []
    sheet_col = grid.col0 + col
    for sheet_row, (text, node) in sorted(book.column(grid.sheet, sheet_col).items()):
        r = sheet_row - grid.row0
        if r < first_row or r >= len(grid.rows):
            continue
        cells = grid.rows[r]
        cached = cells[col] if col < len(cells) else None
        if isinstance(cached, StoredDuration):
            cached = cached.days
        elapsed = book.duration(grid.sheet, sheet_row, sheet_col)
        trusted, why = _trusted(book, cached)
        where = grid.where(r, col)
        try:
            value = book.compute(grid.sheet, sheet_row, sheet_col, node)
        except UnsupportedFormulaError as exc:
            if trusted:
                continue
            grid.refused[(r, col)] = (
                f"holds the formula ={_short(text)}, which Amdahl Desk cannot compute ({exc}), and {why}; "
                "open the workbook in Excel or LibreOffice, recalculate and save it, or type the value"
            )
            _set(grid, r, col, None)
            continue
        if (
            trusted
            and isinstance(cached, (int, float))
            and isinstance(value, float)
            and not math.isclose(float(cached), value, rel_tol=1e-9, abs_tol=1e-12)
        ):
            said = (_short(text), value, float(cached))
            warnings.append(Problem("", why=Refusal.FORMULA_RECALCULATED, values=said, where=where))
        # A formula in a duration-formatted cell gives a duration too (in days, as the spreadsheet computes).
        _set(
            grid, r, col, StoredDuration(value, elapsed) if elapsed is not None and isinstance(value, float) else value
        )
    return warnings


def _set(grid: Grid, r: int, col: int, value: CellValue) -> None:
    cells = grid.rows[r]
    if col >= len(cells):
        return
    if not isinstance(cells, list):
        cells = list(cells)
        grid.rows[r] = cells  # type: ignore[index]
    cells[col] = value
