"""The window's import keeps its memory in bounds: a large trace is previewed from its events alone (as the
command line streams it), a read that passes the window's memory limit stops and is refused naming the size,
and a closed or cancelled import lets its trace go."""

from __future__ import annotations

import gc
import weakref

import pytest

from amdahl_desk.files.traces import load_trace
from amdahl_desk.ui.import_ import loader

from ..traces import expect
from .panels import import_dialog

pytestmark = pytest.mark.gui
STEPS = expect.FIXTURES / "torch_cpu_steps.json.gz"


def preview(qtbot, dialog):
    qtbot.waitUntil(lambda: dialog.preview_result is not None and dialog.pending is None, timeout=30_000)
    return dialog.preview_result


def test_a_read_past_the_memory_limit_is_refused_naming_the_size(qtbot, monkeypatch):
    monkeypatch.setattr(loader, "MEMORY_LIMIT", -(1 << 40))  # any read adds more than that
    from amdahl_desk.ui.import_.import_dialog import ImportDialog

    failed = []
    dialog = ImportDialog([STEPS])
    dialog.failed.connect(failed.append)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: bool(failed), timeout=30_000)
    assert (
        failed[0].startswith("torch_cpu_steps.json.gz (") and " MB) is too large for the window's import" in failed[0]
    )
    assert "amdahl-desk import torch_cpu_steps.json.gz --out profile.xlsx" in failed[0]
    assert dialog.session.worker.trace is None


def test_a_window_that_already_holds_much_still_reads_a_small_trace(qtbot, monkeypatch):
    """The limit is on what the read adds: a window at 3 GB after a long session (as a test worker is after
    hundreds of windows) still imports a 14 kB trace."""
    monkeypatch.setattr(loader, "resident_bytes", lambda: 3_000_000_000)
    dialog = import_dialog(qtbot, STEPS)
    assert preview(qtbot, dialog).components
    dialog.reject()


def test_a_large_trace_is_previewed_from_its_events_alone(qtbot, monkeypatch):
    monkeypatch.setattr(loader, "DEPENDENCIES_UP_TO", 0)  # every trace is "large"
    enriched = []
    dialog = import_dialog(qtbot, STEPS)
    dialog.session.worker.enriched.connect(lambda *_: enriched.append(1))
    result = preview(qtbot, dialog)
    assert result.group_by == "annotation" and result.components
    assert not dialog.session.worker.has_dependencies
    assert "leaves out each component's time on the critical path" in dialog.shown.notes.toPlainText()
    # the same components as a read with the dependencies: the preview is the import's, only the path is left out
    full = load_trace(STEPS, dependencies=True).summarise(dialog.options)
    assert [(c.name, c.time) for c in result.components] == [(c.name, c.time) for c in full.components]
    assert not enriched and not dialog.shown.preview_model.enriched
    dialog.reject()


def test_a_closed_import_lets_its_trace_go(qtbot):
    dialog = import_dialog(qtbot, STEPS)
    preview(qtbot, dialog)
    trace = weakref.ref(dialog.trace)
    dialog.reject()
    gc.collect()
    assert trace() is None
