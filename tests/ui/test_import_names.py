"""What the import preview shows is what Import makes: names from a trace cleaned by the profile's own rule."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.profile_rules import name_problem

from .test_import_dialog import start_import, wait_preview

pytestmark = pytest.mark.gui


def _trace_with_names(path, names: list[str]):
    events = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100}]
    for k, name in enumerate(names):
        events.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1, "ts": 10 * k, "dur": 5})
    path.write_text(json.dumps({"traceEvents": events}))
    return path


def test_names_with_control_characters_import_as_the_preview_shows_them(window, qtbot, tmp_path):
    raw = ["fwd\x01pass", "fwd\x02pass", "bwd\tpass\n", "\x7f", "opt\u0085step", "\x1b[31mred\x1b[0m", "   "]
    path = _trace_with_names(tmp_path / "control.json", raw)
    dialog = start_import(window, qtbot, path)
    wait_preview(qtbot, dialog)
    m = dialog.shown.preview_model
    shown = [m.index(r, 0).data() for r in range(m.rowCount())]
    # each control character is one U+FFFD, tabs and line breaks a space; names stay unique
    assert shown == [
        "fwd\ufffdpass",
        "fwd\ufffdpass (2)",
        "bwd pass",
        "\ufffd",
        "opt\ufffdstep",
        "\ufffd[31mred\ufffd[0m",
        "(unnamed)",
        "Unattributed",
    ]
    assert all(name_problem(n) is None for n in shown)
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000) as done:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert done.args == [True] and not window.errors
    assert [c.name for c in window.doc.profile.components] == shown
