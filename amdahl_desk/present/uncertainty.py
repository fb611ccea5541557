"""The plan under uncertainty in words: the review sentence, the slide's line, the tornado's and the ranking's rows,
the chart labels and the cheapest plan — for the window, the slide, the workbook's Summary and ``report``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.profile import Optimization, Profile
from .numbers import POINT, Numbers

if TYPE_CHECKING:  # the odds' and the search's modules load with the first estimate that needs them
    from ..model.plan_search import PlanSearch
    from ..model.uncertainty import UncertaintyFigures

DISTRIBUTION_TITLE = "Distribution of the new time"
TORNADO_TITLE = "What matters most: the speedup with each optimization at its low and high k"


@dataclass(frozen=True)
class SensitivityRow:
    """One bar of the tornado: the speedup with this optimization at its low and at its high k."""

    name: str
    low: str  # "1.67×"
    high: str  # "2×"
    swing: str  # "0.33×"
    label: str  # "Reduced precision: 1.67–2.00×"


@dataclass(frozen=True)
class RankingRow:
    """An optimization's expected time saved alone and per engineer-day."""

    name: str
    saved: str  # "453 ms"
    effort: str  # "5 engineer-days", or "no effort given"
    per_day: str  # "90.7 ms per engineer-day", or "—"
    line: str


@dataclass(frozen=True)
class Mark:
    """A vertical line on the distribution chart: where, and its label."""

    value: float
    label: str


@dataclass(frozen=True)
class UncertaintyView:
    """What a person reads about the enabled plan under uncertainty."""

    sentence: str  # the review sentence
    slide: str  # "1.83× median, 1.67–2.00×, 58% to meet 550 ms"
    method: str  # how it was computed: draws, seed, distribution, what is exact
    new_total: str  # "New total 500–600 ms; p5 517 ms, median 545 ms, p95 580 ms, mean 547 ms."
    speedup: str
    odds: str | None  # "58% probability of meeting 550 ms"; None without a target
    sensitivity: tuple[SensitivityRow, ...]
    ranking: tuple[RankingRow, ...]
    distribution_title: str
    marks: tuple[Mark, ...]  # p5, median, p95 and the target
    tornado_title: str


@dataclass(frozen=True)
class PlanView:
    """The cheapest plan in words (or why there is none)."""

    sentence: str
    names: tuple[str, ...]
    effort: str | None
    probability: str | None


def days(value: float, numbers: Numbers = POINT) -> str:
    """``5 engineer-days``, ``1 engineer-day``, ``0.5 engineer-days``."""
    return f"{numbers.number(value)} engineer-day{'' if value == 1 else 's'}"


def estimate_text(opt: Optimization, numbers: Numbers = POINT) -> str:
    """``3–6×, likely 4×``; ``4×`` for a point; with ``, 70% likely to work`` below 100%."""
    low, high = opt.speedup_range
    text = (
        f"{numbers.number_range(low, high)}×, likely {numbers.speedup(opt.speedup)}"
        if high > low
        else numbers.speedup(opt.speedup)
    )
    if opt.confidence < 1:
        text += f", {chance(opt.confidence, numbers)} likely to work"
    return text


def chance(p: float, numbers: Numbers = POINT) -> str:
    """A probability as a percentage that never rounds to a certainty it is not: ``58%``, ``<0.1%``, ``>99.9%``."""
    if p <= 0:
        return numbers.percent(0.0)
    if p >= 1:
        return numbers.percent(1.0)
    if p < 0.001:
        return f"<{numbers.percent(0.001)}"
    if p > 0.999:
        return f">{numbers.number(99.9)}%"
    text = numbers.percent(p)  # below 1, never 100%
    if text == numbers.percent(0.0):
        return f"<{numbers.percent(0.01)}"
    return text


def _names(names: Sequence[str]) -> str:
    """``Fused prefill + Faster decode``: names hold "and" and commas of their own."""
    return " + ".join(names)


def _target_clause(u: UncertaintyFigures, profile: Profile, subject: str, numbers: Numbers) -> str:
    if u.target is None:
        return ""
    unit = profile.unit
    goal = numbers.time(u.target, unit)
    if subject == "the baseline" and u.never_meets:
        return f"; it never meets {goal} without an optimization"
    if u.unreachable:
        return (
            f"; {subject} can never meet {goal}, whatever the speedups: what the enabled optimizations leave "
            f"untouched takes at least {numbers.time(u.floor, unit)}"
        )
    if u.never_meets:
        return (
            f"; {subject} cannot meet {goal}: even at its best (every high k, every time at its low) it takes "
            f"{numbers.time(u.best_case, unit)}"
        )
    if u.always_meets:
        return f"; {subject} {'meet' if subject == 'they' else 'meets'} {goal} in every case"
    meets = "meet" if subject == "they" else "meets"
    return f"; {subject} {meets} {goal} with {chance(u.probability_target or 0.0, numbers)} probability"


def review_sentence(profile: Profile, u: UncertaintyFigures, numbers: Numbers = POINT, brief: bool = False) -> str:
    """``Reduced precision (3–6×, likely 4×) makes the whole workload 1.67–2.00× faster, 1.83× at the median; it
    meets 550 ms with 58% probability.`` ``brief``: the plan named by its count ("The 2 enabled optimizations
    together make…"), for a place too narrow for its names, where cutting the end would lose the odds."""
    enabled = [o for o in profile.optimizations if o.enabled]
    s = u.overall_speedup
    spread = numbers.speedup_range(s.low, s.high)
    median = numbers.speedup(s.p50)
    whole = "the job's step" if u.job_ranks else "the whole workload"
    if not enabled:
        subject = "the baseline"
        # the components' sum, said as such: beside a trace's headline (its step with the dependencies, 78.8 ms)
        # "the median run takes 74.8 ms" read as a second answer
        total = numbers.time(u.new_total.p50, profile.unit)
        what = f"No optimization is enabled: the components' times add up to {total} at the median"
    elif len(enabled) == 1:
        o = enabled[0]
        works = " if it works" if o.confidence < 1 else ""
        subject = "it"
        name = "The enabled optimization" if brief else o.name
        what = f"{name} ({estimate_text(o, numbers)}) makes {whole} {spread} faster{works}, {median} at the median"
    else:
        works = " if they all work" if any(o.confidence < 1 for o in enabled) else ""
        shown = [f"{o.name} ({estimate_text(o, numbers)})" for o in enabled] if len(enabled) <= 3 and not brief else []
        lead = f"{_names(shown)} together make" if shown else f"The {len(enabled)} enabled optimizations together make"
        subject = "they"
        what = f"{lead} {whole} {spread} faster{works}, {median} at the median"
    return what + _target_clause(u, profile, subject, numbers) + "."


def slide_line(profile: Profile, u: UncertaintyFigures, numbers: Numbers = POINT) -> str:
    """``1.83× median, 1.67–2.00×, 58% to meet 550 ms``."""
    s = u.overall_speedup
    parts = [f"{numbers.speedup(s.p50)} median", numbers.speedup_range(s.low, s.high)]
    if u.target is not None:
        goal = numbers.time(u.target, profile.unit)
        if u.never_meets:
            parts.append(f"never meets {goal}")
        else:
            parts.append(f"{chance(u.probability_target or 0.0, numbers)} to meet {goal}")
    return ", ".join(parts)


def _method(u: UncertaintyFigures, numbers: Numbers) -> str:
    if u.job_ranks:
        return (
            f"{numbers.count(u.draws)} draws (seed {u.seed}), each replayed through the job's "
            f"{numbers.count(u.job_ranks)} ranks: k as PERT three-point estimates, times as every rank measured "
            "them; bounds and what matters most are exact, the percentiles and odds sampled."
        )
    text = (
        f"{numbers.count(u.draws)} draws (seed {u.seed}), k and times as PERT three-point estimates; bounds and "
        "what matters most are exact, the percentiles and odds sampled"
    )
    t = u.times
    if t.ranged > t.exact:
        text += (
            f"; {numbers.count(t.exact)} of {numbers.count(t.ranged)} time ranges drawn one by one, the others' sums as "
            f"normals (CDF within {numbers.number(t.normal_error)} by Berry–Esseen)"
        )
    return text + "."


def uncertainty_view(profile: Profile, u: UncertaintyFigures, numbers: Numbers = POINT) -> UncertaintyView:
    """Every text about ``u`` (the figures of ``profile``'s enabled plan), in ``numbers``' separators."""
    unit = profile.unit
    t, s = u.new_total, u.overall_speedup

    def time(value: float) -> str:
        return numbers.time(value, unit)

    new_total = (
        f"New total {numbers.number_range(t.low, t.high)} {unit.label} from every high to every low k; p5 {time(t.p5)}, median "
        f"{time(t.p50)}, p95 {time(t.p95)}, mean {time(t.mean)}."
    )
    if t.low == t.high:
        new_total = (
            f"New total {time(t.low)} with every k as given; p5 {time(t.p5)}, median {time(t.p50)}, p95 {time(t.p95)}."
        )
    speedup = (
        f"Speedup {numbers.speedup_range(s.low, s.high)}; p5 {numbers.speedup(s.p5)}, median {numbers.speedup(s.p50)}, "
        f"p95 {numbers.speedup(s.p95)}, mean {numbers.speedup(s.mean)}."
    )
    odds = None
    if u.target is not None:
        goal = time(u.target)
        odds = (
            f"never meets {goal}"
            if u.never_meets
            else f"{chance(u.probability_target or 0.0, numbers)} probability of meeting {goal}"
        )
    rows = tuple(
        SensitivityRow(
            r.name,
            numbers.speedup(r.speedup_at_low),
            numbers.speedup(r.speedup_at_high),
            numbers.speedup(r.swing),
            f"{r.name}: {numbers.speedup_range(r.speedup_at_low, r.speedup_at_high)}",
        )
        for r in u.sensitivity
    )
    ranking = []
    for v in u.ranking:
        saved = time(v.expected_time_saved)
        effort = days(v.effort, numbers) if v.effort is not None else "no effort given"
        if v.saved_per_day is None:
            per_day, line = "—", f"{v.name}: saves {saved} on average; {effort}"
        elif math.isinf(v.saved_per_day):
            per_day, line = "free", f"{v.name}: saves {saved} on average for no effort"
        else:
            per_day = f"{time(v.saved_per_day)} per engineer-day"
            line = f"{v.name}: {per_day} ({saved} on average for {effort})"
        ranking.append(RankingRow(v.name, saved, effort, per_day, line))
    marks = [Mark(t.p5, f"p5 {time(t.p5)}"), Mark(t.p50, f"median {time(t.p50)}"), Mark(t.p95, f"p95 {time(t.p95)}")]
    if u.target is not None:
        marks.append(Mark(u.target, f"target {time(u.target)}"))
    return UncertaintyView(
        review_sentence(profile, u, numbers),
        slide_line(profile, u, numbers),
        _method(u, numbers),
        new_total,
        speedup,
        odds,
        rows,
        tuple(ranking),
        DISTRIBUTION_TITLE,
        tuple(marks),
        TORNADO_TITLE,
    )


def ranking_tip(profile: Profile, u: UncertaintyFigures, row: int, numbers: Numbers = POINT) -> str | None:
    """An optimization's place in the ranking by expected time saved per engineer-day, for its Effort cell:
    "Kernel fusion: 30 ms per engineer-day (60 ms on average for 2 engineer-days); 2nd of 3 by time saved per
    engineer-day". None for a row the figures do not know."""
    view = uncertainty_view(profile, u, numbers)
    ranked = [v for v in u.ranking if v.saved_per_day is not None]
    for value, shown in zip(u.ranking, view.ranking, strict=True):
        if value.index != row:
            continue
        if value.saved_per_day is None:
            return f"{shown.line}: give it an effort to rank it by time saved per engineer-day"
        place = ranked.index(value) + 1
        return f"{shown.line}; {_ordinal(place)} of {len(ranked)} by time saved per engineer-day"
    return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plan_view(profile: Profile, search: PlanSearch, numbers: Numbers = POINT) -> PlanView:
    """The cheapest plan's sentence: ``Reduced precision and Kernel fusion reach 550 ms with 85% probability for
    9 engineer-days (median 530 ms): the cheapest plan at 80% confidence.``"""
    unit = profile.unit
    goal = numbers.time(search.target, unit)
    level = numbers.percent(search.confidence)
    plan = search.cheapest
    bound = ""
    if not search.exact and search.effort_lower_bound is not None:
        bound = (
            f" (searched by a heuristic over {numbers.count(len(search.candidates))} optimizations with an effort: "
            f"no plan reaching {level} costs less than {days(search.effort_lower_bound, numbers)})"
        )
    if plan is None:
        everything = [profile.optimizations[j] for j in search.candidates]
        total = math.fsum(o.effort or 0.0 for o in everything)
        sentence = (
            f"No set of the optimizations with an effort reaches {goal} with {level} probability; all "
            f"{numbers.count(len(everything))} of them together reach it with {chance(search.probability_all, numbers)} "
            f"({days(total, numbers)})"
        )
        return PlanView(sentence + bound + ".", (), None, None)
    probability = chance(plan.probability_target, numbers)
    median = numbers.time(plan.new_total_p50, unit)
    if not plan.names:
        sentence = (
            f"The baseline already meets {goal} with {probability} probability: no optimization is needed at {level}"
        )
        return PlanView(sentence + bound + ".", (), days(0.0, numbers), probability)
    verb = "reaches" if len(plan.names) == 1 else "reach"
    sentence = (
        f"{_names(plan.names)} {verb} {goal} with {probability} probability for {days(plan.effort, numbers)} "
        f"(median {median}): the cheapest plan at {level} confidence"
    )
    return PlanView(sentence + bound + ".", plan.names, days(plan.effort, numbers), probability)


def likelier_sentence(profile: Profile, u: UncertaintyFigures, numbers: Numbers = POINT) -> str:
    """What would make the target likelier (what matters most without one), in words: the tornado's largest
    swing, the odds an optimization works, or that only other components can help; "" when nothing varies."""
    unit = profile.unit
    goal = numbers.time(u.target, unit) if u.target is not None else ""
    if u.target is not None and u.unreachable:
        return (
            f"Only other components can make {goal} possible: what the enabled optimizations leave untouched takes "
            f"at least {numbers.time(u.floor, unit)}."
        )
    if u.target is not None and u.never_meets:
        return (
            f"{goal} needs more than these estimates: at every high estimate the plan takes "
            f"{numbers.time(u.best_case, unit)}; a higher k or another optimization is needed."
        )
    if u.always_meets:
        goal = ""  # met in every case: what matters most, without a target to make likelier
    enabled = [o for o in profile.optimizations if o.enabled]
    doubtful = min((o for o in enabled if o.confidence < 1), key=lambda o: o.confidence, default=None)
    risk = f"whether {doubtful.name} works ({chance(doubtful.confidence, numbers)} likely)" if doubtful else ""
    lead = f"To make {goal} likelier, look first at" if goal else "What matters most:"
    if u.sensitivity:
        top = u.sensitivity[0]
        low, high = profile.optimizations[top.index].speedup_range
        swing = numbers.speedup_range(top.speedup_at_low, top.speedup_at_high)
        others = ", more than any other estimate" if len(u.sensitivity) > 1 else ""
        text = (
            f"{lead} {top.name}: its k from {numbers.speedup(low)} to {numbers.speedup(high)} swings the speedup "
            f"{swing}{others}"
        )
        return text + (f"; {risk} matters too." if risk else ".")
    if risk:
        return f"{lead} {risk}."
    if u.times.ranged and not u.job_ranks:  # a job's step is replayed as measured on every rank: no time varies
        return "Only the measured times vary: measuring them again (more steps) narrows the answer."
    return ""


def alone_clause(names: Sequence[str], plan_size: int) -> str:
    """Which of a plan's ``plan_size`` optimizations can never reach the target alone: ``Faster decode alone never
    can``, ``neither alone ever can``; "" for none."""
    if not names:
        return ""
    if len(names) == plan_size and plan_size > 1:
        return "neither alone ever can" if plan_size == 2 else "none of them alone ever can"
    if len(names) == 1:
        return f"{names[0]} alone never can"
    return f"{names[0]} alone never can, nor can {' or '.join(names[1:])} alone"


def never_plan_sentence(profile: Profile, search: PlanSearch, best: float, numbers: Numbers = POINT) -> str:
    """When even every optimization with an effort cannot reach the target, whatever the odds."""
    unit = profile.unit
    count = len(search.candidates)
    who = (
        "the one optimization with an effort"
        if count == 1
        else f"all {numbers.count(count)} optimizations with an effort together"
    )
    return (
        f"No plan can reach {numbers.time(search.target, unit)}, whatever the odds: even {who} take "
        f"{numbers.time(best, unit)} at every high estimate."
    )


SHOWN = 5  # tornado bars and ranking rows a report lists before "…"


ON_THE_PATH = (
    "The odds, what matters most, the time each saves and the cheapest plan are worked out on the trace's critical "
    "path (each draw's k scales its targets' events and every step is recomputed)."
)


def report_lines(view: UncertaintyView | None, plan: str | None, likelier: str = "", traced: bool = False) -> list[str]:
    """The report's block about uncertainty and plans, one line each (empty when there is neither): ``plan`` and
    ``likelier`` as the summary says them (:func:`~amdahl_desk.present.decision.decision_view`); ``traced``: they
    come from the trace's dependency model, said once at the end."""
    lines: list[str] = []
    if view is not None:
        lines.append(f"Under uncertainty: {view.sentence}")
        if likelier:
            lines.append(f"  {likelier}")
        lines.append(f"  {view.new_total}")
        lines.append(f"  {view.speedup}")
        if view.sensitivity:
            shown = "; ".join(f"{r.label} (swing {r.swing})" for r in view.sensitivity[:SHOWN])
            more = "; …" if len(view.sensitivity) > SHOWN else "."
            lines.append(f"  What matters most: {shown}{more}")
        if any(r.per_day != "—" for r in view.ranking):
            lines.append("  Expected time saved per engineer-day:")
            lines.extend(f"    {r.line}" for r in view.ranking[:SHOWN])
            if len(view.ranking) > SHOWN:
                lines.append(f"    … and {len(view.ranking) - SHOWN} more")
        lines.append(f"  ({view.method[0].upper()}{view.method[1:]})")
    if plan is not None:
        lines.append(f"Cheapest plan: {plan}")
    if lines and traced:
        lines.append(ON_THE_PATH)
    if lines:
        lines.append("")
    return lines
