"""``amdahl-desk compare``: an after profile held against the before profile and its plan, as text or JSON."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.adoption import Adoption, adopt_measured_k
from ..model.comparison import Comparison, ComponentComparison, compare
from ..model.errors import ProfileError
from ..model.profile import Profile
from ..model.traces import GROUPINGS
from ..model.values import ParseError, parse_fraction
from ..present.comparison_text import comparison_text
from ..present.comparison_words import (
    adoption_note,
    bottleneck_sentence,
    comparison_sentence,
    comparison_warnings,
)
from .common import EXIT_OK, BadInputError, load_argument, print_warnings, write_json

if TYPE_CHECKING:
    from ..files import Loaded
    from ..model.traces import ImportOptions
    from ..model.traces.trace_comparison import DependencyCheck

NAME = "compare"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cmd = sub.add_parser(
        NAME,
        help="hold a profile measured after a change against the one the plan was made on",
        description=(
            "Compare BEFORE (its enabled optimizations are the plan) with AFTER, measured after the change: "
            "per component the predicted and the measured k and a verdict, end to end the predicted and the "
            "measured speedup, and where the bottleneck moved. Times are shown in BEFORE's unit."
        ),
    )
    cmd.add_argument("before", help="the profile the plan was made on (.xlsx, .csv or a profiler trace)")
    cmd.add_argument("after", help="the profile measured after the change (.xlsx, .csv or a profiler trace)")
    cmd.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="a component renamed between the two: its BEFORE name = its AFTER name (repeat for more)",
    )
    cmd.add_argument(
        "--tolerance",
        default="0",
        metavar="SHARE",
        help='times within this share of each other count as equal: 0.02 or "2%%" (default 0: exactly equal)',
    )
    cmd.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cmd.add_argument(
        "--group-by",
        metavar="KEY",
        help=f"profiler traces only: how to group events into components, as for import ({', '.join(GROUPINGS)}); "
        "applied to both",
    )
    cmd.add_argument(
        "--total", action="store_true", help="profiler traces only: the whole trace, not the mean per step (both)"
    )


def is_trace(path: str | Path) -> bool:
    from ..files import is_trace as files_is_trace

    return files_is_trace(path)


def _traced_promise(args: argparse.Namespace, before: Profile, result: Comparison) -> Comparison:
    """A before profile that carries its trace (a workbook imported from one) promised the new total its trace's
    dependencies give: the prediction is that one (the sum's when the trace cannot be used, with a warning)."""
    if is_trace(args.before) or not before.settings.trace_source or not any(o.enabled for o in before.optimizations):
        return result
    from ..files.traces.linked import linked_answer
    from ..model.analysis import analyse
    from ..model.comparison import predicted_by

    answer, _ = linked_answer(before, analyse(before), Path(args.before).resolve().parent)
    if answer is None:
        return result
    if not answer.usable:
        from ..present.plan_answer import unusable_note

        print_warnings(args.before, [unusable_note(before.settings.trace_source, answer.problem)])
        return result
    return predicted_by(result, answer.new_total)


def load_side(path: str, role: str, args: argparse.Namespace, like: Profile | None = None) -> Profile:
    """The one place a compared file is read, for BEFORE and AFTER alike: a workbook, a CSV table or a trace.

    A trace is imported with ``--group-by`` and ``--total`` (the defaults of ``amdahl-desk import``), the
    same for both sides, so their components line up; against ``like``, a workbook imported from a trace, it is
    imported as that workbook was (its Settings' trace grouping), as the window's comparison imports it.
    """
    loaded = read_side(path, role, args, like)
    print_warnings(path, (str(w) for w in loaded.warnings))
    return loaded.profile


def read_side(path: str, role: str, args: argparse.Namespace, like: Profile | None = None) -> Loaded:
    """What :func:`load_side` reads, with its warnings; a file that cannot be read is a :class:`BadInputError`
    naming its role (BEFORE, AFTER)."""
    options = _import_options(args, like)
    try:
        return load_argument(path, trace_options=options, then=f"amdahl-desk {NAME} BEFORE AFTER --group-by {{}}")
    except ProfileError as exc:
        what = "trace" if is_trace(path) else "profile"
        raise BadInputError(_led(f"the {role.lower()} {what} cannot be read:", exc)) from None


def _led(lead: str, exc: ProfileError) -> str:
    """``lead`` and the refusal: on one line for one problem, the problems on the lines below for several."""
    said = str(exc)
    return lead + ("\n" if "\n" in said else " ") + said


def _import_options(args: argparse.Namespace, like: Profile | None) -> ImportOptions:
    from ..model.traces import ImportOptions

    if like is not None and like.settings.trace_grouping:
        from ..model.traces.import_paths import grouping_options

        try:
            grouped = grouping_options(like.settings.trace_grouping)[0]
        except ProfileError:
            return ImportOptions()
        return ImportOptions(group_by=grouped.group_by, top=grouped.top, total=grouped.total)
    return ImportOptions(group_by=args.group_by, total=args.total)


def _from_trace(path: str, args: argparse.Namespace) -> Loaded | None:
    """BEFORE, read first when it is a workbook or CSV table and AFTER a trace: the workbook, when it was imported
    from a trace (a trace then compares with it, imported as it was); None otherwise. Its warnings are printed by
    the caller once the two are known to compare, never before a refusal."""
    if not is_trace(args.after) or is_trace(path):
        return None
    loaded = read_side(path, "BEFORE", args)
    before = loaded.profile
    if not before.settings.trace_source:
        return None
    given = [o for o, on in (("--group-by", args.group_by is not None), ("--total", args.total)) if on]
    if given:  # AFTER is imported as BEFORE was: another grouping would compare unlike with unlike
        how = before.settings.trace_grouping or "as its Settings say"
        raise BadInputError(
            f"{' and '.join(given)}: BEFORE was imported from a trace ({how}), and AFTER is imported the same way so "
            f"that the two compare like with like; leave {'them' if len(given) > 1 else 'it'} out, or compare the "
            "two traces themselves"
        )
    return loaded


def parse_pairs(texts: list[str]) -> list[tuple[str, str]]:
    """``["Decode=Decode v2"]`` → ``[("Decode", "Decode v2")]``; names split at the first "="."""
    pairs = []
    for text in texts:
        old, sep, new = text.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise BadInputError(f'--pair: "{text}" is not a pair; expected OLD=NEW, like "Decode=Decode (paged)"')
        pairs.append((old.strip(), new.strip()))
    return pairs


def parse_tolerance(text: str) -> float:
    """A share read as every share is (``model.values.parse_fraction``: "0.02", "2%"), below 1."""
    try:
        value = parse_fraction(text)
    except ParseError:
        value = math.nan
    if not value < 1:
        raise BadInputError(f'--tolerance: "{text}" is not a share; expected a number from 0 up to 1, or like "2%"')
    return value


def _check_kinds(args: argparse.Namespace, traced_before: bool = False) -> None:
    traces = (is_trace(args.before), is_trace(args.after))
    if traces[0] != traces[1] and not traced_before:
        trace, table = ("BEFORE", "AFTER") if traces[0] else ("AFTER", "BEFORE")
        raise BadInputError(
            f"{trace} is a profiler trace and {table} a workbook or CSV table: compare like with like "
            "(two traces, or two profiles; a workbook imported from a trace compares with a trace)"
        )
    if (args.group_by is not None or args.total) and not all(traces):
        given = [o for o, on in (("--group-by", args.group_by is not None), ("--total", args.total)) if on]
        verb = "apply" if len(given) > 1 else "applies"
        raise BadInputError(
            f"{' and '.join(given)} only {verb} to profiler traces; BEFORE and AFTER are workbooks or CSV tables, "
            "whose components are compared as they are"
        )
    if args.group_by is not None and args.group_by not in GROUPINGS:
        raise BadInputError(f'--group-by: "{args.group_by}" is not a grouping; expected {", ".join(GROUPINGS)}')


def run(args: argparse.Namespace) -> int:
    pairs = parse_pairs(args.pair)
    tolerance = parse_tolerance(args.tolerance)
    traced = _from_trace(args.before, args)
    _check_kinds(args, traced_before=traced is not None)
    if traced is not None:
        print_warnings(args.before, (str(w) for w in traced.warnings))
    before = traced.profile if traced is not None else load_side(args.before, "BEFORE", args)
    after = load_side(args.after, "AFTER", args, like=before if traced is not None else None)
    try:
        result = compare(before, after, pairs, tolerance=tolerance)
    except ProfileError as exc:  # a ComparisonError, or a before profile with nothing to analyse
        raise BadInputError(_led(f"cannot compare {args.before} with {args.after}:", exc)) from None
    print_warnings("compare", comparison_warnings(result))
    result = _traced_promise(args, before, result)
    adoption = adopt_measured_k(before, result)
    check = with_dependencies(args, before, result) if is_trace(args.before) else None
    if args.json:
        write_json(comparison_json(result, adoption, args.before, args.after, check), indent=2)
    else:
        print(comparison_text(result, adoption, before, args.before, args.after))
        if check is not None:
            print(dependency_line(check))
    return EXIT_OK


def with_dependencies(args: argparse.Namespace, before: Profile, c: Comparison) -> DependencyCheck | None:
    """The before trace's critical path with each component sped up by its measured k; None when the traces
    have no steps or are not PyTorch traces with events (a summary, a speedscope profile)."""
    from ..files.traces.graph_source import load_rank_graph
    from ..model.traces.errors import TraceError
    from ..model.traces.trace_comparison import check_comparison, mean_step
    from ..model.traces.trace_index import find_step_windows
    from ..model.traces.whatif import prepare

    if not before.settings.trace_events or args.total:
        return None
    try:
        first = load_rank_graph(args.before)
        second = load_rank_graph(args.after)
        pt = prepare(first.trace, source=first.source)
    except TraceError:
        return None
    after_step = mean_step([(s.start, s.end) for s in find_step_windows(second.trace)])
    return None if after_step is None else check_comparison(pt, before, c, after_step)


def dependency_line(d: DependencyCheck) -> str:
    from ..present.trace_plan import comparison_line

    return comparison_line(d)


def _num(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _row_dict(r: ComponentComparison) -> dict[str, Any]:
    return {
        "name": r.name,
        "after_name": r.after_name,
        "before": r.before,
        "after": r.after,
        "predicted_k": r.predicted_k,
        "predicted_after": r.predicted_after,
        "measured_k": _num(r.measured_k),
        "status": r.status.value,
        "eliminated": r.eliminated,
        "delta": r.delta,
        "optimizations": list(r.optimizations),
    }


def to_json_dict(c: Comparison, adoption: Adoption) -> dict[str, Any]:
    """The comparison as plain data: times in the before profile's unit; an infinite ceiling is ``null``."""
    b = c.bottleneck
    return {
        "unit": c.unit.value,
        "after_unit": c.after_unit.value,
        "before_total": c.before_total,
        "after_total": c.after_total,
        "predicted_total": c.predicted_total,
        "predicted_speedup": _num(c.predicted_speedup),
        "measured_speedup": _num(c.measured_speedup),
        "time_difference": c.time_difference,
        "shortfall": c.shortfall,
        "verdict": c.verdict.value,
        "tolerance": c.tolerance,
        "sentence": comparison_sentence(c),
        "warnings": list(comparison_warnings(c)),
        "components": [_row_dict(r) for r in c.rows],
        "bottleneck": {
            "before": {"name": b.before_name, "share": b.before_share},
            "after": {"name": b.after_name, "share": b.after_share},
            "moved": b.moved,
            "next_ceiling": _num(b.next_ceiling),
            "sentence": bottleneck_sentence(b),
        },
        "pairs": [{"before": old, "after": new} for old, new in c.pairs],
        "adopted": [
            {"name": a.name, "planned": a.planned, "measured": a.measured, "note": adoption_note(a)}
            for a in adoption.changes
        ],
    }


def comparison_json(
    c: Comparison, adoption: Adoption, before_file: str, after_file: str, check: DependencyCheck | None
) -> dict[str, Any]:
    """The ``compare --json`` contract: the comparison, the two files, and the check on the before trace's critical
    path when there is one."""
    data = to_json_dict(c, adoption)
    data["before_file"], data["after_file"] = before_file, after_file
    if check is not None:
        from .json_traces import dependency_check_json

        data["with_dependencies"] = dependency_check_json(check)
    return data
