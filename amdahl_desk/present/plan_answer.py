"""A traced profile's answer in words: the headline and the target verdict with the trace's dependencies, the
sum beside them (what the sum promises, and why the two differ), and the note when the trace cannot be used.

Every sentence reads a :class:`~amdahl_desk.model.traces.plan_answer.TraceAnswer` — the one home of the figures
(``report``, the window's summary and the slide say the same numbers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.profile import Profile
from ..model.units import TimeUnit
from .numbers import POINT, Numbers

if TYPE_CHECKING:  # the trace's model loads with the first trace
    from ..model.traces.plan_answer import TraceAnswer

DEPENDENCIES = "with the trace's dependencies"
OPTIONS_WITH_DEPS = "Each optimization alone with the trace's dependencies (values as written)"
OPTIONS_BY_SUM = "Each optimization alone by the sum of the components' times (follows edits)"


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names)


def answer_headline(profile: Profile, analysis: Analysis, answer: TraceAnswer, n: Numbers = POINT) -> str:
    """What the enabled plan buys on the trace's critical path, and what caps it (the sum's words say the rest)."""
    unit = profile.unit
    total = answer.baseline
    enabled = [o for o in profile.optimizations if o.enabled]
    if not enabled:
        return (
            f"No optimization is enabled: the workload takes {n.time(total, unit)}. "
            "Tick an optimization to see what it buys."
        )
    if len(enabled) == 1:
        o = enabled[0]
        what = f"Making {_names(o.targets)} {n.speedup(o.speedup)} faster makes"
        free = f"even a free {_names(o.targets)}"
    else:
        what = f"The {len(enabled)} enabled optimizations together make"
        free = "even making their components' events free"
    return (
        f"{what} the whole workload {n.close_speedup(answer.speedup)} faster {DEPENDENCIES} "
        f"({n.time(total, unit)} → {n.time(answer.new_total, unit)}, saving {n.time(answer.time_saved, unit)}); "
        f"{free} caps it at {n.close_speedup(answer.ceiling)} on the step's critical path."
    )


def sum_agrees(answer: TraceAnswer) -> bool:
    """Whether the sum of the components' times promises what the trace's dependencies give (within 0.5%)."""
    return abs(answer.speedup - answer.sum_speedup) <= 0.005 * answer.sum_speedup


def sum_same(answer: TraceAnswer) -> bool:
    """Whether :func:`sum_beside` says the sum promises "the same": no share of its saving hidden, none more, and
    the two speedups within 0.5% (a 1.0151× path beside a 1.02× sum agrees within 0.5% in S, yet a quarter of the
    saving is hidden)."""
    from .whatif import hidden_saving

    before, after = answer.step_before, answer.step_after
    if answer.sum_speedup > 0 and before > 0 and hidden_saving(before, after, answer.sum_speedup, {}, {}):
        return False
    promised = answer.baseline - answer.sum_new_total
    return not (promised > 0 and answer.time_saved > promised * 1.005) and sum_agrees(answer)


def sum_beside(profile: Profile, answer: TraceAnswer, n: Numbers = POINT) -> str:
    """The sum's promise beside the answer, and why the two differ ("" when no optimization is enabled)."""
    if not any(o.enabled for o in profile.optimizations):
        return ""
    from .whatif import hidden_saving

    unit = profile.unit
    text = (
        f"The sum of the components' times promises {n.speedup(answer.sum_speedup)} "
        f"({n.time(answer.baseline, unit)} → {n.time(answer.sum_new_total, unit)}, ceiling "
        f"{n.speedup(answer.sum_ceiling)})"
    )
    before, after = answer.step_before, answer.step_after
    why = ""
    if answer.sum_speedup > 0 and before > 0:
        why = hidden_saving(
            before, after, answer.sum_speedup, dict(answer.by_kind_before), dict(answer.by_kind_after), n
        )
    if why:
        return f"{text}: {why}."
    promised = answer.baseline - answer.sum_new_total
    if promised > 0 and answer.time_saved > promised * 1.005:
        return (
            f"{text}: the dependencies give more, because the targets' events (with the GPU work launched from "
            "them) hold more of the step's critical path than their times in the table."
        )
    if sum_agrees(answer):
        return f"{text}: the same, because the targets' time is all on the critical path."
    return f"{text}: the dependencies differ because what overlaps on the trace is not on its critical path."


def answer_target(profile: Profile, analysis: Analysis, answer: TraceAnswer, n: Numbers = POINT) -> str | None:
    """Whether the target is met by the plan on the trace's critical path, the floor its targets leave and the k
    that would meet it, the sum's verdict and k beside."""
    from ..model.traces.plan_answer import target_on_path

    if analysis.target is None:
        return None
    unit = profile.unit
    total = answer.baseline
    t = target_on_path(analysis.target, total, answer)
    goal = n.time(t.time, unit)
    if t.time >= total:
        return f"Target {goal}: already met by the baseline ({n.time(total, unit)})."
    if not any(o.enabled for o in profile.optimizations):
        return None
    if t.met_by_plan:
        verdict = f"met by the plan {DEPENDENCIES} ({n.time(answer.new_total, unit)})"
    elif not t.feasible:
        verdict = (
            f"not reachable with the enabled optimizations {DEPENDENCIES}, whatever their speedup — even with "
            f"their events free the step takes {n.time(t.floor, unit)}"
        )
    else:
        verdict = f"not met: the plan reaches {n.time(answer.new_total, unit)} {DEPENDENCIES}"
        if t.required_speedup is not None:
            verdict += (
                f"; it takes the enabled optimizations' events {required_phrase(t.required_speedup, n)}, all at once"
            )
    s = t.sum
    assert s is not None
    if s.met_by_plan:
        sum_said = f"the sum's {n.time(answer.sum_new_total, unit)} meets it"
    elif s.required_speedup is not None:
        sum_said = (
            f"the sum's {n.time(answer.sum_new_total, unit)} does not meet it (it asks their components "
            f"{n.speedup(s.required_speedup)} faster)"
        )
    else:
        sum_said = f"the sum's {n.time(answer.sum_new_total, unit)} does not meet it"
    return f"Target {goal}: {verdict}; {sum_said}."


def required_phrase(k: float, n: Numbers = POINT) -> str:
    """ "2.31× faster", or "free" when only their time at zero reaches the target."""
    return f"{n.speedup(k)} faster" if k < float("inf") else "free (no finite speedup is enough)"


def option_phrase(answer: TraceAnswer, index: int, sum_speedup: float, n: Numbers = POINT) -> str:
    """ "1.142× end to end with the trace's dependencies (the sum says 1.440×)" for optimization ``index``."""
    o = answer.options[index]
    if not answer.usable or o.speedup is None:
        return f"{n.speedup(sum_speedup)} end to end by the sum"
    return f"{n.close_speedup(o.speedup)} end to end {DEPENDENCIES} (the sum says {n.close_speedup(sum_speedup)})"


def unusable_note(source: str, problem: str) -> str:
    """The note when the trace cannot give the answer: every figure is then the sum's."""
    return (
        f"The trace this profile was imported from cannot be used ({source}: {problem}), so every figure here is "
        "the sum of the components' times, without the trace's dependencies."
    )


def edited_note(profile: Profile, answer: TraceAnswer, n: Numbers = POINT) -> str:
    """Which figures still rest on the trace when the table's times were edited since the import."""
    unit = profile.unit
    return (
        f"The components' times ({n.time(answer.baseline, unit)}) no longer add up to the step the trace measured "
        f"({n.time(answer.trace_total, unit)}): the speedups, ceilings and odds {DEPENDENCIES} still rest on the "
        "trace as measured; the new totals apply them to the table's baseline. Import the trace again to "
        "measure anew."
    )


def profile_whatif_text(profile: Profile, analysis: Analysis, answer: TraceAnswer, n: Numbers = POINT) -> str:
    """``whatif PROFILE``'s answer: the plan with the trace's dependencies and the sum beside it, each
    optimization alone, and the notes (the trace unusable, the times edited)."""
    lines: list[str] = []
    if not answer.usable:
        lines.append(unusable_note(profile.settings.trace_source, answer.problem))
        from .report import headline

        lines.append(headline(profile, analysis, n))
    else:
        unit = TimeUnit.MS
        lines.append(
            f"Trace {profile.settings.trace_source}: the step's critical path {n.time(answer.step_before, unit)} → "
            f"{n.time(answer.step_after, unit)} with the enabled plan."
        )
        lines.append(answer_headline(profile, analysis, answer, n))
        beside = sum_beside(profile, answer, n)
        if beside:
            lines.append(beside)
        if answer.edited:
            lines.append(edited_note(profile, answer, n))
    sums = analysis.optimizations
    for i, o in enumerate(profile.optimizations):
        mark = "[x]" if o.enabled else "[ ]"
        lines.append(
            f"  {mark} {o.name}: {n.speedup(o.speedup)} on {_names(o.targets)} gives "
            f"{option_phrase(answer, i, float(sums.overall_speedup[i]), n)}."
        )
    target = answer_target(profile, analysis, answer, n) if answer.usable else None
    if target:
        lines.append(target)
    return "\n".join(lines)
