"""One number format per column in the written workbook (no "1050" beside "1,500"), and Enabled written as a
boolean shown TRUE/FALSE (LibreOffice shows a bare boolean as 1/0). Read from the file's XML, independently of
the writer; tests/files/test_workbook_in_libreoffice.py reads what LibreOffice shows."""

from __future__ import annotations

import re
import zipfile
from xml.etree import ElementTree

import openpyxl

from amdahl_desk.files import save_profile
from amdahl_desk.model.objective_specs import ObjectiveSpec
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
BOOLEAN = '"TRUE";"TRUE";"FALSE"'
BUILT_IN = {0: "General", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%"}


def cell_formats(path, sheet_name):
    """{column letter: {row: (number format code, cell type)}} of the sheet named ``sheet_name``."""
    with zipfile.ZipFile(path) as z:
        styles = ElementTree.fromstring(z.read("xl/styles.xml"))
        book = ElementTree.fromstring(z.read("xl/workbook.xml"))
        sheets = [s.get("name") for s in book.find("m:sheets", NS)]
        sheet = ElementTree.fromstring(z.read(f"xl/worksheets/sheet{sheets.index(sheet_name) + 1}.xml"))
    codes = dict(BUILT_IN)
    for f in styles.find("m:numFmts", NS) or []:
        codes[int(f.get("numFmtId"))] = f.get("formatCode")
    xfs = [int(x.get("numFmtId", 0)) for x in styles.find("m:cellXfs", NS)]
    out: dict[str, dict[int, tuple[str, str]]] = {}
    for c in sheet.iter(f"{{{NS['m']}}}c"):
        col, row = re.fullmatch(r"([A-Z]+)(\d+)", c.get("r")).groups()
        if c.find("m:v", NS) is None:
            continue
        out.setdefault(col, {})[int(row)] = (codes[xfs[int(c.get("s", 0))]], c.get("t", "n"))
    return out


def saved(tmp_path):
    """A profile with a 1,050 ms component beside smaller ones, time ranges, efforts (one of 1,200 days) and an
    objective target of 1,500 ms, saved."""
    comps = [
        Component("decode", 1050.0, time_low=1000.0, time_high=1200.5, objectives=("TTFT",)),
        Component("prefill", 300.0, time_high=320.5, objectives=("TTFT",)),
        Component("stream", 149.75),
    ]
    opts = [
        Optimization("fast decode", ("decode",), 2.0, True, "", 1.5, 3.0, 1200.0),
        Optimization("fast prefill", ("prefill",), 1.5, False, "", None, 2.5, 2.5),
        Optimization("fast stream", ("stream",), 2.0),
    ]
    profile = Profile(comps, opts, Settings(target_time=1000.0), objectives=[ObjectiveSpec("TTFT", 1500.0)])
    path = tmp_path / "formats.xlsx"
    save_profile(profile, path)
    return path


def test_each_numeric_column_of_the_components_has_one_number_format(tmp_path):
    path = saved(tmp_path)
    header = {c: r[1] for c, r in cell_formats(path, "Components").items()}
    cols = cell_formats(path, "Components")
    for letter, cells in cols.items():
        numbers = {row: code for row, (code, kind) in cells.items() if row > 1 and kind in ("n", "str")}
        if not numbers or letter in ("C",):  # C: Share, a percentage throughout
            continue
        assert len(set(numbers.values())) == 1, (letter, header[letter], numbers)
        assert "#,##0" in next(iter(numbers.values())), (letter, numbers)  # thousands grouped


def test_enabled_is_a_boolean_shown_true_or_false(tmp_path):
    cells = cell_formats(saved(tmp_path), "Optimizations")["A"]
    values = {row: v for row, v in cells.items() if row > 1}
    assert values and set(values.values()) == {(BOOLEAN, "b")}


def column_of(path, sheet, title):
    """The letter of the column of ``sheet`` whose header starts with ``title``."""
    book = openpyxl.load_workbook(path, read_only=True)
    row = next(book[sheet].iter_rows(max_row=1))
    return next(c.column_letter for c in row if str(c.value or "").startswith(title))


def test_effort_and_objective_targets_group_their_thousands(tmp_path):
    path = saved(tmp_path)
    effort = cell_formats(path, "Optimizations")[column_of(path, "Optimizations", "Effort")]
    assert {code for row, (code, _) in effort.items() if row > 1} == {"#,##0.###"}
    targets = cell_formats(path, "Objectives")["B"]
    assert {code for row, (code, _) in targets.items() if row > 1} == {"#,##0.###"}


def _decimals_shown(code: str) -> int:
    """The most decimals a number format shows ("#,##0.###" shows up to three)."""
    return len(code.split(".")[1]) if "." in code else 0


def _decimals_for_three_digits(value: float) -> int:
    import math

    return max(0, 2 - math.floor(math.log10(abs(value))))


def test_small_times_show_three_significant_digits(tmp_path):
    """A profile in seconds whose stages take 70 µs and 0.4 ms: each time cell's format shows it to three significant
    digits (three decimals showed 0.00007 s and 0.0004 s as 0, beside a sentence saying 0.00421 s), in the Components
    sheet and in the Summary's table of the time at each GPU count."""
    from amdahl_desk.files import write_workbook
    from amdahl_desk.model.units import TimeUnit

    comps = [
        Component("parse", 0.0004),
        Component("compute", 0.0123, Scaling.PARALLEL),
        Component("sync", 0.00007, Scaling.COMMUNICATION),
    ]
    opts = [Optimization("vectorize", ("compute",), 7.5)]
    profile = Profile(comps, opts, Settings(target_time=0.005), unit=TimeUnit.S)
    path = tmp_path / "seconds.xlsx"
    write_workbook(profile, path)
    book = openpyxl.load_workbook(path, data_only=True)
    checked = 0
    sheet = book["Components"]
    titles = [c.value for c in sheet[1]]
    for title in ("Time (s)", "New time (s)"):
        col = titles.index(title) + 1
        for row in range(2, sheet.max_row + 1):
            cell = sheet.cell(row, col)
            if isinstance(cell.value, (int, float)) and cell.value:
                assert _decimals_shown(cell.number_format) >= _decimals_for_three_digits(cell.value), (title, cell)
                checked += 1
    summary = book["Summary"]
    for row in summary.iter_rows():
        for cell in row:
            if cell.value == "Time (s)":
                below = [summary.cell(r, cell.column) for r in range(cell.row + 1, summary.max_row + 1)]
                for c in below:
                    if not isinstance(c.value, (int, float)):
                        break
                    assert _decimals_shown(c.number_format) >= _decimals_for_three_digits(c.value), c.value
                    checked += 1
    assert checked >= 8 + 5  # the components, their total lines, and the GPU counts


def test_long_labels_and_titles_of_the_summary_wrap_whole(tmp_path):
    """A printed Summary cut "End to end with the trace's dependencies: after the plan" at its 30-character column
    and ran "End-to-end speedup" into the next title: each label and title longer than its column wraps, in a row
    as tall as its lines."""
    import math

    from amdahl_desk.files import write_workbook

    goal = "Time to first token under a full batch"
    comps = [
        Component("prefill", 300.0, objectives=(goal,)),
        Component("decode", 900.0),
    ]
    profile = Profile(comps, [Optimization("fast prefill", ("prefill",), 2.0)], objectives=[ObjectiveSpec(goal, 250.0)])
    path = tmp_path / "long labels.xlsx"
    write_workbook(profile, path)
    sheet = openpyxl.load_workbook(path)["Summary"]
    width = sheet.column_dimensions["A"].width
    long_cells = [
        c
        for row in sheet.iter_rows()
        for c in row
        if isinstance(c.value, str)
        and c.column <= 8
        and c.coordinate not in sheet.merged_cells
        and len(c.value) > (sheet.column_dimensions[c.column_letter].width or width)
        and not c.value.startswith("=")
    ]
    assert any(goal in c.value for c in long_cells)
    for c in long_cells:
        assert c.alignment.wrap_text, c.coordinate
        lines = math.ceil(len(c.value) / (sheet.column_dimensions[c.column_letter].width - 3))
        assert (sheet.row_dimensions[c.row].height or 15) >= 15 * lines, (c.coordinate, c.value)
