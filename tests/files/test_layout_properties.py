"""Workbooks generated through openpyxl and xlsxwriter — merged ranges, duplicate headers, index columns,
duration formats, hidden sheets — held to a reading worked out from the generator's own data.

The expectation never asks the reader: names, times, scalings and groups come from what was written (a
merged value spread over the rows it covers, a duration's stored fraction of a day times 86,400,000 in
rational arithmetic), and a refusal is expected exactly where the rules say refuse (a merged range over
names or times; two time columns that differ).
"""

from dataclasses import dataclass, field
from fractions import Fraction

import openpyxl
import pytest
import xlsxwriter
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from amdahl_desk.files import load_profile
from amdahl_desk.files.grid import column_letter
from amdahl_desk.model.errors import ProfileError

MS_PER_DAY = 86_400_000
TIMES = st.sampled_from([0.4, 0.001, 1.0, 42.5, 1500.25, 7.125, 333.333, 12.0, 0.0625])
SCALINGS = ["serial", "parallel", "communication"]


@dataclass
class Book:
    rows: list[tuple[str, float, str, str]]  # name, ms, scaling, group
    writer: str
    index: bool
    duration: str | None
    merges: list[tuple[str, int, int]]  # (field, first row, last row) over data rows, 0-based
    duplicate: str | None  # None, "same" or "different": a second Time column
    hidden: bool
    sheet: str
    expected_refusals: list[str] = field(default_factory=list)


@st.composite
def books(draw):
    n = draw(st.integers(2, 6))
    rows = []
    for i in range(n):
        rows.append((f"part\u00a0{i}" if i % 3 == 1 else f"part {i}", draw(TIMES), draw(st.sampled_from(SCALINGS)), ""))
    # A last row that is the sum of the rows above is a total line, dropped with its own warning: not this test's.
    above = sum(r[1] for r in rows[:-1])
    assume(abs(rows[-1][1] - above) > 0.01 * above)
    merges: list[tuple[str, int, int]] = []
    fld = draw(st.sampled_from([None, "scaling", "group", "name", "time"]))
    if fld is not None:
        top = draw(st.integers(0, n - 2))
        bottom = draw(st.integers(top + 1, n - 1))
        merges.append((fld, top, bottom))
        if fld in ("scaling", "group"):
            # The generator's own reading of a merged range: the top cell's value on every row it covers.
            value = draw(st.sampled_from(SCALINGS)) if fld == "scaling" else draw(st.sampled_from(["io", "gpu"]))
            for r in range(top, bottom + 1):
                name, ms, scaling, group = rows[r]
                rows[r] = (name, ms, value, group) if fld == "scaling" else (name, ms, scaling, value)
    hidden = draw(st.booleans())
    return Book(
        rows,
        draw(st.sampled_from(["openpyxl", "xlsxwriter"])),
        draw(st.booleans()),
        draw(st.sampled_from([None, "[h]:mm:ss.000", "mm:ss.000", "[mm]:ss.000"])),
        merges,
        draw(st.sampled_from([None, "same", "different"])),
        hidden,
        draw(st.sampled_from(["Step", "Components"])) if not hidden else "Step",
    )


COLUMNS = ["name", "time", "scaling", "group"]


def layout(book: Book) -> tuple[list[str | None], list[list[object]], dict[str, int]]:
    """The header, the data rows (merged cells other than the top one empty) and each field's column."""
    offset = 1 if book.index else 0
    col = {f: offset + i for i, f in enumerate(COLUMNS)}
    header: list[str | None] = [None] * offset + [
        "Component",
        "Time" if book.duration else "Time (ms)",
        "Scaling",
        "Group",
    ]
    if book.duplicate:
        col["time2"] = len(header)
        header.append(header[col["time"]])
    data = []
    for r, (name, ms, scaling, group) in enumerate(book.rows):
        value = ms / MS_PER_DAY if book.duration else ms
        row: list[object] = [r] * offset + [name, value, scaling, group or None]
        if book.duplicate:
            row.append(value if book.duplicate == "same" else value * 2 + 1)
        data.append(row)
    for fld, top, bottom in book.merges:
        for r in range(top + 1, bottom + 1):
            data[r][col[fld]] = None
    return header, data, col


def write(book: Book, path):
    header, data, col = layout(book)
    timed = [col["time"]] + ([col["time2"]] if book.duplicate else [])
    if book.writer == "openpyxl":
        wb = openpyxl.Workbook()
        first = wb.active
        if book.hidden:
            first.title = "Old"
            first.append(["Component", "Time (ms)"])
            first.append(["stale", 999])
            first.sheet_state = "hidden"
            ws = wb.create_sheet(book.sheet)
            wb.active = 1
            first.sheet_view.tabSelected = False
        else:
            ws = first
            ws.title = book.sheet
        ws.append(header)
        for r, row in enumerate(data, start=2):
            ws.append(row)
            for c in timed:
                if book.duration and row[c] is not None:
                    ws.cell(r, c + 1).number_format = book.duration
        for fld, top, bottom in book.merges:
            letter = column_letter(col[fld])
            ws.merge_cells(f"{letter}{top + 2}:{letter}{bottom + 2}")
        wb.save(path)
        return
    wb = xlsxwriter.Workbook(str(path))
    if book.hidden:
        old = wb.add_worksheet("Old")
        old.write_row(0, 0, ["Component", "Time (ms)"])
        old.write_row(1, 0, ["stale", 999])
    ws = wb.add_worksheet(book.sheet)
    if book.hidden:
        ws.activate()
        old.hide()
    style = wb.add_format({"num_format": book.duration}) if book.duration else None
    ws.write_row(0, 0, header)
    for r, row in enumerate(data, start=1):
        for c, value in enumerate(row):
            if value is None:
                continue
            if c in timed and style is not None:
                ws.write_number(r, c, value, style)
            else:
                ws.write(r, c, value)
    for fld, top, bottom in book.merges:
        c = col[fld]
        value = data[top][c]
        ws.merge_range(top + 1, c, bottom + 1, c, value, style if c in timed and style else None)
    wb.close()


def expected_ms(book: Book, ms: float) -> float:
    if not book.duration:
        return ms
    return float(Fraction(ms / MS_PER_DAY) * MS_PER_DAY)


def refusals(book: Book) -> list[str]:
    """Where the rules say refuse, as the message names it."""
    _, _, col = layout(book)
    sheet = book.sheet
    out = []
    for fld, top, bottom in book.merges:
        if fld in ("name", "time"):
            letter = column_letter(col[fld])
            out.append(f"{sheet}!{letter}{top + 2}:{letter}{bottom + 2}: a merged range")
    if book.duplicate == "different":
        out.append(f"{sheet}!{column_letter(col['time'])}1, {sheet}!{column_letter(col['time2'])}1: two time columns")
    return out


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(book=books())
def test_generated_workbooks_read_as_written(tmp_path, book):
    path = tmp_path / f"gen-{book.writer}.xlsx"
    write(book, path)
    refused = refusals(book)
    event(f"{book.writer}, {'refused' if refused else 'read'}")
    event(f"hidden={book.hidden} index={book.index} duration={bool(book.duration)} merged={bool(book.merges)}")
    if refused:
        with pytest.raises(ProfileError) as caught:
            load_profile(path)
        for where in refused:
            assert where in str(caught.value), (where, str(caught.value))
        return
    loaded = load_profile(path)
    profile = loaded.profile
    assert [c.name for c in profile.components] == [r[0] for r in book.rows]
    for comp, row in zip(profile.components, book.rows, strict=True):
        assert abs(comp.time - expected_ms(book, row[1])) <= 1e-13 * row[1], (comp.time, row[1])
    assert [c.scaling.value for c in profile.components] == [r[2] for r in book.rows]
    assert [c.group for c in profile.components] == [r[3] for r in book.rows]
    notes = [str(w) for w in loaded.warnings]
    if book.hidden:
        assert any('"Old"' in n and '"Step", the first visible sheet' in n for n in notes), notes
    if book.duplicate == "same":
        assert any("same values" in n for n in notes), notes
    if not book.hidden and book.duplicate is None:
        assert not notes, notes
