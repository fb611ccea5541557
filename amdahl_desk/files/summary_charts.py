"""The Summary sheet's native charts, built on the workbook's own cells: time per component (baseline and after the
plan) and GPU scaling, each starting a printed page."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..model.profile import Profile
from ..present import colours
from ..present.counted import counted
from .xlsx_book import COMPONENTS, SUMMARY

if TYPE_CHECKING:
    from xlsxwriter.worksheet import Worksheet

    from .xlsx_book import Book

CHART_ROWS = 25  # components charted by name; the table keeps them all
ROW_PX = 20  # xlsxwriter's default row: 15 points
CHART_WIDTH = 960  # pixels: about A:H, the width of the printed page


def bar_chart_height(categories: int) -> int:
    """Pixels for a bar chart of ``categories`` components: room for every name's label, two bars each."""
    return max(288, 24 * categories + 110)


def add_charts(out: Book, ws: Worksheet, profile: Profile, n: int, header_row: int, last_row: int, first: int) -> int:
    """Time per component (baseline and after) and GPU scaling, as native charts on the cells above.

    Each starts a printed page at ``first`` (0-based row) and below; returns the first row after them.
    """
    unit = profile.unit.value
    shown = min(n, CHART_ROWS)
    row = first
    breaks: list[int] = []
    if shown:
        bars = out.book.add_chart({"type": "bar"})
        bars.set_title(
            {
                "name": "Time per component: baseline and after the plan"
                + (f" (first {shown} of {n:,} rows)" if n > shown else ""),
                "name_font": {"size": 12},
            }
        )
        # Names are text: a string reference (Excel labels the bars with it; a number reference shows 1, 2, 3…).
        names = f"='{COMPONENTS}'!$A$2:$A${shown + 1}"
        for col, color in (("B", colours.GREY), ("G", colours.BLUE)):
            bars.add_series(
                {
                    "name": f"='{COMPONENTS}'!${col}$1",
                    "categories": names,
                    "values": f"='{COMPONENTS}'!${col}$2:${col}${shown + 1}",
                    "fill": {"color": color},
                    "border": {"color": color},
                }
            )
        # Every name labelled (interval 1) and the chart as tall as its names need: LibreOffice and Excel
        # otherwise skip every other label once there are six or more components.
        # (In xlsxwriter's bar charts the y axis is the vertical one: the components.)
        bars.set_y_axis({"reverse": True, "interval_unit": 1, "interval_tick": 1, "num_font": {"size": 9}})
        bars.set_x_axis({"name": f"Time ({unit})", "major_gridlines": {"visible": True}})
        bars.set_legend({"position": "bottom"})
        height = bar_chart_height(shown)
        bars.set_size({"width": CHART_WIDTH, "height": height})
        breaks.append(row)
        ws.insert_chart(row, 0, bars)
        row += math.ceil(height / ROW_PX) + 1
    if last_row > header_row:
        lines = out.book.add_chart({"type": "scatter", "subtype": "straight"})
        c = counted(profile.settings)
        lines.set_title({"name": f"{c.scaling}: speedup against the baseline", "name_font": {"size": 12}})
        lines.set_x_axis({"name": f"{c.heading} (log₂ scale)", "log_base": 2})
        lines.set_y_axis({"name": "Speedup (log scale)", "log_base": 10})
        xs = f"='{SUMMARY}'!$A${header_row + 1}:$A${last_row}"
        looks = {
            "B": (colours.GREY, "dash"),
            "C": (colours.BLUE, "solid"),
            "D": (colours.RED, "solid"),
            "E": (colours.GREEN, "dash"),
        }
        for col, (color, dash) in looks.items():
            lines.add_series(
                {
                    "name": f"='{SUMMARY}'!${col}${header_row}",
                    "categories": xs,
                    "values": f"='{SUMMARY}'!${col}${header_row + 1}:${col}${last_row}",
                    "line": {"color": color, "dash_type": dash, "width": 2.25},
                    "marker": {"type": "none"},
                }
            )
        lines.set_legend({"position": "bottom"})
        lines.set_size({"width": CHART_WIDTH, "height": CHART_WIDTH // 2})
        breaks.append(row)
        ws.insert_chart(row, 0, lines)
        row += math.ceil(CHART_WIDTH / 2 / ROW_PX) + 1
    ws.set_h_pagebreaks(breaks)
    return row
