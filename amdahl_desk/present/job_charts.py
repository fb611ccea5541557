"""A job's three charts as numbers and texts: step times of every rank at every step (a heat map, the straggler's
row named), where each rank's step goes (compute, communication, waiting, stacked and sorted, the straggler's
cost in words), and each collective's transfer against its skew. The window, the slide and the exports draw
them; :class:`JobFigures` is what a chart input holds of the document's job."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model.units import TimeUnit
from . import colours
from .chart_parts import LegendEntry
from .colours import INK
from .job import others_pace, straggler_name, straggler_word
from .numbers import Numbers
from .text import NBSP, shorten

if TYPE_CHECKING:  # the job's model (and the trace model under it) loads with the first job, not the window
    from ..model.job.analysis import Job, JobWhatIf
    from ..model.uncertainty import UncertaintyFigures

MS = TimeUnit.MS
JOB_ODDS_CANNOT = (
    "the job's ranks cannot replay the draws: a ticked optimization targets time no rank finds by its events "
    "(idle, Other, the time outside annotations), or the plan has too many patterns to tell apart"
)
COMPUTE, COMMUNICATION, WAITING, REST = colours.GREEN, colours.COMMUNICATION, "#e07b39", "#d9d9d9"
TRANSFER, SKEW_MEAN, SKEW_MAX = colours.COMMUNICATION, "#e07b39", "#b03a2e"
STRAGGLER = colours.RED


@dataclass(frozen=True)
class JobFigures:
    """What the window knows of the document's job: its analysis, where it was read from, and the plan's answer.

    ``answer`` is the job's what-if of the ticked plan (None: no plan, being computed, or ``problem`` says why);
    ``on_ranks`` the ranks the plan is applied on (None: every rank)."""

    job: Job
    name: str  # the folder or first file, for titles
    sources: tuple[str, ...]
    step: str
    answer: JobWhatIf | None = None
    problem: str = ""
    left_out: tuple[str, ...] = ()
    on_ranks: tuple[int, ...] | None = None
    computing: bool = False
    profile_rank: int | None = None  # the rank whose import is the window's profile (model/job/representative)
    # The job's step replayed for plans (model/job/plan.plans_to_replay), by (the plan's key, ``on_ranks``): the
    # predicted mean step (ms), or why the plan cannot be answered; a plan not there is being computed.
    replays: Mapping[tuple[tuple[tuple[str, float], ...], tuple[int, ...] | None], float | str] = field(
        default_factory=dict
    )
    # The ticked plan's odds through the job (model/job/odds): (what they were drawn for — the plan, the ranks,
    # the profile's own odds they replace — and the figures, or why the job cannot answer them).
    odds: tuple[Any, UncertaintyFigures | str] | None = None

    def odds_key(self, base: UncertaintyFigures) -> tuple[Any, ...]:
        """What the job's odds of the plan answered now, drawn from ``base`` (the profile's odds), are for."""
        key = self.answer.speedups if self.answer is not None else None
        return (key, self.on_ranks, id(base))

    def current_odds(self, base: UncertaintyFigures | None) -> UncertaintyFigures | str | None:
        """The job's odds for the plan answered now, from ``base``; None while they are on their way (or no plan
        is answered)."""
        if base is None or self.odds is None or self.computing or self.answer is None:
            return None
        key, found = self.odds
        if key != self.odds_key(base):
            return None
        return JOB_ODDS_CANNOT if found is None else found


def _ms(n: Numbers, value: float) -> str:
    return n.time(value, MS).replace(" ", NBSP)  # a time never wraps between its number and its unit


def _straggler_index(job: Job) -> int:
    return job.ranks.index(job.straggler) if job.straggler is not None else -1


# -- the heat map ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StepMapView:
    title: str
    values: tuple[tuple[float, ...], ...] = ()  # (ranks, steps), ms
    low: float = 0.0
    high: float = 1.0
    row_ticks: tuple[tuple[float, str], ...] = ()
    column_ticks: tuple[tuple[float, str], ...] = ()
    marked_row: int = -1  # the straggler's row
    marked_label: str = ""
    scale_label: str = "Step time (ms)"
    scale_ticks: tuple[tuple[float, str], ...] = ()
    x_label: str = "Step"
    y_label: str = "Rank"
    legend: tuple[LegendEntry, ...] = ()


def _row_ticks(ranks: tuple[int, ...]) -> tuple[tuple[float, str], ...]:
    """A label per rank's row; the chart shows as many as fit, the straggler's always."""
    return tuple((i + 0.5, str(r)) for i, r in enumerate(ranks))


def scale_ticks(low: float, high: float) -> tuple[float, ...]:
    """Round values inside [low, high] for a colour scale, none at its very ends (a label there is cut in half)."""
    span = high - low
    raw = span / 4
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = next(m * mag for m in (5, 2.5, 2, 1) if m * mag <= raw * (1 + 1e-9))
    first = math.ceil((low + 0.04 * span) / step) * step
    out = []
    v = first
    while v <= high - 0.04 * span + 1e-12:
        out.append(round(v, 12))
        v += step
    return tuple(out)


def step_map(figures: JobFigures | None, n: Numbers, brief: bool = False) -> StepMapView:
    """Every rank's measured step time at every step (rows: ranks, columns: steps), the straggler's row named."""
    if figures is None:
        return StepMapView("Step time per rank and step: import a folder of rank traces")
    job = figures.job
    values = job.rank_step_times
    flat = [v for row in values for v in row]
    low, high = (min(flat), max(flat)) if flat else (0.0, 1.0)
    if high - low < 1e-9 * max(1.0, abs(high)):
        low, high = low - 0.5, high + 0.5
    marked = _straggler_index(job)
    label = ""
    if marked >= 0:
        label = f"rank {job.straggler}: {straggler_name(job)}"
    every = max(1, -(-len(job.steps) // 12))
    cols = tuple((j + 0.5, str(s)) for j, s in enumerate(job.steps) if j % every == 0)
    scale = tuple((v, n.number(v)) for v in scale_ticks(low, high))
    steps = f"{n.count(len(job.steps))} step{'s' * (len(job.steps) != 1)}"
    title = (
        "Step time per rank and step"
        if brief
        else f"Step time per rank and step ({n.count(len(job.ranks))} ranks × {steps})"
    )
    legend = (LegendEntry(STRAGGLER, "line", label),) if label else ()
    return StepMapView(
        title,
        values,
        low,
        high,
        _row_ticks(job.ranks),
        cols,
        marked,
        label,
        "Step time (ms)",
        scale,
        legend=legend,
    )


# -- where each rank's step goes ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RankBar:
    rank: int
    label: str
    parts: tuple[float, ...]  # compute, communication, waiting, rest of the step (ms)
    step_text: str
    straggler: bool


@dataclass(frozen=True)
class RankBarsView:
    title: str
    bars: tuple[RankBar, ...] = ()  # top to bottom
    colours: tuple[str, ...] = (COMPUTE, COMMUNICATION, WAITING, REST)
    x_max: float = 1.0
    axis: str = "Time (ms per step)"
    legend: tuple[LegendEntry, ...] = ()
    note: str = ""  # the straggler's cost, in words, beside its bar
    ticks: tuple[tuple[float, str], ...] = ()
    job_step: float | None = None  # the job's step (ms), from the first rank's start to the last rank's end: a line


def rank_bars(figures: JobFigures | None, n: Numbers, brief: bool = False) -> RankBarsView:
    """Each rank's step split into GPU compute, the transfer of its collectives, its waiting at them and the rest,
    sorted by its own work (compute and communication), the most first: the straggler at the top."""
    if figures is None:
        return RankBarsView("Where each rank's step goes: import a folder of rank traces")
    job = figures.job
    rows = sorted(job.per_rank, key=lambda r: (-(r.compute + r.communication), r.waiting, r.rank))
    bars = []
    for r in rows:
        rest = max(0.0, r.step_time - r.compute - r.communication - r.waiting)
        bars.append(
            RankBar(
                r.rank,
                f"rank {r.rank} ({straggler_word(job)})" if r.rank == job.straggler else f"rank {r.rank}",
                (r.compute, r.communication, r.waiting, rest),
                _ms(n, r.step_time),
                r.rank == job.straggler,
            )
        )
    x_max = max([r.step_time for r in job.per_rank] + [sum(b.parts) for b in bars] + [job.step_time, 1e-9])
    note = ""
    if job.straggler is not None:
        if job.straggler_cost > 0.0005 * job.step_time:
            note = (
                f"Rank {job.straggler} is {straggler_name(job)}: at {others_pace(job)} pace the job's step would take "
                f"{_ms(n, job.step_time - job.straggler_cost)}, not {_ms(n, job.step_time)} "
                f"(−{_ms(n, job.straggler_cost)})"
            )
        else:
            note = (
                f"Rank {job.straggler} is {straggler_name(job)}, yet its work is no slower than {others_pace(job)}: fixing it "
                "alone buys nothing"
            )
    ticks = tuple((float(len(bars) - 1 - i), b.label) for i, b in enumerate(bars))  # the chart shows those that fit
    title = (
        "Where each rank's step goes" if brief else f"Where each rank's step goes (job step {_ms(n, job.step_time)})"
    )
    entries = (
        LegendEntry(COMPUTE, "bar", "GPU compute"),
        LegendEntry(COMMUNICATION, "bar", "communication (transfer)"),
        LegendEntry(WAITING, "bar", "waiting at collectives"),
        LegendEntry(REST, "bar", "rest of the step (CPU, launches, idle)"),
    )
    drawn = [any(b.parts[i] > 0 for b in bars) for i in range(len(entries))]  # a CPU-only job computes no GPU work
    legend = tuple(e for e, shown in zip(entries, drawn, strict=True) if shown)
    # Each bar is its rank's own step; the job's runs from the first rank's start to the last rank's end (longer
    # when the ranks start apart): the dashed line.
    legend += (LegendEntry(INK, "dash", f"the job's step ({_ms(n, job.step_time)})"),)
    return RankBarsView(title, tuple(bars), x_max=x_max, legend=legend, note=note, ticks=ticks, job_step=job.step_time)


# -- the collectives' skew ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SkewRow:
    name: str
    label: str
    values: tuple[float, ...]  # transfer, skew mean, skew max (ms)
    texts: tuple[str, ...]


@dataclass(frozen=True)
class SkewView:
    title: str
    rows: tuple[SkewRow, ...] = ()
    colours: tuple[str, ...] = (TRANSFER, SKEW_MEAN, SKEW_MAX)
    x_max: float = 1.0
    axis: str = "Time per instance (ms)"
    legend: tuple[LegendEntry, ...] = ()
    empty: str = ""


def collective_skew(figures: JobFigures | None, n: Numbers, brief: bool = False) -> SkewView:
    """Per collective: its mean transfer against the mean and largest skew (last arrival minus first)."""
    if figures is None:
        return SkewView("Collectives: transfer and skew: import a folder of rank traces")
    job = figures.job
    cs = sorted(job.collectives, key=lambda c: -(c.skew_mean * c.count))[:12]
    rows = tuple(
        SkewRow(
            c.name,
            f"{shorten(c.name, 28)} ×{n.count(c.count)}",
            (c.transfer, c.skew_mean, c.skew_max),
            (_ms(n, c.transfer), _ms(n, c.skew_mean), _ms(n, c.skew_max)),
        )
        for c in cs
    )
    x_max = max([v for r in rows for v in r.values] + [1e-9])
    more = len(job.collectives) - len(cs)
    title = "Collectives: transfer and skew" if brief else "Collectives: transfer against skew (last arrival − first)"
    if more > 0:
        title += f"; {n.count(more)} more not shown"
    legend = (
        LegendEntry(TRANSFER, "bar", "transfer (mean)"),
        LegendEntry(SKEW_MEAN, "bar", "skew (mean)"),
        LegendEntry(SKEW_MAX, "bar", "skew (largest)"),
    )
    empty = "" if rows else "The traces hold no collective: the ranks run independently."
    return SkewView(title, rows, x_max=x_max, legend=legend, empty=empty)
