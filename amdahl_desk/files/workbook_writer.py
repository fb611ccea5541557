"""Writing profile workbooks with xlsxwriter: live formulas saved with their values, a Summary, native charts.

Every formula (Share, New time, the totals, P and the scaling columns) is written with the value
the model computed for it, so readers that do not recalculate (pandas, openpyxl with
``data_only=True``, previewers, mail clients) show the numbers, while a spreadsheet program still
follows edits. Text is always written as text: a name like ``=1+1`` never becomes a formula.
Imported only when a workbook is written.
"""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

import xlsxwriter
from xlsxwriter.exceptions import XlsxFileError
from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ..model.analysis import Analysis, analyse
from ..model.errors import ProfileError
from ..model.profile import Profile, Scaling
from ..model.report import headline, target_sentence
from ..model.units import decimal_text
from .extra_sheets import load_cost_rows, objectives_column, write_measurements_sheet, write_objectives_sheet

COMPONENTS, OPTIMIZATIONS, SETTINGS, SUMMARY = "Components", "Optimizations", "Settings", "Summary"
TIME_FORMAT = "#,##0.###"
SPEEDUP_FORMAT, SHARE_FORMAT, K_FORMAT = '0.00"×"', "0.0%", '0.###"×"'
CHART_ROWS = 25  # components charted by name; the table keeps them all
MAX_TEXT = 32_767  # the most characters a cell holds
# Characters XML 1.0 cannot carry; a spreadsheet program would refuse the file.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

__all__ = ["printable", "write_workbook"]


def printable(value: str) -> str:
    """Text an xlsx file can hold: control characters become U+FFFD, and at most 32,767 characters."""
    if _ILLEGAL.search(value):
        value = _ILLEGAL.sub("\ufffd", value)
    return value[:MAX_TEXT]


class _Sink:
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


class _Book:
    """The workbook being written and its formats."""

    def __init__(self, target: _Sink, parts: str) -> None:
        self.book: Workbook = xlsxwriter.Workbook(
            target,
            {"strings_to_formulas": False, "strings_to_numbers": False, "strings_to_urls": False, "tmpdir": parts},
        )
        add = self.book.add_format
        self.header = add({"bold": True, "bg_color": "#DDE4EE"})
        self.bold = add({"bold": True})
        self.title = add({"bold": True, "font_size": 14})
        self.time = add({"num_format": TIME_FORMAT})
        self.bold_time = add({"num_format": TIME_FORMAT, "bold": True})
        self.share = add({"num_format": SHARE_FORMAT})
        self.bold_share = add({"num_format": SHARE_FORMAT, "bold": True})
        self.speedup = add({"num_format": SPEEDUP_FORMAT})
        self.k = add({"num_format": K_FORMAT})
        self.right = add({"align": "right"})

    def number(self, ws: Worksheet, row: int, col: int, value: float, fmt: Format) -> None:
        """A figure; an unbounded one (a ceiling at f = 1) as ∞, which no number format shows."""
        if math.isfinite(value):
            ws.write_number(row, col, value, fmt)
        else:
            ws.write_string(row, col, "∞", self.right)


def _text(ws: Worksheet, row: int, col: int, value: str, fmt: Format | None = None) -> None:
    if value:
        ws.write_string(row, col, printable(value), fmt)


def write_workbook(profile: Profile, path: str | Path, analysis: Analysis | None = None) -> None:
    """Write ``profile`` as a workbook with live formulas (and their values), a Summary sheet and charts.

    Writes to ``path`` directly; callers wanting an atomic save write to a temporary file and move it.
    Raises OSError for any failure to write (a full disk included); the file and the parts xlsxwriter
    writes before zipping them are closed and removed with it, so no deleted file is left open.
    """
    if analysis is None:
        try:
            analysis = analyse(profile)
        except ProfileError:
            analysis = None
    # The zip goes to a file this function opens (and closes, whatever happens); the sheets' parts to a folder
    # of its own, removed whole: xlsxwriter leaves both open or behind when a write fails part-way.
    with tempfile.TemporaryDirectory(prefix="amdahl-desk-parts-") as parts, open(path, "wb") as target:
        sink = _Sink(target)
        try:
            out = _Book(sink, parts)
            _write_components(out, profile, analysis)
            _write_optimizations(out, profile)
            _write_settings(out, profile)
            write_objectives_sheet(out.book, profile, out.header, printable)
            write_measurements_sheet(out.book, profile.measurements, out.header, printable)
            if analysis is not None:
                _write_summary(out, profile, analysis)
            out.book.close()
        except XlsxFileError as exc:  # FileCreateError holds the OSError (ENOSPC, EIO) that stopped it
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else None
            raise (cause or OSError(str(exc))) from None
        finally:
            sink.end()


def _write_components(out: _Book, profile: Profile, analysis: Analysis | None) -> None:
    ws = out.book.add_worksheet(COMPONENTS)
    name_width = max(16, min(48, max((len(c.name) for c in profile.components), default=10) + 2))
    for col, width in enumerate([name_width, 14, 10, 15, 16, 40, 16]):
        ws.set_column(col, col, width)
    ws.freeze_panes(1, 0)
    unit = profile.unit.value
    ws.write_row(
        0,
        0,
        ["Component", f"Time ({unit})", "Share", "Scaling", "Group", "Notes", f"New time ({unit})"],
        out.header,
    )
    comps = profile.components
    n = len(comps)
    total_row = n + 2  # the Total line, in the sheet's 1-based numbering
    total = analysis.baseline_total if analysis is not None else math.fsum(c.time for c in comps)
    # New time = time ÷ the product of the enabled optimizations' k, as a formula on the Time cell, so
    # the workbook's chart follows when a time is edited in a spreadsheet program. Not read back.
    factors = analysis.component_speedup.tolist() if analysis is not None else [1.0] * n
    share_formula = f"=IF($B${total_row}=0,0,B{{}}/$B${total_row})"
    share_fmt = out.share
    write_string, write_number, write_formula = ws.write_string, ws.write_number, ws.write_formula
    shares: list[float] = []
    new_times: list[float] = []
    for i, c in enumerate(comps):
        row, r = i + 1, i + 2
        time = c.time
        share = time / total if total else 0.0
        k = factors[i]
        new = time / k
        shares.append(share)
        new_times.append(new)
        write_string(row, 0, printable(c.name))
        write_number(row, 1, time)
        write_formula(row, 2, share_formula.format(r), share_fmt, share)
        write_string(row, 3, c.scaling.value)
        if c.group:
            write_string(row, 4, printable(c.group))
        if c.notes:
            write_string(row, 5, printable(c.notes))
        write_formula(row, 6, f"=B{r}/{k!r}" if k != 1.0 else f"=B{r}", None, new)
    last = n + 1
    ws.write_string(n + 1, 0, "Total", out.bold)
    if n:
        new_total = analysis.combined.new_total if analysis is not None else math.fsum(new_times)
        ws.write_formula(n + 1, 1, f"=SUM(B2:B{last})", out.bold_time, total)
        ws.write_formula(n + 1, 2, f"=SUM(C2:C{last})", out.bold_share, math.fsum(shares))
        ws.write_formula(n + 1, 6, f"=SUM(G2:G{last})", out.bold, new_total)
    else:
        ws.write_number(n + 1, 1, 0, out.bold_time)
        ws.write_number(n + 1, 2, 0, out.bold_share)
        ws.write_number(n + 1, 6, 0, out.bold)
    objectives_column(ws, profile, 7, out.header, printable)


def _write_optimizations(out: _Book, profile: Profile) -> None:
    ws = out.book.add_worksheet(OPTIMIZATIONS)
    for col, width in enumerate([10, 32, 48, 10, 40]):
        ws.set_column(col, col, width)
    ws.freeze_panes(1, 0)
    ws.write_row(0, 0, ["Enabled", "Optimization", "Targets", "Speedup", "Notes"], out.header)
    for row, o in enumerate(profile.optimizations, start=1):
        ws.write_boolean(row, 0, o.enabled)
        _text(ws, row, 1, o.name)
        _text(ws, row, 2, "; ".join(o.targets))
        out.number(ws, row, 3, o.speedup, out.k)
        _text(ws, row, 4, o.notes)


def _write_settings(out: _Book, profile: Profile) -> None:
    ws = out.book.add_worksheet(SETTINGS)
    for col, width in enumerate([22, 40, 70]):
        ws.set_column(col, col, width)
    s = profile.settings
    ws.write_row(0, 0, ["Setting", "Value", "Meaning"], out.header)
    rows: list[tuple[str, object, str]] = [
        ("Unit", profile.unit.value, "unit of every time in this workbook: s, ms, us or ns"),
        ("Boundary", s.boundary, "what was measured: the objective and its boundary"),
        ("Target time", s.target_time, f"target (SLO) in {profile.unit.value}"),
        ("Baseline GPUs", s.baseline_gpus, "N0: GPU count at which the times were measured"),
        ("GPU counts", ", ".join(str(n) for n in s.gpu_counts), "GPU counts to evaluate"),
        (
            "Parallel fraction",
            s.parallel_fraction,
            "override of the parallel share (empty: from the Scaling column)",
        ),
        ("Overhead model", s.overhead_model.value, "none, linear, log or ring: " + s.overhead_model.description),
        ("Ring latency", f"{decimal_text(s.ring_latency, 1e-6)} us", "ring model: α, latency per step"),
        ("Ring message size", f"{decimal_text(s.ring_message_bytes, 1e6)} MB", "ring model: bytes all-reduced"),
        ("Ring bandwidth", f"{decimal_text(s.ring_bandwidth, 1e9)} GB/s", "ring model: link bandwidth"),
        *load_cost_rows(profile),
    ]
    for row, (key, value, meaning) in enumerate(rows, start=1):
        ws.write_string(row, 0, key)
        if isinstance(value, str):
            _text(ws, row, 1, value)
        elif value is not None:
            ws.write_number(row, 1, float(value))  # type: ignore[arg-type]
        ws.write_string(row, 2, meaning)


def _write_summary(out: _Book, profile: Profile, a: Analysis) -> None:
    """The analysis as numbers, plus native charts built on the workbook's own cells."""
    ws = out.book.add_worksheet(SUMMARY)
    ws.set_column(0, 0, 30)
    ws.set_column(1, 8, 16)
    unit = profile.unit.value
    row = 0

    def line(*cells: Any) -> int:
        """Write one row of strings (bold label first when asked); returns its 1-based number."""
        nonlocal row
        for col, cell in enumerate(cells):
            if isinstance(cell, tuple):
                ws.write_string(row, col, printable(cell[0]), cell[1])
            elif cell is not None:
                ws.write_string(row, col, printable(str(cell)))
        row += 1
        return row

    line(("Amdahl Desk analysis", out.title))
    line(
        "Figures computed when this workbook was written; the charts and the formulas (Share, "
        "New time, Amdahl, Gustafson) follow edits. Reopen in Amdahl Desk to recompute all."
    )
    if profile.settings.boundary:
        line("Boundary", profile.settings.boundary)
    row += 1
    c = a.combined
    for label, value, fmt in [
        (f"Baseline total ({unit})", a.baseline_total, out.time),
        (f"New total ({unit})", c.new_total, out.time),
        ("End-to-end speedup", c.overall_speedup, out.speedup),
        (f"Time saved ({unit})", c.time_saved, out.time),
        ("Affected share", c.fraction, out.share),
        ("Ceiling 1/(1−f)", c.ceiling, out.speedup),
    ]:
        out.number(ws, row, 1, value, fmt)
        line((label, out.bold))
    row += 1
    line(headline(profile, a))
    sentence = target_sentence(profile, a)
    if sentence:
        line(sentence)
    row += 1
    titles = ["Optimization", "Enabled", "Speedup k", "Affected share", "End-to-end speedup"]
    titles += [f"New total ({unit})", f"Time saved ({unit})", "Ceiling"]
    line(*((t, out.header) for t in titles))
    f = a.optimizations
    for i, o in enumerate(profile.optimizations):
        ws.write_boolean(row, 1, o.enabled)
        out.number(ws, row, 2, o.speedup, out.k)
        out.number(ws, row, 3, float(f.fraction[i]), out.share)
        out.number(ws, row, 4, float(f.overall_speedup[i]), out.speedup)
        out.number(ws, row, 5, float(f.new_total[i]), out.time)
        out.number(ws, row, 6, float(f.time_saved[i]), out.time)
        out.number(ws, row, 7, float(f.ceiling[i]), out.speedup)
        line(o.name)
    row += 1
    s = a.scaling
    model = profile.settings.overhead_model
    n = len(profile.components)
    last, total_row = n + 1, n + 2
    line(f"GPU scaling, overhead model {model.value}: {model.description}")
    p = s.parallel_fraction
    if profile.settings.parallel_fraction is not None:
        ws.write_number(row, 1, p, out.share)
    else:
        # P from the Components sheet: the share of 'parallel' rows, so editing a time or a class moves the curves.
        ws.write_formula(
            row,
            1,
            f'=IF(Components!$B${total_row}=0,0,SUMIF(Components!$D$2:$D${last},"{Scaling.PARALLEL.value}",'
            f"Components!$B$2:$B${last})/Components!$B${total_row})",
            out.share,
            p,
        )
    p_row = line(("Parallel share P", out.bold))
    ws.write_number(row, 1, s.baseline_gpus)
    n0_row = line(("Baseline GPUs N0", out.bold))
    p_ref, n0_ref = f"$B${p_row}", f"$B${n0_row}"
    header_row = line(*((t, out.header) for t in ["GPUs", "Ideal", "Amdahl", "With overhead", "Gustafson"]))
    ws.write_string(header_row - 1, 5, "Efficiency", out.header)
    ws.write_string(header_row - 1, 6, f"Time ({unit})", out.header)
    for i, gpus in enumerate(s.gpus.tolist()):
        r = row + 1
        ws.write_number(row, 0, gpus)
        ws.write_formula(row, 1, f"=A{r}/{n0_ref}", out.speedup, float(s.ideal[i]))
        ws.write_formula(row, 2, f"=1/((1-{p_ref})+{p_ref}*{n0_ref}/A{r})", out.speedup, float(s.amdahl[i]))
        out.number(ws, row, 3, float(s.with_overhead[i]), out.speedup)
        ws.write_formula(row, 4, f"=(1-{p_ref})+{p_ref}*A{r}/{n0_ref}", out.speedup, float(s.gustafson[i]))
        efficiency = float(s.efficiency[i])
        ws.write_formula(row, 5, f"=D{r}/(A{r}/{n0_ref})", out.share, efficiency if math.isfinite(efficiency) else 0)
        out.number(ws, row, 6, float(s.time[i]), out.time)
        row += 1
    _add_charts(out, ws, profile, n, header_row, row)


def bar_chart_height(categories: int) -> int:
    """Pixels for a bar chart of ``categories`` components: room for every name's label, two bars each."""
    return max(288, 24 * categories + 110)


def _add_charts(out: _Book, ws: Worksheet, profile: Profile, n: int, header_row: int, last_row: int) -> None:
    """Time per component (baseline and after) and GPU scaling, as native charts on the cells above."""
    unit = profile.unit.value
    shown = min(n, CHART_ROWS)
    next_row = 1
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
        for col, color in (("B", "#8A8F98"), ("G", "#1F5FA8")):
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
        bars.set_size({"width": 720, "height": height})
        ws.insert_chart(1, 10, bars)
        next_row = 1 + math.ceil(height / 20) + 2
    if last_row > header_row:
        lines = out.book.add_chart({"type": "scatter", "subtype": "straight"})
        lines.set_title({"name": "GPU scaling: speedup against the baseline", "name_font": {"size": 12}})
        lines.set_x_axis({"name": "GPUs (log₂ scale)", "log_base": 2})
        lines.set_y_axis({"name": "Speedup (log scale)", "log_base": 10})
        xs = f"='{SUMMARY}'!$A${header_row + 1}:$A${last_row}"
        looks = {
            "B": ("#8A8F98", "dash"),
            "C": ("#1F5FA8", "solid"),
            "D": ("#C0392B", "solid"),
            "E": ("#2E8B57", "dash"),
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
        lines.set_size({"width": 720, "height": 360})
        ws.insert_chart(next_row, 10, lines)
