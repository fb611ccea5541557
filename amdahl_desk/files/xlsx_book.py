"""The workbook being written and its cell formats, shared by the writer and the Summary sheet."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import BinaryIO

import xlsxwriter
from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

# The sheets the writer makes, by name (the reader finds them by these names too).
COMPONENTS, OPTIMIZATIONS, SETTINGS, SUMMARY = "Components", "Optimizations", "Settings", "Summary"
HEADER = {"bold": True, "bg_color": "#DDE4EE"}  # a table's titles
SPEEDUP_FORMAT, SHARE_FORMAT, K_FORMAT = '0.00"×"', "0.0%", '0.###"×"'
MAX_TEXT = 32_767  # the most characters a cell holds
# Characters XML 1.0 cannot carry; a spreadsheet program would refuse the file.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def time_pattern(times: Iterable[float]) -> str:
    """One number format for a column of times (grouped thousands; decimals shown where a time has them): as many
    decimals as its smallest non-zero time needs for three significant digits, at least three and at most nine. A
    profile in seconds has times of 0.00007 s, which three decimals showed as 0."""
    smallest = min((abs(t) for t in times if t and math.isfinite(t)), default=1.0)
    return "#,##0." + "#" * min(9, max(3, 2 - math.floor(math.log10(smallest))))


def printable(value: str) -> str:
    """Text an xlsx file can hold: control characters become U+FFFD, and at most 32,767 characters."""
    if _ILLEGAL.search(value):
        value = _ILLEGAL.sub("\ufffd", value)
    return value[:MAX_TEXT]


class Sink:
    """The workbook's file as xlsxwriter's zip writes it. Once the write has ended (or failed part-way), what the
    zip still does (closing itself when it is collected) goes nowhere, instead of to a file already closed."""

    def __init__(self, target: BinaryIO) -> None:
        self.target, self.position, self._done = target, 0, False

    def end(self) -> None:
        self._done = True

    def write(self, data: bytes) -> int:
        if not self._done:
            self.target.write(data)
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = 0) -> int:
        if whence == 0:
            self.position = offset
        elif whence == 1:
            self.position += offset
        else:
            raise OSError("the workbook's file is written from start to end")
        if not self._done:
            self.target.seek(self.position)
        return self.position

    def flush(self) -> None:
        if not self._done:
            self.target.flush()


class Book:
    """The workbook being written (to ``target``, its sheets' parts in the folder ``parts``) and its formats."""

    def __init__(self, target: Sink, parts: str, times: Iterable[float] = ()) -> None:
        """``times``: the profile's times (measured, their ranges' ends, after the plan), which its time cells show."""
        self.book: Workbook = xlsxwriter.Workbook(
            target,
            {"strings_to_formulas": False, "strings_to_numbers": False, "strings_to_urls": False, "tmpdir": parts},
        )
        add = self.book.add_format
        self.header = add(HEADER)
        self.bold = add({"bold": True})
        self.title = add({"bold": True, "font_size": 14})
        pattern = time_pattern(times)
        self.time = add({"num_format": pattern})
        self.bold_time = add({"num_format": pattern, "bold": True})
        self.share = add({"num_format": SHARE_FORMAT})
        self.bold_share = add({"num_format": SHARE_FORMAT, "bold": True})
        self.speedup = add({"num_format": SPEEDUP_FORMAT})
        self.k = add({"num_format": K_FORMAT})
        self.boolean = add({"num_format": '"TRUE";"TRUE";"FALSE"'})  # a formula's TRUE, not 1, in LibreOffice too
        self.right = add({"align": "right"})
        self.printable = printable
        self._shown: dict[int, Format] = {}
        self._times: dict[str, Format] = {pattern: self.time}

    def time_column(self, times: Iterable[float]) -> Format:
        """The format of a column of times of its own (the time at each GPU count, smaller than any measured)."""
        pattern = time_pattern(times)
        if pattern not in self._times:
            self._times[pattern] = self.book.add_format({"num_format": pattern})
        return self._times[pattern]

    def significant(self, value: float, digits: int = 3) -> Format:
        """A format that shows ``value`` to ``digits`` significant digits (0.000313, 0.113, 30.3, 1,712); the
        cell keeps every digit."""
        magnitude = math.floor(math.log10(abs(value))) if value else 0
        decimals = 0 if float(value).is_integer() else max(0, digits - 1 - magnitude)
        if decimals not in self._shown:
            pattern = "#,##0." + "0" * decimals if decimals else "#,##0"
            self._shown[decimals] = self.book.add_format({"num_format": pattern})
        return self._shown[decimals]

    def number(self, ws: Worksheet, row: int, col: int, value: float, fmt: Format) -> None:
        """A figure; an unbounded one (a ceiling at f = 1) as ∞, which no number format shows."""
        if math.isfinite(value):
            ws.write_number(row, col, value, fmt)
        else:
            ws.write_string(row, col, "∞", self.right)
