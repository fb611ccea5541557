"""The analysis in words: the design-review answer ``report`` prints, the headline and the target verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.outcomes import Outcomes, profile_outcomes
from ..model.profile import Profile
from .analysis_warnings import warning_texts
from .cost import cost_sentence, step_sentence
from .counted import counted
from .load import load_dependencies_note, load_sentence, max_rate_sentence, plan_phrase
from .numbers import POINT, Numbers
from .objectives import dependencies_note, objective_cells
from .plan_answer import answer_headline, answer_target, edited_note, option_phrase, sum_beside, unusable_note
from .refusals import refusal_text
from .setting_rows import SETTING_ROWS
from .settings_words import overhead_phrase

if TYPE_CHECKING:
    from ..model.traces.plan_answer import TraceAnswer


def outcomes_text(profile: Profile, outcomes: Outcomes, n: Numbers = POINT) -> list[str]:
    """The objectives table (when there is more than End to end), the load and max-rate sentences, the cost."""
    lines: list[str] = []
    table = outcomes.table
    if len(table.rows) > 1:
        cells = objective_cells(table, n)
        widths = [max(len(row[c]) for row in cells) for c in range(len(cells[0]))]
        lines.append("Objectives (speedup of each enabled optimization alone, and of the plan):")
        for row in cells:
            lines.append(
                "  "
                + "  ".join(
                    v.ljust(w) if c == 0 else v.rjust(w) for c, (v, w) in enumerate(zip(row, widths, strict=True))
                )
            )
        for o in outcomes.objectives:
            if o.target is not None and not o.is_end_to_end:
                met = "met by the plan" if o.target.met_by_plan else "not met by the plan"
                lines.append(
                    f"  {o.name} target {n.time(o.target.time, profile.unit)}: {met} "
                    f"({n.time(o.baseline_total, profile.unit)} → {n.time(o.new_total, profile.unit)})."
                )
        note = dependencies_note(outcomes, profile, n)
        if note:
            lines.append(f"  {note}")
        lines.append("")
    if outcomes.load is not None:
        lines.append(load_sentence(outcomes.load, plan_phrase(profile), n))
        beside = load_dependencies_note(outcomes.load, outcomes.objectives, n)
        if beside:
            lines.append(beside)
        more = max_rate_sentence(outcomes.load, n)
        if more:
            lines.append(more)
        lines.append("")
    cost = outcomes.cost
    if cost.priced:  # without a price, GPU-hours alone would be noise in every older report
        lines.append(cost_sentence(cost, profile.unit, n))
        doubling = [s for s in cost.steps if s.is_doubling]
        if doubling:
            last = doubling[-1]
            sentence = step_sentence(last, cost.priced, n)
            lines.append(sentence[0].upper() + sentence[1:] + ".")
        lines.append("")
    return lines


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


def headline(profile: Profile, analysis: Analysis, n: Numbers = POINT) -> str:
    """One sentence: what the enabled optimizations buy, and what caps them."""
    unit = profile.unit
    c = analysis.combined
    total = analysis.baseline_total
    if c.enabled == 0:
        return (
            f"No optimization is enabled: the workload takes {n.time(total, unit)}. "
            "Tick an optimization to see what it buys."
        )
    enabled = [o for o in profile.optimizations if o.enabled]
    if len(enabled) == 1:
        o = enabled[0]
        what = f"Making {_names(o.targets)} {n.speedup(o.speedup)} faster makes"
        free = f"even a free {_names(o.targets)}"
    else:
        what = f"The {c.enabled} enabled optimizations together make"
        free = "even making their components free"
    return (
        f"{what} the whole workload {n.speedup(c.overall_speedup)} faster "
        f"({n.time(total, unit)} → {n.time(c.new_total, unit)}, saving {n.time(c.time_saved, unit)}); "
        f"{free} caps it at {n.speedup(c.ceiling)}: "
        f"{n.time((1 - c.fraction) * total, unit)} lie elsewhere."
    )


def target_sentence(profile: Profile, analysis: Analysis, n: Numbers = POINT) -> str | None:
    """Whether the target time is reachable and what local speedup it needs."""
    t = analysis.target
    if t is None:
        return None
    unit = profile.unit
    total = analysis.baseline_total
    goal = n.time(t.time, unit)
    if t.time >= total:
        return f"Target {goal}: already met by the baseline ({n.time(total, unit)})."
    if analysis.combined.enabled == 0:
        return (
            f"Target {goal}: not met; the baseline takes {n.time(total, unit)} and no optimization "
            "is enabled. Enable the optimizations that could reach it."
        )
    if not t.feasible:
        return (
            f"Target {goal}: not reachable with the enabled optimizations, whatever their speedup — "
            f"the components they leave untouched already take {n.time(t.floor, unit)}. "
            "Other components must get faster too."
        )
    plan = (
        "the current plan meets it"
        if t.met_by_plan
        else f"the current plan reaches {n.time(analysis.combined.new_total, unit)}"
    )
    return (
        f"Target {goal}: reachable if the enabled optimizations' components ({n.percent(t.fraction)} "
        f"of the time) get {n.speedup(t.required_speedup)} faster; {plan}."
    )


def report_text(
    profile: Profile,
    analysis: Analysis,
    outcomes: Outcomes | None = None,
    n: Numbers = POINT,
    uncertainty: Sequence[str] = (),
    trace: TraceAnswer | None = None,
) -> str:
    """The analysis as a design-review answer: boundary, share, speedup, new time, ceiling, what remains;
    then each objective, the loaded service and the cost when the profile has them. ``uncertainty``: the lines
    about the plan under uncertainty and the cheapest plan (:func:`~amdahl_desk.present.uncertainty.report_lines`),
    after the target. ``trace``: a traced profile's answer — its figures lead, the sum's beside them."""
    if outcomes is None:
        outcomes = profile_outcomes(profile, analysis, answer=trace)
    unit = profile.unit
    total = analysis.baseline_total
    lines: list[str] = []
    boundary = profile.settings.boundary or "the profiled workload"
    lines.append(
        f"Boundary: {boundary}; measured baseline {n.time(total, unit)} over {n.count(len(profile.components))} components."
    )
    top = sorted(range(len(profile.components)), key=lambda i: -analysis.times[i])[:5]
    lines.append(
        "Where the time goes: "
        + "; ".join(
            f"{profile.components[i].name} {n.time(analysis.times[i], unit)} ({n.percent(analysis.fractions[i])})"
            for i in top
        )
        + ("; …" if len(profile.components) > 5 else ".")
    )
    lines.append("")
    traced = trace is not None and trace.usable
    if trace is not None and not trace.usable:
        lines.append(unusable_note(profile.settings.trace_source, trace.problem))
        lines.append("")
    figs = analysis.optimizations
    for i, o in enumerate(profile.optimizations):
        state = "" if o.enabled else " (not enabled; alone it would give)"
        if trace is not None and traced:
            lines.append(
                f"{'[x]' if o.enabled else '[ ]'} {o.name}{state}: {_names(o.targets)} is "
                f"{n.percent(figs.fraction[i])} of the time; {n.speedup(o.speedup)} there gives "
                f"{option_phrase(trace, i, float(figs.overall_speedup[i]), n)}."
            )
            continue
        lines.append(
            f"{'[x]' if o.enabled else '[ ]'} {o.name}{state}: {_names(o.targets)} is {n.percent(figs.fraction[i])} "
            f"of the time; {n.speedup(o.speedup)} there gives {n.speedup(figs.overall_speedup[i])} end to end, "
            f"{n.time(total, unit)} → {n.time(figs.new_total[i], unit)} "
            f"(saves {n.time(figs.time_saved[i], unit)}); ceiling {n.speedup(figs.ceiling[i])}, "
            f"{n.time((1 - figs.fraction[i]) * total, unit)} remain untouched."
        )
    if profile.optimizations:
        lines.append("")
    if trace is not None and traced:
        lines.append(answer_headline(profile, analysis, trace, n))
        beside = sum_beside(profile, trace, n)
        if beside:
            lines.append(beside)
        if trace.edited:
            lines.append(edited_note(profile, trace, n))
        target = answer_target(profile, analysis, trace, n)
    else:
        lines.append(headline(profile, analysis, n))
        target = target_sentence(profile, analysis, n)
    if target:
        lines.append(target)
    if uncertainty:
        lines.append("")
        lines.extend(uncertainty)
    s, c = analysis.scaling, counted(profile.settings)  # N: GPUs, or a CPU job's ranks
    if not uncertainty:
        lines.append("")
    lines.append(
        f"{c.scaling}: {n.percent(s.parallel_fraction)} of the time is parallel, so Amdahl caps strong scaling at "
        f"{n.speedup(s.ceiling)}; {overhead_phrase(profile.settings.overhead_model)} the best is "
        f"{n.speedup(s.best_speedup)} at {c.count(s.best_gpus, n)}"
        + (f" (against the N0 = {n.count(s.baseline_gpus)} {c.many} measured)" if s.baseline_gpus != 1 else "")
        + (
            f", and efficiency stays at 50% or more up to {c.count(s.last_efficient_gpus, n)}."
            if s.last_efficient_gpus is not None
            else ", and efficiency is below 50% at every count evaluated."
        )
    )
    lines.append("")
    lines.extend(outcomes_text(profile, outcomes, n))
    for w in [*warning_texts(analysis.warnings, analysis.unit, c, n), *outcomes_warnings(outcomes, n)]:
        lines.append(f"Note: {w}")
    lines.append("Next: build it, then measure again — the bottleneck moves.")
    return "\n".join(lines)


_SETTING_LABELS = {row.field: row.label for row in SETTING_ROWS}


def outcomes_warnings(outcomes: Outcomes, n: Numbers = POINT) -> list[str]:
    """The notes of the load and cost settings, each after its Settings label (objective notes come from the file)."""
    notes = [
        f"{_SETTING_LABELS.get(p.field or '', 'Settings')}: {refusal_text(p, n)}"
        for p in outcomes.notes
        if p.table == "settings"
    ]
    if outcomes.energy_missing is not None:
        notes.append(
            f"{_SETTING_LABELS[outcomes.energy_missing]}: energy is left out of the cost until both the watts per GPU "
            "and the energy price per kWh are given"
        )
    return notes
