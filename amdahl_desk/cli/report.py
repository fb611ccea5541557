"""``amdahl-desk report``: the analysis of a profile, as text or JSON."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .common import EXIT_OK, BadInputError, analyse_loaded, load_argument, print_warnings, write_json

if TYPE_CHECKING:
    from ..model.analysis import Analysis
    from ..model.decision import Decision
    from ..model.profile import Profile
    from ..model.traces.plan_answer import TraceAnswer
    from ..model.traces.plan_path import TracePlanner
    from .json_report import ComponentRows
    from .report_job import JobReport

NAME = "report"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    report = sub.add_parser(
        NAME, help="print the analysis of a profile (xlsx, csv, a profiler trace or a job's folder)"
    )
    report.add_argument(
        "profile",
        help="profile workbook (.xlsx), components table (.csv) or profiler trace (imported as import does, with its "
        "defaults); a folder of rank traces: the job, then the import of its straggler (else its slowest rank) as "
        "the profile",
    )
    report.add_argument("--json", action="store_true", help="print the analysis as JSON")
    report.add_argument(
        "--indent",
        type=_indent,
        metavar="N",
        help="indent the JSON by N spaces, 0 for one line (default: indented for a terminal, one line otherwise)",
    )
    report.add_argument("--target", metavar="TIME", help='target time, in the profile\'s unit or with one: "600 ms"')
    report.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        help="seed of the draws when k or a time is a range (default 0): the same seed, the same numbers",
    )
    report.add_argument(
        "--confidence",
        metavar="P",
        help='the probability a plan must reach to meet the target: "80%%" or 0.8 (default: the Settings\' 80%%)',
    )


def _indent(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 16:
        raise argparse.ArgumentTypeError(f'"{text}" is not an indent; expected a whole number from 0 to 16')
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f'"{text}" is not a seed; expected a whole number of 0 or more')
    return value


def run(args: argparse.Namespace) -> int:
    # What comes after the reading loads while a workbook's sheets are parsed.
    words = f"{__package__}.json_rows" if args.json else "amdahl_desk.present.report"
    loaded = load_argument(args.profile, meanwhile=("amdahl_desk.model.values", words))
    profile = loaded.profile
    print_warnings(args.profile, loaded.warnings)
    set_options(profile, args.target, args.confidence)
    analysis = analyse_loaded(loaded, args.profile)
    from ..model.decision import decide

    decision = decide(profile, analysis, args.seed)
    answer, decision = traced(args.profile, profile, analysis, decision)
    job = for_job(loaded, args.profile, profile, decision)
    if args.json:
        from ..model.collector import collector_paused
        from .json_rows import component_structs

        with collector_paused():  # an entry per component, and no cycles among them to look for
            data = to_json_dict(profile, analysis, loaded.warnings, decision, component_structs, answer)
            if job is not None:
                from .report_job import job_report_json

                data["job"] = job_report_json(job, analysis.combined.overall_speedup, job_target(profile))
            write_json(data, args.indent)
    else:
        print(report_text(profile, analysis, decision, answer, job))
    return EXIT_OK


def job_target(profile: Profile) -> float | None:
    """The profile's target time in ms, as a job's figures are (None: none set)."""
    from ..model.units import TimeUnit, convert

    t = profile.settings.target_time
    return None if t is None else convert(t, profile.unit, TimeUnit.MS)


def for_job(loaded: Any, path: str, profile: Profile, decision: Decision | None) -> JobReport | None:
    """A profile that stands for a job of many ranks: the job's answer, with its odds drawn from ``decision``'s
    draws through the ranks (no cheapest plan: it is not searched through a job's ranks); None otherwise. The
    profile's own ``decision`` stays its rank's."""
    from .report_job import job_report, job_sources

    sources = job_sources(loaded, path)
    if sources is None:
        return None
    return job_report(profile, sources[0], sources[1], decision.figures if decision is not None else None)


def set_options(profile: Profile, target: str | None, confidence: str | None) -> None:
    """``--target`` and ``--confidence`` set on ``profile``'s settings; a bad value is a :class:`BadInputError`."""
    if target is None and confidence is None:
        return
    # Not at import: the parsers load beside the workbook's parse (``meanwhile`` in :func:`run`), not before it.
    from ..model.values import ParseError, parse_target_time

    if target is not None:
        try:
            time = parse_target_time(target, profile.unit)
        except ParseError as exc:
            raise BadInputError(f"--target: {exc}") from None
        profile.set_settings(replace(profile.settings, target_time=time))
    if confidence is not None:
        from ..model.values import parse_confidence

        try:
            level = parse_confidence(confidence)
        except ParseError as exc:
            raise BadInputError(f"--confidence: {exc}") from None
        if level <= 0:
            raise BadInputError(f'--confidence: "{confidence}" leaves no odds to reach; give a level above 0%')
        profile.set_settings(replace(profile.settings, plan_confidence=level))


def to_json_dict(
    profile: Profile,
    analysis: Analysis,
    warnings: Iterable[object],
    decision: Decision | None,
    component_rows: ComponentRows | None = None,
    answer: TraceAnswer | None = None,
) -> dict[str, Any]:
    """The ``report --json`` contract: the analysis, then the plan under uncertainty and the cheapest plan when the
    profile's estimates call for them (``component_rows``: how the components entries are made, dictionaries by
    default)."""
    from .json_report import component_dicts
    from .json_report import to_json_dict as analysis_json

    outcomes = None
    if answer is not None and answer.usable:  # End to end, the load on the step and the cost's saving: on its path
        from ..model.outcomes import profile_outcomes

        outcomes = profile_outcomes(profile, analysis, answer=answer)
    data = analysis_json(profile, analysis, warnings, outcomes, component_rows=component_rows or component_dicts)
    if answer is not None:
        from .json_report import with_trace_answer

        data = with_trace_answer(data, answer, profile.settings.trace_source, analysis.target)
    if decision is not None:
        from .json_uncertainty import plans_json, uncertainty_json

        if decision.figures is not None:
            data["uncertainty"] = uncertainty_json(decision.figures)
        if decision.search is not None:
            data["plans"] = plans_json(profile, decision.search)
    return data


def report_text(
    profile: Profile,
    analysis: Analysis,
    decision: Decision | None,
    answer: TraceAnswer | None = None,
    job: JobReport | None = None,
) -> str:
    """The report as ``amdahl-desk report`` prints it, with the odds and the plan when they apply; a profile that
    stands for a job leads with the job's answer (``job``), its own rank's report after it."""
    from ..present.report import report_text as text

    lines: list[str] = []
    if decision is not None:
        lines = _decision_lines(profile, analysis, decision, traced=answer is not None and answer.usable)
    body = text(profile, analysis, uncertainty=lines, trace=answer)
    if job is None:
        return body
    if job.figures is None:
        return f"The job ({job.name}) could not be read: {job.problem}; this report is one rank's alone.\n\n{body}"
    from ..model.decision import Decision as Decided
    from ..present.job_plan import job_report_lines, rank_heading

    lead = job_report_lines(profile, analysis, job.figures, answer)
    odds = job.odds
    job_lines: list[str] = []  # the job's odds, drawn through its ranks, follow the job's answer
    if isinstance(odds, str):
        job_lines = _decision_lines(profile, analysis, Decided(None, None), error=odds)
    elif odds is not None:
        job_lines = _decision_lines(profile, analysis, Decided(odds, None))
    return "\n".join([*lead, "", *job_lines, rank_heading(job.figures), body])


def _decision_lines(
    profile: Profile, analysis: Analysis, decision: Decision, traced: bool = False, error: str = ""
) -> list[str]:
    """The odds and the cheapest plan as ``report`` words them; with ``error`` (a job's odds that cannot be
    replayed), that refusal instead, and a job's plan line."""
    from ..present.decision import decision_view
    from ..present.uncertainty import report_lines, uncertainty_view

    job = decision.search is None and (bool(error) or decision.figures is not None and decision.figures.job_ranks > 0)
    said = decision_view(
        profile, analysis, decision.figures, decision.search, errors={"odds": error} if error else None, job=job
    )
    lines = report_lines(
        uncertainty_view(profile, decision.figures) if decision.figures is not None else None,
        said.plan.text if decision.search is not None or (job and said.plan.text) else None,
        said.likelier,
        traced=traced,
    )
    return [said.odds.text, *lines] if error else lines


def traced(
    path: str, profile: Profile, analysis: Analysis, decision: Decision | None
) -> tuple[TraceAnswer | None, Decision | None]:
    """A profile that names its trace: the answer with the trace's dependencies, and the plan under uncertainty
    run through them (the trace as the profile's folder finds it); otherwise (None, ``decision``)."""
    if not profile.settings.trace_source:
        return None, decision
    from pathlib import Path

    from ..files.traces.linked import linked_answer

    answer, planner = linked_answer(profile, analysis, Path(path).resolve().parent)
    usable = answer is not None and answer.usable
    if usable and planner is not None and decision is not None:
        decision = traced_decision(profile, analysis, decision, planner)
    return answer, decision


def traced_decision(profile: Profile, analysis: Analysis, decision: Decision, planner: TracePlanner) -> Decision:
    """``decision`` (on the sums) with the odds and the cheapest plan run through the trace's dependency model (the
    plan stays the sum's where the trace does not know a candidate's targets)."""
    if decision.figures is not None and not any(planner.unknown(o.targets) for o in profile.optimizations if o.enabled):
        from ..model.traces.plan_answer import trace_uncertainty

        decision = replace(decision, figures=trace_uncertainty(profile, analysis, decision.figures, planner))
    search = decision.search
    if search is not None:
        from ..model.draws import make_draws
        from ..model.traces.plan_choice import trace_cheapest_plan

        common = decision.figures.common if decision.figures is not None else make_draws(profile)
        found = trace_cheapest_plan(profile, analysis, planner, common, search.target, search.confidence)
        if found is not None:
            decision = replace(decision, search=found)
    return decision
