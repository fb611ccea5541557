"""``amdahl-desk fit``: Amdahl, Karp–Flatt and USL fits to measured runs, as a review answer or JSON."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ..model.fit import FitResult, fit_measurements
from ..present.fit_text import fit_problems, gap_text, notes_for, profile_comparison
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
        "summary": notes_for(result),
        "problems": [gap_text(g) for g in result.gaps],
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
        from ..present.fit import fit_text

        print(fit_text(result, loaded.source, comparison))
    for problem in fit_problems(result):
        print(f"{loaded.source}: {loaded.locate(problem)}", file=sys.stderr)
    return EXIT_BAD_INPUT if result.gaps else EXIT_OK
