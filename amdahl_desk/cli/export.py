"""``amdahl-desk export``: charts, the slide, the workbook or the CSV of a profile, headless."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from ..model.analysis import analyse
from ..model.errors import ProfileError
from ..model.values import parse_size
from .common import EXIT_OK, BadInputError, print_warnings

NAME = "export"
# The chart keys, kept here so that --help needs no Qt; a test checks them against the chart registry.
CHART_KEYS = ("slide", "breakdown", "speedup", "scaling")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    export = sub.add_parser(NAME, help="write charts, the slide, the workbook or the CSV of a profile, headless")
    export.add_argument("profile", help="profile workbook (.xlsx) or components table (.csv)")
    export.add_argument("--out", required=True, metavar="DIR", help="folder to write into (made if missing)")
    export.add_argument(
        "--format",
        default="png",
        choices=["png", "svg", "pdf", "xlsx", "csv"],
        help="png, svg or pdf for charts; xlsx for the workbook; csv for the components table",
    )
    export.add_argument("--size", default="1920x1080", metavar="WxH", help="chart size in pixels (default 1920x1080)")
    export.add_argument("--chart", default="all", metavar="NAME", help=f"{', '.join(CHART_KEYS)} or all (default)")
    export.add_argument("--transparent", action="store_true", help="PNG with a transparent background")


def run(args: argparse.Namespace) -> int:
    from ..files import load_profile, save_profile
    from ..files.atomic import atomic_write

    source = Path(args.profile)
    loaded = load_profile(source)
    print_warnings(args.profile, loaded.warnings)
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
        try:
            size = parse_size(args.size)
        except ValueError as exc:
            raise BadInputError(f"--size: {exc}") from None
        charts = CHART_KEYS if args.chart == "all" else (args.chart,)
        if any(c not in CHART_KEYS for c in charts):
            raise BadInputError(f'--chart: "{args.chart}" is not a chart; expected {", ".join(CHART_KEYS)} or all')
        analysis = analyse(profile)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
        from ..ui.app import make_app
        from ..ui.charts.export import export_chart

        make_app()
        for chart in charts:
            target = out / f"{source.stem}-{chart}.{args.format}"
            try:
                written.append(export_chart(profile, analysis, chart, args.format, target, size, args.transparent))
            except OSError as exc:
                raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
    for path in written:
        print(path.resolve(), file=sys.stdout)
    return EXIT_OK
