"""The two charts of the plan under uncertainty as views: the distribution of the new time (the draws' histogram,
the target, the share that meets it, p5/median/p95) and the tornado (what matters most)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..model.profile import Profile
from ..model.uncertainty import UncertaintyFigures, analyse_uncertainty, histogram, sensitivity
from ..model.units import TimeUnit, convert
from .axes import nice_ceiling
from .chart_parts import LegendEntry
from .colours import BLUE, GREEN, INK, MISSES, MUTED, ORANGE, RED
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases, shorten, two_lines
from .trace_plan import COMPUTING, current_answer
from .uncertainty import DISTRIBUTION_TITLE, TORNADO_TITLE, chance, slide_line

MEETS, GREY, LOW, HIGH = GREEN, MUTED, ORANGE, BLUE  # the odds' own names for them
BINS = 48
TORNADO_ROWS = 10  # bars drawn; the rest are counted in the title
POINT_NOTE = "Every estimate is a single value: give k a range (k low, k high) in the checklist to see the spread"
NOTHING_TICKED_NOTE = "Nothing is ticked: tick an optimization and give its k a range (k low, k high) to see the spread"
PENDING_NOTE = "Working out the odds of this plan…"


BRIEF_SHARE_AXIS = "Draws (%)"  # the share of the draws, in a low plot


@dataclass(frozen=True)
class Line:
    """A vertical reference line: where, its label, and whether it is the target (drawn red and dashed)."""

    x: float
    label: str
    target: bool = False


@dataclass(frozen=True)
class DistributionView:
    """The histogram in plot units (new time, share of the draws in %); ``meets[i]``: bar i is at or below the
    target. ``note`` is said inside the plot when there is no spread to draw (or it is being computed)."""

    title: str
    x_axis: str = "New time"
    y_axis: str = "Share of the draws (%)"
    centres: tuple[float, ...] = ()
    width: float = 1.0
    heights: tuple[float, ...] = ()
    meets: tuple[bool, ...] = ()
    lines: tuple[Line, ...] = ()
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    note: str = ""
    legend: tuple[LegendEntry, ...] = ()

    @property
    def nothing(self) -> str:
        """What the chart needs when it draws nothing ("" when it draws): an export of it is refused with this."""
        return "" if self.heights else self.note or self.title


@dataclass(frozen=True)
class Bar:
    """One optimization's row of the tornado: the plan's speedup with it at its low and at its high k."""

    name: str
    low: float
    high: float
    low_text: str
    high_text: str
    lines: str = ""  # the name on two lines, for a row high enough for them ("": as ``name``)


@dataclass(frozen=True)
class TornadoView:
    """Bars from the speedup at low k to the speedup at high k, largest swing at the top (row 0 is the top one);
    ``centre`` is the plan's speedup at every likely k."""

    title: str
    bars: tuple[Bar, ...] = ()
    centre: float = 1.0
    centre_text: str = ""
    x_range: tuple[float, float] = (0.0, 2.0)
    centre_short: str = ""  # "likely 1.77×": what the centre line says where its whole text has no room
    x_axis: str = "End-to-end speedup (×)"
    note: str = ""
    legend: tuple[LegendEntry, ...] = (
        LegendEntry(LOW, "bar", "at its low k"),
        LegendEntry(HIGH, "bar", "at its high k"),
        LegendEntry(INK, "dash", "every likely k"),
    )

    @property
    def nothing(self) -> str:
        """What the chart needs when it draws nothing ("" when it draws): an export of it is refused with this."""
        return "" if self.bars else self.note or self.title


def figures_of(inputs: ChartInputs) -> UncertaintyFigures | str | None:
    """The plan's figures: those the window computed, its word that they are on their way, or computed here
    (an export from the command line); None when nothing is uncertain."""
    given, profile, analysis = inputs.uncertainty, inputs.profile, inputs.analysis
    if given is not None:
        return given
    if inputs.job is not None:  # a job's odds are its own, replayed through its ranks: never the one rank's profile
        return None
    if analysis is None or not profile.has_uncertainty():
        return None
    return analyse_uncertainty(profile, analysis)


def _x_range(low: float, high: float, target: float | None) -> tuple[float, float]:
    span = high - low if high > low else max(abs(high), 1e-9) * 0.05
    lo, hi = low - 0.08 * span, high + 0.08 * span
    if target is not None and lo - 3 * span <= target <= hi + 3 * span:
        lo, hi = min(lo, target - 0.04 * span), max(hi, target + 0.04 * span)
    return (max(lo, 0.0) if low >= 0 else lo, hi)


def distribution(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> DistributionView:
    """The distribution of the ticked plan's new time over the draws, its target line and the share meeting it;
    ``brief``: the short axis title, whole beside a low plot (a slide's chart, a window's pane)."""
    view = _distribution(inputs, n, brief)
    return replace(view, y_axis=BRIEF_SHARE_AXIS) if brief else view


def _distribution(inputs: ChartInputs, n: Numbers, brief: bool) -> DistributionView:
    profile, analysis = inputs.profile, inputs.analysis
    if analysis is None:
        return DistributionView(f"{DISTRIBUTION_TITLE} — no data")
    unit = profile.unit
    axis = f"New job step ({unit.label})" if inputs.job is not None else f"New time ({unit.label})"
    target = profile.settings.target_time
    found = figures_of(inputs)
    if isinstance(found, str):
        return DistributionView(f"{DISTRIBUTION_TITLE}: {PENDING_NOTE}", axis, note=PENDING_NOTE)
    if found is None and inputs.job is not None:
        # nothing ticked with a range, or the plan's answer on its way: the job's step as measured or answered
        job = inputs.job
        step = job.answer.predicted if job.answer is not None else job.job.step_time  # ms
        step = convert(step, TimeUnit.MS, profile.unit)
        return _point(profile, step, target, axis, n, "the job's step")
    if found is None:
        return _point(profile, analysis.combined.new_total, target, axis, n)
    u = found
    draws = np.asarray(u.new_total_draws, dtype=float)
    if len(draws) and float(draws.max() - draws.min()) <= 1e-9 * max(abs(float(draws.max())), 1.0):
        # every draw the same (a job's exact k): one bar
        whose = "the job's step" if inputs.job is not None else ""
        return _point(profile, float(draws[0]), target, axis, n, whose)
    edges, shares = histogram(u, BINS)
    centres = tuple(float((a + b) / 2) for a, b in zip(edges[:-1], edges[1:], strict=True))
    width = float(edges[1] - edges[0])
    heights = tuple(float(s * 100) for s in shares)
    t = u.new_total
    x_range = _x_range(float(edges[0]), float(edges[-1]), target)
    lines = [Line(t.p5, f"p5 {n.time(t.p5, unit)}"), Line(t.p50, f"median {n.time(t.p50, unit)}")]
    lines.append(Line(t.p95, f"p95 {n.time(t.p95, unit)}"))
    legend = [LegendEntry(GREY, "dot", "p5, median, p95")]
    meets = tuple(target is None or c <= target for c in centres)
    if target is not None:
        odds = chance(u.probability_target or 0.0, n)
        shown = min(max(target, x_range[0]), x_range[1])
        edge = "" if shown == target else (" ◀" if target < x_range[0] else " ▶")
        # In a brief chart (on screen and on a slide), whose title and legend state the odds, the line says only
        # where the target is: a narrow plot has no room for the whole sentence on either side of the line.
        said = f"target {n.time(target, unit)}" if brief else f"target {n.time(target, unit)}: {odds} meet it"
        lines.append(Line(shown, said + edge, True))
        legend = [
            LegendEntry(MEETS, "bar", f"meets {n.time(target, unit)} ({odds})"),
            LegendEntry(MISSES, "bar", "misses it"),
            LegendEntry(RED, "dash", "target"),
            *legend,
        ]
    else:
        legend.insert(0, LegendEntry(MEETS, "bar", "share of the draws"))
    top = max(heights, default=1.0)
    if brief:
        title = slide_line(profile, u, n)
    else:
        head = f"{DISTRIBUTION_TITLE}:"
        parts = [f"median {n.time(t.p50, unit)},", f"90% within {n.number_range(t.p5, t.p95)} {unit.label}"]
        if target is not None:
            parts[-1] += ";"
            parts.append(
                f"never meets {n.time(target, unit)}"
                if u.never_meets
                else f"{chance(u.probability_target or 0.0, n)} meet {n.time(target, unit)}"
            )
        title = phrases(head, *parts)
    return DistributionView(
        title,
        axis,
        "Share of the draws (%)",
        centres,
        width,
        heights,
        meets,
        tuple(lines),
        x_range,
        (0.0, _top(top)),
        legend=tuple(legend),
    )


def _point(
    profile: Profile, total: float, target: float | None, axis: str, n: Numbers, what: str = ""
) -> DistributionView:
    """No estimate has a range: the new time is one value, drawn as one bar holding every draw (``what``: whose
    time it is, where the title must say: "the job's step")."""
    unit = profile.unit
    x_range = _x_range(total * 0.9, total * 1.1, target)
    lines = [Line(total, f"every draw {n.time(total, unit)}")]
    legend = [LegendEntry(MEETS, "bar", "every draw")]
    meets = (target is None or total <= target,)
    if target is not None:
        lines.append(Line(min(max(target, x_range[0]), x_range[1]), f"target {n.time(target, unit)}", True))
        legend.append(LegendEntry(RED, "dash", "target"))
    said = f"{what} {n.time(total, unit)}" if what else n.time(total, unit)
    title = phrases(f"{DISTRIBUTION_TITLE}:", f"{said} in every draw")
    span = x_range[1] - x_range[0]
    return DistributionView(
        title,
        axis,
        "Share of the draws (%)",
        (total,),
        span * 0.02,
        (100.0,),
        meets,
        tuple(lines),
        x_range,
        (0.0, _top(100.0)),
        POINT_NOTE if any(o.enabled for o in profile.optimizations) else NOTHING_TICKED_NOTE,
        tuple(legend),
    )


BARS_UP_TO = 0.58  # of the plot's height: the lines' labels sit above the bars, not on them


def _top(tallest: float) -> float:
    """The top of the share axis: the tallest bar at most ``BARS_UP_TO`` of the height, at a round step (an axis
    that does not creep with each edit)."""
    return nice_ceiling(tallest / BARS_UP_TO)


def _tornado_computing(centre: float, doing: str, verb: str, where: str) -> TornadoView:
    """What matters most while its figures are on their way: a title and a note that say so, nothing drawn."""
    return TornadoView(
        phrases("What matters most:", f"{doing} {COMPUTING}"),
        (),
        centre,
        COMPUTING,
        (max(centre * 0.9, 0.0), centre * 1.1),
        note=f"{verb} each optimization at its low and high k {where} {COMPUTING}",
        legend=(),  # nothing drawn yet to explain
    )


def tornado_needs(inputs: ChartInputs) -> str:
    """What the tornado needs before it has a bar: a ticked optimization with a k range ("" once it has one)."""
    enabled = [o for o in inputs.profile.optimizations if o.enabled]
    if not enabled:
        return "Tick an optimization to see what matters most"
    if not any(o.speedup_range[1] > o.speedup_range[0] for o in enabled):
        return "No ticked optimization has a k range: give one a k low and a k high in the checklist"
    return ""


def tornado(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False) -> TornadoView:
    """Each enabled optimization with a k range: the plan's speedup at its low and at its high k (exact)."""
    profile, analysis = inputs.profile, inputs.analysis
    if analysis is None:
        return TornadoView(f"{TORNADO_TITLE} — no data")
    rows = sensitivity(profile, analysis)
    centre = analysis.combined.overall_speedup
    figure, whose = n.speedup(centre), ""  # the centre's figure, and whose it is
    if inputs.job is not None:  # a job: each optimization at its low and high k replayed through the ranks
        figures = figures_of(inputs)
        if isinstance(figures, str):
            return _tornado_computing(centre, "replaying the job's ranks", "Replaying", "through the job's ranks")
        rows = tuple(figures.sensitivity) if figures is not None else ()
        job = inputs.job.answer
        centre = job.speedup if job is not None else 1.0
        figure, whose = n.close_speedup(centre), " for the job"
    elif (answer := current_answer(inputs.trace, profile, analysis) if not inputs.objective else None) is not None:
        # a traced profile: each optimization at its low and high k on the trace's path
        figures = figures_of(inputs) if profile.has_uncertainty() else None
        if isinstance(answer, str) or isinstance(figures, str):
            where = "on the trace's critical path"
            return _tornado_computing(centre, f"computing {where}", "Computing", where)
        if figures is not None:
            rows = figures.sensitivity
        centre = answer.speedup
        figure, whose = n.close_speedup(centre), " with the trace's dependencies"
    if not rows:
        note = tornado_needs(inputs) or "No ticked optimization moves the plan between its low and high k"
        span = max(centre * 0.1, 0.1)
        return TornadoView(
            phrases("What matters most:", "no k range yet"),
            (),
            centre,
            f"likely {figure}{whose}",
            (max(centre - span, 0.0), centre + span),
            centre_short=f"likely {figure}",
            note=note,
            legend=(),
        )
    shown = rows[:TORNADO_ROWS]
    # Each bar's ends, and the centre, in as many decimals as tell them apart from each other: swings of a few
    # thousandths read "1.03×" alike; a bar that reads apart keeps the speedup's own format.
    ends = [n.speedups_apart([centre, r.speedup_at_low, r.speedup_at_high]) for r in shown]
    bars = tuple(
        Bar(shorten(r.name, 28), r.speedup_at_low, r.speedup_at_high, e[1], e[2], two_lines(r.name, 28))
        for r, e in zip(shown, ends, strict=True)
    )
    centred = max((e[0] for e in ends), key=len, default=n.speedup(centre))
    apart = bool(ends) and ends[0][1:] != [n.speedup(shown[0].speedup_at_low), n.speedup(shown[0].speedup_at_high)]
    if centred != n.speedup(centre):
        figure = centred
    finite = [v for b in bars for v in (b.low, b.high) if math.isfinite(v)] + [centre]
    low, high = min(finite), max(finite)
    span = high - low if high > low else max(high * 0.1, 0.1)
    x_range = (max(low - 0.25 * span, 0.0), high + 0.25 * span)
    top = rows[0]
    more = f" ({n.count(len(rows) - len(shown))} more not shown)" if len(rows) > len(shown) else ""
    swing = n.speedup_range(top.speedup_at_low, top.speedup_at_high)
    if apart:  # "1.03–1.03×" said nothing
        swing = f"{ends[0][1].rstrip('×')}–{ends[0][2]}"
    title = (
        phrases("What matters most:", f"{shorten(top.name, 40)} swings it {swing}")
        if brief
        else phrases(
            "What matters most:",
            "each ticked optimization at its low and high k;",
            f"{shorten(top.name, 40)} swings it most ({swing}){more}",
        )
    )
    return TornadoView(title, bars, centre, f"likely {figure}{whose}", x_range, centre_short=f"likely {figure}")
