"""Formulas in time cells: computed over the workbook's cells, checked against saved values, or refused at the cell."""

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter

from amdahl_desk.files import load_profile
from amdahl_desk.files.formulas import Evaluator, UnsupportedFormulaError, parse_formula, shift
from amdahl_desk.model.errors import ProfileError

FIXTURES = Path(__file__).parent / "fixtures"
# The fixture's formulas worked out by hand (Data!B2:B5 = 75, 25, 50, 100; 'My data'!A1 = 10):
EXPECTED = [
    300,  # 200+100
    150,  # 75*2
    150,  # 75+25+50
    100,  # B2/3 = 300/3
    123.5,  # ROUND(123.45, 1), half up
    55,  # -25 + 8*10
    106,  # 50 + 75 - 25 + 6
    20,  # 10*2
]


@pytest.mark.parametrize("writer", ["openpyxl", "xlsxwriter", "libreoffice"])
def test_time_formulas_are_computed_whoever_wrote_the_file(writer):
    # openpyxl saves no values, xlsxwriter saves 0 and asks for recalculation, LibreOffice saves the values.
    loaded = load_profile(FIXTURES / f"formulas-{writer}.xlsx")
    assert [c.time for c in loaded.profile.components] == pytest.approx(EXPECTED)
    assert loaded.warnings == []


def test_uncomputable_formula_with_a_trustworthy_saved_value_is_read():
    # LibreOffice computed the VLOOKUP (25) and does not ask for recalculation: its value stands.
    loaded = load_profile(FIXTURES / "vlookup-libreoffice.xlsx")
    assert [c.time for c in loaded.profile.components] == [25]


def xlsxwriter_book(path, formula, value=None, data=((75,), (25,))):
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet("Components")
    ws.write_row(0, 0, ["Component", "Time (ms)"])
    ws.write_row(1, 0, ["a", 100])
    ws.write_string(2, 0, "b")
    if value is None:
        ws.write_formula(2, 1, formula)
    else:
        ws.write_formula(2, 1, formula, None, value)
    sheet = book.add_worksheet("Data")
    for i, row in enumerate(data):
        sheet.write_row(i, 1, row)
    book.close()


def test_uncomputable_formula_with_a_saved_0_is_refused_naming_the_cell(tmp_path):
    xlsxwriter_book(tmp_path / "v.xlsx", '=VLOOKUP("b",Data!A1:B2,2,FALSE)')
    with pytest.raises(ProfileError) as info:
        load_profile(tmp_path / "v.xlsx")
    text = str(info.value)
    assert text.startswith("v.xlsx: Components!B3: holds the formula =VLOOKUP(")
    assert "VLOOKUP" in text and "recalculated when opened" in text


def test_a_flagged_workbook_never_trusts_its_saved_values(tmp_path):
    # Even a plausible non-zero value is a placeholder when the workbook asks for recalculation.
    xlsxwriter_book(tmp_path / "v.xlsx", '=INDIRECT("Data!B1")', value=75)
    with pytest.raises(ProfileError, match="Components!B3: holds the formula =INDIRECT"):
        load_profile(tmp_path / "v.xlsx")


def unflag(path):
    """The same workbook without fullCalcOnLoad, as if a calculating program had saved it."""
    data = io.BytesIO(path.read_bytes())
    out = io.BytesIO()
    with zipfile.ZipFile(data) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/workbook.xml":
                body = body.replace(b' fullCalcOnLoad="1"', b"")
            dst.writestr(info, body)
    path.write_bytes(out.getvalue())


def test_a_stale_saved_value_is_replaced_by_the_computed_one_with_a_warning(tmp_path):
    xlsxwriter_book(tmp_path / "s.xlsx", "=Data!B1*2", value=999)
    unflag(tmp_path / "s.xlsx")
    loaded = load_profile(tmp_path / "s.xlsx")
    assert [c.time for c in loaded.profile.components] == [100, 150]
    [warning] = loaded.warnings
    assert warning.where == "Components!B3" and "999" in warning.what and "150" in warning.what


def test_a_saved_0_is_never_trusted_even_unflagged(tmp_path):
    xlsxwriter_book(tmp_path / "z.xlsx", '=VLOOKUP("b",Data!A1:B2,2,FALSE)')
    unflag(tmp_path / "z.xlsx")
    with pytest.raises(ProfileError, match="saved value is 0"):
        load_profile(tmp_path / "z.xlsx")


def test_openpyxl_formula_without_value_is_computed(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in [["Component", "Time"], ["a", 100], ["b", "=B2*2"], ["Total", "=SUM(B2:B3)"]]:
        ws.append(row)
    book.save(tmp_path / "f.xlsx")
    loaded = load_profile(tmp_path / "f.xlsx")
    assert [c.time for c in loaded.profile.components] == [100, 200]  # the Total line is dropped


@pytest.mark.parametrize(
    "formula",
    ["=B2/0", "=B3", "=Nowhere!A1", "=SUM(A:A)", "=NOW()", '="x"*2', "=B2 B3", "=(1+2"],
)
def test_formulas_that_cannot_be_computed_are_refused(tmp_path, formula):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Components"
    for row in [["Component", "Time"], ["a", 100], ["b", formula]]:
        ws.append(row)
    book.save(tmp_path / "f.xlsx")
    with pytest.raises(ProfileError, match="Components!B3: holds the formula"):
        load_profile(tmp_path / "f.xlsx")


def test_speedups_and_settings_formulas_too(tmp_path):
    book = xlsxwriter.Workbook(str(tmp_path / "o.xlsx"))
    ws = book.add_worksheet("Components")
    ws.write_row(0, 0, ["Component", "Time (ms)"])
    ws.write_row(1, 0, ["a", 600])
    ws.write_row(2, 0, ["b", 400])
    opt = book.add_worksheet("Optimizations")
    opt.write_row(0, 0, ["Optimization", "Targets", "Speedup"])
    opt.write_row(1, 0, ["o", "a"])
    opt.write_formula(1, 2, "=2*2")
    settings = book.add_worksheet("Settings")
    settings.write_row(0, 0, ["Setting", "Value"])
    settings.write_string(1, 0, "Target time")
    settings.write_formula(1, 1, "=Components!B2")
    book.close()
    p = load_profile(tmp_path / "o.xlsx").profile
    assert p.optimizations[0].speedup == 4 and p.settings.target_time == 600


def test_evaluator_shifts_shared_formulas_and_keeps_absolute_references():
    node = shift(parse_formula("B2*$C$1+Sheet2!A1"), 3, 1)
    cells = {("S", 4, 2): 2.0, ("S", 0, 2): 10.0, ("Sheet2", 3, 1): 5.0}
    ev = Evaluator(lambda sheet, r, c: cells[(sheet, r, c)], lambda sheet, ref: iter(()))
    assert ev.evaluate(node, "S") == 2 * 10 + 5


def test_evaluator_precedence_like_a_spreadsheet():
    ev = Evaluator(lambda *a: None, lambda *a: iter(()))
    for text, value in [("=-2^2", 4), ("=2^3^2", 64), ("=1+2*3", 7), ("=50%*4", 2), ("=ROUND(2.5,0)", 3)]:
        assert ev.evaluate(parse_formula(text), "S") == value
    with pytest.raises(UnsupportedFormulaError):
        ev.evaluate(parse_formula("=OFFSET(A1,1,1)"), "S")
