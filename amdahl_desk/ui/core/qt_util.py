"""Small helpers the window, the screenshot and the exports share."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication

from ...model.values import parse_size

__all__ = ["parse_size", "settle"]


def settle(ms: int = 60) -> None:
    """Let layouts and deferred redraws finish (pyqtgraph resizes its views on posted events)."""
    app = QApplication.instance()
    end = time.monotonic() + ms / 1000
    while app is not None and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.002)
