"""The measured-scaling fits in sentences a reviewer reads: regime, peak, efficiency, trust, the profile's P.

The model's :class:`~amdahl_desk.model.fit.FitResult` holds the figures; these are its only words, for the
Measurements tab, the workbook's Summary, ``amdahl-desk fit`` and the Python API."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from ..model.laws import parallel_fraction_at
from ..model.measurements import MeasureKind
from ..model.units import fixed, format_number, format_percent
from .numbers import POINT, Numbers

if TYPE_CHECKING:
    from ..model.errors import Problem
    from ..model.fit import FitGap, FitResult


def percent(fraction: float) -> str:
    """A coefficient as a percentage with two significant digits: 2.8%, 0.01%, 0%."""
    pct = fraction * 100
    if fraction == 0:
        return "0"
    if not math.isfinite(pct):
        return format_number(pct)
    if abs(pct) < 1e-6:
        return "0%"
    if abs(pct) >= 10:
        return format_percent(fraction)  # whole, and a share below all never 100%
    if abs(pct) >= 1:
        return f"{fixed(pct, 1)}%".replace(".0%", "%")
    return f"{float(f'{pct:.2g}'):g}%"


def count(value: float, n: Numbers = POINT) -> str:
    """A count of workers: whole from 10 up (96.5 → 97, as a reviewer reads it), else 3 significant digits."""
    whole = int(fixed(value, 0))  # a half up, as a spreadsheet rounds (96.5 → 97)
    return n.count(whole) if abs(value - whole) < 0.05 or value >= 10 else n.number(value)


def _rate(value: float, unit: str, n: Numbers) -> str:
    if not unit:
        return n.number(value)
    return f"{n.number(value)}{unit}" if unit.startswith("/") else f"{n.number(value)} {unit}"


def regime_sentence(result: FitResult, n: Numbers = POINT) -> str | None:
    """Which regime the system is in, from the USL fit: contention, coherency, or none measured."""
    usl, m = result.usl, result.measurements
    if usl is None:
        return None
    noun = m.noun
    coeffs = f"α = {n.coefficient(usl.alpha)}, β = {n.coefficient(usl.beta)}"
    n_max = float(result.points.n.max())
    kind = usl.limited_by(n_max)
    if kind == "none":
        return f"Linear scaling ({coeffs}): no contention or coherency cost measured; throughput grows in step with {noun}."
    label = "Contention-limited" if kind == "contention" else "Coherency-limited"
    peak = usl.peak_n
    if peak is None:
        limit = usl.limit_x
        if m.kind is MeasureKind.TIME:
            best = n.speedup(limit / float(usl.throughput(usl.baseline_n)))
            return (
                f"{label} ({coeffs}): the runtime keeps falling as {noun} are added but never beats {best} against N0."
            )
        return (
            f"{label} ({coeffs}): throughput never turns down; it levels off towards γ/α = "
            f"{_rate(limit, m.unit, n)} as {noun} are added."
        )
    if m.kind is MeasureKind.TIME:
        best_time = 1.0 / float(usl.throughput(peak))
        # Against the runs measured at N0 (not the fit's own value there), as the runs' speedups are.
        base_times = [r.value for r in m.rows if r.n == usl.baseline_n]
        base_time = sum(base_times) / len(base_times) if base_times else 0.0
        speed = n.speedup(base_time / best_time if base_time > 0 else float(usl.speedup(peak)))
        text = (
            f"{label} ({coeffs}): the runtime is shortest at {count(peak, n)} {noun} "
            f"({_rate(best_time, m.unit, n)}, {speed} against N0 = {count(usl.baseline_n, n)}); past it, adding {noun} slows the job."
        )
    else:
        text = (
            f"{label} ({coeffs}): throughput peaks at {count(peak, n)} {noun} ({_rate(usl.peak_x or 0.0, m.unit, n)}); "
            f"past it, adding {noun} lowers throughput."
        )
    if peak > n_max * 1.05:
        text += f" The peak lies beyond the largest run (N = {count(n_max, n)}): an extrapolation."
    return text


def efficiency_sentence(result: FitResult, n: Numbers = POINT) -> str | None:
    """Where efficiency against N0 falls below 50%: from the USL (else Amdahl) fit, and as measured."""
    noun = result.measurements.noun
    fitted = result.usl.half_efficiency_n if result.usl is not None else None
    source = "USL"
    if fitted is None and result.amdahl is not None:
        fitted, source = result.amdahl.half_efficiency_n, "Amdahl"
    parts = []
    if fitted is not None:
        parts.append(f"Efficiency falls below 50% at about {count(fitted, n)} {noun} ({source} fit)")
    elif result.usl is not None or result.amdahl is not None:
        parts.append("Efficiency never falls below 50% in the fitted model")
    if result.measured_half_efficiency_n is not None:
        parts.append(f"the runs first fall below it at N = {count(result.measured_half_efficiency_n, n)}")
    if not parts:
        return None
    return "; ".join(parts) + "."


def amdahl_sentence(result: FitResult, n: Numbers = POINT) -> str | None:
    fit = result.amdahl
    if fit is None:
        return None
    p = fit.parallel_fraction
    text = f"Amdahl fit: P = {n.coefficient(p)} ± {n.coefficient(fit.stderr)} parallel, "
    if p >= 1:
        return text + "no ceiling: the runs scale as well as or better than linearly (superlinear effects?)."
    if p <= 0:
        return text + "so the runs show no speedup at all from more workers."
    return text + f"a ceiling of {n.speedup(fit.ceiling)} however many {result.measurements.noun} are added."


def karp_flatt_sentence(result: FitResult, n: Numbers = POINT) -> str | None:
    if result.karp_flatt_trend is None:
        return None
    e, ns = result.points.karp_flatt, result.points.n
    keys = sorted({float(k) for k in ns[e == e]})  # e == e drops the baseline's NaN
    lo = float(e[ns == keys[0]].mean())
    hi = float(e[ns == keys[-1]].mean())
    span = f"from {n.coefficient(lo)} at N = {count(keys[0], n)} to {n.coefficient(hi)} at N = {count(keys[-1], n)}"
    if result.karp_flatt_trend == "rising":
        return (
            f"The Karp–Flatt serial fraction rises {span}: overhead grows with N (communication, contention), "
            "not a fixed serial part."
        )
    if result.karp_flatt_trend == "falling":
        return f"The Karp–Flatt serial fraction falls {span}: the small runs carry a start-up cost that larger ones amortise."
    return (
        f"The Karp–Flatt serial fraction stays steady ({span}): consistent with a fixed serial part, as Amdahl assumes."
    )


def trust_sentences(result: FitResult, n: Numbers = POINT) -> list[str]:
    """Warnings about how far to trust the fits: few runs, standard errors larger than the estimates."""
    out = []
    if result.weakly_determined and (result.usl is not None or result.amdahl is not None):
        out.append(
            f"Only {len(result.measurements)} runs: the fit is weakly determined; runs at 6 or more N would pin it down."
        )
    usl = result.usl
    if usl is not None:
        loose = [
            name
            for name, est, err in (("α", usl.alpha, usl.alpha_stderr), ("β", usl.beta, usl.beta_stderr))
            if 0 < est < err  # an estimate at its bound (0) is said plainly by the regime sentence
        ]
        if loose:
            which = " and ".join(loose)
            out.append(
                f"The standard error of {which} is larger than the estimate: the runs cannot tell "
                f"{'it' if len(loose) == 1 else 'them'} from 0."
            )
    if result.amdahl is not None and result.amdahl.stderr > abs(result.amdahl.parallel_fraction):
        out.append("The standard error of P is larger than P itself: the runs barely constrain it.")
    return out


def notes_for(result: FitResult, n: Numbers = POINT) -> list[str]:
    """The summary for a reviewer, most important first, its numbers in ``n``'s separators."""
    sentences = [
        regime_sentence(result, n),
        efficiency_sentence(result, n),
        amdahl_sentence(result, n),
        karp_flatt_sentence(result, n),
    ]
    return (
        [s for s in sentences if s]
        + trust_sentences(result, n)
        + [text[:1].upper() + text[1:] + "." for text in (gap_text(g, n) for g in result.gaps)]
    )


def gap_text(gap: FitGap, n: Numbers = POINT) -> str:
    """Why a fit is missing, lower case and without a full stop (a sentence's tail, or a title's)."""
    from ..model.fit import GapKind

    v = gap.values
    if gap.kind is GapKind.NO_RUNS:
        return "no runs yet; enter N and a time or throughput for at least 3 runs"
    if gap.kind is GapKind.TOO_FEW:
        runs = v["runs"]
        return f"only {runs} run{'s' if runs != 1 else ''}; a fit needs at least {v['needed']}"
    if gap.kind is GapKind.ONE_N:
        return f"every run is at N = {n.plain(cast(float, v['n']), 'g')}; a fit needs runs at 2 or more different N"
    if gap.kind is GapKind.USL_TWO_N:
        return "the USL has 3 parameters and needs runs at 3 or more different N"
    return f"the USL fit did not converge in {v['iterations']} iterations; check the runs for outliers"


def fit_problems(result: FitResult) -> tuple[Problem, ...]:
    """Each missing fit as a problem of the whole table of runs, for the files to place on the sheet."""
    from ..model.errors import Problem
    from ..model.measurements import TABLE

    return tuple(Problem(gap_text(g), TABLE) for g in result.gaps)


def profile_comparison(
    profile_parallel_fraction: float, result: FitResult, profile_baseline_n: float | None = None, n: Numbers = POINT
) -> str | None:
    """The profile's P against the fitted P, in points of the time; None without an Amdahl fit.

    ``profile_parallel_fraction`` is measured at ``profile_baseline_n`` GPUs (when given): it is first
    re-expressed at the runs' N0, where the fitted P is a share of the time.
    """
    fit = result.amdahl
    if fit is None:
        return None
    said, seen = profile_parallel_fraction, fit.parallel_fraction
    if profile_baseline_n is not None:
        said = parallel_fraction_at(said, profile_baseline_n, fit.baseline_n)
    points = int(fixed(abs(said - seen) * 100, 0))  # a half up, as the two shares beside it are rounded
    head = f"The profile says {n.coefficient(said)} parallel, the runs say {n.coefficient(seen)}"
    if points == 0:
        return f"{head}: they agree."
    within = (
        f" (within the fit's standard error of ±{n.coefficient(fit.stderr)})" if abs(said - seen) <= fit.stderr else ""
    )
    if seen < said:
        return f"{head}: {points} point{'s' if points != 1 else ''} of the time don't scale as the profile assumes{within}."
    return (
        f"{head}: {points} point{'s' if points != 1 else ''} more of the time scale than the profile assumes{within}."
    )
