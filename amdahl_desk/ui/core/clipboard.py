"""Tab-separated text in and out of the clipboard, as Excel and LibreOffice exchange ranges."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ...present.numbers import POINT


def to_tsv(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cell texts as TSV; cells with tabs, newlines or quotes are quoted the way Excel does."""
    out = io.StringIO()
    csv.writer(out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerows(rows)
    return out.getvalue()


class ClipboardError(ValueError):
    """Clipboard text that is not cells a table takes; the message says why, for the person who pasted it."""


def from_tsv(text: str) -> list[list[str]]:
    """Clipboard text as rows of cells; a trailing newline does not make an empty row.

    Raises :class:`ClipboardError` for a cell longer than the csv module's field limit (131,072 characters:
    no name, time or note is that long) or text the csv module cannot split.
    """
    if not text:
        return []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    try:
        return [list(row) for row in csv.reader(io.StringIO(text), delimiter="\t")]
    except csv.Error as exc:
        limit = csv.field_size_limit()
        if "field larger than field limit" in str(exc):
            raise ClipboardError(
                f"the clipboard holds a cell longer than {POINT.count(limit)} characters; nothing was pasted"
            ) from None
        raise ClipboardError(f"the clipboard's text cannot be split into cells ({exc}); nothing was pasted") from None


def tile(block: list[list[str]], rows: int, cols: int) -> list[list[str]]:
    """Repeat ``block`` to fill a ``rows``×``cols`` selection when it divides it evenly (Excel's fill-paste)."""
    height, width = len(block), max((len(r) for r in block), default=0)
    if not height or not width or rows % height or cols % width or (rows, cols) == (height, width):
        return block
    padded = [r + [""] * (width - len(r)) for r in block]
    return [[padded[r % height][c % width] for c in range(cols)] for r in range(rows)]
