"""The ``amdahl-desk`` command: the window by default; ``report`` and ``scale`` headless."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from . import __version__
from .model.analysis import analyse
from .model.errors import ProfileError
from .model.laws import gustafson, strong_scaling
from .model.profile import default_gpu_counts
from .model.report import report_text, to_json_dict
from .model.units import ParseError, convert, format_percent, format_speedup, parse_time_text
from .resources import example_path

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2
log = logging.getLogger("amdahl_desk")


class BadInputError(Exception):
    """A mistake in what the user asked for: message on stderr, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="amdahl-desk",
        description="Decide which optimization is worth building: Amdahl's law on a measured profile.",
        epilog=(
            "With no subcommand the window opens: amdahl-desk [PROFILE] [--screenshot PNG [--size WxH]] — on "
            "PROFILE, else the last document, else the bundled example. --screenshot renders the window "
            "offscreen to PNG and exits."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"amdahl-desk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="{report,scale,export}")

    report = sub.add_parser("report", help="print the analysis of a profile (xlsx or csv)")
    report.add_argument("profile", help="profile workbook (.xlsx) or components table (.csv)")
    report.add_argument("--json", action="store_true", help="print the analysis as JSON")
    report.add_argument("--target", metavar="TIME", help='target time, in the profile\'s unit or with one: "600 ms"')

    scale = sub.add_parser("scale", help="print Amdahl/Gustafson scaling for a parallel fraction, without a profile")
    scale.add_argument(
        "--parallel-fraction",
        "-p",
        required=True,
        metavar="P",
        help='share of the time that parallelizes: 0.95 or "95%%"',
    )
    scale.add_argument("--gpus", metavar="N,N,…", help="GPU counts (default: powers of two up to 1024)")
    scale.add_argument("--json", action="store_true", help="print JSON")
    export = sub.add_parser("export", help="write charts, the slide, the workbook or the CSV of a profile, headless")
    export.add_argument("profile", help="profile workbook (.xlsx) or components table (.csv)")
    export.add_argument("--out", required=True, metavar="DIR", help="folder to write into (made if missing)")
    export.add_argument(
        "--format",
        default="png",
        choices=["png", "svg", "pdf", "xlsx", "csv"],
        help="png, svg or pdf for charts; xlsx for the workbook; csv for the components table",
    )
    export.add_argument("--size", default="1920x1080", metavar="WxH", help="chart size in pixels (default 1920x1080)")
    export.add_argument(
        "--chart", default="all", metavar="NAME", help="slide, breakdown, speedup, scaling or all (default)"
    )
    export.add_argument("--transparent", action="store_true", help="PNG with a transparent background")
    return parser


def _gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="amdahl-desk", add_help=False)
    parser.add_argument("profile", nargs="?")
    parser.add_argument("--screenshot", metavar="PNG")
    parser.add_argument("--size", metavar="WxH", default="1600x1000")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in ("report", "scale", "export", "-h", "--help", "--version"):
            args = _parser().parse_args(args_list)
            if args.command == "report":
                return _report(args)
            if args.command == "export":
                return _export(args)
            return _scale(args)
        gui_args, unknown = _gui_parser().parse_known_args(args_list)
        if unknown:
            raise BadInputError(f"unknown arguments: {' '.join(unknown)} (see amdahl-desk --help)")
        return _gui(gui_args)
    except BadInputError as exc:
        print(f"amdahl-desk: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ProfileError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as exc:  # argparse: --help exits 0, a usage error 2
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except Exception:  # noqa: BLE001 - the promise is "exit 1, never a bare traceback"
        log.exception("unexpected error")
        print("amdahl-desk: unexpected error; please report it with the traceback above", file=sys.stderr)
        return EXIT_UNEXPECTED


def _report(args: argparse.Namespace) -> int:
    from .files import load_profile

    loaded = load_profile(args.profile)
    profile = loaded.profile
    for w in loaded.warnings:
        print(f"{args.profile}: warning: {w}", file=sys.stderr)
    if args.target is not None:
        try:
            number, unit = parse_time_text(args.target)
        except ParseError as exc:
            raise BadInputError(f"--target: {exc}") from None
        target = convert(number, unit, profile.unit) if unit else number
        if target <= 0:
            raise BadInputError("--target: the target time must be greater than 0")
        profile.set_settings(replace(profile.settings, target_time=target))
    analysis = analyse(profile)
    if args.json:
        print(json.dumps(to_json_dict(profile, analysis), indent=2, ensure_ascii=False, allow_nan=False))
    else:
        print(report_text(profile, analysis))
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from .files import load_profile, save_profile
    from .files.atomic import atomic_write

    source = Path(args.profile)
    loaded = load_profile(source)
    for w in loaded.warnings:
        print(f"{args.profile}: warning: {w}", file=sys.stderr)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInputError(f"--out: cannot make the folder {out}: {exc.strerror or exc}") from None
    profile = loaded.profile
    written: list[Path] = []
    if args.format in ("xlsx", "csv"):
        target = out / f"{source.stem}.{args.format}"
        if target.resolve() == source.resolve():
            target = out / f"{source.stem}-exported.{args.format}"  # never overwrite the input
        analysis = None
        with contextlib.suppress(ProfileError):
            analysis = analyse(profile)
        try:
            atomic_write(target, lambda tmp: save_profile(profile, tmp, analysis, csv=args.format == "csv"))
        except OSError as exc:
            raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
        written.append(target)
    else:
        from .ui.export import CHARTS, parse_size

        try:
            size = parse_size(args.size)
        except ValueError as exc:
            raise BadInputError(f"--size: {exc}") from None
        charts = CHARTS if args.chart == "all" else (args.chart,)
        if any(c not in CHARTS for c in charts):
            raise BadInputError(f'--chart: "{args.chart}" is not a chart; expected {", ".join(CHARTS)} or all')
        analysis = analyse(profile)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
        from .ui.app import make_app
        from .ui.export import export_chart

        make_app()
        for chart in charts:
            target = out / f"{source.stem}-{chart}.{args.format}"
            try:
                written.append(export_chart(profile, analysis, chart, args.format, target, size, args.transparent))
            except OSError as exc:
                raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
    for path in written:
        print(path.resolve())
    return EXIT_OK


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


def _scale(args: argparse.Namespace) -> int:
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


def _gui(args: argparse.Namespace) -> int:
    try:
        from .ui.app import run
    except ImportError as exc:
        raise BadInputError(
            f"the window cannot start: {exc}. Run the setup command from the README "
            "(on a bare Debian the Qt system libraries are needed too)"
        ) from None
    return run(args.profile, screenshot=args.screenshot, size=args.size, default_profile=str(example_path()))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
