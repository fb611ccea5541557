"""Time- and duration-formatted cells, read from the number the sheet stores (the exact fraction of a day).

python-calamine turns a cell formatted ``[h]:mm:ss.000`` or ``mm:ss.000`` into a ``timedelta`` or
``time`` already rounded to the millisecond: 0.4 ms becomes 0, 42.5 ms 43. The sheet's XML holds the
number itself, so the reader takes that: the styles say which cell formats show a time, the sheet's
``<c … s="…"><v>…</v></c>`` elements give those cells' numbers, and each such cell reaches the tables
as a :class:`~.grid.StoredDuration`. A time-formatted cell whose number cannot be found this way stays
as calamine gave it and is refused at its cell (:func:`~.cells.cell_time`), never read rounded.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Sequence

from .grid import CellValue, StoredDuration

_ATTR = re.compile(rb'([\w:]+)="([^"]*)"')
_NUMFMT = re.compile(rb"<(?:\w+:)?numFmt\b([^>]*)>")
_CELL_XFS = re.compile(rb"<(?:\w+:)?cellXfs\b[^>]*>(.*?)</(?:\w+:)?cellXfs>", re.S)
_XF = re.compile(rb"<(?:\w+:)?xf\b([^>]*)>")
# Excel's built-in formats that show a time: h:mm AM/PM … [h]:mm:ss, mmss.0.
_BUILTIN_TIMES = {
    18: "h:mm am/pm",
    19: "h:mm:ss am/pm",
    20: "h:mm",
    21: "h:mm:ss",
    45: "mm:ss",
    46: "[h]:mm:ss",
    47: "mmss.0",
}
_TEMPORAL = (dt.timedelta, dt.time, dt.datetime, float, int)


def time_format(code: str) -> bool | None:
    """Whether a number format shows a time: ``None`` when not (a number or a date), else whether it is elapsed.

    An elapsed format (``[h]:mm:ss``, ``[mm]:ss``) shows every hour; a time of day (``hh:mm:ss``,
    ``mm:ss.000``) shows only what is past whole days.
    """
    text = code.lower().split(";")[0]
    text = re.sub(r'"[^"]*"|\\.|[_*].', "", text)  # literals, escaped characters, spacing and fill
    elapsed = re.search(r"\[(?:h+|m+|s+)\]", text) is not None
    text = re.sub(r"\[[^\]]*\]", "", text).replace("general", "")  # colours, conditions, locales
    if "y" in text or "d" in text:
        return None  # a date (with or without a time): refused as a date, as before
    if elapsed or "h" in text or "s" in text:
        return elapsed
    return None


def time_styles(styles_xml: bytes) -> dict[int, bool]:
    """Cell style index → elapsed (see :func:`time_format`) for every style whose number format shows a time."""
    if not styles_xml:
        return {}
    codes: dict[int, str] = dict(_BUILTIN_TIMES)
    for m in _NUMFMT.finditer(styles_xml):
        attrs = dict(_ATTR.findall(m.group(1)))
        if b"numFmtId" in attrs and attrs[b"numFmtId"].isdigit() and b"formatCode" in attrs:
            codes[int(attrs[b"numFmtId"])] = html.unescape(attrs[b"formatCode"].decode("utf-8", "replace"))
    xfs = _CELL_XFS.search(styles_xml)
    if xfs is None:
        return {}
    found: dict[int, bool] = {}
    for index, m in enumerate(_XF.finditer(xfs.group(1))):
        fmt = dict(_ATTR.findall(m.group(1))).get(b"numFmtId", b"0")
        code = codes.get(int(fmt)) if fmt.isdigit() else None
        kind = time_format(code) if code is not None else None
        if kind is not None:
            found[index] = kind
    return found


def _cells(sheet_xml: bytes, styles: dict[int, bool]) -> list[tuple[int, int, float, bool]]:
    """(row, column, stored number, elapsed) of each number cell with a time style, both 0-based."""
    # The styles named in the pattern, so only their cells come back; past a few hundred (a hostile styles
    # part), any style, filtered below.
    wanted = b"|".join(str(s).encode() for s in sorted(styles)) if len(styles) <= 200 else rb"[0-9]{1,9}"
    pattern = re.compile(
        rb'<c r="([A-Z]{1,3})([0-9]{1,7})"(?=[^>]*\bs="(' + wanted + rb')")([^>]*)>'
        rb"\s*(?:<f\b[^>]*(?:/>|>[^<]*</f>)\s*)?<v>([^<]*)</v>"
    )
    out = []
    for m in pattern.finditer(sheet_xml):
        kind = dict(_ATTR.findall(m.group(4))).get(b"t", b"n")
        if kind != b"n":
            continue  # text, a truth value or an error: calamine's reading stands
        try:
            number = float(m.group(5))
        except ValueError:
            continue
        col = 0
        for ch in m.group(1):
            col = col * 26 + ch - 64
        elapsed = styles.get(int(m.group(3)))
        if elapsed is not None:
            out.append((int(m.group(2)) - 1, col - 1, number, elapsed))
    return out


def use_stored_durations(
    rows: Sequence[list[CellValue]], row0: int, col0: int, sheet_xml: bytes, styles: dict[int, bool]
) -> None:
    """Put a :class:`StoredDuration` in ``rows`` (placed at ``row0``, ``col0``) for each time-formatted number cell."""
    if not styles or not sheet_xml:
        return
    for row, col, days, elapsed in _cells(sheet_xml, styles):
        r, c = row - row0, col - col0
        if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
            continue
        cells = rows[r]
        if isinstance(cells[c], _TEMPORAL) and not isinstance(cells[c], bool):
            cells[c] = StoredDuration(days, elapsed)
