"""An editor open in a table is never orphaned by the change it commits: no "commitData called with an editor
that does not belong to this view" (the soak printed it 35 times), and the next cell edits as a person expects."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

from amdahl_desk.ui.objectives.objectives_sheet import NAME, NOTES, TARGET

from .driving import click_cell, press, type_in_cell, type_keys

pytestmark = pytest.mark.gui  # qt_log_level_fail = WARNING: the Qt warning itself fails these tests


def test_typing_objectives_row_after_row_with_tab_and_enter(objectives, qtbot):
    sheet = objectives.panel.sheet
    before = len(objectives.doc.profile.objectives)
    type_in_cell(qtbot, sheet, before, NAME, "Decode", end=Qt.Key.Key_Tab)  # adds a row; Tab goes on to its target
    qtbot.waitUntil(lambda: sheet.state() == QAbstractItemView.State.EditingState)
    assert (sheet.currentIndex().row(), sheet.currentIndex().column()) == (before, TARGET)
    type_keys(qtbot, "40")
    press(qtbot, Qt.Key.Key_Tab)
    type_keys(qtbot, "per token")
    press(qtbot, Qt.Key.Key_Return)
    type_in_cell(qtbot, sheet, before + 1, NAME, "Prefill")  # and once more, ended with Enter
    specs = objectives.doc.profile.objectives
    assert [(s.name, s.target_time, s.notes) for s in specs[before:]] == [
        ("Decode", 40.0, "per token"),
        ("Prefill", None, ""),
    ]
    click_cell(qtbot, sheet, before, NAME)
    press(qtbot, Qt.Key.Key_Delete)  # a row goes while the next is edited
    type_in_cell(qtbot, sheet, before, NOTES, "first token", end=Qt.Key.Key_Tab)
    assert [(s.name, s.notes) for s in objectives.doc.profile.objectives[before:]] == [("Prefill", "first token")]


def test_an_edit_committed_by_a_click_elsewhere_in_the_sheet(objectives, qtbot):
    sheet = objectives.panel.sheet
    before = len(objectives.doc.profile.objectives)
    click_cell(qtbot, sheet, before, NAME)
    type_keys(qtbot, "ITL")
    click_cell(qtbot, sheet, 0, NOTES)  # the click commits the name (a new row) and moves on
    type_keys(qtbot, "x")
    press(qtbot, Qt.Key.Key_Return)
    assert objectives.doc.profile.objectives[-1].name == "ITL"


def test_the_objectives_model_keeps_qts_rules_through_adds_and_deletes(objectives, qtmodeltester):
    model = objectives.panel.sheet_model
    qtmodeltester.check(model)
    assert model.setData(model.index(model.rowCount() - 1, NAME), "Decode")
    assert model.setData(model.index(model.rowCount() - 1, NAME), "Prefill")
    model.remove_rows([model.rowCount() - 3])
    qtmodeltester.check(model)
    assert model.rowCount() == len(objectives.doc.profile.objectives) + 1


@pytest.mark.parametrize("table", ["components", "runs", "optimizations", "objectives"])
def test_an_editor_the_view_has_let_go_commits_nothing_when_it_loses_the_focus_late(request, panel_doc, qtbot, table):
    """What the soak hit on a real X server: a closed editor still loses the focus once more, and its delegate's
    event filter commits it. The view takes no commit from an editor it has let go (and Qt has nothing to warn)."""
    from amdahl_desk.ui.fit.runs_model import COUNT
    from amdahl_desk.ui.profile.component_table import TIME
    from amdahl_desk.ui.profile.optimization_table import NAME as OPT_NAME

    # each table on its own, shown on the document
    fixture, view_of, col = {
        "components": ("components", lambda p: p.table, TIME),
        "runs": ("runs", lambda p: p.panel.view, COUNT),
        "optimizations": ("checklist", lambda p: p.panel.view, OPT_NAME),
        "objectives": ("objectives", lambda p: p.panel.sheet, NOTES),
    }[table]
    view = view_of(request.getfixturevalue(fixture))
    click_cell(qtbot, view, 0, col)
    press(qtbot, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.setText("42")
    press(qtbot, Qt.Key.Key_Escape)  # the view closes it: hidden, deleted later
    count = panel_doc.undo_stack.count()
    view.itemDelegateForIndex(view.model().index(0, col)).commitData.emit(editor)  # the late focus-out's commit
    assert panel_doc.undo_stack.count() == count
