"""Every number the window shows is formatted by the presentation layer (amdahl_desk/present), never in ui/.

Read as code: a call of one of the model's formatters, or an f-string field with a number format
(``{x:,}``, ``{x:.1f}``, ``{x:.0%}``, ``{x:g}``) anywhere in ``amdahl_desk/ui`` is a second wording of a figure,
the future disagreement between the window, the slide and the command line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import amdahl_desk

UI = Path(amdahl_desk.__file__).parent / "ui"
FORMATTERS = {
    "format_time",
    "format_speedup",
    "format_percent",
    "format_number",
    "format_money",
    "decimal_text",
}
NUMBER_SPEC = set(",.%fgeFGE")
# Not words for a person: SVG coordinates and Qt style-sheet sizes.
NOT_WORDS = {"charts/flat_svg.py", "charts/style.py"}
# Still to be moved into present/ (each leaves this list when it is): the comparison tab, the runs table and the
# import dialog.
PENDING: set[str] = set()  # every module of ui/ words its numbers through present/


def formatting(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in FORMATTERS:
                found.append(f"{node.lineno}: {name}()")
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(v.value for v in node.format_spec.values if isinstance(v, ast.Constant))
            if NUMBER_SPEC & set(spec):
                found.append(f"{node.lineno}: {{…:{spec}}}")
    return found


def test_the_window_formats_no_number_itself():
    found = {}
    for path in sorted(UI.rglob("*.py")):
        where = path.relative_to(UI).as_posix()
        if where in NOT_WORDS:
            continue
        if lines := formatting(path):
            found[where] = lines
    assert set(found) == PENDING, {k: v for k, v in found.items() if k not in PENDING}


def test_the_check_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('a = format_time(1, u)\nb = f"{x:,} and {y:.1%} and {z}"\nc = units.format_speedup(2)\n')
    assert sorted(formatting(sample)) == ["1: format_time()", "2: {…:,}", "2: {…:.1%}", "3: format_speedup()"]


# The other layers under the same check. The model's units, numbers and quantities are where the formatters live
# (present/numbers wraps them); every other module listed still words a figure itself, and leaves its list when
# that figure is a typed value worded by present/ (a new module that formats a number fails here). What the files
# layer still formats: the workbook's own text, in the files' format by design (the Summary chart's title, the
# Settings sheet's ring model cells: summary_charts.py, workbook_writer.py), a duration cell quoted as a spreadsheet
# shows it (grid.py), a cell's float rounded to the fifteen digits a spreadsheet keeps (formulas.py, cells.py), and
# two refusals of a cell's text (cells.py: too long, a time of day past a day).
OTHER_LAYERS: dict[str, set[str]] = {
    "model": {
        "adoption.py",
        "numbers.py",
        "quantities.py",
        "traces/patterns.py",
        "units.py",
        "values.py",
    },
    "files": {
        "cells.py",
        "formulas.py",
        "grid.py",
        "summary_charts.py",
        "workbook_writer.py",
    },
    "cli": set(),  # the command line prints what present words
}


def test_the_model_files_and_command_line_format_no_new_number():
    for layer, pending in OTHER_LAYERS.items():
        folder = UI.parent / layer
        found = {p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*.py")) if formatting(p)}
        assert found == pending, (layer, sorted(found - pending), sorted(pending - found))


def test_the_model_names_no_command_line_flag():
    """A model error says what is wrong; the command line names its flags for what to do about it
    (``present/import_notes.refusal_remedy``, ``cli/common.FLAGS``), the window its controls, the API its
    arguments. A flag in the model's words ("--step", "--total") told a window or notebook user of a flag."""
    import re

    flag = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
    found = []
    for path in sorted((UI.parent / "model").rglob("*.py")):
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and id(node) not in docstrings else None
            if isinstance(text, str) and flag.search(text):
                found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    assert not found, found
