"""Writing profile workbooks with openpyxl: live Share and Total formulas, a Summary sheet, text kept as text.

Imported only when a workbook is written: openpyxl costs a tenth of a second at start-up.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from ..model.analysis import Analysis, analyse
from ..model.errors import ProfileError
from ..model.profile import Profile
from ..model.report import headline, target_sentence
from ..model.units import decimal_text

COMPONENTS, OPTIMIZATIONS, SETTINGS, SUMMARY = "Components", "Optimizations", "Settings", "Summary"
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")

_BOLD = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")
_TITLE = Font(bold=True, size=14)


def printable(value: str) -> str:
    """Text an xlsx file can hold: control characters (which openpyxl refuses to write) become U+FFFD."""
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", value) if ILLEGAL_CHARACTERS_RE.search(value) else value


def text_cell(ws: WriteOnlyWorksheet, value: str, **style: Any) -> WriteOnlyCell:
    """A cell that stays text even when it starts with = + - @: never a formula."""
    cell = WriteOnlyCell(ws, printable(value) if isinstance(value, str) else value)
    if isinstance(value, str):
        cell.data_type = "s"
    for key, val in style.items():
        setattr(cell, key, val)
    return cell


def safe_text(ws: WriteOnlyWorksheet, value: str, clean: bool = False) -> str | WriteOnlyCell:
    """``value`` itself, or a forced-text cell when a spreadsheet would take it for a formula.

    ``clean`` says the caller already knows the text has no control characters.
    """
    if value.startswith(FORMULA_PREFIXES):
        return text_cell(ws, value)
    return value if clean else printable(value)


def _header(ws: WriteOnlyWorksheet, titles: list[str]) -> list[WriteOnlyCell]:
    return [text_cell(ws, t, font=_BOLD, fill=_HEADER_FILL) for t in titles]


def _widths(ws: WriteOnlyWorksheet, widths: list[float]) -> None:
    from openpyxl.utils import get_column_letter

    for i, w in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = w


TIME_FORMAT = "#,##0.###"


def write_workbook(profile: Profile, path: str | Path, analysis: Analysis | None = None) -> None:
    """Write ``profile`` as a workbook with live Share and Total formulas and a Summary sheet.

    Writes to ``path`` directly; callers wanting an atomic save write to a temporary file and move it.
    """
    if analysis is None:
        try:
            analysis = analyse(profile)
        except ProfileError:
            analysis = None
    book = Workbook(write_only=True)
    _write_components(book, profile, analysis)
    _write_optimizations(book, profile)
    _write_settings(book, profile)
    if analysis is not None:
        _write_summary(book, profile, analysis)
    book.save(str(path))


def _write_components(book: Workbook, profile: Profile, analysis: Analysis | None) -> None:
    ws = book.create_sheet(COMPONENTS)
    _widths(
        ws, [max(16, min(48, max((len(c.name) for c in profile.components), default=10) + 2)), 14, 10, 15, 16, 40, 16]
    )
    ws.freeze_panes = "A2"
    unit = profile.unit
    ws.append(
        _header(
            ws, ["Component", f"Time ({unit.value})", "Share", "Scaling", "Group", "Notes", f"New time ({unit.value})"]
        )
    )
    # New time = time ÷ the product of the enabled optimizations' k, as a formula on the Time cell, so
    # the workbook's chart follows when a time is edited in a spreadsheet program. Not read back.
    factors = analysis.component_speedup if analysis is not None else None
    # One search over all the table's text instead of one per cell: almost always it finds nothing.
    clean = not ILLEGAL_CHARACTERS_RE.search("\n".join(f"{c.name}\n{c.group}\n{c.notes}" for c in profile.components))
    n = len(profile.components)
    total_row = n + 2
    tfmt = TIME_FORMAT
    # Per-row cells are plain values where they can be (General format shows times well):
    # styled cells cost openpyxl several times more, and profiles can be 100,000 rows long.
    for i, c in enumerate(profile.components, start=2):
        share = WriteOnlyCell(ws, f"=IF($B${total_row}=0,0,B{i}/$B${total_row})")
        share.number_format = "0.0%"
        k = float(factors[i - 2]) if factors is not None else 1.0
        ws.append(
            [
                safe_text(ws, c.name, clean),
                c.time,
                share,
                c.scaling.value,
                safe_text(ws, c.group, clean),
                safe_text(ws, c.notes, clean),
                f"=B{i}/{k!r}" if k != 1.0 else f"=B{i}",
            ]
        )
    total = WriteOnlyCell(ws, f"=SUM(B2:B{total_row - 1})" if n else 0)
    total.number_format = tfmt
    total.font = _BOLD
    share = WriteOnlyCell(ws, f"=SUM(C2:C{total_row - 1})" if n else 0)
    share.number_format = "0.0%"
    share.font = _BOLD
    new_total = WriteOnlyCell(ws, f"=SUM(G2:G{total_row - 1})" if n else 0)
    new_total.font = _BOLD
    ws.append([text_cell(ws, "Total", font=_BOLD), total, share, None, None, None, new_total])


def _write_optimizations(book: Workbook, profile: Profile) -> None:
    ws = book.create_sheet(OPTIMIZATIONS)
    _widths(ws, [10, 32, 48, 10, 40])
    ws.freeze_panes = "A2"
    ws.append(_header(ws, ["Enabled", "Optimization", "Targets", "Speedup", "Notes"]))
    for o in profile.optimizations:
        k = WriteOnlyCell(ws, o.speedup)
        k.number_format = '0.###"×"'
        ws.append([o.enabled, text_cell(ws, o.name), text_cell(ws, "; ".join(o.targets)), k, text_cell(ws, o.notes)])


def _write_settings(book: Workbook, profile: Profile) -> None:
    ws = book.create_sheet(SETTINGS)
    _widths(ws, [22, 40, 70])
    s = profile.settings
    ws.append(_header(ws, ["Setting", "Value", "Meaning"]))
    rows: list[tuple[str, object, str]] = [
        ("Unit", profile.unit.value, "unit of every time in this workbook: s, ms, us or ns"),
        ("Boundary", s.boundary, "what was measured: the objective and its boundary"),
        ("Target time", s.target_time if s.target_time is not None else "", f"target (SLO) in {profile.unit.value}"),
        ("Baseline GPUs", s.baseline_gpus, "N0: GPU count at which the times were measured"),
        ("GPU counts", ", ".join(str(n) for n in s.gpu_counts), "GPU counts to evaluate"),
        (
            "Parallel fraction",
            s.parallel_fraction if s.parallel_fraction is not None else "",
            "override of the parallel share (empty: from the Scaling column)",
        ),
        ("Overhead model", s.overhead_model.value, "none, linear, log or ring: " + s.overhead_model.description),
        ("Ring latency", f"{decimal_text(s.ring_latency, 1e-6)} us", "ring model: α, latency per step"),
        ("Ring message size", f"{decimal_text(s.ring_message_bytes, 1e6)} MB", "ring model: bytes all-reduced"),
        ("Ring bandwidth", f"{decimal_text(s.ring_bandwidth, 1e9)} GB/s", "ring model: link bandwidth"),
    ]
    for key, value, meaning in rows:
        ws.append([key, text_cell(ws, value) if isinstance(value, str) else value, meaning])


def _number(ws: WriteOnlyWorksheet, value: float, fmt: str) -> WriteOnlyCell:
    if not math.isfinite(value):
        return text_cell(ws, "∞", alignment=Alignment(horizontal="right"))
    cell = WriteOnlyCell(ws, value)
    cell.number_format = fmt
    return cell


CHART_ROWS = 25  # components charted by name; the table keeps them all


def _write_summary(book: Workbook, profile: Profile, a: Analysis) -> None:
    """The analysis as numbers, plus native charts built on the workbook's own cells."""
    ws = book.create_sheet(SUMMARY)
    _widths(ws, [30, 16, 16, 16, 16, 16, 16, 16, 16])
    unit = profile.unit.value
    tfmt, sfmt, pfmt = "#,##0.###", '0.00"×"', "0.0%"
    row = 0

    def add(cells: list[Any]) -> int:
        nonlocal row
        ws.append(cells)
        row += 1
        return row

    add([text_cell(ws, "Amdahl Desk analysis", font=_TITLE)])
    add(
        [
            text_cell(
                ws,
                "Figures computed when this workbook was written; the charts and the formulas (Share, "
                "New time, Amdahl, Gustafson) follow edits. Reopen in Amdahl Desk to recompute all.",
            )
        ]
    )
    if profile.settings.boundary:
        add(["Boundary", text_cell(ws, profile.settings.boundary)])
    add([])
    c = a.combined
    for label, value, fmt in [
        (f"Baseline total ({unit})", a.baseline_total, tfmt),
        (f"New total ({unit})", c.new_total, tfmt),
        ("End-to-end speedup", c.overall_speedup, sfmt),
        (f"Time saved ({unit})", c.time_saved, tfmt),
        ("Affected share", c.fraction, pfmt),
        ("Ceiling 1/(1−f)", c.ceiling, sfmt),
    ]:
        add([text_cell(ws, label, font=_BOLD), _number(ws, value, fmt)])
    add([])
    add([text_cell(ws, headline(profile, a))])
    sentence = target_sentence(profile, a)
    if sentence:
        add([text_cell(ws, sentence)])
    add([])
    add(
        _header(
            ws,
            [
                "Optimization",
                "Enabled",
                "Speedup k",
                "Affected share",
                "End-to-end speedup",
                f"New total ({unit})",
                f"Time saved ({unit})",
                "Ceiling",
            ],
        )
    )
    f = a.optimizations
    for i, o in enumerate(profile.optimizations):
        add(
            [
                text_cell(ws, o.name),
                o.enabled,
                _number(ws, o.speedup, '0.###"×"'),
                _number(ws, f.fraction[i], pfmt),
                _number(ws, f.overall_speedup[i], sfmt),
                _number(ws, f.new_total[i], tfmt),
                _number(ws, f.time_saved[i], tfmt),
                _number(ws, f.ceiling[i], sfmt),
            ]
        )
    add([])
    s = a.scaling
    model = profile.settings.overhead_model
    n = len(profile.components)
    last, total_row = n + 1, n + 2
    add([text_cell(ws, f"GPU scaling, overhead model {model.value}: {model.description}")])
    if profile.settings.parallel_fraction is not None:
        p_cell = WriteOnlyCell(ws, s.parallel_fraction)
    else:
        # P from the Components sheet: the share of 'parallel' rows, so editing a time or a class moves the curves.
        p_cell = WriteOnlyCell(
            ws,
            f'=IF(Components!$B${total_row}=0,0,SUMIF(Components!$D$2:$D${last},"parallel",'
            f"Components!$B$2:$B${last})/Components!$B${total_row})",
        )
    p_cell.number_format = pfmt
    p_row = add([text_cell(ws, "Parallel share P", font=_BOLD), p_cell])
    n0_row = add([text_cell(ws, "Baseline GPUs N0", font=_BOLD), s.baseline_gpus])
    p_ref, n0_ref = f"$B${p_row}", f"$B${n0_row}"
    header_row = add(
        _header(ws, ["GPUs", "Ideal", "Amdahl", "With overhead", "Gustafson", "Efficiency", f"Time ({unit})"])
    )
    for i, gpus in enumerate(s.gpus):
        r = row + 1
        cells = [int(gpus)]
        for formula, fmt in ((f"=A{r}/{n0_ref}", sfmt), (f"=1/((1-{p_ref})+{p_ref}*{n0_ref}/A{r})", sfmt)):
            cell = WriteOnlyCell(ws, formula)
            cell.number_format = fmt
            cells.append(cell)
        cells.append(_number(ws, s.with_overhead[i], sfmt))
        for formula, fmt in ((f"=(1-{p_ref})+{p_ref}*A{r}/{n0_ref}", sfmt), (f"=D{r}/(A{r}/{n0_ref})", pfmt)):
            cell = WriteOnlyCell(ws, formula)
            cell.number_format = fmt
            cells.append(cell)
        cells.append(_number(ws, s.time[i], tfmt))
        add(cells)
    _add_charts(ws, profile, n, header_row, row)


def _add_charts(ws: WriteOnlyWorksheet, profile: Profile, n: int, header_row: int, last_row: int) -> None:
    """Time per component (baseline and after) and GPU scaling, as native charts on the cells above."""
    from openpyxl.chart import BarChart, Reference, ScatterChart, Series
    from openpyxl.chart.data_source import AxDataSource, StrRef

    unit = profile.unit.value
    shown = min(n, CHART_ROWS)
    if shown:
        bars = BarChart()
        bars.type = "bar"
        bars.grouping = "clustered"
        bars.title = "Time per component: baseline and after the plan" + (
            f" (first {shown} of {n:,} rows)" if n > shown else ""
        )
        bars.y_axis.title = f"Time ({unit})"
        bars.x_axis.scaling.orientation = "maxMin"  # first row at the top, as in the table
        data = Reference(_SheetName(COMPONENTS), min_col=2, min_row=1, max_row=shown + 1)
        after = Reference(_SheetName(COMPONENTS), min_col=7, min_row=1, max_row=shown + 1)
        bars.add_data(data, titles_from_data=True)
        bars.add_data(after, titles_from_data=True)
        for series, color in zip(bars.series, ("8A8F98", "1F5FA8"), strict=True):
            series.graphicalProperties.solidFill = color
            series.graphicalProperties.line.solidFill = color
        # Names are text: a strRef, which Excel needs to label the bars (a numRef shows 1, 2, 3…).
        names = AxDataSource(strRef=StrRef(f"'{COMPONENTS}'!$A$2:$A${shown + 1}"))
        for series in bars.series:
            series.cat = names
        bars.height, bars.width = max(7.5, 0.6 * shown + 3), 18
        bars.legend.position = "b"
        ws.add_chart(bars, "K2")
    if last_row > header_row:
        lines = ScatterChart()
        lines.title = "GPU scaling: speedup against the baseline"
        lines.x_axis.title = "GPUs (log₂ scale)"
        lines.y_axis.title = "Speedup (log scale)"
        lines.x_axis.scaling.logBase = 2
        lines.y_axis.scaling.logBase = 10
        xs = Reference(ws, min_col=1, min_row=header_row + 1, max_row=last_row)
        looks = {2: ("8A8F98", "dash"), 3: ("1F5FA8", "solid"), 4: ("C0392B", "solid"), 5: ("2E8B57", "dash")}
        for col, (color, dash) in looks.items():
            values = Reference(ws, min_col=col, min_row=header_row, max_row=last_row)
            series = Series(values, xs, title_from_data=True)
            series.marker.symbol = "none"
            series.smooth = False
            series.graphicalProperties.line.solidFill = color
            series.graphicalProperties.line.dashStyle = dash
            series.graphicalProperties.line.width = 28575  # 2.25 pt
            lines.series.append(series)
        lines.legend.position = "b"
        lines.height, lines.width = 9, 18
        anchor_row = 2 + (int(max(7.5, 0.6 * shown + 3) * 2) + 2 if shown else 0)
        ws.add_chart(lines, f"K{anchor_row}")


class _SheetName:
    """A stand-in worksheet for chart references to another sheet of a write-only workbook."""

    def __init__(self, title: str) -> None:
        self.title = title
