"""Where the time goes: the baseline and the planned run as two bars stacked by component, as numbers and texts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .chart_parts import LegendEntry
from .colours import INK, OTHER, ComponentColours
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases, shorten
from .trace_plan import COMPUTING, current_answer

TOP = 8  # components shown by name; the rest are "other" segments (those the plan speeds up apart)
DEPS = "with the trace's dependencies"


@dataclass(frozen=True)
class Segment:
    """One component (or the rest, together) in both bars."""

    name: str
    colour: str
    outlined: bool  # sped up by the plan
    baseline: float
    after: float
    baseline_text: str
    after_text: str

    @property
    def label(self) -> str:
        """The name as a bar's label shows it."""
        return shorten(self.name, 22)


@dataclass(frozen=True)
class BreakdownView:
    """Both bars, their totals, the target line, the axis, the title and the legend; ``x_max`` is where the
    data ends (the chart adds the room its labels need)."""

    title: str
    segments: tuple[Segment, ...] = ()
    baseline_total: float = 0.0
    after_total: float = 0.0
    baseline_text: str = ""
    after_text: str = ""
    x_max: float = 1.0
    target: float | None = None
    target_text: str = ""
    axis: str = "Time"
    legend: tuple[LegendEntry, ...] = ()


def largest(times: NDArray[np.float64], count: int) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The rows of the ``count`` longest times, longest first (equal times in row order, as a stable sort
    would put them), and a mask of the other rows. O(rows): a sort of 10,000 times took 0.7 ms an edit."""
    if len(times) <= count:
        return np.argsort(-times, kind="stable"), np.zeros(len(times), dtype=bool)
    cut = times[np.argpartition(-times, count - 1)[:count]].min()  # the count-th longest time
    above = np.flatnonzero(times > cut)
    chosen = np.concatenate([above, np.flatnonzero(times == cut)[: count - len(above)]])
    rest = np.ones(len(times), dtype=bool)
    rest[chosen] = False
    return chosen[np.argsort(-times[chosen], kind="stable")], rest


def breakdown(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False, top: int = TOP) -> BreakdownView:
    """The view of ``inputs.analysis`` (already seen through the chosen objective), the ``top`` longest components
    by name and the rest as one segment."""
    profile, analysis = inputs.profile, inputs.analysis
    if analysis is None:
        return BreakdownView("Where the time goes — no data")
    unit = profile.unit
    times, new, k = analysis.times, analysis.new_times, analysis.component_speedup
    c = analysis.combined
    # A traced profile's After bar is the answer with the trace's dependencies (the whole workload only: an
    # objective's figures are the table's): the components the plan leaves alone keep their time, and the sped-up
    # ones carry the difference the dependencies make to the sum's new total, in proportion to their new times (all
    # parts scaled where that difference is more than the sped-up parts hold).
    answer = current_answer(inputs.trace, profile, analysis) if c.enabled and not inputs.objective else None
    difference = 0.0
    if answer is not None and not isinstance(answer, str):
        difference = answer.new_total - c.new_total
        sped = k != 1
        held = float(new[sped].sum())
        if held > 0 and held + difference >= 0:
            new = np.where(sped, new * ((held + difference) / held), new)
        elif c.new_total > 0:
            new = new * (answer.new_total / c.new_total)
    shown, rest = largest(times, max(top, 1))
    names = [profile.components[i].name for i in shown.tolist()]
    colours = (inputs.colours or ComponentColours()).colours(names)
    segments = [
        Segment(
            name,
            colour,
            bool(k[i] != 1),
            float(times[i]),
            float(new[i]),
            n.time(float(times[i]), unit),
            n.time(float(new[i]), unit),
        )
        for name, colour, i in zip(names, colours, shown.tolist(), strict=True)
    ]
    # The rest in one segment, or two where the plan speeds up some of them and not others: an outline says "sped
    # up", so it never wraps components the plan leaves alone.
    sped_rest, untouched = rest & (k != 1), rest & (k == 1)
    both = bool(sped_rest.any() and untouched.any())
    for part, outlined in ((untouched, False), (sped_rest, True)):
        if part.any():
            before, after = float(times[part].sum()), float(new[part].sum())
            segments.append(
                Segment(
                    f"{n.count(int(part.sum()))} other components" + (", sped up" if outlined and both else ""),
                    OTHER,
                    outlined,
                    before,
                    after,
                    n.time(before, unit),
                    n.time(after, unit),
                )
            )
    total = analysis.baseline_total
    target = analysis.target.time if analysis.target is not None else None  # an objective's own, when chosen
    after_total, after_text = c.new_total, n.time(c.new_total, unit)
    if answer is not None and not isinstance(answer, str):
        after_total = answer.new_total
        after_text = n.time(answer.new_total, unit)
        if after_text != n.time(c.new_total, unit):  # the sum's beside it where it says another figure
            after_text += f" (the sum: {n.time(c.new_total, unit)})"
    elif answer == COMPUTING:
        after_text = f"{COMPUTING} (the sum: {n.time(c.new_total, unit)})"
    x_max = max(total, c.new_total, after_total, target or 0.0)
    # A component with no time draws no bar: under an objective (TTFT) the others are 0 and would crowd the key.
    # "8 other components" is no name to shorten ("8 other compone…" where the names took the legend's room)
    legend = [
        LegendEntry(s.colour, "bar", s.name, explains=s.colour == OTHER and i >= len(names))
        for i, s in enumerate(segments)
        if s.baseline > 0 or s.after > 0
    ]
    traced = answer is not None and not isinstance(answer, str)
    if any(s.outlined for s in segments):
        sign = "+" if difference > 0 else "−" if difference < 0 else ""
        carried = f"{sign}{n.time(abs(difference), unit)}"
        # the table's new times add up to the sum's total: the outlined bars carry the difference (22.8 ms where
        # the table says 24.1), which the key says, on screen and on a slide too
        if not traced or abs(difference) < 5e-4 * max(total, 1e-12):  # none to carry (as the sum: "+0 ms")
            key = "outlined: sped up by the plan"
        elif brief:
            key = f"outlined: sped up ({carried} from the dependencies)"
        else:
            key = f"outlined: sped up by the plan, carrying the dependencies' {carried}"
        legend.append(LegendEntry(INK, "bar", key, explains=True))
    head: tuple[str, ...] = ("Where the time goes:", f"{n.time(total, unit)} → {n.time(c.new_total, unit)}")
    more: tuple[str, ...] = (
        (
            f"({n.speedup(c.overall_speedup)}, saves {n.time(c.time_saved, unit)});",
            f"{n.time((1 - c.fraction) * total, unit)} untouched by the plan",
        )
        if c.enabled and not brief
        else ()
    )
    if answer is not None and not isinstance(answer, str):
        head = ("Where the time goes:", f"{n.time(total, unit)} → {n.time(answer.new_total, unit)}", DEPS)
        more = (
            (
                f"({n.close_speedup(answer.speedup)}, saves {n.time(answer.time_saved, unit)});",
                f"the sum promises {n.time(c.new_total, unit)}",
            )
            if not brief
            else ()  # the After bar's label gives the sum's new total
        )
    elif answer == COMPUTING:
        head = ("Where the time goes:", f"{n.time(total, unit)} → {COMPUTING}", DEPS)
        more = (f"(computing; the sum promises {n.time(c.new_total, unit)})",)
    return BreakdownView(
        inputs.of_rank(phrases(*head, *more)),
        tuple(segments),
        total,
        after_total,
        n.time(total, unit),
        after_text,
        x_max,
        target,
        f"target {n.time(target, unit)}" if target is not None else "",
        f"Time ({unit.label})",
        tuple(legend),
    )
