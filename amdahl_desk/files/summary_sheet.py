"""The workbook's Summary sheet: the answer as live figures, the presentation's sections, the scaling table, charts.

The totals and each optimization's figures are formulas on the Components and Optimizations sheets (so
editing a time, a speedup or a tick in a spreadsheet program moves them), each saved with the value the
model computed. Objectives, load, cost and the measured runs' fits come from
:func:`amdahl_desk.present.sections.sections`, the same figures and sentences the window shows.
The native charts sit under the tables, each starting a printed page.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..model.analysis import Analysis
from ..model.fit import fit_measurements
from ..model.outcomes import profile_outcomes
from ..model.profile import Profile, Scaling
from ..present import colours
from ..present.counted import counted
from ..present.plan_answer import (
    OPTIONS_BY_SUM,
    OPTIONS_WITH_DEPS,
    answer_headline,
    answer_target,
    edited_note,
    sum_beside,
    unusable_note,
)
from ..present.report import headline, target_sentence
from ..present.sections import PERCENT, SPEEDUP, Row, Section, sections
from ..present.settings_words import overhead_description
from .estimate_columns import decision_rows
from .print_layout import print_sheet
from .summary_charts import add_charts
from .xlsx_book import COMPONENTS, HEADER, OPTIMIZATIONS, SUMMARY

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.worksheet import Worksheet

    from ..model.decision import Decision
    from ..model.traces.plan_answer import TraceAnswer
    from ..present.job_charts import JobFigures
    from .xlsx_book import Book

LAST_COL = 7  # the sheet's tables span A:H
WIDTHS = [30, 16, 16, 16, 19, 16, 16, 16]
LINE_CHARS = sum(WIDTHS) - 30  # characters of a wrapped sentence per printed line across A:H (with room to spare)
NOTE_CHARS = sum(WIDTHS[3:]) - 12  # and of a figure's meaning across D:H


def _lines(text: str, width: int) -> int:
    """The lines ``text`` takes wrapped in a column ``width`` characters wide (with room to spare)."""
    return max(1, math.ceil(len(text) / max(width - 2, 1)))


class _Rows:
    """Writes the sheet a row at a time; ``row`` is the next 0-based row."""

    def __init__(self, out: Book, ws: Worksheet) -> None:
        self.out, self.ws, self.row = out, ws, 0
        self.wrap = out.book.add_format({"text_wrap": True, "valign": "top"})
        self.note = out.book.add_format({"text_wrap": True, "valign": "top", "font_color": colours.MUTED})
        self.heads = out.book.add_format({**HEADER, "text_wrap": True, "valign": "top"})

    def label(self, text: str, least: int = 1) -> int:
        """A row's label (an optimization's name, a figure's) wrapped in column A rather than run under the next
        column, cut; the row as tall as its lines, or as the ``least`` lines its other cells need."""
        lines = max(_lines(text, WIDTHS[0]), least)
        if lines > 1:
            self.ws.set_row(self.row, 15 * lines)
        return self.line((text, self.wrap))

    def header(self, *titles: str) -> int:
        """A table's header row, each title wrapped in its column ("End-to-end speedup" in 16 characters), the row
        as tall as its longest."""
        lines = max(_lines(t, WIDTHS[col]) for col, t in enumerate(titles))
        if lines > 1:
            self.ws.set_row(self.row, 15 * lines)
        return self.line(*((t, self.heads) for t in titles))

    def line(self, *cells: Any) -> int:
        """One row of strings (a ``(text, format)`` pair for a formatted one); returns its 1-based number."""
        for col, cell in enumerate(cells):
            if isinstance(cell, tuple):
                self.ws.write_string(self.row, col, self.out.printable(cell[0]), cell[1])
            elif cell is not None:
                self.ws.write_string(self.row, col, self.out.printable(str(cell)))
        self.row += 1
        return self.row

    def sentence(self, text: str, bold: bool = False) -> None:
        """A sentence across A:H, wrapped and as tall as its lines, so it prints whole within the page."""
        lines = max(1, math.ceil(len(text) / LINE_CHARS))
        self.ws.set_row(self.row, 15 * lines)
        fmt = self.out.book.add_format({"text_wrap": True, "valign": "top", "bold": bold}) if bold else self.wrap
        self.ws.merge_range(self.row, 0, self.row, LAST_COL, self.out.printable(text), fmt)
        self.row += 1

    def skip(self) -> None:
        self.row += 1


def write_summary(
    out: Book,
    profile: Profile,
    a: Analysis,
    trace: TraceAnswer | None = None,
    decision: Decision | None = None,
    job: JobFigures | None = None,
) -> None:
    """The analysis as numbers and sentences, plus native charts built on the workbook's own cells. ``trace``:
    the answer with the profile's trace's dependencies — it leads (values as written), the sum's live figures
    stay beside it, labelled as the sum's; ``decision``: the odds and the cheapest plan computed through them
    (None: the sum's, worked out here). ``job``: the job of many ranks the profile stands for — its answer and
    its odds (``job.odds``) lead, and the rest of the sheet — ``decision`` too — is the profile's rank's, said so."""
    ws = out.book.add_worksheet(SUMMARY)
    for col, width in enumerate(WIDTHS):
        ws.set_column(col, col, width)
    rows = _Rows(out, ws)
    unit = profile.unit.value
    n = len(profile.components)
    total_row = n + 2  # the Components sheet's Total line
    rows.line(("Amdahl Desk analysis", out.title))
    rows.sentence(
        "Figures computed when this workbook was written, each formula saved with its value. The totals, each "
        "optimization's figures, New time, P and the scaling curves follow edits of a time, a speedup or a tick "
        "on the other sheets, and so do the charts; the objectives, load, cost and fit sections do not. "
        "Reopen in Amdahl Desk to recompute all."
    )
    if profile.settings.boundary:
        rows.line("Boundary", profile.settings.boundary)
    rows.skip()
    if job is not None:
        _job_lead(out, ws, rows, profile, a, job, trace)
    traced = trace is not None and trace.usable
    if trace is not None and traced:
        lead = "the rank's answer" if job is not None else "the answer"
        rows.line((f"With the trace's dependencies ({lead}; values as written)", out.bold))
        for label, value, fmt in [
            ("End-to-end speedup", trace.speedup, out.speedup),
            (f"New total ({unit})", trace.new_total, out.time),
            (f"Time saved ({unit})", trace.time_saved, out.time),
            ("Ceiling on the critical path", trace.ceiling, out.speedup),
        ]:
            _figure(out, ws, rows.row, 1, None, value, fmt)
            rows.line((label, out.bold))
        rows.skip()
        rows.line(("What the sum of the components' times promises (follows edits)", out.bold))
    elif trace is not None:
        rows.sentence(unusable_note(profile.settings.trace_source, trace.problem))
    c = a.combined
    base = f"$B${rows.row + 1}"
    new = f"$B${rows.row + 2}"
    f_cell = f"$B${rows.row + 5}"
    for label, formula, value, fmt in [
        (f"Baseline total ({unit})", f"={COMPONENTS}!$B${total_row}", a.baseline_total, out.time),
        (f"New total ({unit})", f"={COMPONENTS}!$G${total_row}", c.new_total, out.time),
        ("End-to-end speedup", f'=IF({new}=0,"∞",{base}/{new})', c.overall_speedup, out.speedup),
        (f"Time saved ({unit})", f"={base}-{new}", c.time_saved, out.time),
        ("Affected share", None, c.fraction, out.share),
        ("Ceiling 1/(1−f)", f'=IF({f_cell}>=1,"∞",1/(1-{f_cell}))', c.ceiling, out.speedup),
    ]:
        _figure(out, ws, rows.row, 1, formula, value, fmt)
        rows.line((label, out.bold))
    rows.skip()
    if trace is not None and traced:
        rows.sentence(answer_headline(profile, a, trace), bold=True)
        beside = sum_beside(profile, trace)
        if beside:
            rows.sentence(beside)
        if trace.edited:
            rows.sentence(edited_note(profile, trace))
        sentence = answer_target(profile, a, trace)
    else:
        rows.sentence(headline(profile, a), bold=True)
        sentence = target_sentence(profile, a)
    if sentence:
        rows.sentence(sentence)
    _decision_rows(out, ws, rows, profile, a, decision)
    rows.skip()
    if trace is not None and traced:
        _traced_optimizations_table(out, ws, rows, profile, trace)
        rows.skip()
        rows.line((OPTIONS_BY_SUM, out.bold))
    _optimizations_table(out, ws, rows, profile, a, base)
    rows.skip()
    fit = (
        fit_measurements(profile.measurements)
        if profile.measurements is not None and profile.measurements.rows
        else None
    )
    outcomes = profile_outcomes(profile, a, answer=trace if traced else None)
    for section in sections(profile, a, outcomes, fit, traced=traced):
        _section(out, ws, rows, section)
        rows.skip()
    header_row, last_row = _scaling_table(out, ws, rows, profile, a)
    end = add_charts(out, ws, profile, n, header_row, last_row, rows.row + 1)
    print_sheet(ws, max(end, rows.row) - 1, LAST_COL, header_rows=0)


def _decision_rows(
    out: Book, ws: Worksheet, rows: _Rows, profile: Profile, a: Analysis, decision: Decision | None, job: bool = False
) -> None:
    """The odds of the target and the cheapest plan (``job``: a job's, which has no plan searched)."""
    for label, odds, text in decision_rows(profile, a, decision, job=job):
        if odds is not None:
            ws.write_number(rows.row, 1, odds, out.share)
            if text:
                ws.merge_range(rows.row, 3, rows.row, LAST_COL, out.printable(text), rows.note)
            rows.line((label, out.bold))
        else:
            rows.sentence(text)


def _job_lead(
    out: Book,
    ws: Worksheet,
    rows: _Rows,
    profile: Profile,
    a: Analysis,
    job: JobFigures,
    trace: TraceAnswer | None,
) -> None:
    """The job's answer first (values as written): its step, what the ticked plan buys it and its ceiling, the
    sentences ``report`` leads with, the odds through its ranks; then where the profile's own rank begins."""
    from ..model.job.plan import CEILING_K
    from ..present.job_plan import job_report_lines, rank_heading

    ranks = len(job.job.ranks)
    rows.line((f"The job of {ranks} ranks (the answer; values as written, ms per step)", out.bold))
    base = job.job.step_time
    answer = job.answer
    after = answer.predicted if answer is not None and not job.computing else None
    free = None
    if answer is not None:
        free = job.replays.get((tuple((p, CEILING_K) for p, _ in answer.speedups), job.on_ranks))
    figures = [("The job's step (ms)", base, out.time)]
    if after is not None and after > 0:
        figures += [
            ("New job step (ms)", after, out.time),
            ("The job's speedup", base / after, out.speedup),
            ("Saved per job step (ms)", base - after, out.time),
        ]
        if isinstance(free, float) and free > 0:
            figures.append(("The job's ceiling", base / free, out.speedup))
    for label, value, fmt in figures:
        _figure(out, ws, rows.row, 1, None, value, fmt)
        rows.line((label, out.bold))
    for line in job_report_lines(profile, a, job, trace if trace is not None and trace.usable else None):
        rows.sentence(line.strip())
    odds = job.odds[1] if job.odds is not None else None  # drawn through the ranks
    if isinstance(odds, str):
        rows.sentence(f"Under uncertainty: the odds could not be worked out for the job: {odds}")
    elif odds is not None:
        from ..model.decision import Decision as Decided

        _decision_rows(out, ws, rows, profile, a, Decided(odds, None), job=True)
    rows.skip()
    rows.line((rank_heading(job), out.bold))


def _figure(out: Book, ws: Worksheet, row: int, col: int, formula: str | None, value: float, fmt: Format) -> None:
    """A figure as a formula with its value (∞ as text, which no number format shows), or as a number."""
    if formula is None:
        out.number(ws, row, col, value, fmt)
    elif math.isfinite(value):
        ws.write_formula(row, col, formula, fmt, value)
    else:
        ws.write_formula(row, col, formula, out.right, "∞")


def _optimizations_table(out: Book, ws: Worksheet, rows: _Rows, profile: Profile, a: Analysis, base: str) -> None:
    """One row per optimization: its k and tick from the Optimizations sheet, and what it does alone."""
    unit = profile.unit.value
    titles = ["Optimization", "Enabled", "Speedup k", "Affected share", "End-to-end speedup"]
    titles += [f"New total ({unit})", f"Time saved ({unit})", "Ceiling"]
    rows.header(*titles)
    f = a.optimizations
    for i, o in enumerate(profile.optimizations):
        r, src = rows.row + 1, i + 2
        ws.write_formula(rows.row, 1, f"={OPTIMIZATIONS}!$A${src}", out.boolean, o.enabled)
        ws.write_formula(rows.row, 2, f"={OPTIMIZATIONS}!$D${src}", out.k, o.speedup)
        out.number(ws, rows.row, 3, float(f.fraction[i]), out.share)
        alone = f"((1-D{r})+D{r}/C{r})"  # Amdahl: the time left, as a share of the baseline
        _figure(out, ws, rows.row, 4, f"=1/{alone}", float(f.overall_speedup[i]), out.speedup)
        _figure(out, ws, rows.row, 5, f"={base}*{alone}", float(f.new_total[i]), out.time)
        _figure(out, ws, rows.row, 6, f"={base}-F{r}", float(f.time_saved[i]), out.time)
        _figure(out, ws, rows.row, 7, f'=IF(D{r}>=1,"∞",1/(1-D{r}))', float(f.ceiling[i]), out.speedup)
        rows.label(o.name)


def _traced_optimizations_table(out: Book, ws: Worksheet, rows: _Rows, profile: Profile, trace: TraceAnswer) -> None:
    """One row per optimization: what it does alone with the trace's dependencies (values as written)."""
    unit = profile.unit.value
    rows.line((OPTIONS_WITH_DEPS, out.bold))
    titles = ["Optimization", "Enabled", "Speedup k", "End-to-end speedup", f"New total ({unit})"]
    titles += [f"Time saved ({unit})", "Ceiling on the critical path"]
    rows.header(*titles)
    for o, alone in zip(profile.optimizations, trace.options, strict=True):
        ws.write_boolean(rows.row, 1, o.enabled, out.boolean)
        out.number(ws, rows.row, 2, o.speedup, out.k)
        if alone.speedup is not None and alone.speedup > 0:
            new_total = trace.baseline / alone.speedup
            out.number(ws, rows.row, 3, alone.speedup, out.speedup)
            out.number(ws, rows.row, 4, new_total, out.time)
            out.number(ws, rows.row, 5, trace.baseline - new_total, out.time)
        if alone.ceiling is not None:
            out.number(ws, rows.row, 6, alone.ceiling, out.speedup)
        rows.label(o.name)


def _section(out: Book, ws: Worksheet, rows: _Rows, section: Section) -> None:
    """A titled table of figures (label | value | unit | meaning) and the sentences under it."""
    ws.merge_range(rows.row, 0, rows.row, LAST_COL, out.printable(section.title), out.header)
    rows.skip()
    for row in section.rows:
        _section_row(out, ws, rows, row)
    for sentence in section.sentences:
        rows.sentence(sentence)


def _section_row(out: Book, ws: Worksheet, rows: _Rows, figure: Row) -> None:
    """The value as a number in its unit's format (a percentage or a speedup shows its own sign), else as text."""
    row = rows.row
    note = figure.note
    if figure.value is not None and math.isfinite(figure.value):
        fmt = {PERCENT: out.share, SPEEDUP: out.speedup}.get(figure.unit) or out.significant(figure.value)
        ws.write_number(row, 1, figure.value, fmt)
        if "±" in figure.text:  # the number alone drops its standard error
            note = f"{figure.text}: {note}" if note else figure.text
    else:
        ws.write_string(row, 1, out.printable(figure.text), out.right)
    if figure.unit not in (PERCENT, SPEEDUP, ""):
        ws.write_string(row, 2, out.printable(figure.unit))
    if note:
        ws.merge_range(row, 3, row, LAST_COL, out.printable(note), rows.note)
    # a long label ("End to end with the trace's dependencies: after the plan") wraps, never cut by the value beside it
    rows.label(figure.label, math.ceil(len(note) / NOTE_CHARS) if note else 1)


def _scaling_table(out: Book, ws: Worksheet, rows: _Rows, profile: Profile, a: Analysis) -> tuple[int, int]:
    """P, N0 and the GPU scaling table (a CPU job's over its ranks; Amdahl and Gustafson as formulas on P); returns
    its header and last row."""
    s, c = a.scaling, counted(profile.settings)
    unit = profile.unit.value
    model = profile.settings.overhead_model
    n = len(profile.components)
    last, total_row = n + 1, n + 2
    rows.sentence(f"{c.scaling}, overhead model {model.value}: {overhead_description(model)}")
    p = s.parallel_fraction
    if profile.settings.parallel_fraction is not None:
        ws.write_number(rows.row, 1, p, out.share)
    else:
        # P from the Components sheet: the share of 'parallel' rows, so editing a time or a class moves the curves.
        ws.write_formula(
            rows.row,
            1,
            f'=IF(Components!$B${total_row}=0,0,SUMIF(Components!$D$2:$D${last},"{Scaling.PARALLEL.value}",'
            f"Components!$B$2:$B${last})/Components!$B${total_row})",
            out.share,
            p,
        )
    p_row = rows.line(("Parallel share P", out.bold))
    ws.write_number(rows.row, 1, s.baseline_gpus)
    n0_row = rows.line((f"Baseline {c.many} N0", out.bold))
    p_ref, n0_ref = f"$B${p_row}", f"$B${n0_row}"
    titles = [c.heading, "Ideal", "Amdahl", "With overhead", "Gustafson", "Efficiency", f"Time ({unit})"]
    header_row = rows.header(*titles)
    time_format = out.time_column(s.time.tolist())
    for i, gpus in enumerate(s.gpus.tolist()):
        row, r = rows.row, rows.row + 1
        ws.write_number(row, 0, gpus)
        ws.write_formula(row, 1, f"=A{r}/{n0_ref}", out.speedup, float(s.ideal[i]))
        ws.write_formula(row, 2, f"=1/((1-{p_ref})+{p_ref}*{n0_ref}/A{r})", out.speedup, float(s.amdahl[i]))
        out.number(ws, row, 3, float(s.with_overhead[i]), out.speedup)
        ws.write_formula(row, 4, f"=(1-{p_ref})+{p_ref}*A{r}/{n0_ref}", out.speedup, float(s.gustafson[i]))
        efficiency = float(s.efficiency[i])
        ws.write_formula(row, 5, f"=D{r}/(A{r}/{n0_ref})", out.share, efficiency if math.isfinite(efficiency) else 0)
        out.number(ws, row, 6, float(s.time[i]), time_format)
        rows.row += 1
    return header_row, rows.row
