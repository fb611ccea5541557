"""Several boundaries in one profile: each objective (TTFT, ITL, End to end) analysed on its own components.

A component names the objectives it belongs to (``"TTFT; End to end"``); the implicit objective
*End to end* holds every component. Each objective gets what the whole profile gets: its baseline,
f of each optimization within it, S, new time, ceiling, the target verdict and the required k.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, overload

import numpy as np
from numpy.typing import NDArray

from .analysis import (
    Analysis,
    Combined,
    OptimizationFigures,
    TargetFigures,
    exact_sum,
    overlaps_of,
    plan_pairs,
    target_figures,
)
from .errors import Problem, Refusal
from .laws import amdahl_speedup, ceiling
from .objective_specs import (
    END_TO_END,
    END_TO_END_KEY,
    ObjectiveSpec,
    is_end_to_end,
    normalise_objectives,
    objective_key,
    objective_spec_problems,
    objectives_text,
    parse_objectives,
)
from .profile import Component, Profile

if TYPE_CHECKING:  # a traced profile's answer; the trace's model loads with the first trace
    from .traces.plan_answer import TraceAnswer

__all__ = [
    "END_TO_END",
    "ObjectiveFigures",
    "ObjectiveSpec",
    "analyse_objectives",
    "find_objective",
    "is_end_to_end",
    "normalise_objectives",
    "objective_key",
    "objective_notes",
    "objective_order",
    "objective_spec_problems",
    "objectives_text",
    "parse_objectives",
    "restrict_analysis",
    "with_dependencies",
]


def _groups(objectives_of_component: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], list[int]]:
    """Rows by the objectives they name, in order of first appearance: a long table names few distinct lists."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for row, names in enumerate(objectives_of_component):
        if names:
            rows = groups.get(names)
            if rows is None:
                groups[names] = [row]
            else:
                rows.append(row)
    return groups


def objective_notes(
    objectives_of_component: Sequence[tuple[str, ...]], specs: Sequence[ObjectiveSpec]
) -> list[Problem]:
    """Warnings, not refusals: objectives named on components but missing from a non-empty Objectives sheet
    (at the first component naming each), and listed objectives that no component belongs to."""
    if not specs:
        return []
    listed = {objective_key(s.name) for s in specs}
    notes: list[Problem] = []
    used: set[str] = set()
    for names, rows in _groups(objectives_of_component).items():
        row = rows[0]
        for name in names:
            key = objective_key(name)
            if key not in listed and key not in used and key != END_TO_END_KEY:
                notes.append(Problem.of(Refusal.OBJECTIVE_NOT_LISTED, "components", row, "objectives", name))
            used.add(key)
    for row, spec in enumerate(specs):
        key = objective_key(spec.name)
        if key and key != END_TO_END_KEY and key not in used:
            notes.append(Problem.of(Refusal.OBJECTIVE_EMPTY, "objectives", row, "name", spec.name))
    return notes


class ComponentNames(Sequence[str]):
    """Components' names, read from them when first asked. End to end holds every component: making the
    tuple of 10,000 names at each change took 0.3 ms, though only the objective picker's hint and the
    report read it. Compares equal to the tuple of the names."""

    def __init__(self, components: Sequence[Component]) -> None:
        self._components: tuple[Component, ...] = tuple(components)  # a copy: the profile's list changes in place
        self._names: tuple[str, ...] | None = None

    def names(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(map(_NAME_OF, self._components))
        return self._names

    def __len__(self) -> int:
        return len(self._components)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.names()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ComponentNames):
            return self.names() == other.names()
        return self.names() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.names())

    def __repr__(self) -> str:
        return repr(self.names())


@dataclass(frozen=True)
class ObjectiveFigures:
    """One objective's analysis; ``optimizations`` is aligned with ``profile.optimizations``."""

    name: str
    rows: NDArray[np.int64]
    components: Sequence[str]  # a tuple, or End to end's ComponentNames
    listed: bool
    notes: str
    baseline_total: float
    optimizations: OptimizationFigures
    combined: Combined
    target: TargetFigures | None
    # Whether the figures are the trace's dependency-aware answer (End to end of a traced profile), the sum's
    # beside them in sum_new_total and sum_speedup; else they are the sum's.
    dependencies: bool = False
    sum_new_total: float | None = None
    sum_speedup: float | None = None

    @property
    def is_end_to_end(self) -> bool:
        return is_end_to_end(self.name)

    @property
    def new_total(self) -> float:
        return self.combined.new_total

    @property
    def overall_speedup(self) -> float:
        return self.combined.overall_speedup

    @property
    def ceiling(self) -> float:
        return self.combined.ceiling


def objective_order(
    objectives_of_component: Sequence[tuple[str, ...]], specs: Sequence[ObjectiveSpec]
) -> list[tuple[str, ObjectiveSpec | None]]:
    """End to end first, then the sheet's objectives that hold components, then the unlisted ones as first named."""
    return _order(_groups(objectives_of_component), specs)


def _order(
    groups: dict[tuple[str, ...], list[int]], specs: Sequence[ObjectiveSpec]
) -> list[tuple[str, ObjectiveSpec | None]]:
    named: dict[str, str] = {}
    for names in groups:
        for name in names:
            named.setdefault(objective_key(name), name)
    by_key = {objective_key(s.name): s for s in reversed(specs)}  # the first row wins
    order: list[tuple[str, ObjectiveSpec | None]] = []
    end = by_key.get(END_TO_END_KEY)
    order.append((end.name if end else END_TO_END, end))
    seen = {END_TO_END_KEY}
    for spec in specs:
        key = objective_key(spec.name)
        if key in named and key not in seen:
            seen.add(key)
            order.append((spec.name, by_key[key]))
    for key, name in named.items():
        if key not in seen:
            seen.add(key)
            order.append((name, None))
    return order


def analyse_objectives(
    profile: Profile,
    objectives_of_component: Sequence[tuple[str, ...]],
    specs: Sequence[ObjectiveSpec] = (),
    analysis: Analysis | None = None,
    named: bool | None = None,
) -> list[ObjectiveFigures]:
    """Every objective's figures, End to end first (whose figures equal the whole profile's analysis).

    ``objectives_of_component[i]`` names the objectives of ``profile.components[i]``.  End to end's
    target is its sheet row's, else the Settings' target time. Given the profile's ``analysis``, End to
    end's figures are taken from it, and a profile whose components name no objective is not looked at
    again (at every edit of a 10,000-component table that was 4 ms). ``named`` says whether any of
    ``objectives_of_component`` is not empty, when the caller knows (None: they are read).
    """
    comps = profile.components
    n = len(comps)
    if len(objectives_of_component) != n:
        raise ValueError(f"{len(objectives_of_component)} objective lists for {n} components")
    if named is None:
        named = any(map(bool, objectives_of_component))
    if analysis is not None and not named:
        name, spec = _order({}, specs)[0]
        return [_end_to_end(profile, analysis, name, spec)]
    plan = _plan(profile)
    members: dict[str, list[int]] = {}
    groups = _groups(objectives_of_component)
    for names, rows_of in groups.items():
        for key in {objective_key(name) for name in names}:
            members.setdefault(key, []).extend(rows_of)
    result = []
    for name, spec in _order(groups, specs):
        key = objective_key(name)
        if key == END_TO_END_KEY and analysis is not None:
            result.append(_end_to_end(profile, analysis, name, spec))
            continue
        if key == END_TO_END_KEY:
            mask = np.ones(n, dtype=bool)
            target = spec.target_time if spec and spec.target_time is not None else profile.settings.target_time
        else:
            mask = np.zeros(n, dtype=bool)
            mask[members[key]] = True
            target = spec.target_time if spec else None
        result.append(_figures(profile, plan, name, spec, mask, target))
    return result


_NAME_OF = operator.itemgetter(0)  # Component.name, at C speed over a whole table


def _end_to_end(profile: Profile, analysis: Analysis, name: str, spec: ObjectiveSpec | None) -> ObjectiveFigures:
    """End to end's figures: the whole profile's analysis, with its own target when its sheet row has one."""
    target = profile.settings.target_time
    if spec is not None and spec.target_time is not None:
        target = spec.target_time
    total = analysis.baseline_total
    if target == profile.settings.target_time:
        figures = analysis.target
    else:
        figures = target_figures(target, total, analysis.combined) if target is not None and total > 0 else None
    return ObjectiveFigures(
        name=name,
        rows=np.arange(len(profile.components)),
        components=ComponentNames(profile.components),
        listed=True,
        notes=spec.notes if spec else "",
        baseline_total=total,
        optimizations=analysis.optimizations,
        combined=analysis.combined,
        target=figures,
    )


@dataclass(frozen=True)
class _Plan:
    """What every objective shares: times, the optimization → component pairs, each component's speedup."""

    times: NDArray[np.float64]
    new_times: NDArray[np.float64]
    k_comp: NDArray[np.float64]
    opt_idx: NDArray[np.int64]
    comp_idx: NDArray[np.int64]
    on: NDArray[np.bool_]
    speedups: NDArray[np.float64]
    enabled: int
    names: NDArray[np.object_]


def _plan(profile: Profile) -> _Plan:
    """The same pairing and per-component products as :func:`~amdahl_desk.model.analysis.analyse`."""
    cached, _ = profile.arrays()
    times = cached.copy()
    pairs = plan_pairs(profile)
    names = np.empty(len(times), dtype=object)
    names[:] = [c.name for c in profile.components]
    return _Plan(
        times,
        times / pairs.k_comp,
        pairs.k_comp,
        pairs.opt_idx,
        pairs.comp_idx,
        pairs.on,
        pairs.speedups,
        int(pairs.enabled.sum()),
        names,
    )


def _figures(
    profile: Profile, plan: _Plan, name: str, spec: ObjectiveSpec | None, mask: NDArray[np.bool_], target: float | None
) -> ObjectiveFigures:
    times, speedups, opt_idx, comp_idx = plan.times, plan.speedups, plan.opt_idx, plan.comp_idx
    m = len(speedups)
    rows = np.flatnonzero(mask)
    total = exact_sum(times[rows])
    inside = mask[comp_idx] if comp_idx.size else np.zeros(0, dtype=bool)
    affected = np.bincount(opt_idx[inside], weights=times[comp_idx[inside]], minlength=m) if m else np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f_opt = np.clip(affected / total, 0.0, 1.0) if total > 0 else np.zeros(m)
    new_opt = total * ((1.0 - f_opt) + f_opt / speedups) if m else np.zeros(0)
    per_opt = OptimizationFigures(f_opt, amdahl_speedup(f_opt, speedups), new_opt, total - new_opt, ceiling(f_opt))

    here = plan.on & inside
    hits = np.bincount(comp_idx[here], minlength=len(times))
    new_total = exact_sum(plan.new_times[rows])
    f_union = min(exact_sum(times[hits > 0]) / total, 1.0) if total > 0 else 0.0
    combined = Combined(
        enabled=plan.enabled,
        fraction=f_union,
        overall_speedup=total / new_total if new_total > 0 else (math.inf if total > 0 else 1.0),
        new_total=new_total,
        time_saved=total - new_total,
        ceiling=float(ceiling(f_union)),
        overlaps=tuple(overlaps_of(profile, hits, comp_idx[here], opt_idx[here], plan.k_comp)),
    )
    return ObjectiveFigures(
        name=name,
        rows=rows,
        components=tuple(plan.names[rows].tolist()),
        listed=spec is not None or is_end_to_end(name),
        notes=spec.notes if spec else "",
        baseline_total=total,
        optimizations=per_opt,
        combined=combined,
        target=target_figures(target, total, combined) if target is not None and total > 0 else None,
    )


def find_objective(figures: Sequence[ObjectiveFigures], name: str) -> ObjectiveFigures | None:
    """The objective called ``name`` (any spelling), or ``None``."""
    key = objective_key(name)
    return next((f for f in figures if objective_key(f.name) == key), None)


def restrict_analysis(analysis: Analysis, objective: ObjectiveFigures) -> Analysis:
    """``analysis`` seen through one objective, for the picker: the headline, charts and sentence follow it.

    Arrays stay aligned with the profile's components; those outside the objective have time 0.
    GPU scaling stays the whole workload's.
    """
    if objective.is_end_to_end:
        return analysis
    mask = np.zeros(len(analysis.times), dtype=bool)
    mask[objective.rows] = True
    times = np.where(mask, analysis.times, 0.0)
    total = objective.baseline_total
    return replace(
        analysis,
        baseline_total=total,
        times=times,
        fractions=times / total if total > 0 else np.zeros_like(times),
        new_times=np.where(mask, analysis.new_times, 0.0),
        optimizations=objective.optimizations,
        combined=objective.combined,
        target=objective.target,
    )


def with_dependencies(objectives: Sequence[ObjectiveFigures], answer: TraceAnswer) -> list[ObjectiveFigures]:
    """``objectives`` with the step's answer on the trace's critical path where an objective is the step: End to end,
    and any other that holds every component. Their plan's speedup, new total, time saved and ceiling, each
    optimization's alone and the target's verdict are the dependency-aware ones (``answer``, usable), the sum's
    kept beside; an objective of some components keeps the sum of their times (the trace answers the step, not
    a part of it). ``answer`` is of the same profile and analysis as ``objectives``."""
    out = []
    every = max((len(o.rows) for o in objectives), default=0)  # End to end's: every component
    for o in objectives:
        whole = o.is_end_to_end or len(o.rows) == every
        if not whole or not answer.usable or o.baseline_total != answer.baseline:
            out.append(o)
            continue
        total = o.baseline_total
        c = o.combined
        combined = replace(
            c,
            overall_speedup=answer.speedup,
            new_total=answer.new_total,
            time_saved=total - answer.new_total,
            ceiling=answer.ceiling,
        )
        speedups = np.array([a.speedup if a.speedup is not None else math.nan for a in answer.options], dtype=float)
        known = np.isfinite(speedups) & (speedups > 0)
        sums = o.optimizations
        speedups = np.where(known, speedups, sums.overall_speedup)
        with np.errstate(divide="ignore"):
            new = np.where(known, total / np.where(known, speedups, 1.0), sums.new_total)
        ceilings = np.array([math.inf if a.ceiling is None else a.ceiling for a in answer.options], dtype=float)
        per_opt = replace(
            sums,
            overall_speedup=speedups,
            new_total=new,
            time_saved=total - new,
            ceiling=np.where(known, ceilings, sums.ceiling),
        )
        from .traces.plan_answer import target_on_path

        out.append(
            replace(
                o,
                optimizations=per_opt,
                combined=combined,
                target=target_on_path(o.target, total, answer) if o.target is not None else None,
                dependencies=True,
                sum_new_total=c.new_total,
                sum_speedup=c.overall_speedup,
            )
        )
    return out
