"""Small Qt helpers the window, the screenshot and the exports share."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QLocale

from ...model.numbers import Decimal
from ...model.values import parse_size

__all__ = ["locale_decimal", "parse_size", "settle_layout"]


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
