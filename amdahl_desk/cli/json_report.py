"""The analysis as the stable JSON contract of ``report --json``, written where the command line lives from the
model's figures (its words are in ``amdahl_desk.present.report``); the Python API's ``to_dict()`` is the same."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..model.analysis import Analysis, ScalingFigures, TargetFigures
from ..model.outcomes import Outcomes, profile_outcomes
from ..model.profile import Profile, Scaling
from ..present.analysis_warnings import warning_texts
from ..present.counted import counted
from ..present.report import outcomes_warnings
from .json_outcomes import add_cost_to_points, cost_json, load_json, objectives_json

if TYPE_CHECKING:  # the trace's model loads only for a profile that names a trace
    from ..model.traces.plan_answer import TraceAnswer


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
    outcomes: Outcomes | None = None,
    component_rows: ComponentRows = component_dicts,
) -> dict[str, Any]:
    """The analysis as plain data; times in ``profile.unit``; infinite ceilings are ``None``.

    ``file_warnings`` (what reading the file found, each placed at its cell) come first in ``warnings``,
    then the analysis's own. ``outcomes`` (objectives, load, cost) is computed from the profile when not given.
    ``component_rows`` makes the ``components`` entries from the columns of :data:`COMPONENT_FIELDS`
    (an encoder may give objects it writes faster than dictionaries, with the same fields in the same
    order; scalings come as :class:`Scaling` members, whose value is the contract's text).
    """
    if outcomes is None:
        outcomes = profile_outcomes(profile, analysis)
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
        "warnings": [str(w) for w in file_warnings]
        + warning_texts(analysis.warnings, analysis.unit, counted(profile.settings))
        + outcomes_warnings(outcomes),
        "objectives": objectives_json(outcomes.objectives),
        "load": load_json(outcomes.load, profile.settings),
        "cost": cost_json(outcomes.cost),
    }
    result["scaling"]["points"] = add_cost_to_points(result["scaling"]["points"], outcomes.cost)
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


def with_trace_answer(
    data: dict[str, Any], answer: TraceAnswer, source: str, target: TargetFigures | None = None
) -> dict[str, Any]:
    """``data`` (:func:`to_json_dict`'s) with the traced profile's answer: ``combined``'s speedup, new total, time
    saved and ceiling and each optimization's ``overall_speedup``, ``new_total``, ``time_saved`` and ``ceiling``
    are the dependency-aware figures; ``sum_*`` beside them keep the sum's; ``dependencies`` says which trace,
    whether it was used and why not; ``target`` (the analysis') makes ``"target"``'s required speedup, feasibility,
    floor and verdict the ones on the path, ``sum_*`` keeping the sum's. A trace that cannot be used leaves the
    sum's figures, visibly."""
    c = data["combined"]
    c["sum_speedup"], c["sum_new_total"], c["sum_ceiling"] = c["overall_speedup"], c["new_total"], c["ceiling"]
    for entry, option in zip(data["optimizations"], answer.options, strict=True):
        entry["sum_overall_speedup"], entry["sum_ceiling"] = entry["overall_speedup"], entry["ceiling"]
        if answer.usable and option.speedup is not None:
            s = option.speedup
            new_total = answer.baseline / s if s > 0 else math.inf
            entry["overall_speedup"] = _num(s)
            entry["new_total"] = _num(new_total)
            entry["time_saved"] = _num(answer.baseline - new_total)
            entry["ceiling"] = _num(option.ceiling)
    if answer.usable:
        c["overall_speedup"] = _num(answer.speedup)
        c["new_total"] = _num(answer.new_total)
        c["time_saved"] = _num(answer.time_saved)
        c["ceiling"] = _num(answer.ceiling)
        if target is not None and "target" in data:
            from ..model.traces.plan_answer import target_on_path

            on_path = target_on_path(target, answer.baseline, answer)
            entry = data["target"]
            for key in ("required_speedup", "feasible", "floor", "met_by_plan"):
                entry[f"sum_{key}"] = entry[key]
            entry.update(
                required_speedup=_num(on_path.required_speedup),
                feasible=on_path.feasible,
                floor=on_path.floor,
                met_by_plan=on_path.met_by_plan,
            )
    data["dependencies"] = {
        "trace": source,
        "used": answer.usable,
        "problem": answer.problem or None,
        "step_before_ms": answer.step_before if answer.usable else None,
        "step_after_ms": answer.step_after if answer.usable else None,
        "times_edited": answer.edited,
    }
    if not answer.usable:
        data["warnings"].append(
            f"Trace: {source}: {answer.problem}; the figures are the sum's, without the trace's dependencies"
        )
    elif answer.edited:
        data["warnings"].append(
            "Trace: the components' times no longer add up to the step the trace measured; the speedups, ceilings "
            "and odds rest on the trace as measured, the new totals apply them to the table's baseline"
        )
    return data
