"""Writing profile workbooks with openpyxl: live Share and Total formulas, a Summary sheet, text kept as text.

Imported only when a workbook is written: openpyxl costs a tenth of a second at start-up.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
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


def text_cell(ws: WriteOnlyWorksheet, value: str, **style: Any) -> WriteOnlyCell:
    """A cell that stays text even when it starts with = + - @: never a formula."""
    cell = WriteOnlyCell(ws, value)
    if isinstance(value, str):
        cell.data_type = "s"
    for key, val in style.items():
        setattr(cell, key, val)
    return cell


def safe_text(ws: WriteOnlyWorksheet, value: str) -> str | WriteOnlyCell:
    """``value`` itself, or a forced-text cell when a spreadsheet would take it for a formula."""
    return text_cell(ws, value) if value.startswith(FORMULA_PREFIXES) else value


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
    _write_components(book, profile)
    _write_optimizations(book, profile)
    _write_settings(book, profile)
    if analysis is not None:
        _write_summary(book, profile, analysis)
    book.save(str(path))


def _write_components(book: Workbook, profile: Profile) -> None:
    ws = book.create_sheet(COMPONENTS)
    _widths(ws, [max(16, min(48, max((len(c.name) for c in profile.components), default=10) + 2)), 14, 10, 15, 16, 40])
    ws.freeze_panes = "A2"
    unit = profile.unit
    ws.append(_header(ws, ["Component", f"Time ({unit.value})", "Share", "Scaling", "Group", "Notes"]))
    n = len(profile.components)
    total_row = n + 2
    tfmt = TIME_FORMAT
    # Per-row cells are plain values where they can be (General format shows times well):
    # styled cells cost openpyxl several times more, and profiles can be 100,000 rows long.
    for i, c in enumerate(profile.components, start=2):
        share = WriteOnlyCell(ws, f"=IF($B${total_row}=0,0,B{i}/$B${total_row})")
        share.number_format = "0.0%"
        ws.append(
            [safe_text(ws, c.name), c.time, share, c.scaling.value, safe_text(ws, c.group), safe_text(ws, c.notes)]
        )
    total = WriteOnlyCell(ws, f"=SUM(B2:B{total_row - 1})" if n else 0)
    total.number_format = tfmt
    total.font = _BOLD
    share = WriteOnlyCell(ws, f"=SUM(C2:C{total_row - 1})" if n else 0)
    share.number_format = "0.0%"
    share.font = _BOLD
    ws.append([text_cell(ws, "Total", font=_BOLD), total, share])


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


def _write_summary(book: Workbook, profile: Profile, a: Analysis) -> None:
    ws = book.create_sheet(SUMMARY)
    _widths(ws, [30, 16, 16, 16, 16, 16, 16, 16, 16])
    unit = profile.unit.value
    tfmt, sfmt, pfmt = "#,##0.###", '0.00"×"', "0.0%"
    ws.append([text_cell(ws, "Amdahl Desk analysis", font=_TITLE)])
    ws.append(
        [
            text_cell(
                ws,
                "Computed when this workbook was written; edit the profile sheets and reopen it in "
                "Amdahl Desk to recompute.",
            )
        ]
    )
    if profile.settings.boundary:
        ws.append(["Boundary", text_cell(ws, profile.settings.boundary)])
    ws.append([])
    c = a.combined
    for label, value, fmt in [
        (f"Baseline total ({unit})", a.baseline_total, tfmt),
        (f"New total ({unit})", c.new_total, tfmt),
        ("End-to-end speedup", c.overall_speedup, sfmt),
        (f"Time saved ({unit})", c.time_saved, tfmt),
        ("Affected share", c.fraction, pfmt),
        ("Ceiling 1/(1−f)", c.ceiling, sfmt),
    ]:
        ws.append([text_cell(ws, label, font=_BOLD), _number(ws, value, fmt)])
    ws.append([])
    ws.append([text_cell(ws, headline(profile, a))])
    sentence = target_sentence(profile, a)
    if sentence:
        ws.append([text_cell(ws, sentence)])
    ws.append([])
    ws.append(
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
        ws.append(
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
    ws.append([])
    s = a.scaling
    model = profile.settings.overhead_model
    ws.append(
        [
            text_cell(
                ws,
                f"GPU scaling: parallel share {s.parallel_fraction:.1%}, ceiling "
                f"{'∞' if not math.isfinite(s.ceiling) else f'{s.ceiling:.2f}×'}, overhead model "
                f"{model.value} ({model.description})",
            )
        ]
    )
    ws.append(_header(ws, ["GPUs", "Ideal", "Amdahl", "With overhead", "Gustafson", "Efficiency", f"Time ({unit})"]))
    for i, n in enumerate(s.gpus):
        ws.append(
            [
                int(n),
                _number(ws, s.ideal[i], sfmt),
                _number(ws, s.amdahl[i], sfmt),
                _number(ws, s.with_overhead[i], sfmt),
                _number(ws, s.gustafson[i], sfmt),
                _number(ws, s.efficiency[i], pfmt),
                _number(ws, s.time[i], tfmt),
            ]
        )
