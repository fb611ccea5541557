"""Writing profile workbooks with xlsxwriter: live formulas saved with their values, a Summary, native charts.

Every formula (Share, New time, the totals, P and the scaling columns) is written with the value
the model computed for it, so readers that do not recalculate (pandas, openpyxl with
``data_only=True``, previewers, mail clients) show the numbers, while a spreadsheet program still
follows edits. Text is always written as text: a name like ``=1+1`` never becomes a formula.
Imported only when a workbook is written.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.exceptions import XlsxFileError
from xlsxwriter.format import Format
from xlsxwriter.worksheet import Worksheet

from ..model.analysis import Analysis, analyse, plan_pairs
from ..model.errors import ProfileError
from ..model.profile import Profile
from ..model.units import decimal_text
from ..present.columns import NEW_TIME_BY_SUM, component_titles
from ..present.settings_words import overhead_description
from .estimate_columns import write_estimate_columns, write_time_ranges
from .extra_sheets import (
    load_cost_rows,
    objectives_column,
    trace_rows,
    write_measurements_sheet,
    write_objectives_sheet,
)
from .guessed_column import HEADER as GUESSED_HEADER
from .guessed_column import guessed_cells
from .print_layout import print_sheet
from .summary_charts import bar_chart_height
from .summary_sheet import write_summary
from .xlsx_book import COMPONENTS, OPTIMIZATIONS, SETTINGS, Book, Sink, printable

if TYPE_CHECKING:
    from ..model.decision import Decision
    from ..model.traces.plan_answer import TraceAnswer
    from ..present.job_charts import JobFigures
    from .job_sheet import JobSheet

MAX_FORMULA = 8_000  # a New time formula longer than this keeps its k as a number (Excel allows 8,192)

__all__ = ["bar_chart_height", "printable", "write_workbook"]


def _text(ws: Worksheet, row: int, col: int, value: str, fmt: Format | None = None) -> None:
    if value:
        ws.write_string(row, col, printable(value), fmt)


def write_workbook(
    profile: Profile,
    path: str | Path,
    analysis: Analysis | None = None,
    trace: TraceAnswer | None = None,
    decision: Decision | None = None,
    job: JobSheet | None = None,
    job_figures: JobFigures | None = None,
) -> None:
    """Write ``profile`` as a workbook with live formulas (and their values), a Summary sheet and charts; with
    ``job``, the Ranks sheet of the job of many ranks it stands for (``files/job_sheet``), and with
    ``job_figures`` its answer leading the Summary sheet (``decision`` then holds the job's odds).

    Writes to ``path`` directly; callers wanting an atomic save write to a temporary file and move it.
    Raises OSError for any failure to write (a full disk included); the file and the parts xlsxwriter
    writes before zipping them are closed and removed with it, so no deleted file is left open.
    """
    if analysis is None:
        try:
            analysis = analyse(profile)
        except ProfileError:
            analysis = None
    profile = _trace_from(profile, Path(path).resolve().parent)
    # The zip goes to a file this function opens (and closes, whatever happens); the sheets' parts to a folder
    # of its own, removed whole: xlsxwriter leaves both open or behind when a write fails part-way.
    with tempfile.TemporaryDirectory(prefix="amdahl-desk-parts-") as parts, open(path, "wb") as target:
        sink = Sink(target)
        try:
            out = Book(sink, parts, _times(profile, analysis))
            _write_components(out, profile, analysis, trace)
            _write_optimizations(out, profile)
            _write_settings(out, profile)
            write_objectives_sheet(out.book, profile, out.header, printable, out.time)
            write_measurements_sheet(out.book, profile.measurements, out.header, printable)
            if job is not None:
                from .job_sheet import write_job_sheet

                write_job_sheet(out.book, job, out.header, printable)
            if analysis is not None:
                write_summary(out, profile, analysis, trace, decision, job_figures)
            out.book.close()
        except XlsxFileError as exc:  # FileCreateError holds the OSError (ENOSPC, EIO) that stopped it
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else None
            raise (cause or OSError(str(exc))) from None
        finally:
            sink.end()


ON_PATH_TOTAL = "New total on the critical path ({unit}) →"  # a traced profile's Total line, before the figure


def _times(profile: Profile, analysis: Analysis | None) -> list[float]:
    """The times the workbook's time cells show: measured, the ends of their ranges, and after the plan."""
    times = [t for c in profile.components for t in (c.time, c.time_low, c.time_high) if t is not None]
    return times + (analysis.new_times.tolist() if analysis is not None else [])


def _write_components(out: Book, profile: Profile, analysis: Analysis | None, trace: TraceAnswer | None) -> None:
    """The Components sheet. A traced profile's New time column is each component's own time at k and its total
    the sum's (live formulas, titled so); the step's new total on the trace's critical path is written beside on
    the Total line (a value, labelled: no formula can replay the trace)."""
    ws = out.book.add_worksheet(COMPONENTS)
    traced = trace is not None and trace.usable
    name_width = max(16, min(48, max((len(c.name) for c in profile.components), default=10) + 2))
    # a traced profile's Group holds the on-path label on the Total line, and New time a longer title: read whole
    group_width, new_width = (38, 28) if traced else (16, 16)
    for col, width in enumerate([name_width, 14, 10, 15, group_width, 40, new_width]):
        ws.set_column(col, col, width)
    ws.freeze_panes(1, 0)
    unit = profile.unit.value
    ws.write_row(
        0,
        0,
        [
            *component_titles(("name", "time", "share", "scaling", "group", "notes"), unit),
            NEW_TIME_BY_SUM.replace("{unit}", unit) if traced else component_titles(("new_time",), unit)[0],
        ],
        out.header,
    )
    comps = profile.components
    n = len(comps)
    total_row = n + 2  # the Total line, in the sheet's 1-based numbering
    total = analysis.baseline_total if analysis is not None else math.fsum(c.time for c in comps)
    # New time = time ÷ the k of each optimization that targets the row and is enabled, as a formula on the
    # Time cell and on the Optimizations sheet's Enabled and Speedup cells: editing a time, a speedup or a
    # tick in a spreadsheet program moves the New time and the charts. Not read back.
    factors = analysis.component_speedup.tolist() if analysis is not None else [1.0] * n
    divisors = new_time_divisors(profile)
    share_formula = f"=IF($B${total_row}=0,0,B{{}}/$B${total_row})"
    share_fmt, time_fmt = out.share, out.time  # one number format per column, its Total in bold
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
        write_number(row, 1, time, time_fmt)
        write_formula(row, 2, share_formula.format(r), share_fmt, share)
        write_string(row, 3, c.scaling.value)
        if c.group:
            write_string(row, 4, printable(c.group))
        if c.notes:
            write_string(row, 5, printable(c.notes))
        divisor = divisors[i] if len(divisors[i]) < MAX_FORMULA else repr(k)  # Excel's limit is 8,192 characters
        write_formula(row, 6, f"=B{r}/{divisor}" if divisor else f"=B{r}", time_fmt, new)
    last = n + 1
    ws.write_string(n + 1, 0, "Total", out.bold)
    if n:
        new_total = analysis.combined.new_total if analysis is not None else math.fsum(new_times)
        ws.write_formula(n + 1, 1, f"=SUM(B2:B{last})", out.bold_time, total)
        ws.write_formula(n + 1, 2, f"=SUM(C2:C{last})", out.bold_share, math.fsum(shares))
        ws.write_formula(n + 1, 6, f"=SUM(G2:G{last})", out.bold_time, new_total)
        if trace is not None and traced:  # Group and Notes of the Total line: read back by no one
            ws.write_string(n + 1, 4, ON_PATH_TOTAL.replace("{unit}", unit), out.bold)
            ws.write_number(n + 1, 5, trace.new_total, out.bold_time)
    else:
        ws.write_number(n + 1, 1, 0, out.bold_time)
        ws.write_number(n + 1, 2, 0, out.bold_share)
        ws.write_number(n + 1, 6, 0, out.bold_time)
    has_objectives = objectives_column(ws, profile, 7, out.header, printable)
    last_col = 7 if has_objectives else 6
    guesses = guessed_cells(comps)
    if guesses is not None:
        last_col += 1
        ws.set_column(last_col, last_col, 16)
        ws.write_string(0, last_col, GUESSED_HEADER, out.header)
        for row, cell in enumerate(guesses, start=1):
            if cell:
                ws.write_string(row, last_col, cell)
    last_col = write_time_ranges(ws, profile, last_col + 1, out.header, out.time)
    print_sheet(ws, n + 1, last_col)


def new_time_divisors(profile: Profile) -> list[str]:
    """Per component, the product of ``IF(Enabled, Speedup, 1)`` over the optimizations that target it ("" for none).

    Targets are resolved once, by the model's :func:`plan_pairs`, so the formula multiplies the same k the
    analysis did (an optimization that names a row twice counts twice there too).
    """
    pairs = plan_pairs(profile)
    factors: list[list[str]] = [[] for _ in profile.components]
    for opt, comp in zip(pairs.opt_idx.tolist(), pairs.comp_idx.tolist(), strict=True):
        r = opt + 2  # the optimization's row on its sheet
        factors[comp].append(f"IF({OPTIMIZATIONS}!$A${r},{OPTIMIZATIONS}!$D${r},1)")
    return [f"({'*'.join(f)})" if len(f) > 1 else (f[0] if f else "") for f in factors]


def _write_optimizations(out: Book, profile: Profile) -> None:
    ws = out.book.add_worksheet(OPTIMIZATIONS)
    for col, width in enumerate([10, 32, 48, 10, 40]):
        ws.set_column(col, col, width)
    ws.freeze_panes(1, 0)
    ws.write_row(0, 0, ["Enabled", "Optimization", "Targets", "Speedup", "Notes"], out.header)
    for row, o in enumerate(profile.optimizations, start=1):
        ws.write_boolean(row, 0, o.enabled, out.boolean)  # TRUE/FALSE in LibreOffice too, not 1/0
        _text(ws, row, 1, o.name)
        _text(ws, row, 2, "; ".join(o.targets))
        out.number(ws, row, 3, o.speedup, out.k)
        _text(ws, row, 4, o.notes)
    formats = {"k": out.k, "share": out.share, "effort": out.time}
    last_col = write_estimate_columns(ws, profile, 5, out.header, formats)
    if any(o.built for o in profile.optimizations):  # done already: kept to show what was built
        last_col += 1
        ws.write_string(0, last_col, "Built", out.header)
        for row, o in enumerate(profile.optimizations, start=1):
            if o.built:
                ws.write_string(row, last_col, "yes")
    print_sheet(ws, len(profile.optimizations), last_col)


def _write_settings(out: Book, profile: Profile) -> None:
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
        (
            "Overhead model",
            s.overhead_model.value,
            "none, linear, log or ring: " + overhead_description(s.overhead_model),
        ),
        ("Ring latency", f"{decimal_text(s.ring_latency, 1e-6)} us", "ring model: α, latency per step"),
        ("Ring message size", f"{decimal_text(s.ring_message_bytes, 1e6)} MB", "ring model: bytes all-reduced"),
        ("Ring bandwidth", f"{decimal_text(s.ring_bandwidth, 1e9)} GB/s", "ring model: link bandwidth"),
        *load_cost_rows(profile),
        *trace_rows(profile),
    ]
    for row, (key, value, meaning) in enumerate(rows, start=1):
        ws.write_string(row, 0, key)
        if isinstance(value, str):
            _text(ws, row, 1, value)
        elif value is not None:
            ws.write_number(row, 1, float(value))  # type: ignore[arg-type]
        ws.write_string(row, 2, meaning)
    print_sheet(ws, len(rows), 2)


def _trace_from(profile: Profile, folder: Path) -> Profile:
    """``profile`` with its Settings' trace named as the workbook in ``folder`` finds it: a path given relative to
    where the command ran (``import run/trace.json --out reviews/p.xlsx``) written relative to the workbook
    (``../run/trace.json``), so the workbook finds its trace from wherever it is opened. Whole paths, and names
    that are not there from here, are kept as they are."""
    source = profile.settings.trace_source
    if not source:
        return profile
    from dataclasses import replace

    from .job_sheet import written_path

    parts = [source] if Path(source).exists() or ", " not in source else source.split(", ")
    if all(Path(p).is_absolute() or not Path(p).exists() for p in parts):
        return profile
    moved = ", ".join(p if Path(p).is_absolute() or not Path(p).exists() else written_path(p, folder) for p in parts)
    if moved == source:
        return profile
    clone = profile.copy()
    clone.settings = replace(profile.settings, trace_source=moved)
    return clone
