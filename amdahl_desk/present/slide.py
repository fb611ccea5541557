"""The slide's words: a title that states the result, the subtitle, the decision in one to three sentences, four
headline figures and the footer — each sentence and figure taken from the view the window's summary shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.profile import Profile
from ..model.units import TimeUnit
from .job import missing_sentence, ranges, straggler_name, whose_ranks
from .numbers import POINT, Numbers
from .plan_answer import answer_target, sum_same
from .report import target_sentence
from .summary import Figure, SummaryView, summary
from .text import phrases
from .tones import Sentence, Tone
from .trace_plan import TraceFigures, current_answer

if TYPE_CHECKING:
    from .decision import DecisionView
    from .job_charts import JobFigures

AMDAHL_FOOTER = "Amdahl's law: S = 1/((1−f)+f/k); speedups of separate parts never add."


@dataclass(frozen=True)
class SlideView:
    """What a slide says: ``figures`` are four (value, caption) pairs; the footer may be rich text; ``decision`` the
    one to three sentences a review decides on (the odds and the cheapest plan, the plan on the trace's
    dependencies), under the title."""

    title: str
    subtitle: str
    figures: tuple[Figure, Figure, Figure, Figure]
    footer: str
    decision: tuple[Sentence, ...] = ()


def slide_title(profile: Profile, analysis: Analysis, n: Numbers = POINT, said: SummaryView | None = None) -> str:
    """A title that states the result, e.g. "Matmul 4× → 1.82× end to end (ceiling 2.5×)": the summary's figures
    (``said``: with the trace's dependencies for a profile that carries its trace), else the sum's.

    Its phrases are held together with no-break spaces: a title that wraps does so between
    "on 60% of the time" and "→ 1.82× end to end", never inside "(ceiling 2.5×)".
    """
    c = analysis.combined
    speedup, new_time, ceiling = n.speedup(c.overall_speedup), n.time(c.new_total, profile.unit), n.speedup(c.ceiling)
    if said is not None and said.dependencies.text:
        speedup, new_time, ceiling = said.speedup.value, said.new_time.value, said.ceiling.value
    enabled = [o for o in profile.optimizations if o.enabled]
    if len(enabled) == 1:
        o = enabled[0]
        return f"{o.name}: " + phrases(
            f"{n.speedup(o.speedup)} on {n.percent(c.fraction)} of the time",
            f"→ {speedup} end to end",
            f"(ceiling {ceiling})",
        )
    if enabled:
        return phrases(
            f"{len(enabled)} optimizations together:",
            f"{n.time(analysis.baseline_total, profile.unit)} → {new_time},",
            f"{speedup} end to end",
            f"(ceiling {ceiling})",
        )
    return phrases(f"Baseline {n.time(analysis.baseline_total, profile.unit)}:", "where the time goes")


def decision_sentences(
    profile: Profile,
    analysis: Analysis,
    n: Numbers = POINT,
    *,
    trace: TraceFigures | None = None,
    decided: DecisionView | None = None,
    job: JobFigures | None = None,
) -> tuple[Sentence, ...]:
    """The sentences a review decides on, as the summary says them. With k as ranges: the odds of the target and the
    cheapest plan; for a profile that carries its trace and has a target, what the sum promises beside them and why
    the two differ, when they do (the title states the answer). Otherwise, for a traced profile, the answer with its
    dependencies and the sum beside it; else the headline sentence. Sentences still being computed are left out."""
    said = summary(profile, analysis, n, trace=trace, job=job)
    lines = [decided.odds, decided.plan] if decided is not None else []
    shown = tuple(s for s in lines if s.text and s.tone is not Tone.MUTED)[:2]
    if not said.dependencies.text:
        return shown or (Sentence(said.sentence),)
    if not shown or profile.settings.target_time is None:  # the answer on the path, and the sum beside it
        return (Sentence(said.sentence, said.speedup.tone), Sentence(said.dependencies.text))
    answer = current_answer(trace, profile, analysis)
    # Where the sum promises the same, saying so decides nothing; where it differs, the reason is the third sentence.
    agrees = answer is not None and not isinstance(answer, str) and sum_same(answer)
    return shown if agrees else (*shown, Sentence(said.dependencies.text))


def slide(
    profile: Profile,
    analysis: Analysis,
    n: Numbers = POINT,
    *,
    trace: TraceFigures | None = None,
    decided: DecisionView | None = None,
    job: JobFigures | None = None,
) -> SlideView:
    """The profile's slide: the result as its title, the decision's sentences, the summary's headline figures, the
    target verdict as its footer. ``trace`` is what is known of the profile's trace; ``decided`` the summary's
    lines about the odds and the cheapest plan (None: the profile has neither); ``job`` the job of many ranks the
    profile stands for: the figures, the title and the verdict are then the job's."""
    unit = profile.unit
    boundary = profile.settings.boundary or "Measured profile"
    said = summary(profile, analysis, n, trace=trace, job=job)
    if job is not None:
        ranks = n.count(len(job.job.ranks))
        answer = f"{said.speedup.value} {said.speedup.caption}"
        plan = job.answer
        if plan is not None and analysis.combined.enabled:  # the plan's step, before and after, and where it acts
            on = (
                "every rank"
                if plan.on_ranks is None
                else f"rank{'s' * (len(plan.on_ranks) != 1)} {ranges(plan.on_ranks)}"
            )
            answer = (
                f"{said.speedup.value} faster a step ({n.time(plan.baseline, TimeUnit.MS)} → "
                f"{n.time(plan.predicted, TimeUnit.MS)}) on {on}"
            )
        if not analysis.combined.enabled:  # nothing ticked: the job as measured, and whom it waits for
            answer = f"{n.time(job.job.step_time, TimeUnit.MS)} a step"
            if job.job.straggler is not None:
                answer += f", rank {job.job.straggler} {straggler_name(job.job)}"
        return SlideView(
            phrases(f"{whose_ranks(job.job, ranks)}:", answer),
            f"{job.name} · the job's step {n.time(job.job.step_time, TimeUnit.MS)} · the table: {boundary}",
            said.figures,
            f"{said.verdict.mark} {said.verdict.text}".strip() if profile.settings.target_time else AMDAHL_FOOTER,
            _job_sentences(said, decided, missing_sentence(job.job)),
        )
    return SlideView(
        slide_title(profile, analysis, n, said),
        f"{boundary} · baseline {n.time(analysis.baseline_total, unit)} over "
        f"{n.count(len(profile.components))} components",
        said.figures,
        _footer(profile, analysis, n, trace),
        decision_sentences(profile, analysis, n, trace=trace, decided=decided),
    )


def _job_sentences(said: SummaryView, decided: DecisionView | None, missing: str = "") -> tuple[Sentence, ...]:
    """A job's slide: what the plan buys the job (``missing``: the ranks its traces state and were not given, after
    it), then its odds when estimates have ranges (each draw replayed through the ranks), else the profile's own
    rank beside it."""
    odds = decided.odds if decided is not None else Sentence("")
    second = odds if odds.text and odds.tone is not Tone.MUTED else said.dependencies
    return tuple(x for x in (Sentence(said.sentence + missing, said.speedup.tone), second) if x.text)


def _footer(profile: Profile, analysis: Analysis, n: Numbers, trace: TraceFigures | None) -> str:
    """The target verdict: with the trace's dependencies for a profile that carries its trace (the sum's figure
    beside it), "…" while that is computed; else the sum's, with the speedup its targets need."""
    answer = current_answer(trace, profile, analysis)
    if answer is None:
        return target_sentence(profile, analysis, n) or AMDAHL_FOOTER
    if isinstance(answer, str):
        return f"Target: {answer} (computing on the trace's critical path)" if analysis.target else AMDAHL_FOOTER
    return answer_target(profile, analysis, answer, n) or AMDAHL_FOOTER


def slide_selection(profile: Profile, selected: int) -> int:
    """Which optimization the slide's charts follow: the selected one when it is ticked or when none is; else -1,
    the first ticked one (the plan the slide's title states), so that a row merely selected in the window, not in
    the plan, is not what the slide's speedup chart shows."""
    opts = profile.optimizations
    if 0 <= selected < len(opts) and not opts[selected].enabled and any(o.enabled for o in opts):
        return -1
    return selected
