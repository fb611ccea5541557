"""Widths of texts in a view's font, remembered: tables fit their columns to the same numbers after every edit."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics


class TextWidths:
    """``widths(fm, text)`` is ``fm.horizontalAdvance(text)``, measured once per text (and font size)."""

    def __init__(self, limit: int = 4096) -> None:
        self._cache: dict[tuple[int, str], int] = {}
        self._limit = limit

    def __call__(self, fm: QFontMetrics, text: str) -> int:
        key = (fm.height(), text)
        width = self._cache.get(key)
        if width is None:
            if len(self._cache) >= self._limit:
                self._cache.clear()
            width = self._cache[key] = fm.horizontalAdvance(text)
        return width
