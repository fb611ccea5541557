"""Acting on a comparison: adopt the measured k into the plan, or continue from the after profile."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from .analysis import plan_pairs
from .component_matching import match_components
from .names import name_key as _key
from .profile import Optimization, Profile
from .units import format_speedup

if TYPE_CHECKING:
    from .comparison import Comparison, ComponentComparison


class Kept(Enum):
    """Why an optimization keeps its planned k."""

    ELIMINATED = "eliminated"  # its targets were eliminated: the measured k would be infinite
    UNMEASURED = "unmeasured"  # nothing of its targets was measured after


@dataclass(frozen=True)
class AdoptedK:
    """One enabled optimization's planned k and the effective k measured on its targets (``None``: kept, and
    ``kept`` says why); ``gone``: its targets the after profile no longer has (left out). Worded by
    ``present/comparison_words.adoption_note``."""

    name: str
    planned: float
    measured: float | None
    gone: tuple[str, ...] = ()
    kept: Kept | None = None


@dataclass(frozen=True)
class Adoption:
    """The optimizations with measured k in place of planned k, ready to replace the plan's in one step."""

    optimizations: tuple[Optimization, ...]
    changes: tuple[AdoptedK, ...]


def _share_after(k: float, r: ComponentComparison, hit_by: int) -> float:
    """The after-time that optimization (k) accounts for on a component it shares with others.

    The measured k of the component, m = before/after, is split among its optimizations in
    proportion to the logarithms of their planned k: each gets k^(ln m / ln p), p the product of
    the planned k.  The shares multiply back to m, and each keeps its part of the promise.
    """
    before, after = r.before or 0.0, r.after or 0.0
    if hit_by == 1 or before == 0:
        return after
    if after == 0:
        return 0.0
    log_m, log_p = math.log(before / after), math.log(r.predicted_k)
    share = math.exp(log_m / hit_by) if abs(log_p) < 1e-12 else k ** (log_m / log_p)
    return before / share


def adopt_measured_k(before: Profile, comparison: Comparison) -> Adoption:
    """Each enabled optimization's k replaced by the effective k measured on its targets.

    Effective k = (sum of its targets' before-times) / (sum of their after-times): a time-weighted k,
    so one target of 900 ms weighs nine times one of 100 ms.  A component that two enabled
    optimizations both speed up has one measured k, m; it is shared in proportion to the
    logarithms of their planned k (k₁^(ln m/ln(k₁k₂)) and k₂^(ln m/ln(k₁k₂))), so the adopted k
    multiply back to m: 2× and 3× planned, 3× measured gives 3^(ln2/ln6) ≈ 1.53× and 3^(ln3/ln6) ≈ 1.96×.

    An adopted k is a measurement: the optimization's range and confidence go (its effort stays).
    Disabled optimizations keep their k (nothing was built to measure).  Targets that no longer exist
    are left out; an optimization whose targets are all gone, or were all eliminated (k would be
    infinite), keeps its k and says why in its note.
    """
    by_row = plan_pairs(before).enabled_by_component(before)
    counts = {_key(before.components[row].name): len(names) for row, names in by_row.items()}
    # Targets are before names; an added after-component may share a renamed one's old name.
    rows = {_key(r.name): r for r in comparison.rows if r.before is not None}
    result: list[Optimization] = []
    changes: list[AdoptedK] = []
    for o in before.optimizations:
        if not o.enabled:
            result.append(o)
            continue
        b_sum = a_sum = 0.0
        gone: list[str] = []
        for t in o.targets:
            r = rows.get(_key(t))
            if r is None or r.before is None or r.after is None:
                gone.append(t)
                continue
            b_sum += r.before
            a_sum += _share_after(o.speedup, r, counts[_key(t)])
        if b_sum > 0 and a_sum > 0:
            k = b_sum / a_sum
            # A measured k is a point: the estimate's range and the odds that it works are behind it.
            result.append(replace(o, speedup=k, speedup_low=None, speedup_high=None, confidence=1.0))
            changes.append(AdoptedK(o.name, o.speedup, k, tuple(gone)))
            continue
        kept = Kept.ELIMINATED if b_sum > 0 else Kept.UNMEASURED
        changes.append(AdoptedK(o.name, o.speedup, None, tuple(gone), kept))
        result.append(o)
    return Adoption(tuple(result), tuple(changes))


@dataclass(frozen=True)
class Continued:
    """The after profile as the next working document, with what had to change on the way."""

    profile: Profile
    notes: tuple[Dropped, ...]


@dataclass(frozen=True)
class Dropped:
    """Targets of an optimization that the after profile no longer has: dropped from it, or (``whole``) the
    optimization dropped with them. Worded by ``present/comparison_words.continued_note``."""

    optimization: str
    targets: tuple[str, ...]
    whole: bool


def continue_from_after(
    before: Profile,
    after: Profile,
    pairs: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    measured: Mapping[str, float | None] | None = None,
) -> Continued:
    """The after profile as the next working document, with everything the before profile says of itself.

    Its times are the after profile's, in the before profile's unit; its settings, objectives (the Objectives
    sheet, each component's Objectives where the after profile names none), groups and notes (where the after
    profile has none) and measured runs are the before profile's. The plan (the enabled optimizations) is
    carried as **built**: done, off, k = 1 against the after times, its planned k (and the ``measured`` k of
    its targets, when given) in its notes. The optimizations that were not in the plan are carried unticked,
    as the next candidates; each has its targets renamed through the matching (``pairs`` and equal names),
    a target that no longer exists is dropped, and an optimization left with none is dropped, each with a
    note. The after profile's own optimizations follow, unticked, unless one of the same name was carried.
    """
    matches, _ = match_components(before, after, pairs)
    new_name = {
        _key(before.components[b].name): after.components[a].name for b, a in matches if b is not None and a is not None
    }
    old_of = {a: b for b, a in matches if b is not None and a is not None}
    notes: list[Dropped] = []
    carried: list[Optimization] = []
    for o in before.optimizations:
        targets = tuple(new_name[_key(t)] for t in o.targets if _key(t) in new_name)
        lost = [t for t in o.targets if _key(t) not in new_name]
        if not targets:
            notes.append(Dropped(o.name, tuple(lost), whole=True))
            continue
        if lost:
            notes.append(Dropped(o.name, tuple(lost), whole=False))
        if o.enabled and not o.built:
            carried.append(_built(o, targets, (measured or {}).get(o.name)))
        else:
            carried.append(replace(o, targets=targets, enabled=False))
    names = {_key(o.name) for o in carried}
    carried += [replace(o, enabled=False) for o in after.optimizations if _key(o.name) not in names]
    comps = []
    for i, c in enumerate(after.components):
        c = c.in_unit(after.unit, before.unit)
        b = old_of.get(i)
        if b is not None:  # what the before profile said of this component, where the after profile says nothing
            was = before.components[b]
            c = c._replace(
                group=c.group or was.group,
                notes=c.notes or was.notes,
                objectives=c.objectives or was.objectives,
            )
        comps.append(c)
    profile = Profile(
        comps,
        carried,
        before.settings,
        before.unit,
        objectives=before.objectives,
        measurements=before.measurements,
    )
    return Continued(profile, tuple(notes))


def _built(o: Optimization, targets: tuple[str, ...], measured: float | None) -> Optimization:
    """The plan's optimization, done: off, k = 1 against the after times, what it was planned to give kept."""
    said = f"built: planned {format_speedup(o.speedup)}"
    if measured is not None:
        said += f", measured {format_speedup(measured)} on its targets"
    return replace(
        o,
        targets=targets,
        speedup=1.0,
        enabled=False,
        built=True,
        speedup_low=None,
        speedup_high=None,
        confidence=1.0,
        notes=f"{said}; {o.notes}" if o.notes else said,
    )
