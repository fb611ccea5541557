"""PySide6's feature selection in a program that draws a chart through the Python API.

PySide6 files a module whose source does not name PySide6 as one that takes the selection of the module that last
chose one (its Qt calls follow ``from __feature__ import snake_case`` in the host). The window's own process skips
that reading of each module's source (``amdahl_desk.ui.without_source_scan``); a host that draws a chart keeps it, so
a helper of the host's that is handed Qt objects but does not import the binding itself keeps snake_case."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_no_source_scan import fresh

pytestmark = pytest.mark.gui


def test_a_snake_case_host_keeps_its_helpers_snake_case_after_a_chart(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("def name(o):\n    return o.object_name()\n")  # no binding named
    code = """
        import json, sys
        from PySide6.QtCore import QObject
        from __feature__ import snake_case  # noqa: F401
        import amdahl_desk as ad
        from amdahl_desk.resources import example_path
        ad.load(str(example_path())).analyse().chart("speedup").render("svg")
        import helper
        o = QObject()
        o.set_object_name("seen")
        try:
            print(json.dumps(helper.name(o)))
        except AttributeError as exc:
            print(json.dumps(str(exc)))
        """
    assert fresh(code, tmp_path) == "seen"
