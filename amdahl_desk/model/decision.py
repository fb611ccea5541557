"""What a profile's estimates call for: the plan under uncertainty, the cheapest plan, or neither."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the draws, the odds and the plan search load only for a profile that calls for them
    from .analysis import Analysis
    from .plan_search import PlanSearch
    from .profile import Profile
    from .uncertainty import UncertaintyFigures


@dataclass(frozen=True)
class Decision:
    """The enabled plan under uncertainty (when some estimate has a range or odds below 100%, or a time a range)
    and the cheapest plan (when there is a target and some optimization has an effort), on the same draws."""

    figures: UncertaintyFigures | None
    search: PlanSearch | None


def decide(profile: Profile, analysis: Analysis, seed: int | None = None) -> Decision | None:
    """The :class:`Decision` of ``profile`` on the draws of ``seed`` (default 0); ``None`` when neither applies."""
    uncertain = profile.has_uncertainty()
    target = profile.settings.target_time
    planning = profile.wants_plan()
    if not uncertain and not planning:
        return None
    from .draws import DEFAULT_SEED, make_draws
    from .plan_search import cheapest_plan
    from .uncertainty import analyse_uncertainty

    draws = make_draws(profile, DEFAULT_SEED if seed is None else seed)
    figures = analyse_uncertainty(profile, analysis, draws=draws) if uncertain else None
    search = None
    if planning and target is not None:
        search = cheapest_plan(profile, draws, target, profile.settings.plan_confidence)
    return Decision(figures, search)
