"""The window's modules load without PySide6 reading each one's source: its import hook scanned every Python module
imported after it (``inspect.getsource``) for ``from __feature__ import``, 23 ms of a start and as much again when
the charts load pyqtgraph. A module that does opt into a feature still gets it. Each check runs in a fresh process,
whose imports are its own."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui


def fresh(code: str, folder: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=folder,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parents[2])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_window_and_its_charts_load_without_a_source_scan(tmp_path: Path) -> None:
    result = fresh(
        """
        import inspect, json, sys
        import numpy
        import amdahl_desk.ui  # PySide6 is in from here on
        read = []
        source = inspect.getsource
        inspect.getsource = lambda module: read.append(getattr(module, "__name__", "?")) or source(module)
        import amdahl_desk.ui.app, amdahl_desk.ui.chart_factory, pyqtgraph
        print(json.dumps({"read": read, "loaded": sum(name.startswith("amdahl_desk.") for name in sys.modules)}))
        """,
        tmp_path,
    )
    assert result["loaded"] > 100  # the window's modules did load after PySide6
    assert result["read"] == []


def test_a_module_that_opts_into_a_feature_still_has_it(tmp_path: Path) -> None:
    (tmp_path / "snaky.py").write_text(
        "from __feature__ import snake_case  # noqa\nfrom PySide6.QtCore import QObject\n\n"
        "def name(o):\n    return o.object_name()\n"
    )
    (tmp_path / "plain.py").write_text(
        "from PySide6.QtCore import QObject\n\ndef name(o):\n    return o.objectName()\n"
    )
    result = fresh(
        """
        import json
        import amdahl_desk.ui
        from PySide6.QtCore import QObject
        import snaky, plain
        o = QObject()
        o.setProperty("objectName", "seen")
        print(json.dumps({"snake": snaky.name(o), "camel": plain.name(o)}))
        """,
        tmp_path,
    )
    # The opting module speaks snake_case; a module imported after it keeps Qt's own names.
    assert result == {"snake": "seen", "camel": "seen"}
