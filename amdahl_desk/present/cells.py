"""What the window's tables and lines say about the profile: cell texts, their formulas, the total, a selection.

The tables show these texts in the desktop's separators (``n``); an editor starts from, and a copy writes, the
exact number in the files' format (:func:`exact_text`), as a spreadsheet reads it; the lines under and beside
the tables are formatted here, once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..model.analysis import Analysis, Combined
from ..model.laws import ceiling
from ..model.load_settings import setting_texts
from ..model.profile import Component, Optimization, Profile, Settings
from ..model.units import TimeUnit, decimal_text
from ..model.values import confidence_text
from .numbers import POINT, Numbers
from .trace_plan import TraceFigures, current_answer

DASH = "—"


def exact_text(value: float) -> str:
    """A number as a cell's editor starts from it and its copy writes it: exact, without thousands separators or an
    exponent where avoidable, in the files' format ("1234.5"); "" for a cell still waiting for one (NaN)."""
    if math.isnan(value):
        return ""
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)


def time_cell(value: float, n: Numbers = POINT) -> str:
    """A time in a table, without its unit (the header says it): ``1,234``, ``0.125``."""
    return n.number(value)


def run_cell(value: float, n: Numbers = POINT) -> str:
    """A run's N or measured value in the runs table: ``""`` while it waits for one."""
    return "" if value != value else n.number(value)


def run_figure_cells(speedup: float, efficiency: float, karp_flatt: float, n: Numbers = POINT) -> tuple[str, str, str]:
    """A run's speedup, efficiency and Karp–Flatt e as the runs table shows them (e is undefined at N0: —)."""
    return (
        n.speedup(speedup),
        n.coefficient(efficiency),
        DASH if karp_flatt != karp_flatt else n.coefficient(karp_flatt),
    )


def run_tip(column: str, n0: float, p: float, speedup: float, n: Numbers = POINT) -> str:
    """What a run's computed cell means: ``column`` is "speedup", "efficiency" or "karp_flatt"."""
    if column == "speedup":
        return f"Against the baseline N0 = {n.number(n0)}, the smallest N measured (its runs averaged)"
    if column == "efficiency":
        return f"Speedup ÷ (N/N0) = {n.speedup(speedup)} ÷ {n.number(p)}"
    if p == 1:
        return "Undefined at the baseline"
    return "e = (1/S − 1/p)/(1 − 1/p), p = N/N0: the serial fraction these runs imply; rising e means growing overhead"


def share_cell(fraction: float, n: Numbers = POINT) -> str:
    return n.percent(fraction)


def speedup_cell(value: float | None, n: Numbers = POINT) -> str:
    return n.speedup(value)


def new_time_tip(comp: Component, row: int, a: Analysis, unit: str, n: Numbers = POINT) -> str:
    """The formula behind a component's new time."""
    return (
        f"{n.number(comp.time)} ÷ {n.number(float(a.component_speedup[row]))} "
        f"(the enabled optimizations' k) = {n.number(float(a.new_times[row]))} {unit}"
    )


def share_tip(comp: Component, row: int, a: Analysis, unit: str, n: Numbers = POINT) -> str:
    """The formula behind a component's share."""
    return (
        f"{n.number(comp.time)} ÷ {n.number(a.baseline_total)} {unit} "
        f"= {n.percent(float(a.fractions[row]))} of the baseline total"
    )


def optimization_figures(a: Analysis | None, rows: int, n: Numbers = POINT) -> dict[str, list[str]]:
    """The checklist's figures as shown: "share", "speedup", "ceiling", "saves" → one text per optimization
    (a dash without an analysis)."""
    if a is None or len(a.optimizations.fraction) != rows:
        return {key: [DASH] * rows for key in ("share", "speedup", "ceiling", "saves")}
    figs = a.optimizations
    return {
        "share": [n.percent(f) for f in figs.fraction.tolist()],
        "speedup": [n.speedup(s) for s in figs.overall_speedup.tolist()],
        "ceiling": [n.speedup(c) for c in figs.ceiling.tolist()],
        "saves": [n.number(t) for t in figs.time_saved.tolist()],
    }


def built_name(opt: Optimization) -> str:
    """An optimization's name as the checklist shows it: a built one says so ("✓ built: Faster decode")."""
    return f"✓ built: {opt.name}" if opt.built else opt.name


def k_edit_text(opt: Optimization) -> str:
    """k as an editor starts with it: every digit, no ×."""
    return exact_text(opt.speedup)


def estimate_cells(opt: Optimization, n: Numbers = POINT) -> tuple[str, str, str, str]:
    """The checklist's k low, k high, effort (days) and confidence as shown; empty where the workbook's cell is
    empty (no range on that side, no effort, 100%)."""
    low, high, effort, confidence = opt.speedup_low, opt.speedup_high, opt.effort, opt.confidence
    return (
        "" if low is None else n.speedup(low),
        "" if high is None else n.speedup(high),
        "" if effort is None else n.number(effort),
        "" if confidence == 1.0 else n.percent(confidence),
    )


def estimate_edit_texts(opt: Optimization) -> tuple[str, str, str, str]:
    """The same as an editor starts with them: every digit, no ×, the confidence as a percentage."""
    low, high, effort, confidence = opt.speedup_low, opt.speedup_high, opt.effort, opt.confidence
    return (
        "" if low is None else exact_text(low),
        "" if high is None else exact_text(high),
        "" if effort is None else exact_text(effort),
        "" if confidence == 1.0 else confidence_text(confidence),
    )


def speedup_tip(opt: Optimization, row: int, a: Analysis, n: Numbers = POINT) -> str:
    f = float(a.optimizations.fraction[row])
    return (
        f"S = 1/((1−f)+f/k) = 1/({n.plain(1 - f, '.3g')} + {n.plain(f, '.3g')}/{n.plain(opt.speedup, 'g')})"
        f" = {n.speedup(float(a.optimizations.overall_speedup[row]))} — this optimization alone"
        + ("" if opt.enabled else " (not enabled)")
    )


def ceiling_tip(opt: Optimization, row: int, a: Analysis, unit: str, n: Numbers = POINT) -> str:
    f = float(a.optimizations.fraction[row])
    return (
        f"1/(1−f) = 1/{n.plain(1 - f, '.3g')} = {n.speedup(float(a.optimizations.ceiling[row]))}: even an "
        f"infinitely fast {'; '.join(opt.targets)} leaves {n.number((1 - f) * a.baseline_total)} {unit}"
    )


def k_step_text(name: str, k: float, n: Numbers = POINT) -> str:
    """The undo step of a k change: "Set k of Faster decode to 2×"."""
    return f"Set k of {name} to {n.speedup(k)}"


def total_line(
    profile: Profile, a: Analysis | None, error: str | None, n: Numbers = POINT, trace: TraceFigures | None = None
) -> list[str]:
    """The line under the components table, as phrases that wrap whole: "**Total 1,000 ms**", "over 5 components",
    then with a plan "→ **550 ms**", "after 1 optimization", "(1.82×, saves 450 ms)". Bold is ``<b>``. With a
    trace (``trace``: what is known of it), the new total is the answer with its dependencies and the sum's
    is beside it: "→ **53.5 ms** with the trace's dependencies", …, "(1.474×, saves 25.3 ms; the sum: 54.8 ms)";
    "…" while it is computed."""
    count = len(profile.components)
    unit = profile.unit
    if a is None:
        return [f"{n.count(count)} components · {error or ''}"]
    c = a.combined
    phrases = [f"<b>Total {n.time(a.baseline_total, unit)}</b>", f"over {n.count(count)} components"]
    if c.enabled:
        after = f"after {c.enabled} optimization{'s' if c.enabled != 1 else ''}"
        answer = current_answer(trace, profile, a) if trace is not None else None
        if isinstance(answer, str):
            return [
                *phrases,
                f"→ <b>{answer}</b>",
                "with the trace's dependencies",
                after,
                "(computing;",
                *_sum_of(c, unit, n),
            ]
        if answer is not None:
            return [
                *phrases,
                f"→ <b>{n.time(answer.new_total, unit)}</b>",
                "with the trace's dependencies",
                after,
                f"({n.close_speedup(answer.speedup)}, saves {n.time(answer.time_saved, unit)};",
                *_sum_of(c, unit, n),
            ]
        phrases += [
            f"→ <b>{n.time(c.new_total, unit)}</b>",
            after,
            f"({n.speedup(c.overall_speedup)}, saves {n.time(c.time_saved, unit)})",
        ]
    return phrases


def _sum_of(c: Combined, unit: TimeUnit, n: Numbers) -> list[str]:
    return ["the sum:", f"{n.time(c.new_total, unit)},", f"{n.speedup(c.overall_speedup)})"]


def selection_status(profile: Profile, a: Analysis | None, rows: Sequence[int], n: Numbers = POINT) -> str | None:
    """What several selected components take together, and the ceiling if they took no time; None for fewer than
    two."""
    if a is None or len(rows) < 2:
        return None
    index = np.asarray(rows, dtype=np.int64)
    share = float(a.fractions[index].sum())
    total = float(a.times[index].sum())
    return (
        f"{n.count(len(rows))} components selected: {n.time(total, profile.unit)}, f = {n.percent(share)} of the "
        f"time; ceiling if they took no time: {n.speedup(float(ceiling(share)))}"
    )


def settings_fields(settings: Settings, unit: TimeUnit, n: Numbers = POINT) -> dict[str, str]:
    """What each settings field shows: the value as text its parser reads back exactly (in the desktop's decimal
    separator, which the window's parsers take), "" for a field that is not set."""
    d = n.parser_decimal
    return {
        "target_time": "" if settings.target_time is None else f"{n.number(settings.target_time)} {unit.label}",
        "ring_latency": f"{decimal_text(settings.ring_latency, 1e-6, d)} us",
        "ring_message_bytes": f"{decimal_text(settings.ring_message_bytes, 1e6, d)} MB",
        "ring_bandwidth": f"{decimal_text(settings.ring_bandwidth, 1e9, d)} GB/s",
        **setting_texts(settings, d),
    }
