"""Runs a notebook's code cells in this process, as a Jupyter kernel would show them, without Jupyter.

Each cell's printed text becomes a ``stream`` output and its last expression an ``execute_result`` with the
representations Jupyter asks for (text/plain, text/html, text/markdown, image/png, image/svg+xml).
``python -m tests.api.notebook docs/api-example.ipynb`` runs the notebook from the repository root and writes
the outputs back into it (after a change that moves a number; the tests compare with what is committed).
"""

from __future__ import annotations

import ast
import base64
import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

REPRS = (
    ("text/html", "_repr_html_"),
    ("text/markdown", "_repr_markdown_"),
    ("image/svg+xml", "_repr_svg_"),
    ("image/png", "_repr_png_"),
)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def bundle(value: Any) -> dict[str, Any]:
    """The value's representations, as Jupyter stores them."""
    data: dict[str, Any] = {"text/plain": _lines(repr(value))}
    for mime, method in REPRS:
        shown = getattr(value, method, None)
        if not callable(shown):
            continue
        out = shown()
        if out is None:
            continue
        if isinstance(out, bytes):
            data[mime] = base64.b64encode(out).decode("ascii")
        else:
            data[mime] = _lines(out)
    return data


def run_cell(source: str, namespace: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """The outputs of one code cell run in ``namespace``."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    value = None
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, f"<cell {count}>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), f"<cell {count}>", "eval"), namespace)
    outputs: list[dict[str, Any]] = []
    if printed.getvalue():
        outputs.append({"name": "stdout", "output_type": "stream", "text": _lines(printed.getvalue())})
    if value is not None:
        outputs.append(
            {"data": bundle(value), "execution_count": count, "metadata": {}, "output_type": "execute_result"}
        )
    return outputs


def run(notebook: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Every code cell's outputs, in order, the cells sharing one namespace."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    results = []
    for count, cell in enumerate((c for c in notebook["cells"] if c["cell_type"] == "code"), start=1):
        results.append(run_cell("".join(cell["source"]), namespace, count))
    return results


def write(path: Path) -> None:
    """Run the notebook from its own folder, as Jupyter does, and write its outputs into it."""
    path = path.resolve()
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    here = Path.cwd()
    os.chdir(path.parent)
    try:
        results = run(notebook)
    finally:
        os.chdir(here)
    for count, (cell, outputs) in enumerate(zip(code, results, strict=True), start=1):
        cell["outputs"], cell["execution_count"] = outputs, count
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
