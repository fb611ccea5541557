"""The plan under uncertainty and the cheapest plan as the JSON contract's ``uncertainty`` and ``plans`` objects."""

from __future__ import annotations

import math
from typing import Any

from ..model.plan_search import PlanSearch
from ..model.profile import Profile
from ..model.uncertainty import Spread, UncertaintyFigures


def _num(value: float | None) -> float | None:
    """JSON has no infinity: an unbounded figure is ``null``."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def _spread(s: Spread) -> dict[str, Any]:
    return {k: _num(getattr(s, k)) for k in ("low", "high", "p5", "p50", "p95", "mean")}


def uncertainty_json(u: UncertaintyFigures) -> dict[str, Any]:
    """``uncertainty``: the draws, the spread of the speedup and the new total, the odds, the tornado, the ranking."""
    return {
        "draws": u.draws,
        "seed": u.seed,
        "distribution": "pert",
        "job_ranks": u.job_ranks or None,  # the draws replayed through a job of this many ranks
        "overall_speedup": _spread(u.overall_speedup),
        "new_total": _spread(u.new_total),
        "probability_target": u.probability_target,
        "best_case": u.best_case,
        "worst_case": u.worst_case,
        "never_meets": u.never_meets,
        "sensitivity": [
            {
                "name": s.name,
                "speedup_at_low": _num(s.speedup_at_low),
                "speedup_at_high": _num(s.speedup_at_high),
                "swing": _num(s.swing),
            }
            for s in u.sensitivity
        ],
        "ranking": [
            {
                "name": v.name,
                "expected_time_saved": v.expected_time_saved,
                "effort": v.effort,
                "saved_per_day": _num(v.saved_per_day),
            }
            for v in u.ranking
        ],
        "time_draws": {"ranged": u.times.ranged, "exact": u.times.exact, "normal_error": u.times.normal_error},
    }


def plans_json(profile: Profile, search: PlanSearch) -> dict[str, Any]:
    """``plans``: the confidence level and the cheapest plan that reaches it (``null`` when none does)."""
    plan = search.cheapest
    return {
        "confidence": search.confidence,
        "candidates": [profile.optimizations[j].name for j in search.candidates],
        "exact": search.exact,
        "effort_lower_bound": search.effort_lower_bound,
        "probability_all": search.probability_all,
        "cheapest": None
        if plan is None
        else {
            "optimizations": list(plan.names),
            "effort": plan.effort,
            "probability_target": plan.probability_target,
            "new_total_p50": plan.new_total_p50,
        },
    }
