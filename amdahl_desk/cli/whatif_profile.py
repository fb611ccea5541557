"""``amdahl-desk whatif PROFILE.xlsx``: a profile that carries its trace answers its enabled plan with the trace's
dependencies — the same figures ``report`` gives (both read :func:`~amdahl_desk.files.traces.linked.linked_answer`);
a profile that stands for a job of many ranks leads with the job's answer, as ``report`` does."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import EXIT_OK, BadInputError, analyse_loaded, print_warnings, write_json

PROFILE_SUFFIXES = (".xlsx", ".csv")


def is_profile(path: str) -> bool:
    """Whether ``path`` names a profile (workbook or components table) rather than a trace."""
    return Path(path).suffix.lower() in PROFILE_SUFFIXES


def run_profile(args: argparse.Namespace) -> int:
    from ..files import load_profile
    from ..files.traces.linked import linked_answer
    from .json_report import to_json_dict, with_trace_answer

    if args.speedup:
        raise BadInputError(
            f"{args.trace}: --speedup is for a trace; a profile's plan is its enabled optimizations "
            "(tick them in the workbook, or give the trace itself)"
        )
    loaded = load_profile(args.trace)
    profile = loaded.profile
    print_warnings(args.trace, loaded.warnings)
    if not profile.settings.trace_source:
        raise BadInputError(
            f"{args.trace}: the profile names no trace (its Settings' Trace row is empty): import a trace to get a "
            "profile that carries it, or give the trace with --speedup PATTERN=K"
        )
    analysis = analyse_loaded(loaded, args.trace)
    answer, _ = linked_answer(profile, analysis, Path(args.trace).resolve().parent)
    assert answer is not None
    from .report import for_job, job_target

    job = for_job(loaded, args.trace, profile, None)  # a workbook saved with its job: the job's answer leads
    if args.json:
        full = with_trace_answer(
            to_json_dict(profile, analysis), answer, profile.settings.trace_source, analysis.target
        )
        keep = ("unit", "baseline_total", "combined", "optimizations", "dependencies", "target", "warnings")
        data = {"profile": args.trace, **{k: full[k] for k in keep if k in full}}
        if job is not None:
            from .report_job import job_report_json

            data["job"] = job_report_json(job, analysis.combined.overall_speedup, job_target(profile))
        write_json(data)
    else:
        from ..present.plan_answer import profile_whatif_text

        text = profile_whatif_text(profile, analysis, answer)
        if job is not None and job.figures is not None:
            from ..present.job_plan import job_report_lines, rank_heading

            text = "\n".join(
                [*job_report_lines(profile, analysis, job.figures, answer), "", rank_heading(job.figures), text]
            )
        elif job is not None:
            text = f"The job ({job.name}) could not be read: {job.problem}; this answer is one rank's alone.\n\n{text}"
        print(text)
    return EXIT_OK
