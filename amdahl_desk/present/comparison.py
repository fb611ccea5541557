"""The comparison of the plan with the profile measured after the change, as the window, its chart and its slide say it."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..model.adoption import AdoptedK
from ..model.comparison import SHORT_THRESHOLD, Comparison, ComponentComparison, PlanVerdict, Status
from .chart_parts import LegendEntry
from .colours import BLUE, GREEN, GREY, INK, ORANGE, RED
from .comparison_words import bottleneck_sentence, comparison_sentence, comparison_title
from .numbers import POINT, Numbers
from .slide import SlideView
from .summary import Figure, Tone
from .text import shorten

TOP = 10  # components shown by name (the largest, in the table's order); the rest are one "other" pair
BEFORE_COLOUR = "#b3bfcc"
STATUS_BAR = {
    Status.MET: GREEN,
    Status.SHORT: ORANGE,
    Status.REGRESSED: RED,
    Status.UNCHANGED: "#6b7785",
    Status.ADDED: BLUE,
    Status.REMOVED: "#6b7785",
}
OTHER_BAR = GREY
NEEDS_COMPARISON = "this chart compares two profiles: open the after profile with File → Compare With…"


def plan_verdict(c: Comparison, n: Numbers = POINT) -> str:
    """ "120 ms short of the plan", "30 ms better than the plan", "exactly as planned": the model's one
    verdict (``Comparison.verdict``, one tolerance) in words."""
    verdict = c.verdict
    if verdict is PlanVerdict.AS_PLANNED:
        return "exactly as planned"
    text = n.time(abs(c.shortfall), c.unit)
    return f"{text} short of the plan" if verdict is PlanVerdict.SHORT else f"{text} better than the plan"


def delivered(c: Comparison) -> bool:
    """Whether the measured after total is at or below the plan's (as planned or better)."""
    return c.verdict.delivered


@dataclass(frozen=True)
class Group:
    """One row of the chart: a component (or the rest, together) before and after, and what the plan promised."""

    name: str
    before: float
    after: float
    promised: float
    colour: str  # the after bar's: its verdict's
    before_text: str
    after_text: str


@dataclass(frozen=True)
class ComparisonChartView:
    """The chart's rows top to bottom (NaN: absent on that side), its title, axis and legend."""

    title: str
    groups: tuple[Group, ...] = ()
    axis: str = "Time"
    legend: tuple[LegendEntry, ...] = ()


def _k_text(status: Status, measured: float | None, eliminated: bool, n: Numbers) -> str:
    if status is Status.ADDED:
        return "new"
    if status is Status.REMOVED:
        return "gone"
    return "eliminated" if eliminated else n.speedup(measured) if measured is not None else ""


def groups(c: Comparison, n: Numbers = POINT, top: int = TOP) -> tuple[Group, ...]:
    """The chart's rows: the ``top`` largest components in the table's order, then the rest as one."""
    unit = c.unit

    def text(after: float | None, k: str) -> str:
        if after is None or math.isnan(after):
            return "gone"
        return f"{n.time(after, unit)} · {k}" if k else n.time(after, unit)

    def value(v: float | None) -> float:
        return math.nan if v is None else v

    rows = list(c.rows)
    size = [max(r.before or 0.0, r.after or 0.0) for r in rows]
    order = np.argsort(-np.asarray(size), kind="stable")
    shown = sorted(int(i) for i in order[:top])
    out = [
        Group(
            r.name,
            value(r.before),
            value(r.after),
            value(r.predicted_after),
            STATUS_BAR[r.status],
            n.time(r.before, unit) if r.before is not None else "",
            text(r.after, _k_text(r.status, r.measured_k, r.eliminated, n)),
        )
        for r in (rows[i] for i in shown)
    ]
    rest = [rows[int(i)] for i in order[top:]]
    if rest:
        before = math.fsum(r.before or 0.0 for r in rest)
        after = math.fsum(r.after or 0.0 for r in rest)
        promised = math.fsum(r.predicted_after or 0.0 for r in rest)
        k = n.speedup(before / after) if after > 0 else ""
        name = f"{n.count(len(rest))} other components"
        out.append(Group(name, before, after, promised, OTHER_BAR, n.time(before, unit), text(after, k)))
    return tuple(out)


def comparison_chart(c: Comparison | None, n: Numbers = POINT, brief: bool = False) -> ComparisonChartView:
    if c is None:
        return ComparisonChartView("Before and after — " + NEEDS_COMPARISON)
    unit = c.unit
    rows = groups(c, n)
    statuses = {r.status for r in c.rows}
    legend = [LegendEntry(BEFORE_COLOUR, "bar", "before")]
    legend += [
        LegendEntry(STATUS_BAR[s], "bar", f"after: {s.label}")
        for s in (Status.MET, Status.SHORT, Status.REGRESSED, Status.UNCHANGED, Status.ADDED)
        if s in statuses and any(g.colour == STATUS_BAR[s] for g in rows)
    ]
    legend.append(LegendEntry(INK, "bar", "promised by the plan"))
    head = f"Before and after: {n.time(c.before_total, unit)} → {n.time(c.after_total, unit)}"
    plan = f" (the plan promised {n.time(c.predicted_total, unit)})"
    title = (
        head + plan
        if brief
        else f"{head}{plan}: predicted {n.speedup(c.predicted_speedup)}, measured {n.speedup(c.measured_speedup)}"
    )
    return ComparisonChartView(title, rows, f"Time ({unit.label})", tuple(legend))


def comparison_figures(c: Comparison, n: Numbers = POINT) -> tuple[Figure, Figure, Figure, Figure]:
    """Predicted and measured speedup, the gap to the plan, and the largest component now."""
    b = c.bottleneck
    verdict = plan_verdict(c, n)
    largest = (
        f"{shorten(b.after_name, 28)} now (was {shorten(b.before_name, 28)}, {n.percent(b.before_share)})"
        if b.moved
        else f"{shorten(b.after_name, 28)}, still the largest (was {n.percent(b.before_share)})"
    )
    unit = c.unit
    promised = f"The plan promised {n.time(c.before_total, unit)} → {n.time(c.predicted_total, unit)}"
    measured = f"Measured {n.time(c.before_total, unit)} → {n.time(c.after_total, unit)}: before total ÷ after total"
    return (
        Figure(n.speedup(c.predicted_speedup), "predicted by the plan", promised),
        Figure(
            n.speedup(c.measured_speedup),
            "measured end to end",
            measured,
            tone=Tone.GOOD if delivered(c) else Tone.WARN,
        ),
        Figure(
            "0" if verdict == "exactly as planned" else n.time(abs(c.shortfall), c.unit),
            verdict if verdict == "exactly as planned" else verdict.split(" ", 2)[-1],
        ),
        Figure(n.percent(b.after_share), largest),
    )


def names_list(names: Sequence[str], n: Numbers = POINT, most: int = 6) -> str:
    """A list a person reads in a line: a trace's hundreds of names end in "and N more"."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {n.count(len(names) - most)} more (see the table)"


def _details(c: Comparison, n: Numbers) -> str:
    """The reviewer's sentence without its head (the title already states predicted and measured)."""
    head = f"{comparison_title(c, n)}: "
    sentence = comparison_sentence(c, n=n)
    return sentence[len(head) :] if sentence.startswith(head) else sentence


def comparison_slide(c: Comparison, boundary: str = "", n: Numbers = POINT) -> SlideView:
    """One image for the review after the change: did the plan deliver, where is the time now."""
    unit = c.unit
    return SlideView(
        f"{comparison_title(c, n)}: {plan_verdict(c, n)}",
        f"{boundary or 'Measured profile'} · before {n.time(c.before_total, unit)}, "
        f"after {n.time(c.after_total, unit)}; the plan promised {n.time(c.predicted_total, unit)}",
        comparison_figures(c, n),
        f"<b>{html.escape(_details(c, n))}</b><br>{html.escape(bottleneck_sentence(c.bottleneck, n))}",
    )


# -- the comparison's table: each component before and after, and the total -----------------------------------

STATUS_TIPS = {
    Status.MET: f"Measured k is at least {POINT.percent(SHORT_THRESHOLD)} of the planned k",
    Status.SHORT: f"Measured k is below {POINT.percent(SHORT_THRESHOLD)} of the planned k",
    Status.REGRESSED: "Slower after than before",
    Status.UNCHANGED: "Left alone by the plan, and its time did not change",
    Status.ADDED: "Only in the after profile",
    Status.REMOVED: "Only in the before profile (pair it by hand if it was renamed)",
}
VERDICT_TIP = (
    f"met: measured k ≥ {POINT.percent(SHORT_THRESHOLD)} of planned; fell short: below; regressed: slower; "
    "unchanged: untouched and equal"
)


def row_figures(r: ComponentComparison, n: Numbers = POINT) -> dict[str, str]:
    """A component's figures as the table shows them: "before", "after", "planned", "promised", "measured"."""

    def time(value: float | None) -> str:
        return "—" if value is None else n.number(value)

    measured = "eliminated" if r.eliminated else "—" if r.measured_k is None else n.speedup(r.measured_k)
    return {
        "before": time(r.before),
        "after": time(r.after),
        "planned": "—" if r.before is None else n.speedup(r.predicted_k),
        "promised": time(r.predicted_after),
        "measured": measured,
    }


def measured_tip(r: ComponentComparison, n: Numbers = POINT) -> str | None:
    if r.measured_k is None or r.before is None or r.after is None:
        return None
    return f"before ÷ after = {n.number(r.before)} ÷ {n.number(r.after)}"


def total_figures(c: Comparison, n: Numbers = POINT) -> dict[str, str]:
    """The table's Total row."""
    return {
        "before": n.number(c.before_total),
        "after": n.number(c.after_total),
        "planned": n.speedup(c.predicted_speedup),
        "promised": n.number(c.predicted_total),
        "measured": n.speedup(c.measured_speedup),
    }


def adopted_text(changes: Sequence[AdoptedK], n: Numbers = POINT) -> str:
    """The k that were adopted: "Faster decode 2× → 1.7×; …"."""
    return "; ".join(f"{a.name} {n.speedup(a.planned)} → {n.speedup(a.measured)}" for a in changes)
