"""The window's shortcuts reach it while a text field has the focus (Ctrl+E exports the slide from the target
field or a cell being typed into), and the field keeps the keys it edits with."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

pytestmark = pytest.mark.gui


class ClaimsEmacsKeys(QObject):
    """Line edits as Qt makes them on X11, which claim Ctrl+E (end of line) and Ctrl+K before any shortcut (the
    offscreen platform the tests run on uses Windows' key scheme, where they do not). On the application, this
    filter sees the key before a field's own filters, as the field's ``event()`` sees it after them."""

    def eventFilter(self, watched, event):  # noqa: N802 - Qt's name
        control = (
            event.type() == QEvent.Type.ShortcutOverride and event.modifiers() == Qt.KeyboardModifier.ControlModifier
        )
        if control and isinstance(watched, QLineEdit) and event.key() in (Qt.Key.Key_E, Qt.Key.Key_K):
            event.accept()
        return False


@pytest.fixture(autouse=True)
def as_on_x11(qapp):
    claims = ClaimsEmacsKeys()
    qapp.installEventFilter(claims)
    yield
    qapp.removeEventFilter(claims)


def exports_asked(window):
    asked = []
    window.exports.export_dialog = lambda key, *a, **k: asked.append(key)
    return asked


def focus(qtbot, field):
    field.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is field)


def test_ctrl_e_exports_the_slide_from_a_settings_field(window, qtbot):
    asked = exports_asked(window)
    field = window.settings_panel.target
    focus(qtbot, field)
    qtbot.keyClick(field, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == ["slide"]


def test_ctrl_e_exports_the_slide_from_a_cell_being_typed_into(window, qtbot):
    asked = exports_asked(window)
    table = window.table
    table.setFocus()
    table.setCurrentIndex(table.model().index(0, 0))
    table.edit(table.currentIndex())
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    qtbot.keyClick(editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == ["slide"]


def test_the_field_keeps_select_all_and_its_typing(window, qtbot):
    asked = exports_asked(window)
    field = window.settings_panel.target
    focus(qtbot, field)
    field.setText("900 ms")
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert field.selectedText() == "900 ms" and asked == []
    qtbot.keyClicks(field, "e")
    assert field.text() == "e" and asked == []
    qtbot.keyClick(field, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)  # no window key: the field's
    assert asked == []
