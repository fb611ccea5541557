"""What the plan buys the job, for the summary's headline and the checklist's S, Ceiling and Saves.

A profile that stands for a job of many ranks (the window's ``doc.job``) answers its plan for the job: the ticked
optimizations' targets become the same event match on every rank (or on the chosen ranks,
``model/job/plan``), the ranks are read again with those events scaled and the joined graph is replayed — the
numbers of ``amdahl-desk whatif FOLDER --speedup …`` and ``ad.job(…).whatif(…)``. The profile's own rank (the
straggler) is a figure beside it, labelled: by its own trace's dependencies when it has them, else by the sum
of its times. ``JobFigures.replays`` holds the replayed steps; a plan not there yet is being computed ("…").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.analysis import Analysis
from ..model.profile import Optimization, Profile
from ..model.units import TimeUnit, convert
from .job_charts import JobFigures
from .numbers import POINT, Numbers
from .tones import Sentence, Tone
from .trace_plan import COMPUTING, DASH, TraceFigures, current_answer, option_cells, trace_based

if TYPE_CHECKING:  # the job's model loads with the first job
    from ..model.job.plan import JobPlan
    from ..model.traces.plan_answer import TraceAnswer
    from .summary import SummaryView

MS = TimeUnit.MS
JOB_SPEEDUP_TIP = (
    "S for the job: its step (the latest end over ranks minus the earliest start, mean over steps) as measured ÷ "
    "with the enabled optimizations' events k× faster on every rank (or on the ranks chosen), the ranks' graphs "
    "joined at their collectives and replayed — as amdahl-desk whatif FOLDER --speedup says"
)
JOB_NEW_TIME_TIP = "the job's step replayed with the plan (mean over steps)"
JOB_SAVED_TIP = "the job's step as measured − with the plan"
JOB_CEILING_TIP = "the job's speedup with the enabled optimizations' events (all but) free on the same ranks"


def where(figures: JobFigures) -> str:
    """``on every rank`` or ``on ranks 0-3,7``."""
    on = figures.on_ranks
    if on is None:
        return "on every rank"
    from .job import ranges

    return f"on rank{'s' * (len(on) != 1)} {ranges(on)}"


def replayed(figures: JobFigures, plan: JobPlan) -> float | str | None:
    """The job's mean step (ms) with ``plan`` on the figures' ranks; why not (a text); None while computing."""
    return figures.replays.get((plan.key, figures.on_ranks))


def _events(profile: Profile) -> tuple[tuple[str, str], ...]:
    return profile.settings.trace_events


def _rank_label(figures: JobFigures) -> str:
    rank = figures.profile_rank
    if rank is None:
        return "The profile's rank"
    return f"The straggler, rank {rank}," if rank == figures.job.straggler else f"Rank {rank}"


def rank_line(
    profile: Profile,
    analysis: Analysis,
    figures: JobFigures,
    trace: TraceFigures | None,
    n: Numbers = POINT,
    rank_answer: TraceAnswer | None = None,
) -> Sentence:
    """The profile's own rank's answer beside the job's, labelled: its trace's dependencies (``rank_answer``, or
    what the window has of ``trace``), else its sum."""
    if not any(o.enabled for o in profile.optimizations):
        return Sentence("")
    unit, c = profile.unit, analysis.combined
    who = _rank_label(figures)
    the_sum = f"the sum of its times says {n.speedup(c.overall_speedup)}"
    answer: TraceAnswer | str | None
    if rank_answer is not None:
        answer = rank_answer if rank_answer.usable else None
    else:
        answer = current_answer(trace, profile, analysis)
    if isinstance(answer, str):
        return Sentence(f"{who} alone: computing on its own trace's critical path …; {the_sum}.", Tone.MUTED)
    if answer is None:
        return Sentence(
            f"{who} alone, by the sum of its times: {n.speedup(c.overall_speedup)} "
            f"({n.time(analysis.baseline_total, unit)} → {n.time(c.new_total, unit)}).",
            Tone.MUTED,
        )
    return Sentence(
        f"{who} alone, by its own trace with its dependencies: {n.close_speedup(answer.speedup)} "
        f"({n.time(answer.baseline, unit)} → {n.time(answer.new_total, unit)}); {the_sum}.",
        Tone.MUTED,
    )


def _what(enabled: Sequence[Optimization], n: Numbers) -> str:
    if len(enabled) == 1:
        o = enabled[0]
        return f"{' and '.join(o.targets)} {n.speedup(o.speedup)} faster"
    return f"the {n.count(len(enabled))} enabled optimizations' targets faster"


def _alone(figures: JobFigures, plan: JobPlan, n: Numbers) -> str:
    """ "; on rank 2 alone 1.53×; on rank 0 alone nothing: rank 0 already waits 8 ms for rank 2 at the all_reduce"."""
    a = figures.answer
    if a is None or a.speedups != plan.key or a.on_ranks != figures.on_ranks:
        return ""
    out = ""
    for rank, predicted in a.alone:
        ratio = a.baseline / predicted if predicted > 0 else float("inf")
        if ratio < 1.0005:
            out += f"; on rank {rank} alone nothing"
            wait = next((w for w in a.straggler_waits if w.rank == rank), None)
            if wait is not None:
                out += (
                    f": rank {rank} already waits {n.time(wait.wait, MS)} for rank {wait.for_rank} at the "
                    f"{wait.collective}"
                )
        else:
            out += f"; on rank {rank} alone {n.close_speedup(ratio)}"
    return out


def _target(profile: Profile, base_ms: float, new_ms: float | None, ceiling_ms: float | None, n: Numbers) -> Sentence:
    t = profile.settings.target_time
    if t is None:
        return Sentence("No target time set (Settings → Target time).", Tone.MUTED)
    unit = profile.unit
    target_ms = convert(t, unit, MS)
    said = f"Target {n.time(t, unit)} per step for the job"
    if base_ms <= target_ms * (1 + 1e-12):
        return Sentence(f"{said}: met as measured ({n.time(convert(base_ms, MS, unit), unit)}).", Tone.GOOD, "✔")
    if new_ms is None:
        return Sentence(f"{said}: computing the plan for the job …", Tone.MUTED)
    if new_ms <= target_ms * (1 + 1e-12):
        return Sentence(f"{said}: met by the plan ({n.time(convert(new_ms, MS, unit), unit)}).", Tone.GOOD, "✔")
    if ceiling_ms is not None and ceiling_ms > target_ms * (1 + 1e-12):
        return Sentence(
            f"{said}: out of reach of these targets — even free they leave the job "
            f"{n.time(convert(ceiling_ms, MS, unit), unit)}.",
            Tone.BAD,
            "✘",
        )
    return Sentence(
        f"{said}: not met by the plan ({n.time(convert(new_ms, MS, unit), unit)}); a larger k could reach it.",
        Tone.WARN,
        "◐",
    )


def job_summary(
    profile: Profile,
    analysis: Analysis,
    figures: JobFigures,
    trace: TraceFigures | None,
    notes: tuple[str, ...],
    n: Numbers = POINT,
    rank_answer: TraceAnswer | None = None,
) -> SummaryView:
    """The summary of a profile that stands for a job: the headline figures are the job's, the profile's rank's
    figure beside them (``dependencies``; ``rank_answer``: its answer on its own trace, when not ``trace``'s)."""
    from ..model.job.plan import job_plan
    from .summary import Figure, SummaryView, speedup_tone

    unit = profile.unit
    base = figures.job.step_time

    def t(ms: float) -> str:
        return n.time(convert(ms, MS, unit), unit)

    on = where(figures)
    plan = job_plan(profile.optimizations, _events(profile))
    enabled = [o for o in profile.optimizations if o.enabled]
    left: tuple[str, ...] = ()
    if figures.left_out:
        left = (
            "Left out of the job's answer (time defined against one rank's other components, not events found "
            "alike on every rank): " + ", ".join(figures.left_out) + ".",
        )
    beside = rank_line(profile, analysis, figures, trace, n, rank_answer)
    caption = f"the job's speedup ({on})"
    new_caption = f"new job step (baseline {t(base)})"
    if not enabled:
        return SummaryView(
            Figure(n.speedup(1.0), caption, JOB_SPEEDUP_TIP),
            Figure(t(base), new_caption, JOB_NEW_TIME_TIP),
            Figure(t(0.0), "saved per job step", JOB_SAVED_TIP),
            Figure("—", "the job's ceiling", JOB_CEILING_TIP),
            f"The job's step takes {t(base)} ({n.count(len(figures.job.ranks))} ranks). Tick an optimization to see "
            f"what it buys the job {on}.",
            _target(profile, base, base, None, n),
            (*notes, *left),
            beside,
        )
    got: float | str | None
    if figures.problem:
        got = figures.problem
    elif not plan.speedups:
        got = "no ticked target names events found alike on every rank"
    else:
        got = replayed(figures, plan)
    if not isinstance(got, float):
        waiting = got is None
        value = COMPUTING if waiting else DASH
        sentence = (
            "Computing the plan for the job (its ranks read again with the plan's events scaled) …"
            if waiting
            else f"The plan cannot be answered for the job: {got}."
        )
        return SummaryView(
            Figure(value, caption + (" — computing" if waiting else ""), JOB_SPEEDUP_TIP),
            Figure(value, new_caption, JOB_NEW_TIME_TIP),
            Figure(value, "saved per job step", JOB_SAVED_TIP),
            Figure(value, "the job's ceiling", JOB_CEILING_TIP),
            sentence,
            _target(profile, base, None, None, n) if waiting else Sentence(""),
            (*notes, *left),
            beside,
        )
    free = replayed(figures, plan.ceiling())
    free_ms = free if isinstance(free, float) else None
    speedup = base / got if got > 0 else float("inf")
    ceiling = COMPUTING if free is None else DASH if free_ms is None else n.close_speedup(base / free_ms)
    verb = "shortens" if speedup >= 1.0005 else "does not shorten" if speedup > 0.9995 else "lengthens"
    figure = f" {n.close_speedup(speedup)}" if verb != "does not shorten" else ""
    sentence = f"Making {_what(enabled, n)} {on} {verb} the job's step{figure} ({t(base)} → {t(got)})"
    sentence += _alone(figures, plan, n) + "."
    if free_ms is not None and free_ms > 0:
        sentence += f" Even free, its targets' events give the job at most {n.close_speedup(base / free_ms)}."
    return SummaryView(
        Figure(n.close_speedup(speedup), caption, JOB_SPEEDUP_TIP, speedup_tone(speedup)),
        Figure(t(got), new_caption, JOB_NEW_TIME_TIP),
        Figure(t(base - got), "saved per job step", JOB_SAVED_TIP),
        Figure(ceiling, "the job's ceiling", JOB_CEILING_TIP),
        sentence,
        _target(profile, base, got, free_ms, n),
        (*notes, *left),
        beside,
    )


# -- the checklist ----------------------------------------------------------------------------------------
def job_headers(figures: JobFigures, unit: TimeUnit) -> dict[str, tuple[str, str]]:
    """The checklist's figure columns for a job: (title, short title) by role."""
    rank = figures.profile_rank
    r = f"rank {rank}" if rank is not None else "its rank"
    short = f"r{rank}" if rank is not None else "rank"
    return {
        "speedup": ("S (job)", "S job"),
        "ceiling": ("Ceiling (job)", "Ceil. job"),
        "saves": (f"Saves, job ({unit.label})", f"Saves ({unit.label})"),
        "rank_speedup": (f"S ({r} alone)", f"S {short}"),
        "rank_ceiling": (f"Ceiling ({r} alone)", f"Ceil. {short}"),
    }


def job_header_tips(figures: JobFigures, traced: bool) -> dict[str, str]:
    rank = figures.profile_rank
    how = "on its own trace's critical path" if traced else "by the sum of its times"
    on = where(figures)
    return {
        "speedup": f"This optimization alone, answered for the job {on}: the job's step as measured ÷ replayed with "
        "its targets' events k× faster",
        "ceiling": f"This optimization's targets' events (all but) free {on}: the most it could buy the job",
        "saves": f"What this optimization alone saves off the job's step ({on})",
        "rank_speedup": f"This optimization alone on rank {rank}'s profile, {how}: the figure for that rank alone",
        "rank_ceiling": f"This optimization's ceiling on rank {rank}'s profile, {how}",
    }


def job_option_cells(
    figures: JobFigures,
    profile: Profile,
    n: Numbers = POINT,
) -> tuple[list[str], list[str], list[str]]:
    """Per optimization alone, answered for the job: its S, its ceiling and what it saves (in the profile's unit);
    "…" while computing, "—" where its targets name no events alike on every rank or the job refuses it."""
    from ..model.job.plan import alone_plan

    base = figures.job.step_time
    speedups, ceilings, saves = [], [], []
    for o in profile.optimizations:
        plan = alone_plan(o, _events(profile))
        if not plan.speedups:
            same = o.speedup == 1 and bool(o.targets)
            speedups.append(n.close_speedup(1.0) if same else DASH)
            ceilings.append(DASH)
            saves.append(n.number(0.0) if same else DASH)
            continue
        got, free = replayed(figures, plan), replayed(figures, plan.ceiling())
        if got is None:
            speedups.append(COMPUTING)
            saves.append(COMPUTING)
        elif isinstance(got, str) or got <= 0:
            speedups.append(DASH)
            saves.append(DASH)
        else:
            speedups.append(n.close_speedup(base / got))
            saves.append(n.number(convert(base - got, MS, profile.unit)))
        ceilings.append(
            COMPUTING if free is None else DASH if isinstance(free, str) or free <= 0 else n.close_speedup(base / free)
        )
    return speedups, ceilings, saves


def rank_option_cells(
    figures: TraceFigures | None, profile: Profile, sum_speedups: list[str], sum_ceilings: list[str], n: Numbers
) -> tuple[list[str], list[str]]:
    """The profile's own rank's figures beside the job's: with its trace's dependencies, else the sum's."""
    if trace_based(figures):
        return option_cells(figures, profile.optimizations, n)
    return list(sum_speedups), list(sum_ceilings)


def job_option_tip(figures: JobFigures, profile: Profile, opt: Optimization, n: Numbers = POINT) -> str:
    """What an optimization's job figures say, or why it has none."""
    from ..model.job.plan import alone_plan

    plan = alone_plan(opt, _events(profile))
    if not plan.speedups:
        return (
            f"{opt.name}'s targets name no events alike on every rank (a share of one rank's timeline): the job's "
            "answer leaves them out"
        )
    got, free = replayed(figures, plan), replayed(figures, plan.ceiling())
    if got is None:
        return "Being computed for the job (its ranks read again with the targets' events scaled)"
    if isinstance(got, str):
        return f"The job cannot answer it: {got}"
    base = figures.job.step_time
    text = (
        f"{opt.name} alone, {n.number(opt.speedup)}× on its targets' events {where(figures)}: the job's step "
        f"{n.time(base, MS)} → {n.time(got, MS)} ({n.close_speedup(base / got if got > 0 else float('inf'))})"
    )
    if isinstance(free, float) and free > 0:
        text += f"; even free, at most {n.close_speedup(base / free)}"
    return text


def job_report_lines(
    profile: Profile,
    analysis: Analysis,
    figures: JobFigures,
    rank_answer: TraceAnswer | None,
    n: Numbers = POINT,
) -> list[str]:
    """``report``'s lead for a profile that stands for a job: the job, its straggler, what the ticked plan buys
    it (the window's headline, in words) and its target verdict, the profile's own rank beside."""
    from .job import step_sentence, straggler_sentence

    view = job_summary(profile, analysis, figures, None, (), n, rank_answer)
    job = figures.job
    lines = [
        f"The job ({figures.name}): {step_sentence(job)} {straggler_sentence(job)}",
        f"For the job: {view.sentence}",
    ]
    lines += [f"  {text}" for text in (view.verdict.text, *view.notes, view.dependencies.text) if text]
    return lines


def rank_heading(figures: JobFigures) -> str:
    """What the rest of a job's report is: one rank's profile."""
    rank = figures.profile_rank
    who = f"rank {rank}" if rank is not None else "one rank"
    why = " (the straggler)" if rank is not None and rank == figures.job.straggler else ""
    return f"The profile is {who}'s{why}; what follows is that rank's alone:"
