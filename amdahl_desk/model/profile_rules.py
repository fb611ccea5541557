"""The rules components and optimizations must keep: names one unique printable line, times finite, targets real."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Container, Sequence
from operator import itemgetter
from typing import NamedTuple

from .errors import Problem
from .profile_values import Component, Optimization
from .units import MAX_TIME, ParseError, check_speedup, check_time

_NAME, _TIME = itemgetter(0), itemgetter(1)
# Line breaks, tabs and other control characters: a name is one line of visible text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a name (it holds a line break or a control character), or ``None``."""
    if name.isprintable():  # the common case, at C speed
        return None
    found = _CONTROL.search(name)
    if found is None:
        return None  # no-break and other Unicode spaces are fine
    char = found.group()
    what = (
        "a line break"
        if char in "\n\r\u2028\u2029"
        else ("a tab" if char == "\t" else f"the control character U+{ord(char):04X}")
    )
    return f'the name "{one_line(name)[:40]}" holds {what}; a name is one line of visible text'


def one_line(name: str) -> str:
    """``name`` made a valid name: line breaks and tabs become one space, other control characters U+FFFD."""
    if name.isprintable():
        return name
    text = re.sub(r"[\t\n\r\u2028\u2029]+", " ", name)
    return " ".join(_CONTROL.sub("\ufffd", text).split(" ")).strip()


def name_key(name: str) -> str:
    return name.strip().casefold()


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
    """Names empty or repeated (case-insensitively), times negative or not finite.

    Fills ``first_row`` (when given) with each name's key and row, for reuse as the name index.
    ``row_name`` names another row in a message (a file reader names the sheet cell or CSV row).
    ``checked``: the components' columns as a reader checked them (see :class:`CheckedColumns`).
    """
    problems: list[Problem] = []
    first_row = {} if first_row is None else first_row
    if not first_row and checked is not None and len(checked.names) == len(components):
        if _unique_keys(checked.names, first_row):
            return problems
    elif not first_row and len(components) > 64 and _all_valid(components, first_row):
        return problems
    for row, comp in enumerate(components):
        name, time = comp[0], comp[1]
        key = name.casefold()  # names are stripped on construction
        # The common case first, at C speed: a new, printable name and a finite time ≥ 0.
        if key and key not in first_row and name.isprintable():
            first_row[key] = row
        elif not key:
            problems.append(
                Problem("the component has no name; every component needs a unique name", "components", row, "name")
            )
        elif (bad_name := name_problem(name)) is not None:
            problems.append(Problem(bad_name, "components", row, "name"))
        elif key in first_row:
            problems.append(
                Problem(
                    f'"{name}" is a duplicate name (also in {row_name(first_row[key])}); '
                    "component names must be unique",
                    "components",
                    row,
                    "name",
                )
            )
        else:
            first_row[key] = row
        if type(time) is float and 0 <= time <= MAX_TIME:
            continue
        try:
            check_time(time)
        except ParseError as exc:
            problems.append(Problem(str(exc), "components", row, "time"))
        except TypeError:
            problems.append(Problem("the time is not a number", "components", row, "time"))
    return problems


def _all_valid(components: Sequence[Component], first_row: dict[str, int]) -> bool:
    """The common case of a big table, checked column by column at C speed: every name printable, not
    empty and unique (case-insensitively), every time a finite float ≥ 0. Fills ``first_row`` when so."""
    names = list(map(_NAME, components))
    if not all(names) or not all(map(str.isprintable, names)):
        return False
    times = list(map(_TIME, components))
    if set(map(type, times)) != {float} or not (min(times) >= 0.0 and max(times) <= MAX_TIME):
        return False
    if any(map(math.isnan, times)):
        return False
    return _unique_keys(names, first_row)


def _unique_keys(names: Sequence[str], first_row: dict[str, int]) -> bool:
    """Fill ``first_row`` with each name's key and row when no two names share a key."""
    keys = list(map(str.casefold, names))
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
        bad_name = name_problem(opt.name)
        if bad_name is not None:
            problems.append(Problem(bad_name, "optimizations", row, "name"))
        try:
            check_speedup(opt.speedup)
        except ParseError as exc:
            problems.append(Problem(str(exc), "optimizations", row, "speedup"))
        if not opt.targets:
            problems.append(
                Problem(
                    f'"{opt.name}" has no targets; expected one or more component names separated by ";"',
                    "optimizations",
                    row,
                    "targets",
                )
            )
        missing = [t for t in opt.targets if name_key(t) not in names]
        if missing:
            listed = ", ".join(f'"{t}"' for t in missing)
            problems.append(
                Problem(
                    f"{listed} {'is not a component' if len(missing) == 1 else 'are not components'}; "
                    "expected names from the Components table",
                    "optimizations",
                    row,
                    "targets",
                )
            )
    return problems
