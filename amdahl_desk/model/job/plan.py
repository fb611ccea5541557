"""A profile's plan as a job's what-if: each ticked optimization's targets as the event match the job's ranks share.

The window shows a job as the profile of one rank (the straggler's import, see docs/jobs.md); its components
say which events they stand for (``Settings.trace_events``, :mod:`..traces.component_events`). A component whose
events are found the same way on every rank becomes a speedup the job's what-if applies to every rank (or to the
chosen ranks), matching on each rank the events the checklist's own figures scale on the profile's rank:

=============================  ============================================================================
``annotation:NAME``            kept: the time inside the annotations named NAME (every CPU thread's while
                               one runs, and the GPU work launched then), as the window's component
``op:NAME``                    kept: the own time of the operators named NAME on the steps' thread
``gpu:compute`` (``…memory``,  kept: the rank's GPU kernels of that kind
``…communication``)
``pattern:PATTERN``            PATTERN as it is
a component with no matcher    its name as a substring pattern (a row typed into the table, as ``--speedup``)
=============================  ============================================================================

The rest (``idle``, ``other:…``, the time outside annotations) is defined against the other components of one
rank's import, not a set of events of its own: such a target is left out of the job's answer, and said so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..profile import Optimization
from ..traces.component_events import is_component_matcher
from ..traces.patterns import Speedup

_PATTERN = "pattern:"
CEILING_K = 1e6  # a plan's ceiling: its targets' events this much faster (at 0 the replay would keep them whole)

PlanKey = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class JobPlan:
    """The speedups a plan makes for a job, and the targets that have no event match on every rank."""

    speedups: tuple[Speedup, ...]
    targets: tuple[tuple[str, str], ...]  # (target, pattern) per speedup, in order
    left_out: tuple[str, ...]  # targets that stand for no named events
    owners: tuple[int, ...] = ()  # per speedup: its optimization's index in the list the plan was made of

    @property
    def key(self) -> PlanKey:
        return tuple((s.pattern, s.k) for s in self.speedups)

    def ceiling(self) -> JobPlan:
        """The same targets' events made (all but) free: the most the plan could buy the job, whatever its k."""
        return replace(self, speedups=tuple(Speedup(s.pattern, CEILING_K) for s in self.speedups))


def target_pattern(name: str, matcher: str | None) -> str | None:
    """The pattern that matches ``name``'s events on every rank; None when the component names no events."""
    if matcher is None:
        return name if name.strip() else None
    if matcher.startswith(_PATTERN):
        return matcher[len(_PATTERN) :] or None
    return matcher if is_component_matcher(matcher) else None


def job_plan(optimizations: Sequence[Optimization], events: Mapping[str, str] | Sequence[tuple[str, str]]) -> JobPlan:
    """The ticked ``optimizations`` as speedups on every rank; ``events`` maps component names to matchers."""
    matchers = dict(events)
    speedups: list[Speedup] = []
    targets: list[tuple[str, str]] = []
    left_out: list[str] = []
    owners: list[int] = []
    for j, o in enumerate(optimizations):
        certain = o.speedup_range == (o.speedup, o.speedup) and o.confidence >= 1
        if not o.enabled or (o.speedup == 1 and certain):  # k = 1 for sure: nothing to read (a range is drawn)
            continue
        for t in o.targets:
            pattern = target_pattern(t, matchers.get(t))
            if pattern is None:
                if t not in left_out:
                    left_out.append(t)
                continue
            speedups.append(Speedup(pattern, float(o.speedup)))
            targets.append((t, pattern))
            owners.append(j)
    return JobPlan(tuple(speedups), tuple(targets), tuple(left_out), tuple(owners))


def alone_plan(optimization: Optimization, events: Mapping[str, str] | Sequence[tuple[str, str]]) -> JobPlan:
    """``optimization`` alone at its k, ticked or not (the checklist's figures of each row)."""
    return job_plan([replace(optimization, enabled=True)], events)


def plans_to_replay(
    optimizations: Sequence[Optimization], events: Mapping[str, str] | Sequence[tuple[str, str]]
) -> list[JobPlan]:
    """Every plan whose replay the job's figures show: the ticked plan and its ceiling, then each optimization
    alone and its ceiling (plans without speedups and repeats left out), the ticked plan's first."""
    whole = job_plan(optimizations, events)
    out: list[JobPlan] = []
    seen: set[PlanKey] = set()
    for p in (
        whole,
        whole.ceiling(),
        *(q for o in optimizations for a in [alone_plan(o, events)] for q in (a, a.ceiling())),
    ):
        if p.speedups and p.key not in seen:
            seen.add(p.key)
            out.append(p)
    return out
