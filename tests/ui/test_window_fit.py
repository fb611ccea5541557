"""The window fits the screen it is on and says what it refuses where it happened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from amdahl_desk.ui.profile.component_table import NAME, TIME

pytestmark = pytest.mark.gui


def _type_into(qtbot, view, row: int, col: int, text: str) -> None:
    view.setCurrentIndex(view.model().index(row, col))
    view.setFocus()
    qtbot.keyClicks(view, text[0])  # the first key opens the editor, as in a spreadsheet
    editor = view.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, text[1:])
    qtbot.keyClick(editor, Qt.Key.Key_Return)


class TestRefusalAtTheCell:
    def test_refused_time_is_explained_beside_the_open_editor(self, window, qtbot):
        view = window.table
        before = window.doc.profile.components[1].time
        _type_into(qtbot, view, 1, TIME, "fast")
        message = view.message
        qtbot.waitUntil(lambda: message.isVisible() and view.state() == QAbstractItemView.State.EditingState)
        assert message.isVisible()
        assert "fast" in message.text() or "number" in message.text().lower(), message.text()
        cell = view.visualRect(window.component_model.index(1, TIME))
        # Right beside the cell: touching its bottom (or top) edge and overlapping it sideways.
        assert message.geometry().top() in (cell.bottom() + 2, cell.top() - message.height() - 2)
        assert message.geometry().left() < cell.right() and message.geometry().right() > cell.left()
        assert view.viewport().rect().contains(message.geometry())
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit) and editor.text() == "fast"
        # It stays while the editor is open (no timer takes it away) ...
        qtbot.wait(50)
        assert message.isVisible()
        # ... and goes with the editor.
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not message.isVisible())
        assert window.doc.profile.components[1].time == before

    def test_refused_duplicate_name_is_explained_and_a_fix_clears_it(self, window, qtbot):
        view = window.table
        other = window.doc.profile.components[0].name
        _type_into(qtbot, view, 2, NAME, other)
        qtbot.waitUntil(lambda: view.message.isVisible() and view.state() == QAbstractItemView.State.EditingState)
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit)
        editor.setText("A new unique name")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: not view.message.isVisible())
        assert window.doc.profile.components[2].name == "A new unique name"

    def test_refused_paste_points_at_its_cell(self, window, qtbot):
        from PySide6.QtGui import QGuiApplication

        view = window.table
        QGuiApplication.clipboard().setText("10\nslow\n30")
        view.setCurrentIndex(window.component_model.index(0, TIME))
        view.paste()
        cell = view.visualRect(window.component_model.index(1, TIME))
        assert view.message.isVisible()
        assert view.message.geometry().top() in (cell.bottom() + 2, cell.top() - view.message.height() - 2)

    def test_refused_optimization_value_is_shown_at_its_cell(self, window):
        from amdahl_desk.ui.profile.optimization_table import NAME as OPT_NAME

        panel = window.optimizations
        model = window.optimization_model
        assert not model.setData(model.index(1, OPT_NAME), "  ", Qt.ItemDataRole.EditRole)  # a name is needed
        cell = panel.view.visualRect(model.index(1, OPT_NAME))
        assert panel.message.isVisible() and panel.message.text() == panel.last_rejection
        assert panel.message.geometry().top() in (cell.bottom() + 2, cell.top() - panel.message.height() - 2)
        panel.select_row(2)
        assert not panel.message.isVisible()

    def test_refused_setting_is_shown_under_its_field_until_fixed(self, window, qtbot):
        panel = window.settings_panel
        panel.counts.setText("1, 8, lots")
        panel.counts.editingFinished.emit()
        notice = panel.notice
        assert notice.isVisible() and "whole numbers" in notice.text()

        def beside() -> bool:
            field = QRect(panel.counts.mapTo(panel, QPoint(0, 0)), panel.counts.size())
            return notice.geometry().top() in (field.bottom() + 2, field.top() - notice.height() - 2)

        qtbot.waitUntil(beside)  # it follows the field when the red frame changes the field's height
        panel.counts.setText("1, 8, 64")
        panel.counts.editingFinished.emit()
        assert not notice.isVisible()
        assert window.doc.profile.settings.gpu_counts == (1, 8, 64)
