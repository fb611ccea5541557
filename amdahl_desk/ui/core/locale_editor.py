"""The cell editors of the window's tables start from a number in the desktop's decimal separator."""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex
from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate, QWidget

from .locale_text import locale_numbers


class LocaleEditorDelegate(QStyledItemDelegate):
    """In the columns ``numbers`` (those whose cells hold a number typed as text), a cell's editor starts from its
    exact number (the model's edit text, in the files' format, as a copy takes it) written with the desktop's
    decimal separator, which the table's parser reads: on a German desktop a time of 1234.5 opens as "1234,5" and,
    committed unchanged, stays 1234.5. In any other column a text opens as it is, even one like "3.14"."""

    def __init__(self, parent: QObject | None = None, numbers: Collection[int] = ()) -> None:
        super().__init__(parent)
        self.numbers = frozenset(numbers)

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        super().setEditorData(editor, index)
        if isinstance(editor, QLineEdit) and index.column() in self.numbers:
            shown = locale_numbers().for_editor(editor.text())
            if shown != editor.text():
                editor.setText(shown)
