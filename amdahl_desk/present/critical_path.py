"""The step's critical path before and after the plan: a bar stacked by kind over a strip of the components on it,
as numbers and texts (the window's critical-path chart and the slide draw it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.traces.path_graph import KINDS
from ..model.traces.plan_path import PathFigures
from ..model.units import TimeUnit
from .chart_parts import LegendEntry
from .colours import COMMUNICATION, GREEN, IDLE, LAUNCH, NOWHERE, OTHER, ComponentColours
from .inputs import ChartInputs
from .numbers import POINT, Numbers
from .text import phrases, shorten
from .trace_plan import edited_since_import, trace_based
from .whatif import KIND_LABELS

TOP = 8  # components named on the strip; the rest of the path's time in them is one segment
# A colour per kind, apart from the components' palette: the host greys, the GPU's work in greens and purples.
KIND_COLOURS = {
    "cpu": "#5d6d7e",
    "launch_overhead": LAUNCH,
    "gpu_compute": GREEN,
    "gpu_communication": COMMUNICATION,
    "gpu_memory": "#d35400",
    "gpu_idle_or_gap": IDLE,
}


@dataclass(frozen=True)
class PathSegment:
    """One kind, or one component, in both bars: its time on the path before and after the plan."""

    name: str
    colour: str
    before: float
    after: float
    before_text: str
    after_text: str

    @property
    def label(self) -> str:
        return shorten(self.name, 22)


@dataclass(frozen=True)
class CriticalPathView:
    """Two bars (the baseline's path, the plan's) by kind, each over a strip of the components on it."""

    title: str
    kinds: tuple[PathSegment, ...] = ()
    components: tuple[PathSegment, ...] = ()
    baseline_text: str = ""
    after_text: str = ""
    x_max: float = 1.0
    axis: str = "Time (ms per step)"
    legend: tuple[LegendEntry, ...] = ()


def _empty(title: str) -> CriticalPathView:
    return CriticalPathView(phrases("Critical path of the trace —", title))


def critical_path(inputs: ChartInputs, n: Numbers = POINT, brief: bool = False, top: int = TOP) -> CriticalPathView:
    """The view of ``inputs.trace`` for the plan of ``inputs.profile`` as it is now (never another plan's), the
    ``top`` components longest on the path by name and the rest as one segment."""
    figures = inputs.trace
    if not trace_based(figures) or figures is None:
        why = figures.problem if figures is not None and figures.problem else ""
        return _empty("the trace cannot be read" if why else "this profile names no trace (import a PyTorch trace)")
    if not figures.ready:
        return _empty("reading the trace…")
    if inputs.analysis is None:  # the times cannot be analysed (all 0, say): no figure of the trace is current
        return _empty("the profile's times cannot be analysed")
    answers = figures.current(inputs.profile)
    if answers is None:
        return _empty("computing the plan…")
    if answers.path is None:
        return _empty("the trace does not know some targets' events")
    path = answers.path
    unit = TimeUnit.MS
    before, after = path.baseline, path.predicted

    def kind_time(p: PathFigures, key: str) -> float:
        return p.kind(key)

    kinds = tuple(
        PathSegment(
            KIND_LABELS[k],
            KIND_COLOURS[k],
            kind_time(before, k),
            kind_time(after, k),
            n.time(kind_time(before, k), unit),
            n.time(kind_time(after, k), unit),
        )
        for k in KINDS
        if kind_time(before, k) > 0 or kind_time(after, k) > 0
    )
    on_before, on_after = dict(before.components), dict(after.components)
    names = sorted(set(on_before) | set(on_after), key=lambda c: -max(on_before.get(c, 0.0), on_after.get(c, 0.0)))
    shown, rest = names[: max(top, 1)], names[max(top, 1) :]
    colours = (inputs.colours or ComponentColours()).colours(shown)
    comps = [
        PathSegment(
            name,
            colour,
            on_before.get(name, 0.0),
            on_after.get(name, 0.0),
            n.time(on_before.get(name, 0.0), unit),
            n.time(on_after.get(name, 0.0), unit),
        )
        for name, colour in zip(shown, colours, strict=True)
    ]
    if rest:
        b, a = sum(on_before.get(c, 0.0) for c in rest), sum(on_after.get(c, 0.0) for c in rest)
        comps.append(
            PathSegment(f"{n.count(len(rest))} other components", OTHER, b, a, n.time(b, unit), n.time(a, unit))
        )
    nowhere_b = max(before.length - sum(s.before for s in comps), 0.0)
    nowhere_a = max(after.length - sum(s.after for s in comps), 0.0)
    if nowhere_b > before.length * 1e-4 or nowhere_a > after.length * 1e-4:
        comps.append(
            PathSegment(
                "in no component", NOWHERE, nowhere_b, nowhere_a, n.time(nowhere_b, unit), n.time(nowhere_a, unit)
            )
        )
    legend = [LegendEntry(s.colour, "bar", s.name) for s in kinds]
    if not brief:  # on a slide the components' colours are the breakdown's, explained beside it
        # "8 other components" is no name to shorten (as the breakdown's)
        legend += [
            LegendEntry(s.colour, "bar", s.name, explains=s.colour == OTHER) for s in comps if s.colour != NOWHERE
        ]
    planned = bool(answers.key)
    rank = inputs.rank  # under a job's headline, whose path it is: the profile's rank's
    whose = f" of rank\u00a0{rank}" if rank is not None else ""
    head: tuple[str, ...] = (
        f"Critical path{whose}:",
        f"{n.time(before.length, unit)} → {n.time(after.length, unit)} per step",
    )
    if edited_since_import(figures, inputs.analysis.baseline_total, inputs.profile.unit):
        trace = f"rank\u00a0{rank}'s trace" if rank is not None else "the trace"
        head = (f"Critical path of {trace} as measured (the table's times were edited since):", *head[1:])
    if brief:
        more: tuple[str, ...] = (f"({n.close_speedup(path.speedup)})",) if planned else ()
    elif planned:
        more = (
            f"({n.close_speedup(path.speedup)} with the trace's dependencies);",
            "lower strips: the components on it",
        )
    else:
        more = ("(no optimization ticked);", "lower strips: the components on it")
    return CriticalPathView(
        phrases(*head, *more),
        kinds,
        tuple(comps),
        n.time(before.length, unit),
        n.time(after.length, unit),
        max(before.length, after.length),
        f"Time on the path ({unit.label} per step)" if not brief else f"Time ({unit.label} per step)",
        tuple(legend),
    )
