"""Ctrl+Z in a settings field whose text is committed undoes the document's last step — not the field's own
typing, which then came back as a new change when the field lost the focus."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.ui.profile.optimization_table import EFFORT, K_HIGH, K_LOW

from .driving import press, type_in_cell, type_keys
from .test_uncertainty_window import FUSION, INPUT, OVERLAP, RP, settled, type_setting

pytestmark = pytest.mark.gui

CTRL = Qt.KeyboardModifier.ControlModifier


def undo_key(qtbot, widget, shift: bool = False) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier if shift else CTRL)


def test_ctrl_z_in_the_plan_confidence_after_apply_plan_undoes_the_plan(window, qtbot):
    panel, decision, doc = window.optimizations, window.results.decision, window.doc
    qtbot.mouseClick(panel.estimates.button, Qt.MouseButton.LeftButton)
    type_in_cell(qtbot, panel.view, RP, K_LOW, "2")
    type_in_cell(qtbot, panel.view, RP, K_HIGH, "6")
    for row, days in ((RP, "10"), (INPUT, "2"), (FUSION, "3"), (OVERLAP, "2")):
        type_in_cell(qtbot, panel.view, row, EFFORT, days)
    type_setting(qtbot, decision.confidence, "95%")
    assert doc.profile.settings.plan_confidence == 0.95
    settled(window, qtbot)
    ticked = [o.enabled for o in doc.profile.optimizations]
    qtbot.mouseClick(decision.apply_button, Qt.MouseButton.LeftButton)
    assert [o.enabled for o in doc.profile.optimizations] != ticked
    steps = doc.undo_stack.count()
    decision.confidence.setFocus()  # where the focus went when the button greyed out
    qtbot.waitUntil(decision.confidence.hasFocus)
    undo_key(qtbot, decision.confidence)
    assert [o.enabled for o in doc.profile.optimizations] == ticked  # the plan is undone
    assert doc.profile.settings.plan_confidence == 0.95 and doc.undo_stack.index() == steps - 1
    undo_key(qtbot, decision.confidence)  # and the confidence before it, the field showing it
    assert doc.profile.settings.plan_confidence == 0.8
    window.drawn()
    assert decision.confidence.text() == "80%"
    window.optimizations.view.setFocus()  # leaving the field commits nothing new
    qtbot.waitUntil(lambda: not decision.confidence.hasFocus())
    assert doc.undo_stack.count() == steps and doc.profile.settings.plan_confidence == 0.8
    decision.confidence.setFocus()
    undo_key(qtbot, decision.confidence, shift=True)  # redo, from the field
    assert doc.profile.settings.plan_confidence == 0.95


def test_ctrl_z_while_typing_in_a_field_takes_back_the_typing_only(window, qtbot):
    field, doc = window.settings_panel.target, window.doc
    field.setFocus()
    field.selectAll()
    steps = doc.undo_stack.count()
    type_keys(qtbot, "7")
    undo_key(qtbot, field)
    assert field.text() == "600 ms" and doc.undo_stack.count() == steps  # the typing, not a document step
    type_keys(qtbot, "700 ms")
    press(qtbot, Qt.Key.Key_Return)
    assert doc.profile.settings.target_time == 700
    undo_key(qtbot, field)  # committed: the document's step
    assert doc.profile.settings.target_time == 600 and field.text() == "600 ms"


def test_a_spin_box_stepped_by_its_arrow_is_being_edited_and_once_committed_undoes_the_window(window, qtbot):
    panel, doc = window.settings_panel, window.doc
    doc.change_settings("Set target time", target_time=700.0)
    spin = panel.n0
    before = spin.value()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    press(qtbot, Qt.Key.Key_Up)
    assert spin.value() == before + 1 and doc.profile.settings.baseline_gpus == before  # stepped, not committed
    undo_key(qtbot, spin)
    assert doc.profile.settings.target_time == 700  # the step before is not undone under the person's hands
    spin.setValue(before + 1)
    press(qtbot, Qt.Key.Key_Return)
    assert doc.profile.settings.baseline_gpus == before + 1
    undo_key(qtbot, spin)  # committed: the window's step
    assert doc.profile.settings.baseline_gpus == before
    window.drawn()
    assert spin.value() == before


def test_an_editable_combo_box_once_committed_undoes_the_window(window, qtbot):
    fit = window.fit_panel
    combo, doc = fit.count, window.doc
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    edit = combo.lineEdit()
    edit.selectAll()
    type_keys(qtbot, "pods")
    press(qtbot, Qt.Key.Key_Return)
    assert doc.measurements.count_name == "pods"
    undo_key(qtbot, combo)
    assert doc.measurements.count_name != "pods"
