"""A refusal shown where it happened: a small message box beside the cell or field, not only in the status bar."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from ...present.colours import RED

STYLE = (
    f"QLabel {{ background: #fdecea; color: #7a1f14; border: 1px solid {RED}; border-radius: 3px; padding: 3px 6px; }}"
)


class CellMessage(QLabel):
    """Sits just below (or, without room, above) a rectangle of its host and stays until told to go, or until
    the focus leaves its ``area`` for another widget.

    The host is a table's viewport or a form; the owner shows it on a refusal and hides it when the
    editor closes, the cell changes, or the value is accepted, so the reason is in view while it is fixed.
    """

    def __init__(self, host: QWidget, area: QWidget | None = None) -> None:
        """``area``: the widget (a table) whose refusals this message explains; it goes when the person moves on
        from it to another widget (it stayed over the table through clicks elsewhere and dialogs; the status bar
        keeps what was refused)."""
        super().__init__(host)
        self._said = ""  # what it said on the status line too, taken back when the refusal is over
        self._area = area
        self._armed = False  # the focus has been in the area since the message was shown: leaving it hides it
        app = QApplication.instance()
        if area is not None and isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_moved)
        self.setObjectName("cellMessage")
        self.setStyleSheet(STYLE)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()
        self.anchor = QRect()
        self._field: QWidget | None = None
        self._following = False

    def tell_status(self, text: str) -> None:
        """Say ``text`` on the window's status line too (ten seconds): where this message has gone with the focus,
        or never showed, the status line still says what was refused."""
        status = getattr(self.window(), "statusBar", None)
        if callable(status):
            status().showMessage(text, 10000)
            self._said = text

    def take_back_status(self) -> None:
        """The refusal is over (Escape, the value taken, the document changed): the status line stops saying it, if
        it still does (it stayed ten seconds and read as a refusal of what was just accepted)."""
        if not self._said:  # the usual case, on every change of a table: nothing to look up
            return
        said, self._said = self._said, ""
        status = getattr(self.window(), "statusBar", None)
        if callable(status) and status().currentMessage() == said:
            status().clearMessage()

    def show_beside(self, field: QWidget, text: str) -> None:
        """Show ``text`` beside a field of the host and follow it when the layout moves it."""
        if self._field is not field:
            if self._field is not None:
                self._field.removeEventFilter(self)
            self._field = field
            field.installEventFilter(self)
        self._following = True
        self.show_at(self._field_rect(field), text)

    def is_beside(self, field: QWidget) -> bool:
        return self._field is field

    def _field_rect(self, field: QWidget) -> QRect:
        host = self.parentWidget()
        return QRect(field.mapTo(host, QPoint(0, 0)), field.size()) if host is not None else field.geometry()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._field and self._following and event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
            QTimer.singleShot(0, self, self._refollow)  # once the layout is done with the field
        return False

    def _refollow(self) -> None:
        if self._following and self._field is not None:
            self.show_at(self._field_rect(self._field), self.text())

    def _inside(self, widget: QWidget | None) -> bool:
        area = self._area
        return widget is not None and area is not None and (widget is area or area.isAncestorOf(widget))

    def _focus_moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self.isHidden():
            return
        if self._inside(new):
            self._armed = True  # back in the table (or in the editor given back): leaving it again hides
        elif self._armed:
            self.hide()
        else:
            self._armed = True  # the move that committed (and refused) the edit, the message shown after it

    def hideEvent(self, event: QHideEvent) -> None:
        self._following = False
        super().hideEvent(event)

    def show_at(self, anchor: QRect, text: str) -> None:
        """Show ``text`` beside ``anchor`` (in the host's coordinates), kept inside the host."""
        host = self.parentWidget()
        if host is None:
            return
        self.anchor = QRect(anchor)
        if self.isHidden():
            self._armed = self._inside(QApplication.focusWidget())
        self.setText(text)
        room = max(host.width() - 4, 80)
        natural = self.fontMetrics().horizontalAdvance(text) + 20
        width = min(max(anchor.width(), min(natural, 360)), room)
        self.setFixedWidth(width)
        height = self.heightForWidth(width)
        height = height if height > 0 else self.sizeHint().height()
        self.setFixedHeight(height)
        x = min(max(anchor.left(), 2), max(host.width() - width - 2, 2))
        below = anchor.bottom() + 2
        y = below if below + height <= host.height() or anchor.top() - height - 2 < 0 else anchor.top() - height - 2
        self.move(x, y)
        self.raise_()
        self.show()
