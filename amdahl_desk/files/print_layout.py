"""How each sheet of a written workbook prints: its used range, landscape, no column cut off, headers repeated."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlsxwriter.worksheet import Worksheet

FOOTER = "&L&A&RPage &P of &N"  # the sheet's name, and where the page stands


def print_sheet(ws: Worksheet, last_row: int, last_col: int, header_rows: int = 1, scale: int | None = None) -> None:
    """Print rows 0..``last_row`` and columns 0..``last_col`` (0-based) across the page, landscape.

    Without ``scale`` the sheet is fitted to one page wide and as many down as its rows need, its header
    rows repeated on each. A ``scale`` (percent) is for a sheet with its own page breaks, which a spreadsheet
    program ignores once a sheet is fitted to pages.
    """
    ws.print_area(0, 0, max(last_row, 0), last_col)
    ws.set_landscape()
    ws.set_paper(9)  # A4; a Letter page is narrower by a few millimetres and holds the same
    if scale is None:
        ws.fit_to_pages(1, 0)
    else:
        ws.set_print_scale(scale)
    if header_rows:
        ws.repeat_rows(0, header_rows - 1)
    ws.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.7)
    ws.set_footer(FOOTER)
