"""PySide6's feature selection in a host process that draws a chart through the Python API.

``amdahl_desk.ui`` replaces PySide6's ``_mod_uses_pyside`` process-wide as soon as it is imported, and the API's
``Chart.render`` imports it in the caller's own process. PySide6 files a module whose source does not name PySide6
as -1, "ignore this module": its Qt calls take the selection of the module that last chose one (the C side's
``getFeatureSelectId`` returns ``last_select_id`` for -1). With the replacement every module is filed as 0, "no
feature". In a host that chose ``from __feature__ import snake_case``, a helper of the host's that is handed Qt
objects but does not import the binding itself loses snake_case after the first chart.

Found in review of d1d56cc; strict xfail until the replacement is kept to the window's own process (or the host's
behaviour is accepted and this test removed)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui


@pytest.mark.xfail(strict=True, reason="amdahl_desk.ui files every module as 0 where PySide6 files some as -1")
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
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        env={
            "QT_QPA_PLATFORM": "offscreen",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": f"{Path(__file__).parents[2]}:{tmp_path}",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == "seen"
