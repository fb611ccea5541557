"""The measured runs' fits in figures and words: one wording for the Measurements tab, the slide and ``fit``'s text."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..model.fit import FitResult
from ..model.fit_intervals import FitIntervals, Interval, fit_intervals
from ..model.measurement_table import MeasurementTable
from ..model.measurements import MeasureKind
from .fit_text import count, notes_for, profile_comparison, regime_sentence
from .measured import throughput_scale
from .numbers import POINT, Numbers

EMPTY = "Type or paste runs: N and a time or throughput for each, 3 or more at different N."
KARP_FLATT_MEANING = {
    "rising": "overhead grows with N, not a fixed serial part",
    "falling": "a start-up cost that larger runs amortise",
    "steady": "a fixed serial part, as Amdahl assumes",
}


PERCENT = "%"  # a figure's number is a fraction (0.87), read as a percentage (87%)
SPEEDUP = "×"  # a ratio, read with ×


@dataclass(frozen=True)
class FitFigure:
    """One fitted figure: its name, its value with its unit, and what it means; ``number`` is the value as a
    number in ``unit`` (a fraction for ``%``), for a workbook (None where there is none, such as "never")."""

    name: str
    value: str
    meaning: str
    number: float | None = None
    unit: str = ""


@dataclass(frozen=True)
class FitView:
    """The regime in one sentence, the figures behind it, and the notes (``weak``: those that say how little
    to trust the fit, shown as warnings)."""

    headline: str
    figures: tuple[FitFigure, ...]
    notes: tuple[str, ...]
    weak: tuple[bool, ...]


def estimate(value: float, err: float, digits: int = 3, unit: str = "", n: Numbers = POINT) -> str:
    """An estimate with its standard error: "0.0277 ± 0.0091"; none can be given from exactly 3 runs."""
    tail = f" {unit}" if unit else ""
    shown = n.plain(value, f".{digits}g")
    return f"{shown} ± {n.plain(err, '.2g')}{tail}" if math.isfinite(err) else f"{shown}{tail} (± needs 4+ runs)"


def rate(value: float | None, unit: str, n: Numbers = POINT) -> str:
    """A throughput with its unit: "9.89 runs/s"; "—" when there is none."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{n.number(value)} {unit}".strip()


def within(interval: Interval | None, shown: Callable[[float], str], n: Numbers = POINT) -> str:
    """``; 95%: 84%–90%`` (``; 95%: above 12`` where the runs do not bound it above); "" without an interval."""
    if interval is None or not math.isfinite(interval.low):
        return ""
    level = n.percent(interval.level)
    if not math.isfinite(interval.high):
        return f"; {level}: above {shown(interval.low)}"
    return f"; {level}: {shown(interval.low)}–{shown(interval.high)}"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def fit_figures(fit: FitResult, n: Numbers = POINT) -> tuple[FitFigure, ...]:
    """The figures in reading order, throughputs in runs per second for runtimes (X = 1/T) and each with its unit."""
    scale, unit = throughput_scale(fit.measurements)
    rows: list[FitFigure] = []
    a, u = fit.amdahl, fit.usl
    iv: FitIntervals = fit_intervals(fit)

    def plain(v: float) -> str:
        return n.plain(v, ".3g")

    if a is not None:
        share = f"{n.coefficient(a.parallel_fraction)} ± {n.coefficient(a.stderr)}"
        p_within = within(iv.parallel_fraction, lambda v: n.coefficient(min(max(v, 0.0), 1.0)), n)
        rows.append(
            FitFigure(
                "Amdahl P",
                share,
                f"parallel share, least squares{p_within}",
                a.parallel_fraction,
                PERCENT,
            )
        )
        rows.append(
            FitFigure(
                "ceiling",
                n.speedup(a.ceiling),
                "1/(1−P): no number of workers beats it",
                _finite(a.ceiling),
                SPEEDUP,
            )
        )
    if u is not None:
        rows += [
            FitFigure(
                "USL α", estimate(u.alpha, u.alpha_stderr, n=n), f"contention{within(iv.alpha, plain, n)}", u.alpha
            ),
            FitFigure(
                "USL β",
                estimate(u.beta, u.beta_stderr, n=n),
                f"coherency, crosstalk{within(iv.beta, plain, n)}",
                u.beta,
            ),
            FitFigure(
                "USL γ",
                estimate(u.gamma * scale, u.gamma_stderr * scale, 4, unit, n),
                f"throughput at N = 1{within(iv.gamma, lambda v: plain(v * scale), n)}",
                u.gamma * scale,
                unit,
            ),
            FitFigure(
                "R²",
                n.plain(u.r_squared, ".4f") if math.isfinite(u.r_squared) else "—",
                "share of the variation explained",
                _finite(u.r_squared),
            ),
        ]
        if u.peak_n is not None:
            peak = rate((u.peak_x or 0) * scale, unit, n)
            peak_within = within(iv.peak_n, n.number, n)
            rows.append(FitFigure("peak N*", n.number(u.peak_n), f"X(N*) = {peak}{peak_within}", u.peak_n))
        else:
            rows.append(FitFigure("peak N*", "none", "β = 0: the curve never turns down"))
        limit = u.limit_x * scale
        rows.append(
            FitFigure(
                "limit γ/α", rate(limit, unit, n), "what contention alone caps throughput at", _finite(limit), unit
            )
        )
    half = u.half_efficiency_n if u is not None else a.half_efficiency_n if a is not None else None
    if u is not None or a is not None:
        measured = fit.measured_half_efficiency_n
        seen = f"; runs: N = {count(measured, n)}" if measured is not None else ""
        value = f"N ≈ {count(half, n)}" if half is not None else "never"
        rows.append(FitFigure("50% efficiency", value, f"fitted{seen}", half))
    if fit.karp_flatt_trend is not None:
        rows.append(FitFigure("Karp–Flatt e", fit.karp_flatt_trend, KARP_FLATT_MEANING[fit.karp_flatt_trend]))
    return tuple(rows)


def waiting_sentences(table: MeasurementTable) -> list[str]:
    """Each run the fit leaves out until it is complete, by its row as the table numbers it (from 1)."""
    what = {"n": "its N", "value": f"its {table.kind.value}"}
    return [f"Row {row + 1} needs {what[f]}; the fit leaves it out until then." for row, f in table.waiting()]


def fit_view(
    fit: FitResult, waiting: tuple[str, ...] = (), profile_p: float | None = None, n: Numbers = POINT, runs: int = 0
) -> FitView:
    """The Measurements tab's summary: ``waiting`` are the rows the fit leaves out until they are complete
    (:func:`waiting_sentences`),
    ``profile_p`` the profile's P at the runs' N0 (to compare), ``runs`` how many rows the table has."""
    regime = regime_sentence(fit, n)
    if regime is None and fit.amdahl is not None:
        regime = next((note for note in notes_for(fit, n) if note.startswith("Amdahl fit")), None)
    headline = regime or (EMPTY if not runs else "No fit yet.")
    notes = [note for note in notes_for(fit, n) if note != regime] + list(waiting)
    if profile_p is not None:
        said = profile_comparison(profile_p, fit, n=n)
        if said:
            notes.append(said)
    weak = tuple("weakly" in t or "standard error" in t or "extrapolation" in t for t in notes)
    return FitView(headline, fit_figures(fit, n), tuple(notes), weak)


def fit_text(result: FitResult, source: str, comparison: str | None = None, n: Numbers = POINT) -> str:
    """``amdahl-desk fit``'s answer: the verdict first, then the runs, then the fitted figures with their units."""
    m, pts = result.measurements, result.points
    what = "runtimes" if m.kind is MeasureKind.TIME else "throughputs"
    unit = f" ({m.unit})" if m.unit else ""
    lines = []
    if len(m):
        lines.append(
            f"{n.count(len(m))} measured {what}{unit} from {source}, N = {n.number(float(pts.n.min()))}"
            f"–{n.number(float(pts.n.max()))} {m.noun}; baseline N0 = {n.number(result.baseline_n or 0)}."
        )
    lines += [""] + notes_for(result, n)
    if comparison:  # the profile's P against the fit's, worded by the caller in the same Numbers
        lines.append(comparison)
    if len(m):
        name = m.count_name or "N"
        lines += ["", f"{name:>10}  {m.value_header:>20}  {'Speedup':>8}  {'Efficiency':>10}  {'Karp–Flatt e':>12}"]
        for i in range(len(m)):
            e = float(pts.karp_flatt[i])
            lines.append(
                f"{n.number(float(pts.n[i])):>10}  {n.number(float(pts.value[i])):>20}  "
                f"{n.speedup(float(pts.speedup[i])):>8}  {n.coefficient(float(pts.efficiency[i])):>10}  "
                f"{'—' if e != e else n.coefficient(e):>12}"
            )
    figures = fit_figures(result, n)
    if figures:
        width = max(len(f.name) for f in figures)
        value = max(len(f.value) for f in figures)
        lines += [""] + [f"{f.name:<{width}}  {f.value:>{value}}  {f.meaning}" for f in figures]
    return "\n".join(lines)
