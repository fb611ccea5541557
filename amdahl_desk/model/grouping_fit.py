"""How much of a trace's time an import's grouping puts into named work, and which other grouping puts more.

A grouping explains almost nothing when its components are one row of time in no annotation (a model
without ``record_function``), one annotation wrapping everything, or mostly an idle GPU: Amdahl's law
then has nothing to split. Facts only; the words are :mod:`amdahl_desk.present.grouping_fit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import ProfileError
from .traces.result import ImportResult

# A grouping that names less than this share of the time as work, or fewer than two rows of it, explains little.
EXPLAINS_LITTLE = 0.5
# Components that are no piece of work: time in no annotation or no op, the GPU waiting.
NOT_WORK = frozenset({"outside-annotations", "idle", "gpu:idle"})
# The groupings to try instead, best first, by format (speedscope and nsys have one grouping each).
ALTERNATIVES = {"pytorch": ("op", "annotation", "gpu")}


@dataclass(frozen=True)
class GroupingFit:
    """What one grouping named: its work rows and their share of the time."""

    group_by: str
    work_rows: int
    work_share: float  # 0–1 of the components' total
    rows: int  # all components, Unattributed and idle included

    @property
    def explains_little(self) -> bool:
        return self.work_rows < 2 or self.work_share < EXPLAINS_LITTLE


def grouping_fit(result: ImportResult) -> GroupingFit:
    """How much of ``result``'s time its grouping names as work."""
    total = result.total
    work = [c for c in result.components if c.events not in NOT_WORK and c.time > 0]
    share = sum(c.time for c in work) / total if total > 0 else 0.0
    return GroupingFit(result.group_by, len(work), share, len(result.components))


def other_groupings(result: ImportResult, summarise: Callable[[str], ImportResult]) -> tuple[GroupingFit, ...]:
    """When ``result``'s grouping explains little, the other groupings tried (``summarise(group_by)`` makes each
    with the same options), best first, up to the first that does not (the last then); () when it explains enough.
    None explaining more is a fact too: the trace is mostly waiting, or in no event at all."""
    if not grouping_fit(result).explains_little:
        return ()
    tried: list[GroupingFit] = []
    for group_by in ALTERNATIVES.get(result.format, ()):
        if group_by == result.group_by:
            continue
        try:
            fit = grouping_fit(summarise(group_by))
        except ProfileError:  # no GPU events, no CPU thread: that grouping cannot be had
            continue
        tried.append(fit)
        if not fit.explains_little:
            break
    return tuple(tried)
