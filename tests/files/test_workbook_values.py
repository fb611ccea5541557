"""Exported workbooks carry every formula's value, so readers that never recalculate show the numbers."""

import re
import zipfile

import openpyxl
import pytest
import python_calamine

from amdahl_desk.files import save_profile
from amdahl_desk.files.workbook_writer import bar_chart_height
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings

from ..helpers import TRAINING, profile_of


def formula_cells(path):
    """{(sheet, cell): formula} for every formula in the workbook, as openpyxl reads them."""
    book = openpyxl.load_workbook(path)
    return {
        (ws.title, cell.coordinate): cell.value
        for ws in book.worksheets
        for row in ws.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and cell.value.startswith("=")
    }


def test_every_formula_has_its_value_for_openpyxl_and_calamine(tmp_path):
    # Training iteration, matmul 4× faster, at N0 = 2 GPUs: numbers worked out by hand below.
    p = profile_of(
        TRAINING,
        [Optimization("Reduced precision", ("GPU matrix multiplications",), 4)],
        Settings(baseline_gpus=2, gpu_counts=(1, 2, 8)),
    )
    path = tmp_path / "p.xlsx"
    save_profile(p, path)
    formulas = formula_cells(path)
    values = openpyxl.load_workbook(path, data_only=True)
    calamine = python_calamine.CalamineWorkbook.from_path(str(path))
    sheets = {name: calamine.get_sheet_by_name(name).to_python() for name in calamine.sheet_names}

    times = [t for _, t, _ in TRAINING]  # 100, 600, 150, 100, 50: total 1000
    new = [100, 150, 150, 100, 50]  # matmul 600 / 4
    expected = {}
    for i, (t, n) in enumerate(zip(times, new, strict=True), start=2):
        expected[("Components", f"C{i}")] = t / 1000
        expected[("Components", f"G{i}")] = n
    expected[("Components", "B7")] = 1000
    expected[("Components", "C7")] = 1.0
    expected[("Components", "G7")] = 550
    summary = values["Summary"]
    label_rows = {r[0].value: r[0].row for r in summary.iter_rows() if isinstance(r[0].value, str)}
    for label, want in [
        ("Baseline total (ms)", 1000),
        ("New total (ms)", 550),
        ("End-to-end speedup", 1000 / 550),
        ("Time saved (ms)", 450),
        ("Ceiling 1/(1−f)", 1 / (1 - 0.6)),
    ]:
        expected[("Summary", f"B{label_rows[label]}")] = want
    # the one optimization alone: its tick and k from the Optimizations sheet, Amdahl on f = 0.6, k = 4
    r = label_rows["Reduced precision"]
    for col, want in zip("BCEFGH", [True, 4, 1 / (0.4 + 0.6 / 4), 550, 450, 2.5], strict=True):
        expected[("Summary", f"{col}{r}")] = want
    p_cell = next(r[1] for r in summary.iter_rows() if r[0].value == "Parallel share P")
    p_share = (600 + 150) / 1000  # the two parallel rows
    expected[("Summary", p_cell.coordinate)] = p_share
    header = next(r for r in summary.iter_rows() if r[0].value == "GPUs")
    for row in summary.iter_rows(min_row=header[0].row + 1):
        if row[0].value is None:
            break
        n, r = row[0].value, row[0].row
        expected[("Summary", f"B{r}")] = n / 2
        expected[("Summary", f"C{r}")] = 1 / ((1 - p_share) + p_share * 2 / n)
        expected[("Summary", f"E{r}")] = (1 - p_share) + p_share * n / 2
        expected[("Summary", f"F{r}")] = row[3].value / (n / 2)  # with overhead ÷ ideal
    assert set(formulas) == set(expected)  # every formula is checked, and only formulas
    for (sheet, ref), want in expected.items():
        got = values[sheet][ref].value
        col, r = re.fullmatch(r"([A-Z]+)(\d+)", ref).groups()
        got_calamine = sheets[sheet][int(r) - 1][ord(col) - 65]
        assert got == pytest.approx(want, rel=1e-12), (sheet, ref)
        assert got_calamine == pytest.approx(want, rel=1e-12), (sheet, ref)


def chart_xml(path):
    with zipfile.ZipFile(path) as zf:
        names = sorted(n for n in zf.namelist() if n.startswith("xl/charts/chart"))
        return zf.read(names[0]).decode(), zf.read("xl/drawings/drawing1.xml").decode()


@pytest.mark.parametrize("n", [6, 12, 25, 40])
def test_the_bar_chart_labels_every_component(tmp_path, n):
    p = Profile([Component(f"stage number {i}", 10 + i, Scaling.PARALLEL) for i in range(n)])
    save_profile(p, tmp_path / "many.xlsx")
    chart, drawing = chart_xml(tmp_path / "many.xlsx")
    shown = min(n, 25)
    assert '<c:tickLblSkip val="1"/>' in chart  # no label skipped
    assert all(f"<c:v>stage number {i}</c:v>" in chart for i in range(shown))
    # Tall enough for every label at 9 pt: at least 24 pixels per component. The anchor spans sheet rows
    # of 20 pixels (the default 15 pt) plus an offset in EMU (9,525 a pixel).
    rows = [int(r) for r in re.findall(r"<xdr:row>(\d+)</xdr:row><xdr:rowOff>(\d+)</xdr:rowOff>", drawing)[1][:1]]
    top = int(re.findall(r"<xdr:row>(\d+)</xdr:row>", drawing)[0])
    offset = int(re.findall(r"<xdr:rowOff>(\d+)</xdr:rowOff>", drawing)[1])
    height = (rows[0] - top) * 20 + offset / 9525
    assert height >= 24 * shown and bar_chart_height(shown) >= 24 * shown
