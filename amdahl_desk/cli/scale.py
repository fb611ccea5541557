"""``amdahl-desk scale``: Amdahl/Gustafson scaling for a parallel fraction, without a profile."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from ..model.laws import gustafson, strong_scaling
from ..model.profile import default_gpu_counts
from ..model.units import format_percent, format_speedup
from .common import EXIT_OK, BadInputError

NAME = "scale"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    scale = sub.add_parser(NAME, help="print Amdahl/Gustafson scaling for a parallel fraction, without a profile")
    scale.add_argument(
        "--parallel-fraction",
        "-p",
        required=True,
        metavar="P",
        help='share of the time that parallelizes: 0.95 or "95%%"',
    )
    scale.add_argument("--gpus", metavar="N,N,…", help="GPU counts (default: powers of two up to 1024)")
    scale.add_argument("--json", action="store_true", help="print JSON")


def _parse_fraction(text: str) -> float:
    try:
        value = float(text[:-1]) / 100 if text.strip().endswith("%") else float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise BadInputError(
            f'--parallel-fraction: "{text}" is not a fraction; expected a number from 0 to 1 or a share like "95%"'
        )
    return value


def _parse_gpus(text: str | None) -> list[int]:
    if text is None:
        return list(default_gpu_counts())
    counts = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or int(part) < 1:
            raise BadInputError(
                f'--gpus: "{part}" is not a GPU count; expected whole numbers of 1 or more, like 1,8,128'
            )
        counts.append(int(part))
    if not counts:
        raise BadInputError("--gpus: expected at least one GPU count, like 1,8,128")
    return sorted(set(counts))


def run(args: argparse.Namespace) -> int:
    import numpy as np

    p = _parse_fraction(args.parallel_fraction)
    gpus = _parse_gpus(args.gpus)
    n = np.asarray(gpus, dtype=float)
    amdahl = strong_scaling(p, n)
    gus = gustafson(p, n)
    ceiling = math.inf if p >= 1 else 1 / (1 - p)
    points: list[dict[str, Any]] = [
        {
            "gpus": g,
            "ideal": float(g),
            "amdahl": float(amdahl[i]),
            "with_overhead": float(amdahl[i]),
            "gustafson": float(gus[i]),
            "efficiency": float(amdahl[i] / g),
        }
        for i, g in enumerate(gpus)
    ]
    if args.json:
        out = {"parallel_fraction": p, "ceiling": None if math.isinf(ceiling) else ceiling, "points": points}
        print(json.dumps(out, indent=2))
        return EXIT_OK
    print(f"Parallel fraction P = {format_percent(p)}; Amdahl's ceiling 1/(1−P) = {format_speedup(ceiling)}")
    print(f"{'GPUs':>8}  {'Amdahl':>9}  {'Gustafson':>10}  {'Efficiency':>10}")
    for pt in points:
        print(
            f"{pt['gpus']:>8,}  {format_speedup(pt['amdahl']):>9}  {format_speedup(pt['gustafson']):>10}  "
            f"{pt['efficiency']:>10.1%}"
        )
    return EXIT_OK
