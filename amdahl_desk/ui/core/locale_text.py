"""The desktop's number format: the window's views are worded by present/ with these separators.

A German desktop shows 1.234,5 where files and the command line write 1,234.5; typed text goes to the model's
parsers as typed.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale

from ...present.numbers import POINT, Numbers


def locale_numbers(locale: QLocale | None = None) -> Numbers:
    """How the views write numbers on this desktop: its decimal and grouping separators."""
    loc = locale if locale is not None else QLocale()
    point, group = loc.decimalPoint(), loc.groupSeparator()
    return POINT if (point, group) == (".", ",") else Numbers(point, group)
