"""Driving the window as a person does: clicks on tabs and cells, typed keys, the clipboard."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTabWidget, QWidget

from amdahl_desk.ui.core.qt_util import settle_layout


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def show_tab(qtbot, tabs: QTabWidget, index: int) -> None:
    """Click a tab's title, as a person switches tabs."""
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: tabs.currentIndex() == index and tabs.currentWidget().isVisible())
    settle_layout()


def click_cell(qtbot, view, row: int, col: int) -> None:
    """Click a cell of a table view (it becomes current and the view takes the focus)."""
    view.scrollTo(view.model().index(row, col))
    rect = view.visualRect(view.model().index(row, col))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: view.currentIndex().row() == row and view.currentIndex().column() == col)
    settle_layout()


def type_keys(qtbot, text: str) -> None:
    """Type into whatever has the focus, one key at a time (the first key on a table opens its editor)."""
    for ch in text:
        widget = focused()
        assert widget is not None, "nothing has the keyboard focus"
        if ord(ch) < 128:
            qtbot.keyClicks(widget, ch)
        else:  # keyClicks with non-ASCII text aborts Qt
            for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))
        settle_layout()


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key on the focused widget, then what it queued (a commit, a refused text given back)."""
    widget = focused()
    assert widget is not None, "nothing has the keyboard focus"
    qtbot.keyClick(widget, key, modifier)
    settle_layout()


def type_in_cell(qtbot, view, row: int, col: int, text: str, end: Qt.Key = Qt.Key.Key_Return) -> None:
    """Click a cell, type over it and end with ``end`` (Enter, Tab)."""
    click_cell(qtbot, view, row, col)
    type_keys(qtbot, text[0])
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState)
    type_keys(qtbot, text[1:])
    press(qtbot, end)


def paste_at(qtbot, view, row: int, col: int, text: str) -> None:
    """Put ``text`` on the clipboard, click the cell and press the platform's Paste keys."""
    QGuiApplication.clipboard().setText(text)
    click_cell(qtbot, view, row, col)
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def type_into(form, name: str, text: str) -> bool:
    """Replace a settings field's text by typing it (non-ASCII characters as key events) and press Enter, as a
    person does; True when the field accepted it."""
    edit = form.fields[name]
    edit.setFocus()
    edit.selectAll()
    QApplication.sendEvent(edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier))
    for ch in text:
        QApplication.sendEvent(edit, QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, ch))
    QApplication.sendEvent(edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier))
    return form.message(name) == ""
