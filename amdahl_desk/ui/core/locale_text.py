"""Numbers shown in the machine's locale: the model writes 1,234.5; a German desktop shows 1.234,5.

Files keep their own formats (the model's formatters); only what the window shows is translated,
and only the numbers in it. Typed text goes to the model's parsers as typed.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QStyledItemDelegate

from ...present.numbers import POINT, Numbers

# The model's formatted numbers: grouped thousands with an optional fraction, or a plain decimal fraction.
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\w]|[.,]\d)")


def locale_numbers(locale: QLocale | None = None) -> Numbers:
    """How the views write numbers on this desktop: its decimal and grouping separators."""
    loc = locale if locale is not None else QLocale()
    point, group = loc.decimalPoint(), loc.groupSeparator()
    return POINT if (point, group) == (".", ",") else Numbers(point, group)


def localize_numbers(text: str, locale: QLocale | None = None) -> str:
    """``text`` with every number in the model's format written with the locale's separators."""
    loc = locale if locale is not None else QLocale()
    point, group = loc.decimalPoint(), loc.groupSeparator()
    if (point, group) == (".", ",") or not text:
        return text
    swap = {",": group, ".": point}
    return _NUMBER.sub(lambda m: "".join(swap.get(ch, ch) for ch in m.group(0)), text)


class LocaleDelegate(QStyledItemDelegate):
    """A table's cells shown with the machine's decimal and grouping separators (the model writes 1,234.5)."""

    def displayText(self, value: Any, locale: QLocale | QLocale.Language) -> str:
        shown = super().displayText(value, locale)
        return localize_numbers(shown, locale if isinstance(locale, QLocale) else QLocale(locale))
