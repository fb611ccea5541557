"""The analysis in words (a design-review answer) and as the stable JSON contract."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from .analysis import Analysis, ScalingFigures
from .cost import cost_sentence, step_sentence
from .extras import Extras, profile_extras
from .load_settings import SETTING_ROWS
from .load_view import load_sentence, max_rate_sentence, plan_phrase
from .profile import Profile, Scaling
from .report_extras import add_cost_to_points, cost_json, load_json, objectives_json
from .units import format_percent, format_speedup, format_time


def _num(value: float | None) -> float | None:
    """JSON has no infinity: an unbounded figure is ``null``."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def scaling_points(scaling: ScalingFigures) -> list[dict[str, Any]]:
    """The ``points`` list of the JSON contract."""
    return [
        {
            "gpus": int(scaling.gpus[i]),
            "ideal": _num(scaling.ideal[i]),
            "amdahl": _num(scaling.amdahl[i]),
            "with_overhead": _num(scaling.with_overhead[i]),
            "gustafson": _num(scaling.gustafson[i]),
            "efficiency": _num(scaling.efficiency[i]),
            "time": _num(scaling.time[i]),
        }
        for i in range(len(scaling.gpus))
    ]


def scaling_dict(scaling: ScalingFigures) -> dict[str, Any]:
    return {
        "parallel_fraction": scaling.parallel_fraction,
        "ceiling": _num(scaling.ceiling),
        "baseline_gpus": scaling.baseline_gpus,
        "best_gpus": scaling.best_gpus,
        "best_speedup": _num(scaling.best_speedup),
        "last_efficient_gpus": scaling.last_efficient_gpus,
        "points": scaling_points(scaling),
    }


# The fields of each entry of the contract's ``components`` list, in order.
COMPONENT_FIELDS = ("name", "time", "fraction", "new_time", "scaling", "group")
ComponentRows = Callable[
    [Iterable[str], Iterable[float], Iterable[float], Iterable[float], Iterable[Scaling], Iterable[str]], list[Any]
]
_SCALING_TEXT = {s: s.value for s in Scaling}


def component_dicts(
    names: Iterable[str],
    times: Iterable[float],
    fractions: Iterable[float],
    new_times: Iterable[float],
    scalings: Iterable[Scaling],
    groups: Iterable[str],
) -> list[dict[str, Any]]:
    """The ``components`` entries as dictionaries, from the columns of :data:`COMPONENT_FIELDS`."""
    text = _SCALING_TEXT
    return [
        {"name": a, "time": b, "fraction": c, "new_time": d, "scaling": text[e], "group": f}
        for a, b, c, d, e, f in zip(names, times, fractions, new_times, scalings, groups, strict=True)
    ]


def to_json_dict(
    profile: Profile,
    analysis: Analysis,
    file_warnings: Iterable[object] = (),
    extras: Extras | None = None,
    component_rows: ComponentRows = component_dicts,
) -> dict[str, Any]:
    """The analysis as plain data; times in ``profile.unit``; infinite ceilings are ``None``.

    ``file_warnings`` (what reading the file found, each placed at its cell) come first in ``warnings``,
    then the analysis's own. ``extras`` (objectives, load, cost) is computed from the profile when not given.
    ``component_rows`` makes the ``components`` entries from the columns of :data:`COMPONENT_FIELDS`
    (an encoder may give objects it writes faster than dictionaries, with the same fields in the same
    order; scalings come as :class:`Scaling` members, whose value is the contract's text).
    """
    if extras is None:
        extras = profile_extras(profile, analysis)
    figs = analysis.optimizations
    comps = profile.components
    # Column by column, from plain lists: 50,000 components would spend longer in numpy scalars and in
    # a property call per field. The columns are read as they are written (maps, no lists between).
    components = component_rows(
        map(itemgetter(0), comps),
        map(itemgetter(1), comps),
        analysis.fractions.tolist(),
        analysis.new_times.tolist(),
        map(itemgetter(2), comps),
        map(itemgetter(3), comps),
    )
    result: dict[str, Any] = {
        "unit": profile.unit.value,
        "baseline_total": analysis.baseline_total,
        "boundary": profile.settings.boundary,
        "components": components,
        "optimizations": [
            {
                "name": o.name,
                "enabled": o.enabled,
                "targets": list(o.targets),
                "speedup": o.speedup,
                "speedup_low": o.speedup_range[0],
                "speedup_high": o.speedup_range[1],
                "effort": o.effort,
                "confidence": o.confidence,
                "fraction": float(figs.fraction[i]),
                "overall_speedup": _num(figs.overall_speedup[i]),
                "new_total": float(figs.new_total[i]),
                "time_saved": float(figs.time_saved[i]),
                "ceiling": _num(figs.ceiling[i]),
            }
            for i, o in enumerate(profile.optimizations)
        ],
        "combined": {
            "enabled": analysis.combined.enabled,
            "fraction": analysis.combined.fraction,
            "overall_speedup": _num(analysis.combined.overall_speedup),
            "new_total": analysis.combined.new_total,
            "time_saved": analysis.combined.time_saved,
            "ceiling": _num(analysis.combined.ceiling),
            "overlaps": [
                {"component": o.component, "optimizations": list(o.optimizations), "speedup": o.speedup}
                for o in analysis.combined.overlaps
            ],
        },
        "scaling": scaling_dict(analysis.scaling),
        "warnings": [str(w) for w in file_warnings] + list(analysis.warnings) + extras_warnings(extras),
        "objectives": objectives_json(extras.objectives),
        "load": load_json(extras.load, profile.settings),
        "cost": cost_json(extras.cost),
    }
    result["scaling"]["points"] = add_cost_to_points(result["scaling"]["points"], extras.cost)
    if analysis.target is not None:
        t = analysis.target
        result["target"] = {
            "time": t.time,
            "required_speedup": _num(t.required_speedup),
            "feasible": t.feasible,
            "floor": t.floor,
            "met_by_plan": t.met_by_plan,
        }
    return result


_SETTING_LABELS = {row.field: row.label for row in SETTING_ROWS}


def extras_warnings(extras: Extras) -> list[str]:
    """The notes of the load and cost settings, each after its Settings label (objective notes come from the file)."""
    return [
        f"{_SETTING_LABELS.get(n.field or '', 'Settings')}: {n.what}" for n in extras.notes if n.table == "settings"
    ]


def extras_text(profile: Profile, extras: Extras) -> list[str]:
    """The objectives table (when there is more than End to end), the load and max-rate sentences, the cost."""
    lines: list[str] = []
    table = extras.table
    if len(table.rows) > 1:
        cells = table.cells()
        widths = [max(len(row[c]) for row in cells) for c in range(len(cells[0]))]
        lines.append("Objectives (speedup of each enabled optimization alone, and of the plan):")
        for row in cells:
            lines.append(
                "  "
                + "  ".join(
                    v.ljust(w) if c == 0 else v.rjust(w) for c, (v, w) in enumerate(zip(row, widths, strict=True))
                )
            )
        for o in extras.objectives:
            if o.target is not None and not o.is_end_to_end:
                met = "met by the plan" if o.target.met_by_plan else "not met by the plan"
                lines.append(
                    f"  {o.name} target {format_time(o.target.time, profile.unit)}: {met} "
                    f"({format_time(o.baseline_total, profile.unit)} → {format_time(o.new_total, profile.unit)})."
                )
        lines.append("")
    if extras.load is not None:
        lines.append(load_sentence(extras.load, plan_phrase(profile)))
        more = max_rate_sentence(extras.load)
        if more:
            lines.append(more)
        lines.append("")
    cost = extras.cost
    if cost.priced:  # without a price, GPU-hours alone would be noise in every older report
        lines.append(cost_sentence(cost, profile.unit))
        doubling = [s for s in cost.steps if s.is_doubling]
        if doubling:
            last = doubling[-1]
            sentence = step_sentence(last, cost.priced)
            lines.append(sentence[0].upper() + sentence[1:] + ".")
        lines.append("")
    return lines


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)


def headline(profile: Profile, analysis: Analysis) -> str:
    """One sentence: what the enabled optimizations buy, and what caps them."""
    unit = profile.unit
    c = analysis.combined
    total = analysis.baseline_total
    if c.enabled == 0:
        return (
            f"No optimization is enabled: the workload takes {format_time(total, unit)}. "
            "Tick an optimization to see what it buys."
        )
    enabled = [o for o in profile.optimizations if o.enabled]
    if len(enabled) == 1:
        o = enabled[0]
        what = f"Making {_names(o.targets)} {format_speedup(o.speedup)} faster makes"
        free = f"even a free {_names(o.targets)}"
    else:
        what = f"The {c.enabled} enabled optimizations together make"
        free = "even making their components free"
    return (
        f"{what} the whole workload {format_speedup(c.overall_speedup)} faster "
        f"({format_time(total, unit)} → {format_time(c.new_total, unit)}, saving {format_time(c.time_saved, unit)}); "
        f"{free} caps it at {format_speedup(c.ceiling)}: "
        f"{format_time((1 - c.fraction) * total, unit)} lie elsewhere."
    )


def target_sentence(profile: Profile, analysis: Analysis) -> str | None:
    """Whether the target time is reachable and what local speedup it needs."""
    t = analysis.target
    if t is None:
        return None
    unit = profile.unit
    total = analysis.baseline_total
    goal = format_time(t.time, unit)
    if t.time >= total:
        return f"Target {goal}: already met by the baseline ({format_time(total, unit)})."
    if analysis.combined.enabled == 0:
        return (
            f"Target {goal}: not met; the baseline takes {format_time(total, unit)} and no optimization "
            "is enabled. Enable the optimizations that could reach it."
        )
    if not t.feasible:
        return (
            f"Target {goal}: not reachable with the enabled optimizations, whatever their speedup — "
            f"the components they leave untouched already take {format_time(t.floor, unit)}. "
            "Other components must get faster too."
        )
    plan = (
        "the current plan meets it"
        if t.met_by_plan
        else f"the current plan reaches {format_time(analysis.combined.new_total, unit)}"
    )
    return (
        f"Target {goal}: reachable if the enabled optimizations' components ({format_percent(t.fraction)} "
        f"of the time) get {format_speedup(t.required_speedup)} faster; {plan}."
    )


def report_text(
    profile: Profile, analysis: Analysis, extras: Extras | None = None, uncertainty: Sequence[str] = ()
) -> str:
    """The analysis as a design-review answer: boundary, share, speedup, new time, ceiling, what remains;
    then each objective, the loaded service and the cost when the profile has them. ``uncertainty``: the lines
    about the plan under uncertainty and the cheapest plan (worded by the presentation layer), after the target."""
    if extras is None:
        extras = profile_extras(profile, analysis)
    unit = profile.unit
    total = analysis.baseline_total
    lines: list[str] = []
    boundary = profile.settings.boundary or "the profiled workload"
    lines.append(
        f"Boundary: {boundary}; measured baseline {format_time(total, unit)} over {len(profile.components)} components."
    )
    top = sorted(range(len(profile.components)), key=lambda i: -analysis.times[i])[:5]
    lines.append(
        "Where the time goes: "
        + "; ".join(
            f"{profile.components[i].name} {format_time(analysis.times[i], unit)} ({format_percent(analysis.fractions[i])})"
            for i in top
        )
        + ("; …" if len(profile.components) > 5 else ".")
    )
    lines.append("")
    figs = analysis.optimizations
    for i, o in enumerate(profile.optimizations):
        state = "" if o.enabled else " (not enabled; alone it would give)"
        lines.append(
            f"{'[x]' if o.enabled else '[ ]'} {o.name}{state}: {_names(o.targets)} is {format_percent(figs.fraction[i])} "
            f"of the time; {format_speedup(o.speedup)} there gives {format_speedup(figs.overall_speedup[i])} end to end, "
            f"{format_time(total, unit)} → {format_time(figs.new_total[i], unit)} "
            f"(saves {format_time(figs.time_saved[i], unit)}); ceiling {format_speedup(figs.ceiling[i])}, "
            f"{format_time((1 - figs.fraction[i]) * total, unit)} remain untouched."
        )
    if profile.optimizations:
        lines.append("")
    lines.append(headline(profile, analysis))
    target = target_sentence(profile, analysis)
    if target:
        lines.append(target)
    if uncertainty:
        lines.append("")
        lines.extend(uncertainty)
    s = analysis.scaling
    if not uncertainty:
        lines.append("")
    lines.append(
        f"GPU scaling: {format_percent(s.parallel_fraction)} of the time is parallel, so Amdahl caps strong scaling at "
        f"{format_speedup(s.ceiling)}; {profile.settings.overhead_model.phrase} the best is "
        f"{format_speedup(s.best_speedup)} at {s.best_gpus:,} GPU{'s' if s.best_gpus != 1 else ''}"
        + (
            f", and efficiency stays at 50% or more up to {s.last_efficient_gpus:,} GPU"
            f"{'s' if s.last_efficient_gpus != 1 else ''}."
            if s.last_efficient_gpus is not None
            else ", and efficiency is below 50% at every count evaluated."
        )
    )
    lines.append("")
    lines.extend(extras_text(profile, extras))
    for w in [*analysis.warnings, *extras_warnings(extras)]:
        lines.append(f"Note: {w}")
    lines.append("Next: build it, then measure again — the bottleneck moves.")
    return "\n".join(lines)
