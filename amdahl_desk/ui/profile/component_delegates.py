"""The components table's cell delegates: numbers in the locale, elided text with the whole on hover, share bars, a scaling picker."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QPersistentModelIndex, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from ...model.profile import Scaling
from ..core.locale_editor import LocaleEditorDelegate
from .component_table import SCALING, SHARE_ROLE

ModelIndex = QModelIndex | QPersistentModelIndex
CELL_PADDING = 6  # Qt's item margins on each side of a cell's text, with room to spare


class ElidedTipDelegate(LocaleEditorDelegate):
    """Text too long for its column is elided by Qt; hovering it shows the whole of it (the table models write
    their numbers in the desktop's separators themselves, through present/)."""

    def helpEvent(self, event, view, option, index) -> bool:  # type: ignore[no-untyped-def]
        if event is not None and event.type() == QEvent.Type.ToolTip and index.isValid():
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            room = option.rect.width() - 2 * CELL_PADDING
            if text and option.fontMetrics.horizontalAdvance(text) > room:
                own = index.data(Qt.ItemDataRole.ToolTipRole)
                QToolTip.showText(event.globalPos(), text + (f"\n\n{own}" if own else ""), view, option.rect)
                return True
        return super().helpEvent(event, view, option, index)


def bar_width(cell_width: int, share: object) -> int:
    """Pixels of the share bar in a cell ``cell_width`` wide (0: no bar)."""
    if not isinstance(share, float) or share <= 0:
        return 0
    return max(1, int((cell_width - 4) * min(share, 1.0)))


class ShareBarDelegate(ElidedTipDelegate):
    """The share as a bar behind its percentage, so the big components stand out at a glance."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        width = bar_width(option.rect.width(), index.data(SHARE_ROLE))
        if width:
            rect = QRect(option.rect.adjusted(2, 3, -2, -3))
            rect.setWidth(width)
            painter.save()
            painter.fillRect(rect, QColor(70, 130, 200, 70))
            painter.restore()
        super().paint(painter, option, index)


class ScalingDelegate(ElidedTipDelegate):
    """A list to choose serial, parallel or communication from."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex) -> QWidget:
        box = QComboBox(parent)
        box.addItems([s.value for s in Scaling])
        box.setToolTip(index.model().headerData(SCALING, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole))
        return box

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole) or "serial"))
        QTimer.singleShot(0, editor, editor.showPopup)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
