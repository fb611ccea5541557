"""Undo in a settings field: the document's, once what the field shows is the document's.

A field that commits its text when editing finishes (the target, the plan confidence, a price…) is a line
edit (alone, or in a spin box or an editable combo box), which keeps an undo history of its own typing and takes
Ctrl+Z for it. Once its text is committed,
that history is stale: Ctrl+Z there brought back an older typed text, which the next focus change committed —
an undo that made a new change, while the step the person meant (Apply plan, the confidence itself) stayed.
So in a committing field whose text is not being edited (not modified since it was committed or shown),
Undo and Redo are the window's: the field lets the shortcut through. While a person is typing, the field's own
undo takes back their typing, as in any text field.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QWidget

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)
EXTRA_REDO_KEYS = ("Ctrl+Shift+Z", "Ctrl+Y")  # the window's redo keys beside the platform's (menus.py gives them)


Field = QLineEdit | QAbstractSpinBox | QComboBox  # a combo box that takes typing (its line edit)


def _line_edit(field: QObject | None) -> QLineEdit | None:
    if isinstance(field, (QAbstractSpinBox, QComboBox)):
        return field.lineEdit()
    return field if isinstance(field, QLineEdit) else None


def commits_when_finished(*fields: Field) -> None:
    """Mark ``fields`` as ones that commit their text to the document when editing finishes; the panel says
    :func:`committed` when a text is taken (a text set by the program counts as committed: ``setText`` clears
    ``isModified``). A refused text stays the field's own: Ctrl+Z there takes back the typing. The filter sits on
    each field, not on the application: one there would be called for every event of every widget."""
    for field in fields:
        field.installEventFilter(_filter_for(field))
        stepped = getattr(field, "valueChanged", None)  # a spin box stepped by its arrows is being edited too
        edit = _line_edit(field)
        if isinstance(field, QAbstractSpinBox) and stepped is not None and edit is not None:
            stepped.connect(lambda *_args, e=edit: e.setModified(True))


def committed(field: Field | None) -> None:
    """``field``'s text is the document's now (taken, or the same as it was)."""
    edit = _line_edit(field)
    if edit is not None:
        edit.setModified(False)


def _is_undo_key(event: QKeyEvent) -> bool:
    if any(event.matches(key) for key in _UNDO_KEYS):
        return True
    pressed = QKeySequence(event.keyCombination())
    return any(QKeySequence(extra) == pressed for extra in EXTRA_REDO_KEYS)


class FieldUndo(QObject):
    """Installed on each committing field: lets Undo and Redo through to the window from a committed field."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.ShortcutOverride:
            return False
        edit = _line_edit(watched)
        if edit is None or edit.isModified() or not isinstance(event, QKeyEvent):
            return False
        if _is_undo_key(event):
            event.ignore()  # not the field's: the shortcut map gives the keys to the window's Undo / Redo
            return True
        return False


def _filter_for(field: QObject) -> FieldUndo:
    """The filter of the field's top widget as it is built (its panel): made with that panel's first field, shared
    by the rest, and deleted with them."""
    owner = field.window() if isinstance(field, QWidget) else field
    found = owner.findChild(FieldUndo, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return found if found is not None else FieldUndo(owner)
