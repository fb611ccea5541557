"""The measured runs' fits as figures: Amdahl's P, the USL coefficients, the peak, efficiency and Karp–Flatt.

The Measurements tab's figures grid and the workbook's Summary sheet show these rows; texts are in the
model's format (the window writes them in the person's locale).
"""

from __future__ import annotations

import math

from ..model.fit import FitResult
from ..model.fit_text import count, notes_for, percent, profile_comparison
from ..model.measurements import MeasureKind, Measurements
from ..model.units import ParseError, format_number, format_speedup, parse_unit
from .figures import PERCENT, SPEEDUP, Figure, Section


def throughput_scale(m: Measurements) -> tuple[float, str]:
    """Factor from the fit's throughput to the one shown, and its unit: runtimes become runs per second."""
    if m.kind is MeasureKind.THROUGHPUT:
        return 1.0, m.unit
    try:
        return 1.0 / parse_unit(m.unit).seconds, "runs/s"
    except ParseError:
        return 1.0, f"runs/{m.unit}" if m.unit else "runs per unit of time"


def _pm(value: float, err: float, digits: int = 3) -> str:
    """An estimate with its standard error: "0.0277 ± 0.0091"; no error from exactly 3 runs."""
    shown = f"{value:.{digits}g}"
    return f"{shown} ± {err:.2g}" if math.isfinite(err) else f"{shown} (± needs 4+ runs)"


def _rate(value: float | None, unit: str) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    return f"{format_number(value)} {unit}".strip()


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def fit_figures(fit: FitResult) -> tuple[Figure, ...]:
    """The fitted figures in reading order (none without a fit)."""
    scale, unit = throughput_scale(fit.measurements)  # runtimes: X = 1/T, shown in runs per second
    rows: list[Figure] = []
    a, u = fit.amdahl, fit.usl
    if a is not None:
        p = f"{percent(a.parallel_fraction)} ± {percent(a.stderr)}"
        rows.append(Figure("Amdahl P", a.parallel_fraction, PERCENT, p, "parallel share, least squares"))
        rows.append(
            Figure(
                "ceiling",
                _finite(a.ceiling),
                SPEEDUP,
                format_speedup(a.ceiling),
                "1/(1−P): no number of workers beats it",
            )
        )
    if u is not None:
        rows += [
            Figure("USL α", u.alpha, "", _pm(u.alpha, u.alpha_stderr), "contention"),
            Figure("USL β", u.beta, "", _pm(u.beta, u.beta_stderr), "coherency, crosstalk"),
            Figure(
                "USL γ",
                u.gamma * scale,
                unit,
                _pm(u.gamma * scale, u.gamma_stderr * scale, 4),
                f"throughput at N = 1 ({unit})",
            ),
            Figure(
                "R²",
                _finite(u.r_squared),
                "",
                f"{u.r_squared:.4f}" if math.isfinite(u.r_squared) else "—",
                "share of the variation explained",
            ),
        ]
        if u.peak_n is not None:
            peak = (u.peak_x or 0) * scale
            rows.append(Figure("peak N*", u.peak_n, "", format_number(u.peak_n), f"X(N*) = {_rate(peak, unit)}"))
        else:
            rows.append(Figure("peak N*", None, "", "none", "β = 0: the curve never turns down"))
        limit = u.limit_x * scale
        rows.append(
            Figure("limit γ/α", _finite(limit), unit, _rate(limit, unit), "what contention alone caps throughput at")
        )
    half = u.half_efficiency_n if u is not None else a.half_efficiency_n if a is not None else None
    if u is not None or a is not None:
        measured = fit.measured_half_efficiency_n
        seen = f"; runs: N = {count(measured)}" if measured is not None else ""
        shown = f"N ≈ {count(half)}" if half is not None else "never"
        rows.append(Figure("50% efficiency", half, "", shown, f"fitted{seen}"))
    if fit.karp_flatt_trend is not None:
        meaning = {
            "rising": "overhead grows with N, not a fixed serial part",
            "falling": "a start-up cost that larger runs amortise",
            "steady": "a fixed serial part, as Amdahl assumes",
        }[fit.karp_flatt_trend]
        rows.append(Figure("Karp–Flatt e", None, "", fit.karp_flatt_trend, meaning))
    return tuple(rows)


def fit_section(
    fit: FitResult, profile_parallel_fraction: float | None = None, profile_baseline_n: float | None = None
) -> Section:
    """The fits to the measured runs with the sentences a reviewer reads, and the profile's P against them."""
    m = fit.measurements
    noun = m.noun
    title = f"Measured runs: {len(m):,} run{'s' if len(m) != 1 else ''} against {noun}"
    sentences = notes_for(fit)
    if profile_parallel_fraction is not None:
        said = profile_comparison(profile_parallel_fraction, fit, profile_baseline_n)
        if said:
            sentences.append(said)
    return Section(title, fit_figures(fit), tuple(sentences))
