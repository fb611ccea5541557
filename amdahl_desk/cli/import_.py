"""``amdahl-desk import``: a profiler's trace (PyTorch/Kineto, speedscope, nsys CSV) made into a profile."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..model.traces import GROUPINGS, ImportOptions, ImportResult
from ..present.import_text import import_text
from .common import EXIT_OK, BadInputError, print_warnings, write_json

NAME = "import"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        NAME,
        help="make a profile from a PyTorch trace, a speedscope profile or nsys stats CSVs",
        description=(
            "Import TRACE (a PyTorch/Kineto trace .json or .json.gz, a speedscope .json, an nsys stats CSV; "
            "several files or a folder = one trace per rank) and print the components, or write them with --out."
        ),
    )
    p.add_argument("traces", nargs="+", metavar="TRACE", help="trace file(s) or a folder of traces (one per rank)")
    p.add_argument(
        "--group-by", choices=GROUPINGS, help="components from annotations, ops, the GPU timeline or functions"
    )
    p.add_argument("--total", action="store_true", help="the whole trace instead of the mean per step")
    p.add_argument("--top", type=int, default=15, metavar="N", help="keep the N largest rows, the rest as Other (15)")
    p.add_argument(
        "--rank",
        type=int,
        metavar="R",
        help="build the profile from rank R (default: the rank the job waits for, its straggler)",
    )
    p.add_argument("--device", type=int, metavar="D", help="the GPU whose timeline --group-by gpu uses")
    p.add_argument(
        "--exclude-steps",
        action="append",
        default=[],
        metavar="NAMES",
        help='steps to leave out, e.g. "ProfilerStep#1,ProfilerStep#2" (repeat for more: all named are left out)',
    )
    p.add_argument("--exclude-flagged", action="store_true", help="leave out steps far from the median step time")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--out", metavar="PROFILE", help="write the profile to PROFILE (.xlsx or .csv)")


def options(args: argparse.Namespace) -> ImportOptions:
    if args.top is not None and args.top < 1:
        raise BadInputError("--top: expected a whole number of 1 or more")
    excluded = frozenset(s.strip() for names in args.exclude_steps for s in names.split(",") if s.strip())
    return ImportOptions(
        group_by=args.group_by,
        total=args.total,
        top=args.top,
        rank=args.rank,
        exclude_steps=excluded,
        exclude_flagged=args.exclude_flagged,
        device=args.device,
    )


def run(args: argparse.Namespace) -> int:
    from ..files.traces import load_trace
    from ..files.traces.grouping_note import grouping_note

    opts = options(args)
    if args.json:
        from dataclasses import replace

        opts = replace(opts, critical_path=True)  # the JSON gains the steps' critical path
    if args.out and Path(args.out).suffix.lower() not in (".xlsx", ".csv"):
        raise BadInputError(f"--out: {args.out} should end in .xlsx or .csv")
    trace = load_trace(args.traces, dependencies=opts.critical_path)
    result = trace.summarise(opts)
    _check_excluded(opts.exclude_steps, result)
    print_warnings(result.source, result.warnings)
    hint = grouping_note(trace, result, opts)
    if hint:
        print_warnings(result.source, [hint])
    if args.out:
        from ..files import save_profile
        from ..files.atomic import atomic_write

        profile = result.to_profile()
        try:  # through a temporary file beside it: a failed write leaves a file already there as it was
            atomic_write(args.out, lambda tmp: save_profile(profile, tmp, csv=Path(args.out).suffix.lower() == ".csv"))
        except OSError as exc:
            raise BadInputError(f"--out: cannot write {args.out}: {exc.strerror or exc}") from None
    if args.json:
        from .json_traces import import_json

        write_json(import_json(result), indent=2)
    elif not args.out:
        print(import_text(result))
    else:
        n = len(result.components)
        print(f"wrote {args.out}: {n} component{'s' * (n != 1)}, {result.boundary}", file=sys.stderr)
    return EXIT_OK


def _check_excluded(excluded: frozenset[str], result: ImportResult) -> None:
    """Refuse ``--exclude-steps`` names the trace has no step of: leaving out nothing would go unnoticed."""
    steps = [s.name for s in result.steps or ()]
    unknown = sorted(excluded - set(steps))
    if not unknown:
        return
    named = ", ".join(f'"{n}"' for n in unknown)
    has = ", ".join(steps[:8]) + (f" and {len(steps) - 8} more" if len(steps) > 8 else "") if steps else "no steps"
    raise BadInputError(f"--exclude-steps: {result.source} has no step {named}; its steps: {has}")
