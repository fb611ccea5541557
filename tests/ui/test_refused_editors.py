"""A refused value never takes keys meant for another widget: leave its cell, its table or its tab, and it goes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from amdahl_desk.ui.fit.measurement_table import COUNT, VALUE
from amdahl_desk.ui.objectives.objectives_sheet import TARGET
from amdahl_desk.ui.profile.component_table import TIME
from amdahl_desk.ui.profile.optimization_table import NAME, K

from .driving import click_cell, focused, press, show_tab, type_in_cell, type_keys

pytestmark = pytest.mark.gui
PROFILE, MEASUREMENTS, OBJECTIVES = range(3)


def times(window) -> list[float]:
    return [c.time for c in window.doc.profile.components]


def test_keys_typed_on_another_tab_go_there_not_into_the_refused_editor(window, qtbot):
    row = [c.name for c in window.doc.profile.components].index("Other GPU kernels")
    before = times(window)
    type_in_cell(qtbot, window.table, row, TIME, "abc")
    # Refused: the editor stays open with the text, focused and visibly marked, so it can be fixed.
    qtbot.waitUntil(lambda: isinstance(focused(), QLineEdit) and focused().text() == "abc")
    assert window.table.state() == QAbstractItemView.State.EditingState and window.table.message.isVisible()
    show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    runs = window.fit_panel.view
    click_cell(qtbot, runs, 0, COUNT)
    type_keys(qtbot, "7")
    press(qtbot, Qt.Key.Key_Tab)
    assert times(window) == before  # the component kept its time
    assert window.doc.measurements.rows[0].n == 7  # the 7 went where it was typed
    assert window.table.state() != QAbstractItemView.State.EditingState
    show_tab(qtbot, window.left_tabs, PROFILE)
    assert window.table.state() != QAbstractItemView.State.EditingState and not window.table.message.isVisible()


def test_a_click_on_another_table_of_the_same_tab_leaves_the_refused_cell(window, qtbot):
    before = times(window)
    type_in_cell(qtbot, window.table, 1, TIME, "lots")
    qtbot.waitUntil(lambda: isinstance(focused(), QLineEdit) and focused().text() == "lots")
    view = window.optimizations.view
    type_in_cell(qtbot, view, 0, K, "3")
    assert times(window) == before
    assert window.doc.profile.optimizations[0].speedup == 3


def test_a_refused_run_does_not_follow_into_the_profile(window, qtbot):
    show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    runs = window.fit_panel.view
    type_in_cell(qtbot, runs, 0, VALUE, "soon")
    qtbot.waitUntil(lambda: isinstance(focused(), QLineEdit) and focused().text() == "soon")
    show_tab(qtbot, window.left_tabs, PROFILE)
    type_in_cell(qtbot, window.table, 0, TIME, "120", end=Qt.Key.Key_Tab)
    assert window.doc.profile.components[0].time == 120
    assert not window.doc.measurements.rows or all(r.value is None for r in window.doc.measurements.rows)


def test_a_refused_optimization_name_does_not_follow_into_the_runs(window, qtbot):
    opts = list(window.doc.profile.optimizations)
    view = window.optimizations.view
    click_cell(qtbot, view, 0, NAME)
    press(qtbot, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState)
    press(qtbot, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Backspace)  # no name is refused
    press(qtbot, Qt.Key.Key_Return)
    assert "needs a name" in window.optimizations.last_rejection
    show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    type_in_cell(qtbot, window.fit_panel.view, 0, COUNT, "4", end=Qt.Key.Key_Tab)
    assert list(window.doc.profile.optimizations) == opts
    assert window.doc.measurements.rows[0].n == 4


def test_a_refused_objective_target_does_not_follow_into_the_profile(window, qtbot):
    show_tab(qtbot, window.left_tabs, OBJECTIVES)
    sheet = window.objectives_panel.sheet
    type_in_cell(qtbot, sheet, 0, TARGET, "never")
    assert "never" in sheet.last_refusal
    objectives = window.doc.profile.objectives
    show_tab(qtbot, window.left_tabs, PROFILE)
    type_in_cell(qtbot, window.table, 2, TIME, "75", end=Qt.Key.Key_Tab)
    assert window.doc.profile.components[2].time == 75
    assert window.doc.profile.objectives == objectives
