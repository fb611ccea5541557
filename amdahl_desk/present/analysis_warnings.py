"""An analysis' warnings in words, once, for the window, the slide, the workbook, ``report`` and its JSON."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, cast

from ..model.analysis_warnings import AnalysisWarning, WarningKind
from ..model.units import TimeUnit, format_percent, format_speedup, format_time
from .counted import GPUS, Counted


def warning_text(w: AnalysisWarning, unit: TimeUnit, c: Counted = GPUS) -> str:
    """The warning's sentence, in the files' number format (the window localises it with ``Numbers.message``); N
    counts ``c`` (a CPU job's ranks, ``present/counted``)."""
    v = cast("dict[str, Any]", w.values)
    kind = w.kind
    if kind is WarningKind.SLOWDOWN:
        return f'"{v["optimization"]}" has k = {v["k"]:g}: below 1 it is a slowdown, not a speedup'
    if kind is WarningKind.OVERLAP:
        more = f" (and {v['more']} more)" if v["more"] else ""
        return (
            "; ".join(
                f'"{component}" is sped up by {" and ".join(optimizations)}: '
                f"their speedups multiply to {format_speedup(speedup)}"
                for component, optimizations, speedup in v["overlaps"]
            )
            + more
        )
    if kind is WarningKind.PARALLEL_FRACTION_CUT:
        return (
            f"the parallel fraction {v['fraction']:.0%} leaves less time than the "
            f"measured communication ({format_time(v['communication'], unit)}); using {v['used']:.1%}"
        )
    if kind is WarningKind.RING_CLAMP:
        return (
            f"the measured communication, {format_time(v['communication'], unit)} at N0 = {v['n0']:,} {c.many}, is below "
            f"the ring model's own all-reduce time there, {format_time(v['ring0'], unit)}: below N0 the model's "
            f"communication C + ring(N) − ring(N0) would be negative, so it is held at 0 from {c.count(v['below'])} "
            "down; check the ring latency, message size and bandwidth against the measurement"
        )
    if kind is WarningKind.N0_ABOVE_COUNTS:
        return (
            f"Settings, Baseline GPUs: the times were measured on N0 = {v['n0']:,} {c.many}, more than every "
            f"{c.one} count evaluated (up to {v['largest']:,}): each point is a scale-down with a speedup below 1; "
            f"set Max GPUs above N0, or N0 to the {c.one} count the times were measured on"
        )
    count = v["count"]
    text = (
        f"P = {format_percent(v['p'])} rests on scaling classes the import guessed: {count:,} "
        f"component{'s' * (count != 1)} ({format_percent(v['share'])} of the time, {format_percent(v['parallel'])} guessed "
        "parallel); confirm or change each guessed class (marked ? in the window's Scaling column, yes in the "
        "workbook's Scaling guessed column)"
    )
    if math.isinf(v["ceiling"]):
        text += (
            f": the ceiling of {format_speedup(v['ceiling'])} and the best speedup at the most {c.many} hold only if "
        )
        text += "every guessed parallel class is right"
    return text


def warning_texts(warnings: Iterable[AnalysisWarning], unit: TimeUnit, c: Counted = GPUS) -> list[str]:
    """Each warning's sentence, in order (N counting ``c``)."""
    return [warning_text(w, unit, c) for w in warnings]
