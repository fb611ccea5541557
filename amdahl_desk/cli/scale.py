"""``amdahl-desk scale``: Amdahl/Gustafson scaling for a parallel fraction, without a profile."""

from __future__ import annotations

import argparse
import math
from typing import Any

from ..model import laws
from ..model.laws import gustafson, strong_scaling
from ..model.profile import default_gpu_counts
from ..model.values import ParseError, parse_fraction, parse_gpu_counts
from ..present.scale_text import scale_table
from .common import EXIT_OK, BadInputError, write_json

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


def _fraction(text: str) -> float:
    try:
        return parse_fraction(text)
    except ParseError as exc:
        raise BadInputError(f"--parallel-fraction: {exc}") from None


def _gpus(text: str | None) -> list[int]:
    if text is None:
        return list(default_gpu_counts())
    try:
        return list(parse_gpu_counts(text))
    except ParseError as exc:
        raise BadInputError(f"--gpus: {exc}") from None


def run(args: argparse.Namespace) -> int:
    import numpy as np

    p = _fraction(args.parallel_fraction)
    gpus = _gpus(args.gpus)
    n = np.asarray(gpus, dtype=float)
    amdahl = strong_scaling(p, n)
    gus = gustafson(p, n)
    ceiling = float(laws.ceiling(p))
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
        write_json(out, indent=2)
        return EXIT_OK
    rows = [(int(pt["gpus"]), pt["amdahl"], pt["gustafson"], pt["efficiency"]) for pt in points]
    print(scale_table(p, ceiling, rows))
    return EXIT_OK
