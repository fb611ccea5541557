"""Small Qt helpers the window, the screenshot and the exports share."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QObject, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QStyle, QWidget

from ...model.numbers import Decimal
from ...model.values import parse_size

__all__ = ["ScreenFit", "locale_decimal", "parse_size", "settle_layout"]


def locale_decimal() -> Decimal:
    """The decimal separator of the person's locale, for the model's parsers: "2,5" is 2.5 in Germany."""
    return "," if QLocale().decimalPoint() == "," else "."


def settle_layout(passes: int = 4) -> None:
    """Deliver the layout requests and resizes Qt has posted, and those they post in turn — no waiting.

    pyqtgraph sizes its views from posted events; a chart laid out at a new size needs a few rounds of
    them (the widget, then its layout, then the scene) before its geometry is final.
    """
    app = QCoreApplication.instance()
    if app is None:
        return
    for _ in range(passes):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
        QCoreApplication.sendPostedEvents(None, 0)
        app.processEvents()


class ScreenFit(QObject):
    """Sizes a new top-level window to at most ``width``×``height`` and keeps it, frame and title bar included,
    inside its screen's available area (a 1600×1000 window with a title bar does not fit a 1600×1000 screen).

    The frame is the window manager's: until it is known, a title bar's height is assumed; once the window is
    framed (a move or resize after it is shown), the window shrinks and moves by what still sticks out.
    """

    def __init__(self, window: QWidget, width: int, height: int) -> None:
        super().__init__(window)
        self.window = window
        area = self.area()
        style = window.style()
        title = style.pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight) + 2 * style.pixelMetric(
            QStyle.PixelMetric.PM_DefaultFrameWidth
        )
        if area.isValid():
            width, height = min(width, area.width()), min(height, area.height() - title)
        window.resize(max(width, 200), max(height, 200))
        window.installEventFilter(self)

    def area(self) -> QRect:
        screen = self.window.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() in (QEvent.Type.Show, QEvent.Type.Move, QEvent.Type.Resize):
            self.fit()
        return False

    def fit(self) -> None:
        """Shrink and move the window by what its frame makes stick out of the available area."""
        window, area = self.window, self.area()
        frame, inner = window.frameGeometry(), window.geometry()
        if not area.isValid() or not window.isVisible():
            return
        extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
        width, height = min(inner.width(), area.width() - extra_w), min(inner.height(), area.height() - extra_h)
        if (width, height) != (inner.width(), inner.height()):
            window.resize(width, height)
        x = min(max(frame.left(), area.left()), area.right() + 1 - (width + extra_w))
        y = min(max(frame.top(), area.top()), area.bottom() + 1 - (height + extra_h))
        if (x, y) != (frame.left(), frame.top()):
            window.move(x, y)
        if extra_h > 0:  # framed, and now inside: the window manager has had its say
            window.removeEventFilter(self)
