"""docs/api-example.ipynb runs in the tests, and shows what is committed in it."""

import base64
import json
from pathlib import Path

import pytest

from tests.api.notebook import run

ROOT = Path(__file__).parents[2]
NOTEBOOK = ROOT / "docs" / "api-example.ipynb"
# Cells whose figures follow the trace model (the what-if's dependencies): checked for their shape, not their
# digits; after a change to that model, `python -m tests.api.notebook docs/api-example.ipynb` writes them anew.
VARIES = "varies-with-trace-model"
TEXTS = ("text/plain", "text/html", "text/markdown")

pytestmark = pytest.mark.gui  # one cell draws a chart (offscreen)


def test_the_example_notebook_runs_and_shows_its_committed_outputs(monkeypatch):
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    monkeypatch.chdir(NOTEBOOK.parent)  # as Jupyter runs it
    results = run(notebook)
    assert len(results) == len(cells) >= 10
    images = 0
    for number, (cell, outputs) in enumerate(zip(cells, results, strict=True), start=1):
        committed = cell["outputs"]
        assert committed, f"cell {number}: its outputs are not committed"
        assert [o["output_type"] for o in outputs] == [o["output_type"] for o in committed], f"cell {number}"
        exact = VARIES not in cell["metadata"].get("tags", [])
        for now, then in zip(outputs, committed, strict=True):
            if now["output_type"] == "stream":
                if exact:
                    assert now["text"] == then["text"], f"cell {number}"
                continue
            assert sorted(now["data"]) == sorted(then["data"]), f"cell {number}"
            for mime in now["data"]:
                if mime in TEXTS and exact:
                    assert now["data"][mime] == then["data"][mime], f"cell {number}: {mime}"
            if "image/png" in now["data"]:
                images += 1
                for data in (now["data"]["image/png"], then["data"]["image/png"]):
                    assert base64.b64decode(data).startswith(b"\x89PNG\r\n\x1a\n")
                assert "".join(now["data"]["image/svg+xml"]).lstrip().startswith("<?xml")
    assert images == 1
