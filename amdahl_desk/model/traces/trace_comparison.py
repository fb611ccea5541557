"""Two traces, before and after a change: what the trace's dependencies predict from the changes measured per
component, beside what the sum of the components' times predicts and what the steps measure."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..comparison import Comparison
from ..profile import Profile
from .component_events import component_masks
from .events import MS_PER_US
from .whatif import PathTrace


@dataclass(frozen=True)
class DependencyCheck:
    """End to end: the before trace's critical path with each component sped up by its measured k
    (``predicted_speedup``), the same k's on the sum of the components (``sum_speedup``), and the mean step
    before over the mean step after (``measured_speedup``)."""

    predicted_speedup: float
    sum_speedup: float | None
    measured_speedup: float
    ks: tuple[tuple[str, float], ...]
    unmatched: tuple[str, ...]  # components the before trace's events could not be found for


def check_with_dependencies(
    before: PathTrace,
    matchers: Sequence[tuple[str, str]],
    times: Mapping[str, float],
    ks: Mapping[str, float],
    after_step: float,
) -> DependencyCheck:
    """``matchers`` (component, matcher) of the before profile, ``times`` its component times and ``ks`` the
    measured k of each (before / after; inf: eliminated); ``after_step`` the after trace's mean step (ms)."""
    masks = component_masks(before, matchers)
    factor = np.ones(len(before.graph.time))
    used: list[tuple[str, float]] = []
    for name, k in ks.items():
        mask = masks.get(name)
        if mask is None or not k > 0:
            continue
        factor[mask] *= k
        used.append((name, k))
    predicted = before.mean(before.scheduler.run(factor).length)
    baseline = before.mean(before.baseline.length)
    total = sum(times.values())
    after_sum = sum(t / ks.get(n, 1.0) for n, t in times.items())
    return DependencyCheck(
        predicted_speedup=baseline / predicted if predicted > 0 else float("inf"),
        sum_speedup=total / after_sum if after_sum > 0 else None,
        measured_speedup=baseline / after_step if after_step > 0 else float("inf"),
        ks=tuple(used),
        unmatched=tuple(n for n in times if n not in masks or not masks[n].any()),
    )


def measured_ks(c: Comparison) -> dict[str, float]:
    """Each before component's measured k (before / after; inf: eliminated), as the comparison found it."""
    ks = {
        r.name: (math.inf if r.eliminated else r.measured_k) for r in c.rows if r.measured_k is not None or r.eliminated
    }
    return {k: v for k, v in ks.items() if v is not None}


def check_comparison(before: PathTrace, profile: Profile, c: Comparison, after_step: float) -> DependencyCheck:
    """:func:`check_with_dependencies` for a comparison of ``profile`` (imported from the trace ``before``) with
    a profile imported from a trace whose mean step is ``after_step`` (ms)."""
    times = {comp.name: comp.time for comp in profile.components}
    return check_with_dependencies(before, profile.settings.trace_events, times, measured_ks(c), after_step)


def mean_step(steps: Sequence[tuple[float, float]]) -> float | None:
    """The mean length (ms) of steps given as (start, end) in µs; None without steps."""
    return sum(e - s for s, e in steps) / len(steps) * MS_PER_US if steps else None
