"""The answer in large print: the headline figures, the design-review sentence, the target verdict, the notes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.errors import Problem
from ..model.objectives import ObjectiveFigures
from ..model.outcomes import Outcomes
from ..model.profile import Profile
from .analysis_warnings import warning_texts
from .counted import counted
from .numbers import POINT, Numbers
from .objectives import objective_caption
from .refusals import problem_text
from .report import headline, target_sentence
from .tones import Sentence, Tone
from .trace_plan import COMPUTING, TraceFigures, dependency_line, trace_based, trace_notes

if TYPE_CHECKING:
    from .job_charts import JobFigures

__all__ = ["Figure", "Sentence", "SummaryView", "Tone", "summary"]


@dataclass(frozen=True)
class Figure:
    """One headline number with its caption under it and what it means (a tooltip)."""

    value: str
    caption: str
    tip: str = ""
    tone: Tone = Tone.PLAIN


@dataclass(frozen=True)
class SummaryView:
    """Everything the summary shows, formatted: four figures, the sentence, the verdict and the notes."""

    speedup: Figure
    new_time: Figure
    saved: Figure
    ceiling: Figure
    sentence: str
    verdict: Sentence
    notes: tuple[str, ...] = ()
    dependencies: Sentence = Sentence("")  # the plan with the trace's dependencies, for a trace-based profile

    @property
    def figures(self) -> tuple[Figure, Figure, Figure, Figure]:
        return (self.speedup, self.new_time, self.saved, self.ceiling)


SPEEDUP_TIP = "S = baseline total ÷ new total, with every enabled optimization"
NEW_TIME_TIP = "Σ over components of time ÷ (product of the enabled optimizations' k)"
SAVED_TIP = "baseline total − new total"
CEILING_TIP = "1/(1−f): the most the enabled optimizations' components could ever give"


def speedup_tone(speedup: float) -> Tone:
    return Tone.GOOD if speedup > 1.0000001 else Tone.BAD if speedup < 0.9999999 else Tone.PLAIN


def verdict(profile: Profile, analysis: Analysis, n: Numbers = POINT) -> Sentence:
    """The target verdict: met (✔), reachable (◐), out of reach (✘), or that no target is set."""
    t = analysis.target
    if t is None:
        return Sentence("No target time set (Settings → Target time).", Tone.MUTED)
    text = target_sentence(profile, analysis, n) or ""
    if t.met_by_plan or t.time >= analysis.baseline_total:
        return Sentence(text, Tone.GOOD, "✔")
    return Sentence(text, Tone.WARN, "◐") if t.feasible else Sentence(text, Tone.BAD, "✘")


def summary(
    profile: Profile,
    analysis: Analysis | None,
    n: Numbers = POINT,
    *,
    error: str | None = None,
    objective: ObjectiveFigures | None = None,
    outcomes: Outcomes | None = None,
    notes: tuple[Problem, ...] = (),
    trace: TraceFigures | None = None,
    whole: Analysis | None = None,
    job: JobFigures | None = None,
) -> SummaryView:
    """The summary of ``analysis`` (already seen through ``objective`` when one other than End to end is chosen;
    ``outcomes`` then gives the other objectives' view of each optimization); ``error`` says why there is none.
    ``notes`` are the document's own (a total row that did not add up), after the analysis' warnings; ``trace``
    what the window knows of the profile's trace, compared with the end-to-end analysis ``whole`` (default:
    ``analysis``). ``job``: the job of many ranks the profile stands for — its figures are then the job's, the
    profile's own rank's beside them (``present/job_plan``)."""
    paths = trace_notes(trace)  # they name a file: its digits are not a number to write in the locale
    if analysis is None:
        dash = "—"
        return SummaryView(
            Figure(dash, "end-to-end speedup", SPEEDUP_TIP),
            Figure(dash, "new time", NEW_TIME_TIP),
            Figure(dash, "saved per run", SAVED_TIP),
            Figure(dash, "ceiling", CEILING_TIP),
            error or "",
            Sentence(""),
            (*(problem_text(w, n) for w in notes), *paths),
        )
    unit = profile.unit
    c = analysis.combined
    caption, sentence = "end-to-end speedup", headline(profile, analysis, n)
    warned = warning_texts(analysis.warnings, analysis.unit, counted(profile.settings), n)
    said = (*warned, *(problem_text(w, n) for w in notes), *paths)
    if objective is not None and not objective.is_end_to_end:
        caption, sentence = objective_caption(objective, profile, outcomes, n)
    elif job is not None:
        from .job_plan import job_summary

        return job_summary(profile, whole or analysis, job, trace, said, n)
    elif trace_based(trace) and c.enabled:
        assert trace is not None
        return _traced(profile, analysis, trace, said, n)
    return SummaryView(
        Figure(n.speedup(c.overall_speedup), caption, SPEEDUP_TIP, speedup_tone(c.overall_speedup)),
        Figure(n.time(c.new_total, unit), f"new time (baseline {n.time(analysis.baseline_total, unit)})", NEW_TIME_TIP),
        Figure(n.time(c.time_saved, unit), "saved per run", SAVED_TIP),
        Figure(
            n.speedup(c.ceiling) if c.enabled else "—",
            f"ceiling (f = {n.percent(c.fraction)})" if c.enabled else "ceiling",
            CEILING_TIP,
        ),
        sentence,
        verdict(profile, analysis, n),
        said,
        dependency_line(trace, profile, whole or analysis, n),
    )


TRACED_SPEEDUP_TIP = (
    "S with the trace's dependencies: the step's critical path as measured ÷ with the enabled optimizations' "
    "events k× faster (every step recomputed)"
)
TRACED_NEW_TIME_TIP = "the baseline ÷ S with the trace's dependencies"
TRACED_CEILING_TIP = "the step's speedup with the enabled optimizations' events free, on the trace's critical path"


def _traced(
    profile: Profile, analysis: Analysis, trace: TraceFigures, notes: tuple[str, ...], n: Numbers
) -> SummaryView:
    """A profile that carries its trace: the figures with its dependencies, the sum beside them; while they are
    being computed for the profile as it is now, "…" (never the figures of another plan)."""
    from ..model.traces.plan_answer import plan_answer
    from .plan_answer import answer_headline, answer_target, edited_note, sum_beside

    unit = profile.unit
    found = trace.current(profile)
    if found is None or found.path is None:
        line = dependency_line(trace, profile, analysis, n)
        wait = "computing on the trace's critical path" if found is None else "the trace cannot say"
        return SummaryView(
            Figure(COMPUTING if found is None else "—", f"end-to-end speedup ({wait})", TRACED_SPEEDUP_TIP),
            Figure(COMPUTING if found is None else "—", "new time", TRACED_NEW_TIME_TIP),
            Figure(COMPUTING if found is None else "—", "saved per run", SAVED_TIP),
            Figure(COMPUTING if found is None else "—", "ceiling", TRACED_CEILING_TIP),
            headline(profile, analysis, n) if found is not None else line.text,
            verdict(profile, analysis, n) if found is not None else Sentence(""),
            notes,
            line if found is not None else Sentence(""),
        )
    answer = plan_answer(profile, analysis, found)
    target = answer_target(profile, analysis, answer, n)
    if analysis.target is None or target is None:
        said = verdict(profile, analysis, n)
    elif answer.new_total <= analysis.target.time * (1 + 1e-12) or analysis.target.time >= answer.baseline:
        said = Sentence(target, Tone.GOOD, "✔")
    elif answer.ceiling > 0 and answer.baseline / answer.ceiling > analysis.target.time * (1 + 1e-12):
        said = Sentence(target, Tone.BAD, "✘")
    else:
        said = Sentence(target, Tone.WARN, "◐")
    extra = (edited_note(profile, answer, n),) if answer.edited else ()
    return SummaryView(
        Figure(
            n.close_speedup(answer.speedup),
            "speedup with dependencies",  # the trace's: whole in a headline's column at 1920 wide
            TRACED_SPEEDUP_TIP,
            speedup_tone(answer.speedup),
        ),
        Figure(
            n.time(answer.new_total, unit),
            f"new time (baseline {n.time(answer.baseline, unit)})",
            TRACED_NEW_TIME_TIP,
        ),
        Figure(n.time(answer.time_saved, unit), "saved per run", SAVED_TIP),
        Figure(n.close_speedup(answer.ceiling), "ceiling on the critical path", TRACED_CEILING_TIP),
        answer_headline(profile, analysis, answer, n),
        said,
        (*notes, *extra),
        Sentence(sum_beside(profile, answer, n), Tone.MUTED),
    )
