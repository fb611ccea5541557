"""What a widget painted: the window tests that check a change repaints only what it touched."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QRegion


class PaintedRegion(QObject):
    """The region a widget painted since it was watched (or since the last ``clear``)."""

    def __init__(self, widget):
        super().__init__()
        self.region = QRegion()
        widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            self.region = self.region.united(event.region())
        return False

    def clear(self):
        self.region = QRegion()


def quiet(qtbot, widget) -> None:
    """Wait until a pass of the event loop paints nothing more of ``widget`` (paints and pyqtgraph's layout
    passes are posted events and zero timers): a condition, not a time."""
    from PySide6.QtWidgets import QApplication

    watcher = PaintedRegion(widget)

    def still() -> bool:
        watcher.clear()
        QApplication.sendPostedEvents()
        QApplication.processEvents()
        return watcher.region.isEmpty()

    qtbot.waitUntil(still)
    widget.removeEventFilter(watcher)
