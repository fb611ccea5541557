"""``amdahl-desk report``: the analysis of a profile, as text or JSON."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from ..model.analysis import analyse
from ..model.report import report_text, to_json_dict
from ..model.units import ParseError, convert, parse_time_text
from .common import EXIT_OK, BadInputError, print_warnings

NAME = "report"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    report = sub.add_parser(NAME, help="print the analysis of a profile (xlsx or csv)")
    report.add_argument("profile", help="profile workbook (.xlsx) or components table (.csv)")
    report.add_argument("--json", action="store_true", help="print the analysis as JSON")
    report.add_argument("--target", metavar="TIME", help='target time, in the profile\'s unit or with one: "600 ms"')


def run(args: argparse.Namespace) -> int:
    from ..files import load_profile

    loaded = load_profile(args.profile)
    profile = loaded.profile
    print_warnings(args.profile, loaded.warnings)
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
