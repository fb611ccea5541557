"""The window's own shortcuts reach it while a text field has the focus.

Qt gives a line edit, a spin box's text and a text box the first say over a key (ShortcutOverride). On X11 a
line edit claims the emacs-style Ctrl keys there (Ctrl+E: end of line, Ctrl+N, Ctrl+K…), so Export Slide
(Ctrl+E) did nothing while the target or a cell was being typed into, though the menu names the key. Here a
window shortcut wins over those keys in the window's fields, as it does on Windows and macOS; the keys a field
edits with everywhere (cut, copy, paste, select all, delete) stay the field's, and Undo/Redo are
:mod:`.field_undo`'s to decide.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

_FIELD_KEYS = (
    QKeySequence.StandardKey.Undo,
    QKeySequence.StandardKey.Redo,
    QKeySequence.StandardKey.Cut,
    QKeySequence.StandardKey.Copy,
    QKeySequence.StandardKey.Paste,
    QKeySequence.StandardKey.SelectAll,
    QKeySequence.StandardKey.Delete,
)
_WINDOW_WIDE = (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut)
_TEXT_FIELDS = (QLineEdit, QAbstractSpinBox, QComboBox, QTextEdit, QPlainTextEdit)


class WindowKeys(QObject):
    """Watches the focus; a text field of ``window`` that takes it lets the window's Ctrl shortcuts through."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_moved)

    def _focus_moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        if isinstance(new, _TEXT_FIELDS) and new.window() is self.window:
            new.installEventFilter(self)  # installed again on the same field, Qt keeps it once

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            return False  # plain and shifted keys are typing
        if any(event.matches(key) for key in _FIELD_KEYS):
            return False
        if QKeySequence(event.keyCombination()) in self.shortcuts():
            event.ignore()  # not the field's: the shortcut map gives the key to the window's action
            return True
        return False

    def shortcuts(self) -> set[QKeySequence]:
        """The keys of the window's enabled actions that work anywhere in it (asked per Ctrl key: menus change)."""
        return {
            key
            for action in self.window.findChildren(QAction)
            if action.isEnabled() and action.shortcutContext() in _WINDOW_WIDE
            for key in action.shortcuts()
        }
