"""An analysis' warnings in words, once, for the window, the slide, the workbook, ``report`` and its JSON."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, cast

from ..model.analysis_warnings import AnalysisWarning, WarningKind
from ..model.units import TimeUnit
from .counted import GPUS, Counted
from .numbers import POINT, Numbers


def warning_text(w: AnalysisWarning, unit: TimeUnit, c: Counted = GPUS, n: Numbers = POINT) -> str:
    """The warning's sentence, its numbers written by ``n`` (the desktop's in the window, ``POINT`` in files and on
    the command line); N counts ``c`` (a CPU job's ranks, ``present/counted``)."""
    v = cast("dict[str, Any]", w.values)
    kind = w.kind
    if kind is WarningKind.SLOWDOWN:
        return f'"{v["optimization"]}" has k = {n.plain(v["k"], "g")}: below 1 it is a slowdown, not a speedup'
    if kind is WarningKind.OVERLAP:
        more = f" (and {v['more']} more)" if v["more"] else ""
        return (
            "; ".join(
                f'"{component}" is sped up by {" and ".join(optimizations)}: '
                f"their speedups multiply to {n.speedup(speedup)}"
                for component, optimizations, speedup in v["overlaps"]
            )
            + more
        )
    if kind is WarningKind.PARALLEL_FRACTION_CUT:
        return (
            f"the parallel fraction {n.plain(v['fraction'], '.0%')} leaves less time than the "
            f"measured communication ({n.time(v['communication'], unit)}); using {n.plain(v['used'], '.1%')}"
        )
    if kind is WarningKind.RING_CLAMP:
        return (
            f"the measured communication, {n.time(v['communication'], unit)} at N0 = {n.count(v['n0'])} {c.many}, is below "
            f"the ring model's own all-reduce time there, {n.time(v['ring0'], unit)}: below N0 the model's "
            f"communication C + ring(N) − ring(N0) would be negative, so it is held at 0 from {c.count(v['below'], n)} "
            "down; check the ring latency, message size and bandwidth against the measurement"
        )
    if kind is WarningKind.N0_ABOVE_COUNTS:
        return (
            f"Settings, Baseline GPUs: the times were measured on N0 = {n.count(v['n0'])} {c.many}, more than every "
            f"{c.one} count evaluated (up to {n.count(v['largest'])}): each point is a scale-down with a speedup below 1; "
            f"set Max GPUs above N0, or N0 to the {c.one} count the times were measured on"
        )
    count = v["count"]
    text = (
        f"P = {n.percent(v['p'])} rests on scaling classes the import guessed: {n.count(count)} "
        f"component{'s' * (count != 1)} ({n.percent(v['share'])} of the time, {n.percent(v['parallel'])} guessed "
        "parallel); confirm or change each guessed class (marked ? in the window's Scaling column, yes in the "
        "workbook's Scaling guessed column)"
    )
    if math.isinf(v["ceiling"]):
        text += f": the ceiling of {n.speedup(v['ceiling'])} and the best speedup at the most {c.many} hold only if "
        text += "every guessed parallel class is right"
    return text


def warning_texts(
    warnings: Iterable[AnalysisWarning], unit: TimeUnit, c: Counted = GPUS, n: Numbers = POINT
) -> list[str]:
    """Each warning's sentence, in order (N counting ``c``, numbers written by ``n``)."""
    return [warning_text(w, unit, c, n) for w in warnings]
