"""``amdahl-desk fit``: Amdahl, Karp–Flatt and USL fits to measured runs, as a review answer or JSON."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ..model.fit import FitResult, fit_measurements
from ..model.fit_text import percent, profile_comparison
from ..model.measurements import MeasureKind
from ..model.units import format_number, format_speedup
from .common import EXIT_BAD_INPUT, EXIT_OK, print_warnings, write_json

NAME = "fit"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    fit = sub.add_parser(
        NAME,
        help="fit Amdahl's law and the Universal Scalability Law to measured runs (csv or xlsx)",
        description=(
            "Reads runs (a count column such as GPUs, N, Workers or Users, and a Time or Throughput column) "
            "from a CSV or a workbook's Measurements sheet (else its first sheet) and says where adding "
            "hardware stops paying."
        ),
    )
    fit.add_argument("file", help="measurements: .csv, or .xlsx with a Measurements sheet")
    fit.add_argument("--json", action="store_true", help="print the fit as JSON")
    fit.add_argument(
        "--profile", metavar="PROFILE", help="a profile to compare its parallel fraction with the fitted one"
    )


def _num(value: float | None) -> float | None:
    """JSON has no infinity or NaN: both are null."""
    return None if value is None or not math.isfinite(value) else float(value)


def to_json_dict(result: FitResult, comparison: str | None = None) -> dict[str, Any]:
    """The ``fit --json`` contract (docs/fit.md); keys beyond the contract may be added, never removed."""
    m, pts = result.measurements, result.points
    out: dict[str, Any] = {
        "kind": m.kind.value,
        "unit": m.unit,
        "count_name": m.count_name,
        "baseline_n": _num(result.baseline_n),
        "points": [
            {
                "n": _num(float(pts.n[i])),
                "value": _num(float(pts.value[i])),
                "speedup": _num(float(pts.speedup[i])),
                "efficiency": _num(float(pts.efficiency[i])),
                "karp_flatt": _num(float(pts.karp_flatt[i])),
                "label": m.rows[i].label,
            }
            for i in range(len(m))
        ],
        "amdahl": None,
        "usl": None,
        "karp_flatt_trend": result.karp_flatt_trend,
        "weakly_determined": result.weakly_determined,
        "measured_half_efficiency_n": _num(result.measured_half_efficiency_n),
        "summary": list(result.notes),
        "problems": [p.what for p in result.problems],
    }
    if result.amdahl is not None:
        a = result.amdahl
        out["amdahl"] = {
            "parallel_fraction": _num(a.parallel_fraction),
            "stderr": _num(a.stderr),
            "ceiling": _num(a.ceiling),
            "r_squared": _num(a.r_squared),
            "half_efficiency_n": _num(a.half_efficiency_n),
        }
    if result.usl is not None:
        u = result.usl
        out["usl"] = {
            "alpha": u.alpha,
            "beta": u.beta,
            "gamma": u.gamma,
            "alpha_stderr": _num(u.alpha_stderr),
            "beta_stderr": _num(u.beta_stderr),
            "gamma_stderr": _num(u.gamma_stderr),
            "r_squared": _num(u.r_squared),
            "peak_n": _num(u.peak_n),
            "peak_x": _num(u.peak_x),
            "limit_x": _num(u.limit_x),
            "half_efficiency_n": _num(u.half_efficiency_n),
            "limited_by": u.limited_by(float(result.points.n.max())),
        }
    if comparison is not None:
        out["profile_comparison"] = comparison
    return out


def _pm(value: float, err: float) -> str:
    return f"{value:.4g} ± {err:.2g}" if math.isfinite(err) else f"{value:.4g} (no standard error with 3 runs)"


def report_text(result: FitResult, source: str, comparison: str | None = None) -> str:
    """The fit as a review answer: the verdict first, then the table and the coefficients behind it."""
    m, pts = result.measurements, result.points
    what = "runtimes" if m.kind is MeasureKind.TIME else "throughputs"
    unit = f" ({m.unit})" if m.unit else ""
    lines = []
    if len(m):
        lines.append(
            f"{len(m)} measured {what}{unit} from {source}, N = {format_number(float(pts.n.min()))}"
            f"–{format_number(float(pts.n.max()))} {m.noun}; baseline N0 = {format_number(result.baseline_n or 0)}."
        )
    lines += [""] + list(result.notes)
    if comparison:
        lines.append(comparison)
    if len(m):
        name = m.count_name or "N"
        lines += ["", f"{name:>10}  {m.value_header:>20}  {'Speedup':>8}  {'Efficiency':>10}  {'Karp–Flatt e':>12}"]
        for i in range(len(m)):
            e = pts.karp_flatt[i]
            lines.append(
                f"{format_number(float(pts.n[i])):>10}  {format_number(float(pts.value[i])):>20}  "
                f"{format_speedup(float(pts.speedup[i])):>8}  {percent(float(pts.efficiency[i])):>10}  "
                f"{'—' if e != e else percent(float(e)):>12}"
            )
    if result.amdahl is not None:
        a = result.amdahl
        lines += [
            "",
            f"Amdahl: P = {_pm(a.parallel_fraction, a.stderr)}, ceiling {format_speedup(a.ceiling)}, R² = {a.r_squared:.4f}",
        ]
    if result.usl is not None:
        u = result.usl
        lines.append(
            f"USL: α = {_pm(u.alpha, u.alpha_stderr)}, β = {_pm(u.beta, u.beta_stderr)}, "
            f"γ = {_pm(u.gamma, u.gamma_stderr)}, R² = {u.r_squared:.4f}"
        )
        peak = (
            "none (β = 0: the curve never turns down)"
            if u.peak_n is None
            else f"N* = {u.peak_n:.4g}, X(N*) = {u.peak_x:.4g}"
        )
        lines.append(f"     peak {peak}; limit γ/α = {format_number(u.limit_x)}")
    return "\n".join(lines)


def _profile_p(path: str) -> tuple[float, int]:
    """The profile's parallel fraction and the GPU count N0 it is a share at."""
    from ..files import load_profile
    from ..model.analysis import analyse

    loaded = load_profile(path)
    print_warnings(path, [str(w) for w in loaded.warnings])
    scaling = analyse(loaded.profile).scaling
    return scaling.parallel_fraction, scaling.baseline_gpus


def run(args: argparse.Namespace) -> int:
    from ..files.measurements import read_measurements

    loaded = read_measurements(args.file)
    result = fit_measurements(loaded.measurements)
    comparison = None
    if args.profile:
        p, n0 = _profile_p(args.profile)
        comparison = profile_comparison(p, result, n0)  # the profile's P re-expressed at the runs' N0
    if args.json:
        write_json(to_json_dict(result, comparison), indent=2)
    else:
        print(report_text(result, loaded.source, comparison))
    for problem in result.problems:
        print(f"{loaded.source}: {loaded.locate(problem)}", file=sys.stderr)
    return EXIT_BAD_INPUT if result.problems else EXIT_OK
