"""``amdahl-desk export``: charts, the slide, the workbook or the CSV of a profile, headless."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

from ..files.kinds import plain_stem
from ..model.analysis import analyse
from ..model.errors import ProfileError
from ..model.names import STEP_PREFIX
from ..model.profile import Profile
from ..model.values import parse_size
from .common import EXIT_OK, BadInputError, load_argument, print_warnings

NAME = "export"
# The chart keys, kept here so that --help needs no Qt; a test checks them against the chart registry.
CHART_KEYS = ("slide", "breakdown", "speedup", "scaling", "distribution", "tornado", "load", "cost")
ODDS_CHART_KEYS = ("distribution", "tornado")  # with "all", only for a profile whose estimates have ranges
COMPARE_CHART_KEYS = ("comparison", "comparison-slide")  # with --compare AFTER
TRACE_CHART_KEYS = ("critical_path",)  # a profile imported from a trace it names (and can read)
JOB_CHART_KEYS = ("job_ranks", "job_steps", "job_skew")  # a job: a folder of rank traces (docs/jobs.md)
# What --slide-charts may name: the charts a profile (and its trace, its job) draws, the slide itself excepted.
SLIDE_CHART_KEYS = tuple(k for k in CHART_KEYS + TRACE_CHART_KEYS + JOB_CHART_KEYS if k != "slide")
# The charts whose figures a traced profile takes from its trace's dependencies (the answer, its odds).
TRACED_KEYS = ("slide", "breakdown", "speedup", "load", *ODDS_CHART_KEYS, *TRACE_CHART_KEYS)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    export = sub.add_parser(NAME, help="write charts, the slide, the workbook or the CSV of a profile, headless")
    export.add_argument(
        "profile",
        help="profile workbook (.xlsx), components table (.csv) or profiler trace (imported as import does, with its "
        "defaults); a folder of rank traces: the job (its charts, and its straggler's import, else its slowest "
        "rank's, as the profile)",
    )
    export.add_argument("--out", required=True, metavar="DIR", help="folder to write into (made if missing)")
    export.add_argument(
        "--format",
        default="png",
        choices=["png", "svg", "pdf", "xlsx", "csv"],
        help="png, svg or pdf for charts; xlsx for the workbook; csv for the components table",
    )
    export.add_argument("--size", default="1920x1080", metavar="WxH", help="chart size in pixels (default 1920x1080)")
    export.add_argument(
        "--chart",
        default="all",
        metavar="NAME",
        help=(
            f"{', '.join(CHART_KEYS + TRACE_CHART_KEYS + JOB_CHART_KEYS)} or all (default; critical_path when the "
            f"profile was imported from a trace it can read, the job's charts for a folder of rank traces); with "
            f"--compare: {', '.join(COMPARE_CHART_KEYS)} or all"
        ),
    )
    export.add_argument(
        "--slide-charts",
        metavar="A,B",
        help=(
            f"the slide's one or two charts, left to right, from {', '.join(SLIDE_CHART_KEYS)} (default: where the "
            "time goes and the chart that carries the answer: the critical path, the odds, latency against load or "
            "the speedup against k; where the time goes alone for a profile with no optimization)"
        ),
    )
    export.add_argument("--transparent", action="store_true", help="PNG with a transparent background")
    export.add_argument(
        "--compare",
        metavar="AFTER",
        help="a profile measured after the change: export the comparison chart and slide (predicted against measured)",
    )
    export.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="with --compare: a component renamed between the two, as for the compare command (repeat for more)",
    )


def run(args: argparse.Namespace) -> int:
    from ..files import save_profile
    from ..files.atomic import atomic_write

    source = Path(args.profile)
    job = _job_figures(source)
    loaded = load_argument(Path(job[0]) if job is not None else source)
    print_warnings(args.profile, loaded.warnings)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInputError(f"--out: cannot make the folder {out}: {exc.strerror or exc}") from None
    profile = loaded.profile
    written: list[Path] = []
    if args.compare is not None or args.pair:
        written = _export_comparison(args, source, profile, out)
    elif args.format in ("xlsx", "csv"):
        target = out / f"{plain_stem(source)}.{args.format}"
        if target.resolve() == source.resolve():
            target = out / f"{plain_stem(source)}-exported.{args.format}"  # never overwrite the input
        analysis = None
        with contextlib.suppress(ProfileError):
            analysis = analyse(profile)
        answer, decision = None, None
        job_figures = None
        if analysis is not None and args.format == "xlsx":
            answer, decision = _traced_decision(args, source, profile, analysis)
            if job is None:  # a workbook saved with its job: its answer and odds lead, its Ranks sheet is kept
                from .report import for_job

                found = for_job(loaded, str(source), profile, decision)
                job_figures = found.figures if found is not None else None
            else:  # a folder: its job leads, read without a plan (nothing is ticked on a fresh import)
                job_figures = job[1]
        sheet = None  # the job the workbook stands for: its Ranks sheet, its traces written from where it goes
        if loaded.job is not None and args.format == "xlsx":
            sheet = loaded.job.moved(source.resolve().parent, target.resolve().parent)
        elif job is not None and args.format == "xlsx":
            from ..files import ranks_sheet

            sheet = ranks_sheet(job[1].job, job[1].sources, target.resolve().parent)
        try:
            atomic_write(
                target,
                lambda tmp: save_profile(
                    profile,
                    tmp,
                    analysis,
                    csv=args.format == "csv",
                    trace=answer,
                    decision=decision,
                    job=sheet,
                    job_figures=job_figures,
                ),
            )
        except OSError as exc:
            raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
        written.append(target)
    else:
        try:
            size = parse_size(args.size)
        except ValueError as exc:
            raise BadInputError(f"--size: {exc}") from None
        known = CHART_KEYS + TRACE_CHART_KEYS + JOB_CHART_KEYS
        charts: tuple[str, ...] = known if args.chart == "all" else (args.chart,)
        if any(c not in known for c in charts):
            raise BadInputError(f'--chart: "{args.chart}" is not a chart; expected {", ".join(known)} or all')
        if job is None and loaded.job is None and any(c in JOB_CHART_KEYS for c in charts):
            if args.chart != "all":
                raise BadInputError(
                    f"--chart {args.chart} draws a job of many ranks: give a folder of rank traces (one per rank) or "
                    "a workbook saved with its job"
                )
            charts = tuple(c for c in charts if c not in JOB_CHART_KEYS)
        if args.chart == "all" and profile.settings.arrival_rate is None:
            # "all" means every chart with something to show: latency against load needs an arrival rate.
            charts = tuple(c for c in charts if c != "load")
        if (
            args.chart == "all" and not profile.has_uncertainty()
        ):  # the odds and the tornado of single values show nothing
            charts = tuple(c for c in charts if c not in ODDS_CHART_KEYS)
        chosen = _slide_charts(args.slide_charts, charts)
        if args.chart != "all":  # a chart named that has nothing to draw is refused, not written as an empty frame
            for chart in (*charts, *chosen):
                _refuse_empty(chart, profile, "--slide-charts" if chart in chosen else "--chart")
        analysis = analyse(profile)
        trace = _trace_figures(args, profile, source, charts)
        if args.chart == "all" and (trace is None or trace.problem):
            charts = tuple(c for c in charts if c not in TRACE_CHART_KEYS)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
        from ..ui.app import make_app
        from ..ui.chart_factory import make_chart
        from ..ui.charts.export import ChartInputs, NothingToDrawError, export_chart

        make_app()
        # A folder's odds are its job's: nothing is ticked on a fresh import, so its step is as measured in every draw
        # (the profile's rank's own odds drew its spread of 109-116 ms under an axis of the job's 118 ms step).
        figures, plan = traced_odds(source, profile, analysis, trace, charts) if job is None else (None, None)
        job_figures = job[1] if job is not None else None
        if job is None:  # a workbook saved with its job: its charts, the job's answer and odds on the slide
            from .report_job import job_report, job_sources

            sources = job_sources(loaded, str(source))
            if sources is not None:
                found = job_report(profile, sources[0], sources[1], figures)
                if found.figures is not None:
                    job_figures, plan = found.figures, None
                    figures = found.odds if not isinstance(found.odds, str) else None
                elif args.chart in JOB_CHART_KEYS:
                    raise BadInputError(f"--chart {args.chart}: the job's rank traces cannot be read: {found.problem}")
        if job_figures is None:
            charts = tuple(c for c in charts if c not in JOB_CHART_KEYS)
        inputs = ChartInputs(
            profile,
            analysis,
            trace=trace,
            slide_charts=chosen,
            uncertainty=figures,
            plan=plan,
            job=job_figures,
        )
        for chart in charts:
            target = out / f"{plain_stem(source)}-{chart}.{args.format}"
            try:
                written.append(export_chart(make_chart, chart, inputs, args.format, target, size, args.transparent))
            except NothingToDrawError as exc:
                if args.chart == "all":  # every chart with something to show
                    continue
                if chart == "slide":  # one of its charts: said whole
                    raise BadInputError(
                        f"{'--slide-charts' if args.slide_charts else '--chart slide'}: {exc}"
                    ) from None
                raise BadInputError(f"--chart {chart} has nothing to draw: {exc}") from None
            except OSError as exc:
                raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
    for path in written:
        print(path.resolve(), file=sys.stdout)
    return EXIT_OK


def _refuse_empty(chart: str, profile: Profile, flag: str) -> None:
    """Latency against load without an arrival rate, and the odds' charts without a k or time range, draw only what
    is missing: a file of that is no result."""
    if chart == "load" and profile.settings.arrival_rate is None:
        raise BadInputError(
            f"{flag} load draws latency against load: the profile has no arrival rate (set it under Objectives, load "
            "and cost, or in the workbook's Settings sheet)"
        )
    if chart in ODDS_CHART_KEYS and not profile.has_uncertainty():
        raise BadInputError(
            f"{flag} {chart} draws the odds of k and the times as ranges: the profile has none (give an "
            "optimization a k low and a k high, or a component a time low and high)"
        )


def _slide_charts(given: str | None, charts: tuple[str, ...]) -> tuple[str, ...]:
    """The charts --slide-charts names (one or two, known, different), or () for the default two."""
    if given is None:
        return ()
    if "slide" not in charts:
        raise BadInputError("--slide-charts chooses the slide's charts: use it with --chart slide (or all)")
    names = tuple(name.strip() for name in given.split(","))
    if not 1 <= len(names) <= 2 or not all(names):
        raise BadInputError(f'--slide-charts: "{given}" names {len(names)} charts; a slide shows one or two, as A,B')
    unknown = [name for name in names if name not in SLIDE_CHART_KEYS]
    if unknown:
        raise BadInputError(
            f'--slide-charts: "{unknown[0]}" is not a chart for the slide; expected {", ".join(SLIDE_CHART_KEYS)}'
        )
    if len(set(names)) < len(names):
        raise BadInputError(f'--slide-charts: "{given}" names the same chart twice')
    return names


def _job_figures(source: Path) -> tuple[str, Any] | None:
    """For a folder of several rank traces: the job read, analysed and the representative rank's file (the
    straggler's, else the slowest rank's), as the window opens a job; None for anything else."""
    if not source.is_dir():
        return None
    from ..files.traces.detect import trace_files
    from ..model.traces.errors import TraceError

    try:
        files = trace_files(source)
    except TraceError:
        return None
    if len(files) < 2:
        return None
    from ..files.traces.job import load_job
    from ..model.job.analysis import analyse_job
    from ..model.job.join import match
    from ..model.job.representative import representative_source
    from ..present.job_charts import JobFigures

    step = STEP_PREFIX
    job = analyse_job(match(load_job([str(source)], step)))
    rank, name = representative_source(job)
    return str(source / name), JobFigures(job, source.name, tuple(str(f) for f in files), step, profile_rank=rank)


def _trace_figures(args: argparse.Namespace, profile: Profile, source: Path, charts: tuple[str, ...]) -> Any:
    """The profile's trace on its critical path, when a chart asked for draws from it (the slide and the critical
    path show it; where the time goes and the odds' charts show the answer with its dependencies)."""
    if not profile.settings.trace_source or not (set(TRACED_KEYS) & set(charts)):
        return None
    from ..files.traces.linked import linked_figures

    figures = linked_figures(profile, source.parent)
    if figures.problem:
        message = f"the critical path of the profile's trace is left out: {figures.problem}"
        if args.chart in TRACE_CHART_KEYS:
            raise BadInputError(f"--chart {args.chart}: {message}")
        print_warnings(args.profile, [message])
    return figures


def _traced_decision(args: argparse.Namespace, source: Path, profile: Profile, analysis: Any) -> tuple[Any, Any]:
    """A profile that names its trace: its answer with the trace's dependencies and the odds and cheapest plan run
    through them, as ``report`` gives them (the sum's, with the answer saying why, when the trace cannot be used);
    (None, None) for a profile without a trace."""
    if not profile.settings.trace_source:
        return None, None
    from ..model.decision import decide
    from .report import traced

    answer, decision = traced(str(source), profile, analysis, decide(profile, analysis))
    if answer is not None and not answer.usable:
        from ..present.plan_answer import unusable_note

        print_warnings(args.profile, [unusable_note(profile.settings.trace_source, answer.problem)])
    return answer, decision


def traced_odds(source: Path, profile: Profile, analysis: Any, trace: Any, charts: tuple[str, ...]) -> tuple[Any, Any]:
    """For a profile whose trace can be used (``trace``, its figures) and charts that show them: the odds and the
    cheapest plan through the trace's dependencies, as ``report`` gives them; (None, None) otherwise (a chart then
    works out the sum's)."""
    if trace is None or trace.problem or not {"slide", *ODDS_CHART_KEYS} & set(charts):
        return None, None
    from ..model.decision import decide
    from .report import traced

    _, decision = traced(str(source), profile, analysis, decide(profile, analysis))
    return (None, None) if decision is None else (decision.figures, decision.search)


def _export_comparison(args: argparse.Namespace, source: Path, before: Profile, out: Path) -> list[Path]:
    """The comparison chart and slide of BEFORE against ``--compare AFTER``, read as the compare command reads it."""
    from ..model.comparison import compare
    from .compare import load_side, parse_pairs

    if args.compare is None:
        raise BadInputError("--pair needs --compare AFTER: it pairs components of the two profiles")
    if args.format not in ("png", "svg", "pdf"):
        raise BadInputError(f"--compare exports charts: --format png, svg or pdf, not {args.format}")
    charts = COMPARE_CHART_KEYS if args.chart == "all" else (args.chart,)
    if any(c not in COMPARE_CHART_KEYS for c in charts):
        raise BadInputError(
            f'--chart: "{args.chart}" is not a comparison chart; expected {", ".join(COMPARE_CHART_KEYS)} or all'
        )
    try:
        size = parse_size(args.size)
    except ValueError as exc:
        raise BadInputError(f"--size: {exc}") from None
    pairs = parse_pairs(args.pair)
    # The compare command's reader, with its trace options at their defaults (export has none of its own).
    after = load_side(args.compare, "AFTER", argparse.Namespace(group_by=None, total=False))
    try:
        comparison = compare(before, after, pairs)
    except ProfileError as exc:
        raise BadInputError(f"cannot compare {args.profile} with {args.compare}:\n{exc}") from None
    from ..present.comparison_words import comparison_warnings

    print_warnings("compare", comparison_warnings(comparison))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    from ..ui.app import make_app
    from ..ui.chart_factory import make_chart
    from ..ui.compare.export import export_comparison

    make_app()
    written = []
    for chart in charts:
        target = out / f"{plain_stem(source)}-vs-{plain_stem(args.compare)}-{chart}.{args.format}"
        try:
            written.append(
                export_comparison(
                    make_chart, comparison, chart, args.format, target, size, args.transparent, before=before
                )
            )
        except OSError as exc:
            raise BadInputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return written
