"""Small helpers the window, the screenshot and the exports share."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` (or ×) → (1920, 1080); 200 to 10,000 pixels a side."""
    try:
        w, h = (int(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f'"{text}" is not a size; expected WIDTHxHEIGHT, like 1920x1080') from None
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise ValueError(f'"{text}": width and height must be between 200 and 10,000 pixels')
    return w, h


def settle(ms: int = 60) -> None:
    """Let layouts and deferred redraws finish (pyqtgraph resizes its views on posted events)."""
    app = QApplication.instance()
    end = time.monotonic() + ms / 1000
    while app is not None and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.002)
