"""The window words its numbers in the desktop's separators: every call from ``amdahl_desk/ui`` to a function of
``present/`` that takes a ``Numbers`` passes one (the default, ``POINT``, is the files' format: a German desktop
would read "5,000 runs" as five). A call that means the files' format passes ``POINT`` by name."""

from __future__ import annotations

import ast
from pathlib import Path

import amdahl_desk

ROOT = Path(amdahl_desk.__file__).parent


def _module(path: Path) -> str:
    return ".".join(("amdahl_desk", *path.relative_to(ROOT).with_suffix("").parts))


def takes_numbers() -> dict[tuple[str, str], tuple[int | None, str]]:
    """(module, function) → (the position of its Numbers parameter, or None for keyword-only; its name)."""
    out: dict[tuple[str, str], tuple[int | None, str]] = {}
    for path in (ROOT / "present").rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            positional = node.args.posonlyargs + node.args.args
            for i, arg in enumerate(positional):
                if arg.annotation is not None and "Numbers" in ast.unparse(arg.annotation):
                    out[(_module(path), node.name)] = (i, arg.arg)
            for arg in node.args.kwonlyargs:
                if arg.annotation is not None and "Numbers" in ast.unparse(arg.annotation):
                    out[(_module(path), node.name)] = (None, arg.arg)
    return out


def calls_without_numbers(path: Path, takes: dict[tuple[str, str], tuple[int | None, str]]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path).rsplit(".", 1)[0]
    imported: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1]) + "." + node.module
            for alias in node.names:
                imported[alias.asname or alias.name] = (base, alias.name)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        key = imported.get(node.func.id)
        if key not in takes:
            continue
        position, name = takes[key]
        given = any(k.arg in (name, None) for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args)
        given = given or (position is not None and len(node.args) > position)
        if not given:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {key[1]}() without {name}")
    return found


def test_the_window_passes_the_desktops_numbers_to_every_present_function_that_takes_them():
    takes = takes_numbers()
    assert len(takes) > 100  # the scan sees present's functions
    found = [f for path in sorted((ROOT / "ui").rglob("*.py")) for f in calls_without_numbers(path, takes)]
    assert found == []


def test_the_scan_sees_a_call_that_leaves_the_numbers_out(tmp_path):
    ui = tmp_path / "ui"
    ui.mkdir()
    sample = ui / "sample.py"
    sample.write_text(
        "from ..present.cells import time_cell\na = time_cell(1.5)\nb = time_cell(1.5, n)\nc = time_cell(1.5, n=n)\n"
    )
    takes = {("amdahl_desk.present.cells", "time_cell"): (1, "n")}
    global ROOT
    real, ROOT = ROOT, tmp_path
    try:
        assert calls_without_numbers(sample, takes) == ["ui/sample.py:2: time_cell() without n"]
    finally:
        ROOT = real
