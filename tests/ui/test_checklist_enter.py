"""Enter in the checklist commits and moves down a row, as in the components table: efforts typed one after
another with Enter land in one row each."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.ui.profile.optimization_table import EFFORT, NAME, K

from .driving import click_cell, press, type_keys

pytestmark = pytest.mark.gui


def test_efforts_typed_with_enter_land_one_row_each(checklist, qtbot):
    view, model = checklist.panel.view, checklist.model
    assert model.rowCount() >= 3
    checklist.panel.estimates.button.setChecked(True)
    qtbot.waitUntil(lambda: not view.isColumnHidden(EFFORT))
    click_cell(qtbot, view, 0, EFFORT)
    for days in ("3", "5", "8"):
        type_keys(qtbot, days)
        press(qtbot, Qt.Key.Key_Return)
    assert [o.effort for o in checklist.doc.profile.optimizations[:3]] == [3, 5, 8]
    assert (view.currentIndex().row(), view.currentIndex().column()) == (3 if model.rowCount() > 3 else 2, EFFORT)


def test_enter_on_a_cell_not_being_edited_moves_down_and_shift_enter_up(checklist, qtbot):
    view = checklist.panel.view
    click_cell(qtbot, view, 0, K)
    press(qtbot, Qt.Key.Key_Return)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (1, K)
    press(qtbot, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (0, K)


def test_enter_on_the_last_row_stays_there(checklist, qtbot):
    view, model = checklist.panel.view, checklist.model
    last = model.rowCount() - 1
    click_cell(qtbot, view, last, NAME)
    press(qtbot, Qt.Key.Key_Return)
    assert view.currentIndex().row() == last
