"""The trace a profile was imported from, found again and made ready for its plans.

The profile's Settings keep the trace (as the import was given it), the options that grouped it and each
component's events. :func:`open_linked` reads that trace with its dependencies, keeps the steps the import kept
(its rank, the steps it left out) and returns a :class:`~amdahl_desk.model.traces.plan_path.TracePlanner`;
:func:`linked_figures` does all of it at once for a command or a test (the window does it in the background).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ...model.analysis import Analysis
from ...model.names import STEP_PREFIX
from ...model.profile import Profile, Settings
from ...model.traces.errors import TraceError
from ...model.traces.plan_answer import TraceAnswer
from ...model.traces.plan_path import TracePlanner, answers, plan_of
from ...present.numbers import POINT, Numbers
from ...present.trace_plan import TraceFigures
from .source import Progress

Stale = Callable[[], bool]


def trace_paths(source: str, base: Path | None = None) -> list[Path]:
    """Where the trace ``source`` names is: as given, else beside the workbook (``base``, its folder); several
    files imported together are named joined by ", ". Raises :class:`TraceError` when none is there."""
    candidates = [source] if Path(source).exists() or ", " not in source else source.split(", ")
    found: list[Path] = []
    for text in candidates:
        p = Path(text).expanduser()
        if not p.exists() and base is not None and not p.is_absolute() and (base / p).exists():
            p = base / p
        if not p.exists():
            raise TraceError("no such file or folder (moved or deleted since the import?)", str(p.resolve()))
        found.append(p)
    return found


def open_linked(settings: Settings, base: Path | None = None, progress: Progress | None = None) -> TracePlanner:
    """The trace ``settings`` name, read with its dependencies, its kept steps made ready, its components' events
    found. Raises :class:`TraceError` (naming the file and why) when it cannot be read or used."""
    from ...model.traces.import_paths import grouping_options
    from ...model.traces.summary import kept_step_names
    from ...model.traces.whatif import prepare
    from .graph_source import load_rank_graph

    options, rank = grouping_options(settings.trace_grouping)
    if options.total:
        raise TraceError(
            "the profile was imported from the whole trace, and the critical path is computed per profiler step; "
            "import it per step to see the plan with the trace's dependencies",
            settings.trace_source,
        )
    if not settings.trace_events:
        raise TraceError("the profile does not say which events its components stand for", settings.trace_source)
    paths = trace_paths(settings.trace_source, base)
    last: TraceError | None = None
    for path in paths:  # several files: one per rank; the grouping's rank says which
        try:
            loaded = load_rank_graph(path, rank, None, progress)
        except TraceError as exc:
            if len(paths) > 1 and "is not in this trace" in str(exc):
                last = exc
                continue
            raise
        kept = kept_step_names(loaded.trace.events, options, rank)
        if not kept and not kept_step_names(loaded.trace.events, replace(options, exclude_steps=frozenset()), rank):
            raise TraceError(
                f'the trace has no profiler steps (annotations named "{STEP_PREFIX}…"), and the critical path is '
                "computed per step: the figures are the sum's",
                loaded.source,
            )
        if not kept:
            raise TraceError("none of the steps the import kept is in the trace", loaded.source)
        pt = prepare(loaded.trace, source=loaded.source, only=frozenset(kept))
        return TracePlanner(pt, settings.trace_events)
    assert last is not None
    raise last


def why(exc: TraceError, n: Numbers = POINT) -> str:
    """What is wrong, for a note that names the trace itself: the problems without the file's name before them,
    their places' counts as ``n`` writes them."""
    from ...present.refusals import problem_text

    return "; ".join(problem_text(p, n) for p in exc.problems) or str(exc)


def linked_figures(profile: Profile, base: Path | None = None) -> TraceFigures:
    """Everything the window shows of the profile's trace, computed now: for an export or a test."""
    settings = profile.settings
    if not settings.trace_source:
        return TraceFigures()
    try:
        planner = open_linked(settings, base)
    except TraceError as exc:
        return TraceFigures(settings.trace_source, problem=why(exc))
    from ...model.traces.plan_answer import profile_needs
    from ...model.traces.plan_curves import plan_curves

    key = plan_of(profile.optimizations)
    options = [(o.targets, float(o.speedup)) for o in profile.optimizations]
    found = replace(
        answers(planner, key, options, profile_needs(profile)), curves=plan_curves(planner, profile.optimizations)
    )
    return TraceFigures(
        settings.trace_source,
        ready=True,
        steps=len(planner.pt.steps),
        baseline=planner.baseline,
        components=planner.components(),
        answers=found,
    )


def linked_answer(
    profile: Profile, analysis: Analysis, base: Path | None = None
) -> tuple[TraceAnswer | None, TracePlanner | None]:
    """The profile's answer with its trace's dependencies and the planner that gave it; (None, None) when the
    profile names no trace; the sum's answer (``usable`` false, ``problem`` saying why) when the trace cannot be
    read or used."""
    from ...model.traces.plan_answer import answer_profile, sum_answer

    settings = profile.settings
    if not settings.trace_source:
        return None, None
    try:
        planner = open_linked(settings, base)
    except TraceError as exc:
        return sum_answer(profile, analysis, why(exc)), None
    return answer_profile(profile, analysis, planner), planner
