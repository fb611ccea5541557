"""The charts by key — title, what each depends on, its class: one list the results pane, menus, slide and exports read.

Each entry says what it is drawn from (its :class:`Source`): the profile's analysis, the measured
runs' fits, or a comparison. That one field decides where a chart is offered — the copy menus, the
export dialog, the slide's extra chart and ``amdahl-desk export`` all select by it — and what an
export refuses without (:meth:`Source.missing`).

The registry is data only: it sits below the capability rooms that define the charts (they read it;
it imports none of them), and a dialog or ``--help`` that lists the charts loads no plotting code. The
classes are made by ``ui/chart_factory.py``, above the rooms, which the window hands to whoever draws
or exports a chart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ...model.profile import Profile
from ...present.counted import counted
from ...present.inputs import ChartInputs
from ...present.text import clause
from ..core.state import Aspect

COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION, MEASUREMENTS, OBJECTIVES, OBJECTIVE, TRACE, DECISION, JOB = (
    Aspect.COMPONENTS,
    Aspect.OPTIMIZATIONS,
    Aspect.SETTINGS,
    Aspect.SELECTION,
    Aspect.MEASUREMENTS,
    Aspect.OBJECTIVES,
    Aspect.OBJECTIVE,
    Aspect.TRACE,
    Aspect.DECISION,
    Aspect.JOB,
)


class Source(str, Enum):
    """What a chart is drawn from, and so where it is offered and what its export cannot do without."""

    PROFILE = "profile"  # the document's analysis: nothing to chart without components that take time
    MEASUREMENTS = "measurements"  # the measured runs' fits (with the profile's model when there is one)
    COMPARISON = "comparison"  # a comparison of the document (before) with a profile measured after the change
    TRACE = "trace"  # the critical path of the trace the profile was imported from, with the plan applied
    JOB = "job"  # the job of many ranks the profile stands for (File → Import Profile from Folder…)

    def has_data(self, inputs: ChartInputs) -> bool:
        """Whether ``inputs`` hold anything of this source to show (the slide leaves out a chart that has not)."""
        if self is Source.PROFILE:
            return inputs.analysis is not None
        if self is Source.COMPARISON:
            return inputs.comparison is not None
        if self is Source.TRACE:
            return trace_missing(inputs) is None
        if self is Source.JOB:
            return inputs.job is not None
        return inputs.fit is not None and len(inputs.fit.measurements) > 0

    def missing(self, inputs: ChartInputs) -> str | None:
        """Why a chart of this source cannot be exported from ``inputs`` (a message for a person), or None.

        A measured chart without runs is refused too: on screen it says "no runs yet", but as a file
        it would be an empty frame passed on as a result.
        """
        if self is Source.PROFILE and inputs.analysis is None:
            return "there is nothing to chart: the profile needs components with times above 0"
        if self is Source.COMPARISON and inputs.comparison is None:
            return "this chart compares two profiles: open the after profile with File → Compare With…"
        if self is Source.TRACE:
            return trace_missing(inputs)
        if self is Source.JOB and inputs.job is None:
            return (
                "this chart draws a job of many ranks: import a folder of rank traces (File → Import Profile from "
                "Folder…), or give amdahl-desk export the folder"
            )
        if self is Source.MEASUREMENTS and not self.has_data(inputs):
            return (
                "this chart draws measured runs, and there are none yet: type or paste them in the "
                "Measurements tab, or open them with File → Open Measurements…"
            )
        return None


def trace_missing(inputs: ChartInputs) -> str | None:
    """Why the trace's critical path cannot be drawn for ``inputs`` now, or None."""
    t = inputs.trace
    if t is None or not t.named:
        return (
            "this chart draws the critical path of the trace a profile was imported from: import a PyTorch trace "
            "(File → Import Profile…)"
        )
    if t.problem:
        return f"the profile's trace cannot be used: {t.problem}"
    answers = t.current(inputs.profile)
    if answers is None:
        return "the critical path of the profile's trace is still being computed; try again in a moment"
    if answers.path is None:
        return "the trace does not know which events some targets of the plan stand for: " + ", ".join(answers.unknown)
    return None


@dataclass(frozen=True)
class ChartEntry:
    key: str
    title: str
    depends_on: frozenset[Aspect]  # it redraws only when one of these changed
    on_screen: bool = True  # shown in the window's results pane (the slide is for export only)
    source: Source = Source.PROFILE  # what it is drawn from
    on_slide: bool = False  # one of the slide's charts (shown there when its source has data)
    slide_when: Callable[[ChartInputs], bool] | None = None  # and only when this holds (None: always)
    tab: str = ""  # its name on a tab, short enough for a narrow pane (the title is the tab's tooltip)
    # On screen (its tab) and on the slide only while this holds (None: always); its export is offered always.
    shown_when: Callable[[ChartInputs], bool] | None = None
    # Its title and tab for a profile, where they follow it (a CPU job's scaling is over ranks); None: as above.
    named: Callable[[Profile], str] | None = None
    # What it needs before it draws anything, found cheaply ("" once it draws): its copy in the menu is greyed
    # saying so. None: nothing beyond its source (an export still refuses a view that draws nothing).
    needs: Callable[[ChartInputs], str] | None = None

    def title_for(self, profile: Profile | None) -> str:
        """Its title for ``profile`` (None: as registered), in a menu, a dialog or a tab's tooltip."""
        return self.named(profile) if self.named is not None and profile is not None else self.title

    def tab_for(self, profile: Profile | None) -> str:
        """Its name on a tab for ``profile``."""
        return self.named(profile) if self.named is not None and profile is not None else self.tab or self.title

    def on_slide_for(self, inputs: ChartInputs) -> bool:
        """Whether the slide shows this chart for ``inputs``: its source has data and its own conditions hold."""
        return (
            self.on_slide
            and self.source.has_data(inputs)
            and (self.slide_when is None or self.slide_when(inputs))
            and (self.shown_when is None or self.shown_when(inputs))
        )


# What a chart needs before it draws, each imported when asked: the registry loads no chart's code at start-up.
def _speedup_needs(inputs: ChartInputs) -> str:
    from ...present.speedup import needs

    return clause(needs(inputs))


def _tornado_needs(inputs: ChartInputs) -> str:
    from ...present.uncertainty_charts import tornado_needs

    return clause(tornado_needs(inputs))


def _load_needs(inputs: ChartInputs) -> str:
    from ...present.load_chart import needs

    return needs(inputs)


def has_ranges(inputs: ChartInputs) -> bool:
    """Whether some estimate of the profile has a range or a confidence below 100% (the odds' charts show then)."""
    return inputs.analysis is not None and inputs.profile.has_uncertainty()


ENTRIES: tuple[ChartEntry, ...] = (
    ChartEntry(
        "slide",
        "Slide (key charts and numbers)",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION, MEASUREMENTS}),
        on_screen=False,
    ),
    ChartEntry(
        "breakdown",
        "Where the time goes",
        # settings: the target line, the unit; trace: a traced profile's After bar is the answer with dependencies
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS, OBJECTIVES, OBJECTIVE, TRACE}),
        on_slide=True,
        tab="Time per component",
    ),
    ChartEntry(
        "speedup",
        "Speedup against k",
        frozenset({COMPONENTS, OPTIMIZATIONS, SELECTION, OBJECTIVE, TRACE}),  # trace: the S on the path, said beside
        on_slide=True,
        slide_when=lambda inputs: not _speedup_needs(inputs),  # none: an empty plot, no answer to carry
        tab="Speedup vs k",
        needs=_speedup_needs,
    ),
    ChartEntry(
        "scaling",
        "GPU scaling",
        # scaling reads times and scaling classes, never the optimizations; of a job, its ranks' transfer
        frozenset({COMPONENTS, SETTINGS, JOB}),
        tab="GPU scaling",
        named=lambda profile: counted(profile.settings).scaling,  # a CPU job's: "Rank scaling"
    ),
    # A trace-based profile (ui/whatif): its step's critical path by kind, before and after the plan, on the slide.
    ChartEntry(
        "critical_path",
        "Critical path of the trace (before and after the plan)",
        frozenset({COMPONENTS, OPTIMIZATIONS, TRACE}),  # the plan, the components' names and colours, the figures
        source=Source.TRACE,
        on_slide=True,
        tab="Critical path",
    ),
    # A job of many ranks (ui/job): its ranks' step times, where each rank's step goes, the collectives' skew; in
    # tabs and on the slide while the profile is a job's.
    ChartEntry(
        "job_ranks",
        "Where each rank's step goes (compute, communication, waiting)",
        frozenset({JOB}),
        source=Source.JOB,
        on_slide=True,
        tab="Ranks",
    ),
    ChartEntry(
        "job_steps",
        "Step time per rank and step (the straggler marked)",
        frozenset({JOB}),
        source=Source.JOB,
        on_slide=True,
        tab="Steps × ranks",
    ),
    ChartEntry(
        "job_skew",
        "Collectives: transfer against skew",
        frozenset({JOB}),
        source=Source.JOB,
        on_slide=True,
        tab="Collectives",
    ),
    # Deciding under uncertainty (ui/profile): the odds of the ticked plan and what matters most, in tabs once an
    # estimate has a range, the odds on the slide too (a sixth chart left each too narrow to read); computed aside
    # by the document's decision link (DECISION: they came), a job's replayed through its ranks (JOB: they came).
    ChartEntry(
        "distribution",
        "Distribution of the new time (the odds of the target)",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS, DECISION, JOB}),
        on_slide=True,
        tab="Odds",
        shown_when=has_ranges,
    ),
    ChartEntry(
        "tornado",
        "What matters most (speedup at each low and high k)",
        # exact closed forms, no draws; a traced profile's are single passes on the trace's path, with its odds
        frozenset({COMPONENTS, OPTIMIZATIONS, DECISION, TRACE, JOB}),
        tab="What matters",
        shown_when=has_ranges,
        needs=_tornado_needs,
    ),
    # Objectives, load and cost (ui/objectives): in tabs beside GPU scaling; the load chart joins the slide
    # when an arrival rate is set.
    ChartEntry(
        "load",
        "Latency against load",
        frozenset(
            {COMPONENTS, OPTIMIZATIONS, SETTINGS, OBJECTIVES, TRACE}
        ),  # the load objective's service times (a traced step: on its path)
        on_slide=True,
        slide_when=lambda inputs: inputs.profile.settings.arrival_rate is not None,
        tab="Latency vs load",
        needs=_load_needs,
    ),
    ChartEntry(
        "cost",
        "Cost per run against GPUs",
        frozenset({COMPONENTS, SETTINGS}),  # the scaling times and the prices
        tab="Cost per run",
    ),
    # Measured runs: shown in the Measurements panel (ui/fit), exported and copied like the others.
    ChartEntry(
        "measured_scaling",
        "Measured scaling (runs against the model)",
        frozenset({MEASUREMENTS, COMPONENTS, SETTINGS}),  # the profile's model curve and its P
        on_screen=False,
        source=Source.MEASUREMENTS,
        on_slide=True,  # the runs against the profile's model, a third chart when there are runs
    ),
    ChartEntry(
        "throughput",
        "Throughput against N (USL)",
        frozenset({MEASUREMENTS}),
        on_screen=False,
        source=Source.MEASUREMENTS,
    ),
    ChartEntry(
        "karp_flatt",
        "Karp–Flatt e against N",
        frozenset({MEASUREMENTS}),
        on_screen=False,
        source=Source.MEASUREMENTS,
    ),
    # A comparison of the document with an after profile: drawn and exported from the comparison's tab (ui/compare).
    ChartEntry(
        "comparison",
        "Before and after per component",
        frozenset({COMPONENTS, OPTIMIZATIONS}),  # the before times and the plan's predicted after-times
        on_screen=False,
        source=Source.COMPARISON,
    ),
    ChartEntry(
        "comparison-slide",
        "Comparison slide (predicted against measured)",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS}),  # settings: the boundary in the subtitle
        on_screen=False,
        source=Source.COMPARISON,
    ),
)


def keys(*sources: Source) -> tuple[str, ...]:
    """The keys of the charts drawn from any of ``sources``, in registry order."""
    return tuple(e.key for e in ENTRIES if e.source in sources)


CHARTS = keys(Source.PROFILE)  # a profile's charts: what `amdahl-desk export` writes from a profile
MEASURED_CHARTS = keys(Source.MEASUREMENTS)  # drawn from the document's measured runs
COMPARISON_CHARTS = keys(Source.COMPARISON)  # what `amdahl-desk export --compare AFTER` writes
TRACE_CHARTS = keys(Source.TRACE)  # drawn from the profile's trace, for a trace-based profile
JOB_CHARTS = keys(Source.JOB)  # drawn from the document's job of many ranks
SLIDE_CHARTS = tuple(e.key for e in ENTRIES if e.on_slide)  # the slide's charts, left to right
CHART_TITLES = {e.key: e.title for e in ENTRIES}  # as registered: chart_title says it for a profile
FORMATS = ("png", "svg", "pdf")
PRESETS = {"1920×1080 (Full HD slide)": (1920, 1080), "1280×720 (HD)": (1280, 720), "3840×2160 (4K)": (3840, 2160)}


# What a slide may show: any chart of the profile, its trace or its measured runs (the slide itself excepted).
SLIDE_CHOICES = tuple(k for k in keys(Source.PROFILE, Source.TRACE, Source.MEASUREMENTS, Source.JOB) if k != "slide")
# After where the time goes, the first of these with something to show carries the profile's answer: the plan on the
# trace's critical path, the odds of the target, latency under load, the measured runs, the speedup against k; with
# none (no optimization to answer for yet), where the time goes alone, the whole width of the slide.
ANSWER_CHARTS = ("critical_path", "distribution", "load", "measured_scaling", "speedup")


def default_slide_charts(inputs: ChartInputs) -> tuple[str, ...]:
    """The slide's two charts for ``inputs`` when none are chosen: where the time goes, and the one that carries the
    answer (the first of :data:`ANSWER_CHARTS` the slide would show)."""
    if inputs.job is not None:  # a job: where each rank's step goes (the straggler's cost), and its ranks' steps
        return ("job_ranks", "job_steps")
    second = next((k for k in ANSWER_CHARTS if chart_entry(k).on_slide_for(inputs)), None)
    return ("breakdown", second) if second is not None else ("breakdown",)


def slide_charts(inputs: ChartInputs) -> tuple[str, ...]:
    """The charts the slide shows: those chosen in ``inputs`` (one or two), else the default two.

    Raises :class:`ValueError` naming a chosen chart that is no slide chart, or that has nothing to show and why.
    """
    chosen = inputs.slide_charts or default_slide_charts(inputs)
    if not 1 <= len(chosen) <= 2:
        raise ValueError(f"a slide shows one or two charts, not {len(chosen)}: {', '.join(chosen)}")
    for key in chosen:
        if key not in SLIDE_CHOICES:
            raise ValueError(f'"{key}" is not a chart for the slide; expected one of {", ".join(SLIDE_CHOICES)}')
        why = chart_entry(key).source.missing(inputs)
        if why is not None:
            raise ValueError(f"the slide's chart “{CHART_TITLES[key]}” cannot be drawn: {why}")
    return tuple(dict.fromkeys(chosen))


def chart_entry(key: str) -> ChartEntry:
    for e in ENTRIES:
        if e.key == key:
            return e
    raise ValueError(f'"{key}" is not a chart; expected one of {", ".join(CHARTS)}')


def chart_title(key: str, profile: Profile | None = None) -> str:
    """Chart ``key``'s title for ``profile`` ("Rank scaling" for a CPU job's scaling; None: as registered)."""
    return chart_entry(key).title_for(profile)
