"""The profile's plan with its trace's dependencies, in words: the summary's line, the tables' cells, the notes.

The window computes a trace's figures in the background; :class:`TraceFigures` is what it knows at one moment.
Every answer carries the plan it was computed for, and each text here compares that with the profile as it is
now: a figure of another plan is never shown (the text says the figures are being computed instead).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.analysis import Analysis
from ..model.names import name_key
from ..model.profile import Component, Optimization, Profile
from ..model.units import TimeUnit, convert
from .numbers import POINT, Numbers
from .tones import Sentence, Tone

if TYPE_CHECKING:  # the trace's model loads with the first trace, not with the window
    from ..model.traces.path_components import ComponentPath
    from ..model.traces.plan_answer import TraceAnswer
    from ..model.traces.plan_path import PathFigures, PlanAnswers
    from ..model.traces.trace_comparison import DependencyCheck

LEAD = "With the trace's dependencies:"
COMPUTING = "…"  # a cell whose figure is being computed
DASH = "—"
NEVER = "never"


@dataclass(frozen=True)
class TraceFigures:
    """What the window knows of the profile's trace now. ``source``: the trace named ("" none); ``problem``: why
    it cannot be used; ``ready``: read and made ready (the ``baseline`` path known); ``components``: each
    component's time on the path and slack (None while computing); ``answers``: the latest plan's, which may be
    of a plan before the current one."""

    source: str = ""
    problem: str = ""
    ready: bool = False
    steps: int = 0
    baseline: PathFigures | None = None
    components: Mapping[str, ComponentPath] | None = None
    answers: PlanAnswers | None = None

    @property
    def named(self) -> bool:
        return bool(self.source)

    def current(self, profile: Profile) -> PlanAnswers | None:
        """The answers for the profile's plan as it is now; None while they are being computed."""
        from ..model.traces.plan_path import plan_of

        a = self.answers
        return a if a is not None and self.ready and a.key == plan_of(profile.optimizations) else None


NO_TRACE = TraceFigures()


def trace_based(figures: TraceFigures | None) -> bool:
    """Whether the profile names a trace whose figures the window shows (its columns, its chart)."""
    return figures is not None and figures.named and not figures.problem


def current_answer(
    figures: TraceFigures | None, profile: Profile, analysis: Analysis | None
) -> TraceAnswer | str | None:
    """The profile's answer with its trace's dependencies for the plan as it is now (usable); :data:`COMPUTING`
    while it is on its way; None where the sum is the answer (no trace to use, or one that does not know a
    target's events — the summary says why)."""
    if analysis is None or not trace_based(figures):
        return None
    assert figures is not None
    found = figures.current(profile)
    if found is None:
        return COMPUTING
    from ..model.traces.plan_answer import plan_answer

    answer = plan_answer(profile, analysis, found)
    return answer if answer.usable else None


def trace_notes(figures: TraceFigures | None) -> tuple[str, ...]:
    """The summary's note when the trace cannot be read: once, with the path and why."""
    if figures is None or not figures.problem:
        return ()
    return (
        f"The trace this profile was imported from cannot be used, so the figures with its dependencies are not "
        f"shown: {figures.source}: {figures.problem}",
    )


def dependency_line(
    figures: TraceFigures | None, profile: Profile, analysis: Analysis | None, n: Numbers = POINT
) -> Sentence:
    """ "With the trace's dependencies: 1.010× (the sum says 1.037×): …" — empty without a trace to use."""
    if not trace_based(figures) or analysis is None:
        return Sentence("")
    assert figures is not None
    if not figures.ready:
        return Sentence(f"{LEAD} reading the trace and its critical path …", Tone.MUTED)
    answers = figures.current(profile)
    if answers is None:
        return Sentence(f"{LEAD} computing the plan on the trace's critical path …", Tone.MUTED)
    if answers.unknown:
        names = ", ".join(f"“{u}”" for u in answers.unknown)
        return Sentence(
            f"{LEAD} cannot say: the trace does not know which events {names} stand for (a component added or "
            "renamed after the import).",
            Tone.WARN,
        )
    path = answers.path
    assert path is not None
    before, after = path.baseline.length, path.predicted.length
    unit = TimeUnit.MS
    if not answers.key:
        return Sentence(
            f"{LEAD} tick an optimization to see what it buys on the step's critical path "
            f"({n.time(before, unit)} per step).",
            Tone.MUTED,
        )
    from .whatif import hidden_saving

    c = analysis.combined
    head = (
        f"{LEAD} {n.close_speedup(path.speedup)} ({n.time(before, unit)} → {n.time(after, unit)} per step; "
        f"the sum says {n.close_speedup(c.overall_speedup)})"
    )
    kinds, predicted = dict(path.baseline.by_kind), dict(path.predicted.by_kind)
    why = hidden_saving(before, after, c.overall_speedup, kinds, predicted, n) if c.overall_speedup > 0 else ""
    promised = before - before / c.overall_speedup if c.overall_speedup > 0 else 0.0
    got = before - after
    if why:
        text = f"{head}: {why}."
    elif promised > 0 and got > promised * 1.005:
        text = (
            f"{head}: more than the sum promises: the targets' events (with the GPU work launched from them) hold "
            "more of the critical path than their times in the table."
        )
    elif promised > 0:
        text = f"{head}: the targets' time is on the critical path."
    else:
        text = f"{head}."
    if path.ceiling is not None:
        text += f" Even free, the plan's targets give at most {n.close_speedup(path.ceiling)}."
    tone = Tone.GOOD if path.speedup > 1.0000001 else Tone.BAD if path.speedup < 0.9999999 else Tone.PLAIN
    return Sentence(text, tone)


# -- the optimizations' cells --------------------------------------------------------------------------
OPTION_TIPS = (
    "S with the trace's dependencies: this optimization alone on the trace's critical path (its targets' events "
    "k× faster, every step recomputed), beside the sum's S",
    "Ceiling with the trace's dependencies: the step's speedup with the targets' events at 0 — the most this "
    "optimization could give, whatever k",
)


def option_cells(
    figures: TraceFigures | None, optimizations: Sequence[Optimization], n: Numbers = POINT
) -> tuple[list[str], list[str]]:
    """Each optimization's S and ceiling with the trace's dependencies ("…" while computing, "—" when the trace
    does not know its targets' events)."""
    rows = len(optimizations)
    if not trace_based(figures):
        return [DASH] * rows, [DASH] * rows
    assert figures is not None
    answers = figures.answers if figures.ready else None
    speedups, ceilings = [], []
    for o in optimizations:
        key = (o.targets, float(o.speedup))
        if answers is None or key not in answers.alone:
            speedups.append(COMPUTING)
            ceilings.append(COMPUTING)
            continue
        alone = answers.alone[key]
        speedups.append(DASH if alone is None else n.close_speedup(alone.speedup))
        ceilings.append(DASH if alone is None or alone.ceiling is None else n.close_speedup(alone.ceiling))
    return speedups, ceilings


def option_on_path(figures: TraceFigures | None, opt: Optimization) -> float | None:
    """``opt`` alone at its k on the trace's critical path (its S), when known; None otherwise."""
    if not trace_based(figures) or figures is None or not figures.ready or figures.answers is None:
        return None
    alone = figures.answers.alone.get((opt.targets, float(opt.speedup)))
    return None if alone is None else alone.speedup


@dataclass(frozen=True, eq=False)
class OptionCurve:
    """An optimization's speedup against k on the trace's critical path, for the plan as it is now: ``ks`` and
    ``alone`` (and ``combined`` with the other enabled ones), with its ceiling on the path (None: none)."""

    ks: Any
    alone: Any
    combined: Any
    ceiling: float | None


def option_curve(figures: TraceFigures | None, profile: Profile, opt: Optimization) -> OptionCurve | None:
    """``opt``'s curve on the trace's critical path, when the answers of the plan as it is now hold it (None while
    it is computed, or when the trace does not know its targets)."""
    if not trace_based(figures) or figures is None:
        return None
    found = figures.current(profile)
    if found is None:
        return None
    key = (opt.targets, float(opt.speedup))
    curve, alone = found.curves.get(key), found.alone.get(key)
    if curve is None or alone is None:
        return None
    return OptionCurve(curve.ks, curve.alone, curve.combined, alone.ceiling)


def option_saves(
    figures: TraceFigures | None, optimizations: Sequence[Optimization], baseline: float, n: Numbers = POINT
) -> list[str] | None:
    """Each optimization's time saved alone with the trace's dependencies, in the table's unit: the baseline less
    the baseline over its S on the critical path ("…" while computing, "—" when the trace does not know its
    targets); None without a trace to use (the sum's saving is the column then)."""
    if not trace_based(figures):
        return None
    assert figures is not None
    answers = figures.answers if figures.ready else None
    saves = []
    for o in optimizations:
        key = (o.targets, float(o.speedup))
        if answers is None or key not in answers.alone:
            saves.append(COMPUTING)
            continue
        alone = answers.alone[key]
        saves.append(DASH if alone is None or alone.speedup <= 0 else n.number(baseline - baseline / alone.speedup))
    return saves


def option_tip(
    figures: TraceFigures | None, opt: Optimization, speedup: bool, n: Numbers = POINT, beside: float | None = None
) -> str | None:
    """What an optimization's figure with dependencies says, or why it has none; ``beside``: the sum's S or ceiling,
    said after it (the checklist folds the sum's columns away where it is narrow)."""
    if not trace_based(figures):
        return None
    assert figures is not None
    answers = figures.answers if figures.ready else None
    key = (opt.targets, float(opt.speedup))
    if answers is None or key not in answers.alone:
        return "Being computed on the trace's critical path"
    alone = answers.alone[key]
    if alone is None:
        return "The trace does not know which events these targets stand for (added or renamed after the import)"
    sums = "" if beside is None else f" (the sum says {n.close_speedup(beside)})"
    if speedup:
        return (
            f"{opt.name} alone, {n.number(opt.speedup)}× on its targets' events: "
            f"{n.close_speedup(alone.speedup)} on the trace's critical path{sums}"
        )
    limit = DASH if alone.ceiling is None else n.close_speedup(alone.ceiling)
    return f"{opt.name}'s targets' events at 0: the step is at most {limit} faster{sums}"


def edited_since_import(figures: TraceFigures | None, total: float | None, unit: TimeUnit) -> bool:
    """Whether the table's times (their sum ``total`` in ``unit``; None: they cannot be analysed) no longer are
    what the trace measured: its path figures then describe the trace, not the table."""
    if not trace_based(figures) or figures is None or figures.baseline is None:
        return False
    if total is None:
        return True
    from ..model.traces.plan_answer import times_edited

    return times_edited(convert(total, unit, TimeUnit.MS), figures.baseline.length)


EDITED_TIP = (
    "The table's times were edited since the import (they no longer add up to the trace's step), so the trace's "
    "critical path no longer describes them; import the trace again to measure anew"
)


# -- the components' cells -----------------------------------------------------------------------------
COMPONENT_TIPS = (
    "Time on the critical path ({unit}, mean per step): the part of this component's events the step waits for; "
    "what it overlaps with other work is not on the path",
    "Slack ({unit}): how much of this component's time on the path comes off before the critical path moves "
    "elsewhere — up to here every {unit} saved is a {unit} off the step",
    "k at which the critical path moves elsewhere: speeding the component up beyond it buys less; “never”: even "
    "free, all of its time on the path comes off",
)


def on_path(figures: TraceFigures, name: str) -> float:
    """A component's time (ms per step) on the step's critical path as measured: the one figure the components'
    *On path* column and the critical-path chart's strip both show (each point counted for the first component
    listed that holds it, so the strip adds up to the path)."""
    if figures.baseline is None:
        return 0.0
    return {name_key(k): v for k, v in figures.baseline.components}.get(name_key(name), 0.0)


def component_cells(
    figures: TraceFigures | None,
    components: Sequence[Component],
    unit: TimeUnit,
    n: Numbers = POINT,
    edited: bool = False,
) -> list[tuple[str, str, str]]:
    """Per component: its time on the critical path, its slack (in ``unit``) and the k where the path moves;
    "—" throughout when the table's times were ``edited`` since the import."""
    if not trace_based(figures) or edited:
        return [(DASH, DASH, DASH)] * len(components)
    assert figures is not None
    found = figures.components
    if found is None:
        return [(COMPUTING, COMPUTING, COMPUTING)] * len(components)
    by_key = {name_key(k): v for k, v in found.items()}
    out = []
    for c in components:
        p = by_key.get(name_key(c.name))
        if p is None:
            out.append((DASH, DASH, DASH))
            continue
        on = on_path(figures, c.name)
        slack = min(p.slack, on)
        k = DASH if on <= 0 or p.on_path <= 0 else NEVER if p.k_moves is None else n.speedup(p.k_moves)
        out.append((n.number(convert(on, TimeUnit.MS, unit)), n.number(convert(slack, TimeUnit.MS, unit)), k))
    return out


def component_tip(
    figures: TraceFigures | None, component: Component, unit: TimeUnit, n: Numbers = POINT, edited: bool = False
) -> str | None:
    """A component's figures on the path in a sentence, or why it has none."""
    if not trace_based(figures) or figures is None:
        return None
    if edited:
        return EDITED_TIP
    if figures.components is None:
        return None
    p = {name_key(k): v for k, v in figures.components.items()}.get(name_key(component.name))
    if p is None:
        return "The trace does not know which events this component stands for (added or renamed after the import)"
    t = n.time
    on_ms = on_path(figures, component.name)
    on, slack, own = (convert(v, TimeUnit.MS, unit) for v in (on_ms, min(p.slack, on_ms), p.time))
    if on_ms <= 0 or p.on_path <= 0:
        return f"None of its events' {t(own, unit)} per step is on the critical path: speeding it up saves nothing"
    moves = (
        "even free, all of it comes off"
        if p.k_moves is None
        else f"at k = {n.speedup(p.k_moves)} the path moves elsewhere"
    )
    return f"{t(on, unit)} of its events' {t(own, unit)} per step is on the critical path; {t(slack, unit)} can come off before the path moves ({moves})"


def new_time_path_tip(
    figures: TraceFigures | None, profile: Profile, name: str, unit: TimeUnit, n: Numbers = POINT
) -> str:
    """For a traced profile's New time cell: that it is the component's own events at k (each one k× faster),
    and what the plan does on the step's critical path — this component's time on the path before and after,
    and the step's — so the column is not read as the step's new time ("" without a current answer)."""
    if not trace_based(figures) or figures is None:
        return ""
    found = figures.current(profile)
    if found is None or found.path is None:
        return ""
    path = found.path
    key = name_key(name)
    before = {name_key(k): v for k, v in path.baseline.components}.get(key, 0.0)
    after = {name_key(k): v for k, v in path.predicted.components}.get(key, 0.0)
    t = n.time
    ms = TimeUnit.MS
    return (
        f"its own events' time with each one k× faster (their sum is what the sum promises). On the trace's "
        f"critical path its events go {t(convert(before, ms, unit), unit)} → {t(convert(after, ms, unit), unit)} per "
        f"step, and the step {t(convert(path.baseline.length, ms, unit), unit)} → "
        f"{t(convert(path.predicted.length, ms, unit), unit)}"
    )


def comparison_line(d: DependencyCheck, n: Numbers = POINT) -> str:
    """Two traces compared: what the dependencies predict from the components' measured changes, against the sum's
    prediction and the steps' measured speedup (the comparison tab and ``amdahl-desk compare`` say it alike)."""
    sum_text = DASH if d.sum_speedup is None else n.speedup(d.sum_speedup)
    line = (
        f"{LEAD} the components' measured changes predict {n.speedup(d.predicted_speedup)} "
        f"(the sum of their times says {sum_text}); the steps measure {n.speedup(d.measured_speedup)}."
    )
    if d.unmatched:
        line += f" Not found in the before trace's events: {', '.join(d.unmatched)}."
    return line
