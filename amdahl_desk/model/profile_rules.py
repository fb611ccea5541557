"""The rules components and optimizations must keep: names one unique printable line, times finite, targets real."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import replace
from operator import itemgetter
from typing import NamedTuple

from .errors import Problem, Refusal
from .names import name_key, name_keys, name_problem
from .numbers import ParseError
from .profile_values import TIME_HIGH_AT, TIME_LOW_AT, Component, Optimization
from .units import check_speedup, check_time, time_ok, times_ok

_NAME, _TIME = itemgetter(0), itemgetter(1)
_TIME_LOW, _TIME_HIGH = itemgetter(TIME_LOW_AT), itemgetter(TIME_HIGH_AT)


def table_row(row: int) -> str:
    """A row of the components table as the window numbers it: 1-based."""
    return f"row {row + 1}"


class CheckedColumns(NamedTuple):
    """The names and times of a components list that a reader has held to the rules cell by cell:
    every name stripped, printable and not empty, every time a finite float ≥ 0. Only that the
    names are unique is left to check."""

    names: Sequence[str]
    times: Sequence[float]


def component_problems(
    components: Sequence[Component],
    first_row: dict[str, int] | None = None,
    row_name: Callable[[int], str] = table_row,
    checked: CheckedColumns | None = None,
) -> list[Problem]:
    """Names empty or repeated (by :func:`~.names.name_key`), times negative or not finite.

    Fills ``first_row`` (when given) with each name's key and row, for reuse as the name index.
    ``row_name`` names another row in a message (a file reader names the sheet cell or CSV row).
    ``checked``: the components' columns as a reader checked them (see :class:`CheckedColumns`).
    """
    problems: list[Problem] = []
    first_row = {} if first_row is None else first_row
    if not first_row and checked is not None and len(checked.names) == len(components):
        if _unique_keys(checked.names, first_row):
            return time_range_problems(components)
    elif not first_row and len(components) > 64 and _all_valid(components, first_row):
        return time_range_problems(components)
    for row, comp in enumerate(components):
        name, time = comp[0], comp[1]
        key = name_key(name)
        # The common case first, at C speed: a new, printable name and a finite time ≥ 0.
        if key and key not in first_row and name.isprintable():
            first_row[key] = row
        elif not key:
            problems.append(Problem.of(Refusal.NO_NAME, "components", row, "name"))
        elif (bad := name_problem(name)) is not None:
            problems.append(Problem.of(Refusal.NAME_NOT_ONE_LINE, "components", row, "name", name, bad))
        elif key in first_row:
            problems.append(duplicate_name(name, row_name(first_row[key]), row))
        else:
            first_row[key] = row
        if time_ok(time):
            continue
        try:
            check_time(time)
        except ParseError as exc:
            problems.append(Problem(str(exc), "components", row, "time"))
        except TypeError:
            problems.append(Problem.of(Refusal.NOT_A_NUMBER, "components", row, "time", "time"))
    return problems + time_range_problems(components)


def duplicate_name(name: str, other: str, row: int) -> Problem:
    """Component ``row``'s ``name`` is held by another row, at the place ``other``."""
    return Problem.of(Refusal.DUPLICATE_NAME, "components", row, "name", name, other)


def new_component_problems(index: Mapping[str, int], row: int, components: Sequence[Component]) -> list[Problem]:
    """Rows to insert at ``row`` of a table whose names ``index`` holds (name key → row): each valid and named
    anew. O(new rows); the rows named are those the table will have once they are in."""
    problems = [replace(p, row=row + (p.row or 0)) for p in component_problems(components)]
    for i, comp in enumerate(components):
        other = index.get(name_key(comp.name), -1)
        if comp.name and other >= 0:
            problems.append(duplicate_name(comp.name, table_row(other + (other >= row) * len(components)), row + i))
    return problems


def time_range_problems(components: Sequence[Component]) -> list[Problem]:
    """Time ranges (Time low, Time high) that are not times or do not hold the component's measured time."""
    n = len(components)
    lows, highs = list(map(_TIME_LOW, components)), list(map(_TIME_HIGH, components))
    if lows.count(None) == n and highs.count(None) == n:  # the common case, at C speed
        return []
    problems: list[Problem] = []
    for row, comp in enumerate(components):
        low, high = lows[row], highs[row]
        if low is None and high is None:
            continue
        time = comp[1]
        for fld, value, side in (("time_low", low, "low"), ("time_high", high, "high")):
            if value is None:
                continue
            try:
                check_time(value)
            except (ParseError, TypeError) as exc:
                why = str(exc) if isinstance(exc, ParseError) else None
                problems.append(Problem.of(Refusal.RANGE_END_UNREADABLE, "components", row, fld, "time", side, why))
                continue
            if isinstance(time, float) and math.isfinite(time) and (value > time if side == "low" else value < time):
                problems.append(
                    Problem.of(Refusal.TIME_RANGE_OUTSIDE, "components", row, fld, side, comp[0], value, time)
                )
    return problems


def _all_valid(components: Sequence[Component], first_row: dict[str, int]) -> bool:
    """The common case of a big table, checked column by column at C speed: every name printable, not
    empty and unique (by name key), every time one :func:`~.units.check_time` takes. Fills ``first_row`` when so."""
    names = list(map(_NAME, components))
    if not all(names) or not all(map(str.isprintable, names)):
        return False
    times = list(map(_TIME, components))
    if not times_ok(times):
        return False
    return _unique_keys(names, first_row)


def _unique_keys(names: Sequence[str], first_row: dict[str, int]) -> bool:
    """Fill ``first_row`` with each name's key and row when no two names share a key."""
    keys = name_keys(names)
    index = dict(zip(keys, range(len(keys)), strict=True))
    if len(index) != len(keys):
        return False
    first_row.update(index)
    return True


def optimization_problems(
    optimizations: Sequence[Optimization], components: Sequence[Component], names: Container[str] | None = None
) -> list[Problem]:
    """Speedups ≤ 0, no targets, and targets that name no component (``names``: their keys, if known)."""
    if names is None:
        names = {name_key(c.name) for c in components}
    problems: list[Problem] = []
    for row, opt in enumerate(optimizations):
        bad = name_problem(opt.name)
        if bad is not None:
            problems.append(Problem.of(Refusal.NAME_NOT_ONE_LINE, "optimizations", row, "name", opt.name, bad))
        try:
            check_speedup(opt.speedup)
        except ParseError as exc:
            problems.append(Problem(str(exc), "optimizations", row, "speedup"))
        if opt.speedup_low is not None or opt.speedup_high is not None or opt.effort is not None:
            problems += estimate_problems(opt, row)
        if opt.confidence != 1.0:
            problems += confidence_problems(opt, row)
        if opt.built and opt.enabled:
            problems.append(Problem.of(Refusal.BUILT_AND_TICKED, "optimizations", row, "enabled", opt.name))
        if not opt.targets:
            problems.append(Problem.of(Refusal.NO_TARGETS, "optimizations", row, "targets", opt.name))
        missing = [t for t in opt.targets if name_key(t) not in names]
        if missing:
            problems.append(Problem.of(Refusal.NOT_COMPONENTS, "optimizations", row, "targets", *missing))
    return problems


def estimate_problems(opt: Optimization, row: int) -> list[Problem]:
    """A three-point k whose low is above the likely k or whose high is below it, a k ≤ 0, a negative effort."""
    problems: list[Problem] = []
    likely = opt.speedup
    for fld, value, side in (("speedup_low", opt.speedup_low, "low"), ("speedup_high", opt.speedup_high, "high")):
        if value is None:
            continue
        try:
            check_speedup(value)
        except (ParseError, TypeError) as exc:
            why = str(exc) if isinstance(exc, ParseError) else None
            problems.append(Problem.of(Refusal.RANGE_END_UNREADABLE, "optimizations", row, fld, "k", side, why))
            continue
        if math.isfinite(likely) and (value > likely if side == "low" else value < likely):
            problems.append(
                Problem.of(Refusal.K_RANGE_OUTSIDE, "optimizations", row, fld, side, opt.name, value, likely)
            )
    effort = opt.effort
    if effort is not None and not (isinstance(effort, (int, float)) and math.isfinite(effort) and effort >= 0):
        problems.append(Problem.of(Refusal.EFFORT, "optimizations", row, "effort", opt.name))
    return problems


def confidence_problems(opt: Optimization, row: int) -> list[Problem]:
    """A confidence that is not a probability from 0 to 100%."""
    c = opt.confidence
    if isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) and 0 <= c <= 1:
        return []
    return [Problem.of(Refusal.CONFIDENCE, "optimizations", row, "confidence", opt.name)]
