"""The import dialog's steps: CPU and GPU time per step, the flag where a step is off, Leave out flagged steps
whenever a kept step is flagged, and warnings worded for a window (its controls, never command-line flags)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.model.units import format_number
from amdahl_desk.ui.import_.preview_models import StepTableModel

from ..traces import expect
from .test_import_dialog import choose, set_grouping, start_import, wait_preview

pytestmark = pytest.mark.gui
LAST = "ProfilerStep#554"
FLAG = re.compile(r"(^|\s)--[a-z]")  # a command-line flag such as --exclude-steps or --total


def _cells(dialog, column: int) -> dict[str, str]:
    m = dialog.step_model
    return {m.steps[r].name: m.index(r, column).data() for r in range(m.rowCount())}


def _no_flags_in(text: str) -> None:
    assert not FLAG.search(text), text


def test_the_16_gpu_trace_flags_the_last_steps_gpu_stretch_and_leaves_it_out(window, qtbot):
    trace = expect.load(expect.NCCL16)
    dialog = start_import(window, qtbot, expect.NCCL16)
    result = wait_preview(qtbot, dialog)
    assert result.group_by == "annotation"  # the default grouping flags it too: it is the same step
    m = dialog.step_model
    assert not dialog.step_view.isColumnHidden(StepTableModel.GPU)
    cpu = {s["name"]: float(s["dur"]) / 1000 for s in expect.steps(trace)}
    gpu = expect.gpu_stretches_ms(trace)
    for r, step in enumerate(m.steps):
        assert m.index(r, StepTableModel.TIME).data(Qt.ItemDataRole.UserRole) == pytest.approx(cpu[step.name])
        assert m.index(r, StepTableModel.GPU).data(Qt.ItemDataRole.UserRole) == pytest.approx(gpu[step.name])
    # the CPU time of the last step is like the others'; its GPU stretch is the one that is off, flagged there
    assert _cells(dialog, StepTableModel.TIME)[LAST] == format_number(cpu[LAST])
    assert _cells(dialog, StepTableModel.GPU)[LAST] == format_number(gpu[LAST]) + " ⚑"
    assert [n for n, t in _cells(dialog, StepTableModel.GPU).items() if "⚑" in t] == [LAST]
    assert not any("⚑" in t for t in _cells(dialog, StepTableModel.TIME).values())
    last = next(r for r in range(m.rowCount()) if m.steps[r].name == LAST)
    assert m.index(last, StepTableModel.GPU).data(Qt.ItemDataRole.FontRole).bold()
    assert m.index(last, StepTableModel.TIME).data(Qt.ItemDataRole.FontRole) is None
    assert "GPU" in _cells(dialog, StepTableModel.NOTE)[LAST]

    result = set_grouping(qtbot, dialog, "gpu")
    notes = dialog.shown.notes.toPlainText()
    assert LAST in notes and "untick ProfilerStep#554 in Steps" in notes
    _no_flags_in(notes)
    assert any("--exclude-steps" in w for w in result.warnings)  # the command line keeps its wording
    assert "not the bottleneck" not in notes and "is the bottleneck" not in notes
    assert "agree (214.2 against 214.5 ms)" in notes

    assert dialog.leave_out.isEnabled()
    result = choose(qtbot, dialog, lambda: qtbot.mouseClick(dialog.leave_out, Qt.MouseButton.LeftButton))
    assert [s.name for s in result.steps if s.excluded] == [LAST]
    assert m.index(last, 0).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert result.gpu.span == pytest.approx(expect.gpu_per_step_ms(trace, skip={LAST})["span"], rel=1e-9)
    assert "GPU timeline's step" not in dialog.shown.notes.toPlainText()  # the kept steps agree
    assert not dialog.leave_out.isEnabled()  # nothing flagged is kept

    # ticking it again with the keyboard, as a person would: the flag and the button come back
    dialog.step_view.setFocus()
    dialog.step_view.setCurrentIndex(m.index(last, 0))
    result = choose(qtbot, dialog, lambda: qtbot.keyClick(dialog.step_view, Qt.Key.Key_Space))
    assert not any(s.excluded for s in result.steps) and dialog.leave_out.isEnabled()
    dialog.reject()


def test_cpu_flags_sit_on_the_cpu_time(window, qtbot):
    trace = expect.load(expect.ONE_GPU)
    durs = {s["name"]: float(s["dur"]) / 1000 for s in expect.steps(trace)}
    median = sorted(durs.values())[len(durs) // 2]
    far = {n for n, d in durs.items() if abs(d - median) > 0.2 * median}
    dialog = start_import(window, qtbot, expect.ONE_GPU)
    wait_preview(qtbot, dialog)
    assert {n for n, t in _cells(dialog, StepTableModel.TIME).items() if "⚑" in t} == far
    assert not any("⚑" in t for t in _cells(dialog, StepTableModel.GPU).values())
    assert dialog.leave_out.isEnabled()
    notes = dialog.shown.notes.toPlainText()
    assert all(n in notes for n in far) and "Leave out flagged steps" in notes
    # what to do, said whole: "untick ProfilerStep#… in Steps (or Leave out flagged steps) to leave it out"
    assert all(f"untick {n} in Steps (or Leave out flagged steps) to leave it out" in notes for n in far), notes
    _no_flags_in(notes)
    dialog.reject()


def test_a_trace_without_gpu_events_has_no_gpu_column(window, qtbot):
    dialog = start_import(window, qtbot, expect.FIXTURES / "torch_cpu_steps.json.gz")
    wait_preview(qtbot, dialog)
    assert dialog.step_view.isColumnHidden(StepTableModel.GPU)
    assert all(t == "—" for t in _cells(dialog, StepTableModel.GPU).values())
    dialog.reject()


def test_refusals_and_the_no_steps_warning_are_worded_for_the_window(window, qtbot, tmp_path):
    dialog = start_import(window, qtbot, expect.FIXTURES / "torch_cpu_steps.json.gz")
    wait_preview(qtbot, dialog)
    m = dialog.step_model
    dialog.step_view.setFocus()
    for r in range(m.rowCount()):  # untick every step with the keyboard
        dialog.step_view.setCurrentIndex(m.index(r, 0))
        qtbot.keyClick(dialog.step_view, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: dialog.shown.refusal.isVisible())
    assert "every step is left out" in dialog.shown.refusal.text() and "Whole trace" in dialog.shown.refusal.text()
    _no_flags_in(dialog.shown.refusal.text())
    dialog.reject()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)

    import json

    path = tmp_path / "nosteps.json"
    path.write_text(
        json.dumps({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]})
    )
    dialog = start_import(window, qtbot, path)
    result = wait_preview(qtbot, dialog)
    assert any("--total" in w for w in result.warnings)
    notes = dialog.shown.notes.toPlainText()
    assert "no ProfilerStep events" in notes
    _no_flags_in(notes)
    dialog.reject()
