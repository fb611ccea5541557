"""The window's process loads its modules without PySide6 reading each one's source: its import hook scanned every
Python module imported after it (``inspect.getsource``) for whether it names PySide6, 23 ms of a start and as much
again when the charts load pyqtgraph. A module that opts into a feature still gets it. Each check runs in a fresh
process, whose imports are its own; a program that draws a chart through the Python API keeps the scan
(``test_feature_host.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gui


def fresh(code: str, folder: Path) -> Any:
    """What ``code``, run by a fresh Python in ``folder`` (its modules importable from there), printed last, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=folder,
        env={
            "QT_QPA_PLATFORM": "offscreen",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).parents[2]),
            "AMDAHL_DESK_CONFIG_DIR": str(folder / "config"),  # no last document, no recovery
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_window_and_its_charts_load_without_a_source_scan(tmp_path: Path) -> None:
    result = fresh(
        f"""
        import inspect, json, sys
        read = []
        source = inspect.getsource
        inspect.getsource = lambda module: read.append(getattr(module, "__name__", "?")) or source(module)
        from amdahl_desk.cli import main
        status = main(["--screenshot", {str(tmp_path / "window.png")!r}, "--size", "1280x720"])
        loaded = sum(name.startswith(("amdahl_desk.", "pyqtgraph.")) for name in sys.modules)
        print(json.dumps({{"status": status, "read": read, "loaded": loaded}}))
        """,
        tmp_path,
    )
    assert result["status"] == 0
    assert result["loaded"] > 200  # the window's modules and the charts' did load after PySide6
    # Read: only what the binding imports with itself before its hook can be told (shiboken6, enum, PySide6).
    read = result["read"]
    assert isinstance(read, list)
    assert not [name for name in read if name.startswith(("amdahl_desk", "pyqtgraph"))], read
    assert len(read) <= 5, read


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
        from amdahl_desk.ui import without_source_scan
        without_source_scan()
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
