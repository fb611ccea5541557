"""Pair With… never makes Qt say "edit: editing failed" (met once in a 20-minute soak): asked while a click on the
selected cell waits to open its editor, or asked again while the pairing's editor is open, the editor opens (or
stays) and nothing is printed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QComboBox

from amdahl_desk.ui.compare.comparison_table import AFTER_NAME, NAME

from .test_compare_window import AFTER, compare_through_the_menu, llm  # noqa: F401 - the fixture

pytestmark = pytest.mark.gui


def editing_failed(qtlog) -> list[str]:
    return [r.message for r in qtlog.records if "edit" in r.message and "fail" in r.message]


def open_panel(llm, monkeypatch, qtbot):  # noqa: F811 - the fixture's value
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0)
    return panel.table


def click(view, row, col):
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.visualRect(view.model().index(row, col)).center())  # fmt: skip


def test_pair_while_a_click_waits_to_edit_opens_the_editor_without_a_warning(llm, monkeypatch, qtbot, qtlog):  # noqa: F811
    view = open_panel(llm, monkeypatch, qtbot)
    click(view, 0, NAME)
    click(view, 0, NAME)  # on the selected cell: Qt starts its editor a double-click's time later
    view.pair_action.trigger()
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState)
    assert view.currentIndex().column() == AFTER_NAME
    assert isinstance(QApplication.focusWidget(), QComboBox)
    assert editing_failed(qtlog) == []


def test_pair_asked_twice_keeps_its_editor_without_a_warning(llm, monkeypatch, qtbot, qtlog):  # noqa: F811
    view = open_panel(llm, monkeypatch, qtbot)
    view.setFocus()
    assert view.edit_pair()
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState)
    assert view.edit_pair()
    assert view.state() == QAbstractItemView.State.EditingState
    assert editing_failed(qtlog) == []
