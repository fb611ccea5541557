"""What each column of the components table sorts by when its header is clicked: the value, never its text."""

from __future__ import annotations

import math
from collections.abc import Callable

from ...model.analysis import Analysis
from ...model.names import name_key
from ...model.profile import Component
from ...present.trace_plan import TraceFigures
from .component_table import (
    GROUP,
    K_MOVES,
    NAME,
    NEW_TIME,
    NOTES,
    OBJECTIVES,
    ON_PATH,
    SCALING,
    SHARE,
    SLACK,
    TIME,
    TIME_HIGH,
    TIME_LOW,
)

Key = Callable[[int], str | float]


def _or_time(component: Component, bound: float | None) -> float:
    return component.time if bound is None else bound


def sort_keys(comps: list[Component], analysis: Analysis | None, figures: TraceFigures | None) -> dict[int, Key]:
    """Per column, the key of row i. A time's missing bound sorts as the time itself (its range is the time alone);
    the trace's columns by their figures, components the trace does not know (or before its figures come) last."""
    found = {name_key(k): v for k, v in (figures.components or {}).items()} if figures is not None else {}

    def path(col: int) -> Key:
        def key(i: int) -> float:
            p = found.get(name_key(comps[i].name))
            if p is None:
                return -math.inf
            if col == ON_PATH:
                return p.on_path
            if col == SLACK:
                return p.slack
            return -math.inf if p.on_path <= 0 else math.inf if p.k_moves is None else p.k_moves  # never moves: first

        return key

    return {
        NAME: lambda i: comps[i].name.casefold(),
        TIME: lambda i: comps[i].time,
        SHARE: lambda i: comps[i].time,
        SCALING: lambda i: comps[i].scaling.value,
        NEW_TIME: (lambda i: float(analysis.new_times[i])) if analysis is not None else (lambda i: comps[i].time),
        GROUP: lambda i: comps[i].group.casefold(),
        OBJECTIVES: lambda i: "; ".join(comps[i].objectives).casefold(),
        NOTES: lambda i: comps[i].notes.casefold(),
        TIME_LOW: lambda i: _or_time(comps[i], comps[i].time_low),
        TIME_HIGH: lambda i: _or_time(comps[i], comps[i].time_high),
        ON_PATH: path(ON_PATH),
        SLACK: path(SLACK),
        K_MOVES: path(K_MOVES),
    }
