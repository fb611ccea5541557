"""The summary's lines about deciding under uncertainty: the odds of the ticked plan, what would make the target
likelier, and the cheapest plan that gets there (with what its Apply button ticks)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.profile import Profile
from .numbers import POINT, Numbers
from .summary import Sentence, Tone

ODDS_PENDING = "Working out the odds of this plan…"
PLAN_PENDING = "Looking for the cheapest plan…"
PLAN_HINT = "Give the optimizations an effort (days) and set a target: the summary then finds the cheapest plan."
JOB_PLAN = "Not searched for a job (each candidate plan is a read of every rank): tick a plan to see its odds."
APPLY_TIP = "Tick exactly {names} and untick the others, as one step (Edit → Undo takes it back)"

# The odds' and the search's modules, and their sentences (``present/uncertainty``), load with the first estimate
# that needs them: a profile of single values opens without them.
if TYPE_CHECKING:
    from ..model.plan_search import PlanSearch
    from ..model.uncertainty import UncertaintyFigures


@dataclass(frozen=True)
class DecisionView:
    """What the summary says about the odds and the plans; ``apply`` is what Apply plan ticks (None: nothing to
    apply), ``applied`` whether the checklist ticks exactly that already."""

    odds: Sentence = Sentence("")
    odds_brief: str = ""  # the odds with the plan named by its count, where the names leave no room for the odds
    likelier: str = ""
    plan: Sentence = Sentence("")
    apply: tuple[int, ...] | None = None
    applied: bool = False
    apply_tip: str = ""
    confidence: str = ""  # the plan confidence as its field shows it ("80%")

    @property
    def shown(self) -> bool:
        return bool(self.odds.text or self.plan.text)


def odds_tone(u: UncertaintyFigures, level: float) -> Tone:
    """Green when the plan meets the target at the plan confidence, red when it never can, amber in between."""
    if u.target is None:
        return Tone.PLAIN
    if u.never_meets or u.unreachable or not u.probability_target:
        return Tone.BAD
    return Tone.GOOD if u.always_meets or u.probability_target >= level else Tone.WARN


def plan_line(
    profile: Profile, analysis: Analysis, search: PlanSearch, n: Numbers = POINT
) -> tuple[Sentence, tuple[int, ...] | None]:
    """The cheapest plan's sentence as the summary, the Summary sheet and the report say it (with which of its
    optimizations never reach the target alone, or why no plan ever can), and what Apply plan ticks."""
    from ..model.draws import inputs_of
    from ..model.uncertainty import TOLERANCE, best_case
    from .uncertainty import alone_clause, never_plan_sentence, plan_view

    inputs = inputs_of(profile, analysis.pairs)
    plan = search.cheapest
    limit = search.target * (1 + TOLERANCE)
    if plan is None:
        best = best_case(profile, inputs, search.candidates)
        if best > limit:
            return Sentence(never_plan_sentence(profile, search, best, n), Tone.BAD), None
        return Sentence(plan_view(profile, search, n).sentence, Tone.WARN), None
    sentence = plan_view(profile, search, n).sentence
    if len(plan.optimizations) > 1:
        never = [profile.optimizations[j].name for j in plan.optimizations if best_case(profile, inputs, (j,)) > limit]
        clause = alone_clause(never, len(plan.optimizations))
        if clause:
            sentence = f"{sentence.removesuffix('.')}; {clause}."
    return Sentence(sentence, Tone.GOOD), plan.optimizations


def decision_view(
    profile: Profile,
    analysis: Analysis | None,
    figures: UncertaintyFigures | None,
    search: PlanSearch | None,
    n: Numbers = POINT,
    *,
    odds_pending: bool = False,
    plan_pending: bool = False,
    errors: Mapping[str, str] | None = None,
    job: bool = False,
) -> DecisionView:
    """The lines for ``figures`` (the ticked plan's odds, or None when nothing is uncertain) and ``search`` (None
    without a target or an effort); ``*_pending``: being computed for the profile as it is now (never the answer
    of a plan before); ``errors``: why the "odds" or the "plan" could not be computed; ``job``: the figures are a
    job's (no cheapest plan is searched for one)."""
    if analysis is None:
        return DecisionView()
    settings = profile.settings
    planning = profile.wants_plan()
    odds, odds_brief, likelier = Sentence(""), "", ""
    failed = errors or {}
    if "odds" in failed:
        odds = Sentence(f"The odds could not be worked out: {failed['odds']}", Tone.BAD)
    elif odds_pending:
        odds = Sentence(ODDS_PENDING, Tone.MUTED)
    elif figures is not None:
        from .uncertainty import likelier_sentence, review_sentence

        odds = Sentence(review_sentence(profile, figures, n), odds_tone(figures, settings.plan_confidence))
        odds_brief = review_sentence(profile, figures, n, brief=True)
        # Where no odds can meet the target, the odds' sentence already says why (and what it would take).
        likelier = "" if figures.never_meets or figures.unreachable else likelier_sentence(profile, figures, n)
    plan, apply = Sentence(""), None
    if "plan" in failed:
        plan = Sentence(f"The cheapest plan could not be found: {failed['plan']}", Tone.BAD)
    elif plan_pending:
        plan = Sentence(PLAN_PENDING, Tone.MUTED)
    elif search is not None:
        plan, apply = plan_line(profile, analysis, search, n)
    elif job and planning:
        plan = Sentence(JOB_PLAN, Tone.MUTED)
    elif figures is not None and settings.target_time is not None and not planning:
        plan = Sentence(PLAN_HINT, Tone.MUTED)
    ticked = tuple(j for j, o in enumerate(profile.optimizations) if o.enabled)
    tip = ""
    if apply is not None:
        names = [profile.optimizations[j].name for j in apply]
        tip = APPLY_TIP.format(names=" + ".join(names) if names else "nothing (the baseline meets the target)")
        if search is not None and search.cheapest is not None:
            from .uncertainty import chance

            tip += f"; {chance(search.cheapest.probability_target, n)} to meet the target"
    return DecisionView(
        odds, odds_brief, likelier, plan, apply, apply == ticked, tip, n.percent(settings.plan_confidence)
    )
