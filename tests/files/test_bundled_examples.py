"""The bundled example workbooks: every formula carries its value, and each is what the writer writes today."""

import importlib.util
import math
import re
from pathlib import Path

import openpyxl
import pytest
import python_calamine

from amdahl_desk.files import write_workbook
from amdahl_desk.resources import example_path

EXAMPLES = example_path().parent
BUNDLED = sorted(p for p in EXAMPLES.iterdir() if p.is_file() and not p.name.startswith("."))
SCRIPT = Path(__file__).resolve().parents[2] / "packaging" / "make_examples.py"
REGENERATE = "run python packaging/make_examples.py to write the bundled workbooks through the current writer"


def formulas(path):
    """{(sheet, cell): formula} of every formula cell, as openpyxl reads the file."""
    book = openpyxl.load_workbook(path)
    return {
        (ws.title, c.coordinate): c.value
        for ws in book.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and c.value.startswith("=")
    }


def cells(path):
    """{(sheet, cell): value} of every non-empty cell as a reader that never recalculates sees it."""
    book = openpyxl.load_workbook(path, data_only=True)
    return {
        (ws.title, c.coordinate): c.value
        for ws in book.worksheets
        for row in ws.iter_rows()
        for c in row
        if c.value is not None
    }


def calamine_value(sheets, sheet, ref):
    col, row = re.fullmatch(r"([A-Z]+)(\d+)", ref).groups()
    index = 0
    for letter in col:
        index = index * 26 + ord(letter) - 64
    rows = sheets[sheet]
    r = int(row) - 1
    return rows[r][index - 1] if r < len(rows) and index - 1 < len(rows[r]) else None


def script():
    spec = importlib.util.spec_from_file_location("make_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_file_is_a_bundled_workbook_of_the_script():
    assert [p.name for p in BUNDLED] == sorted(script().BUNDLED)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_formula_has_its_value_for_readers_that_do_not_recalculate(path):
    found = formulas(path)
    assert found, "a bundled workbook without formulas: nothing follows an edit"
    values = openpyxl.load_workbook(path, data_only=True)
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    sheets = {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}
    for (sheet, ref), formula in found.items():
        saved = values[sheet][ref].value
        assert saved is not None and saved != "", f"{path.name} {sheet}!{ref} {formula} has no value: {REGENERATE}"
        seen = calamine_value(sheets, sheet, ref)
        if isinstance(saved, (bool, str)):
            assert seen == saved, (sheet, ref)
        else:
            assert isinstance(seen, (int, float)) and math.isclose(seen, saved, rel_tol=1e-12), (sheet, ref, seen)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_each_is_what_the_writer_writes_today(path, tmp_path):
    fresh = tmp_path / path.name
    write_workbook(script().BUNDLED[path.name](), fresh)
    assert formulas(path) == formulas(fresh), REGENERATE
    assert cells(path) == cells(fresh), REGENERATE
