"""Acting on a comparison: adopt the measured k into the plan, or continue from the after profile."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .analysis import plan_pairs
from .component_matching import match_components
from .names import name_key as _key
from .profile import Optimization, Profile
from .units import format_speedup

if TYPE_CHECKING:
    from .comparison import Comparison, ComponentComparison


@dataclass(frozen=True)
class AdoptedK:
    """One enabled optimization's planned k and the effective k measured on its targets (``None``: kept)."""

    name: str
    planned: float
    measured: float | None
    note: str = ""


@dataclass(frozen=True)
class Adoption:
    """The optimizations with measured k in place of planned k, ready to replace the plan's in one step."""

    optimizations: tuple[Optimization, ...]
    changes: tuple[AdoptedK, ...]

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(f"{c.name}: {c.note}" for c in self.changes if c.note)


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
        note = (
            f"{', '.join(gone)} {'is' if len(gone) == 1 else 'are'} gone from the after profile; left out"
            if gone
            else ""
        )
        if b_sum > 0 and a_sum > 0:
            k = b_sum / a_sum
            # A measured k is a point: the estimate's range and the odds that it works are behind it.
            result.append(replace(o, speedup=k, speedup_low=None, speedup_high=None, confidence=1.0))
            changes.append(AdoptedK(o.name, o.speedup, k, note))
            continue
        why = "its targets were eliminated (an infinite k)" if b_sum > 0 else "nothing of its targets was measured"
        changes.append(AdoptedK(o.name, o.speedup, None, f"{why}; k stays at {format_speedup(o.speedup)}"))
        result.append(o)
    return Adoption(tuple(result), tuple(changes))


@dataclass(frozen=True)
class Continued:
    """The after profile as the next working document, with what had to change on the way."""

    profile: Profile
    notes: tuple[str, ...]


def continue_from_after(
    before: Profile, after: Profile, pairs: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
) -> Continued:
    """The after profile, in the before profile's unit and settings, with the plan's optimizations unticked.

    Every optimization of ``before`` (enabled or not: the untried ones are the next candidates) is
    carried over unticked, its targets renamed through the matching (``pairs`` and equal names);
    targets that no longer exist are dropped, and an optimization left with none is dropped, each
    with a note.  The after profile's own optimizations follow, unticked, unless one of the same
    name was carried over.
    """
    matches, _ = match_components(before, after, pairs)
    new_name = {
        _key(before.components[b].name): after.components[a].name for b, a in matches if b is not None and a is not None
    }
    notes: list[str] = []
    carried: list[Optimization] = []
    for o in before.optimizations:
        targets = tuple(new_name[_key(t)] for t in o.targets if _key(t) in new_name)
        lost = [t for t in o.targets if _key(t) not in new_name]
        if not targets:
            notes.append(f"{o.name}: dropped; {', '.join(lost)} no longer exist{'s' if len(lost) == 1 else ''}")
            continue
        if lost:
            notes.append(f"{o.name}: {', '.join(lost)} dropped from its targets; no longer in the after profile")
        carried.append(replace(o, targets=targets, enabled=False))
    names = {_key(o.name) for o in carried}
    carried += [replace(o, enabled=False) for o in after.optimizations if _key(o.name) not in names]
    comps = [c.in_unit(after.unit, before.unit) for c in after.components]
    settings = before.settings
    return Continued(Profile(comps, carried, settings, before.unit), tuple(notes))
