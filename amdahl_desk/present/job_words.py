"""The window's words for a job of many ranks: the read's progress, and the panel that answers the plan for the
job (the job's step and straggler, the ticked plan on every rank or on the chosen ones)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .job import job_view, ranges, sums_sentence, whose_ranks
from .job_charts import JobFigures
from .numbers import POINT, Numbers

if TYPE_CHECKING:
    from ..model.job.analysis import JobWhatIf

EVERY_RANK = "every rank"


def loading_text(done: int, total: int) -> str:
    """``37 of 128 ranks`` while reading; ``done`` -1: the ranks are being joined."""
    if done < 0:
        return "Joining the ranks at their collectives and replaying the job…"
    if not total:
        return "Finding the rank traces…"
    return f"Reading the rank traces: {done:,} of {total:,} ranks"


@dataclass(frozen=True)
class JobPanelView:
    heading: str
    job: str  # the step and the straggler
    plan: str  # the ticked plan's answer for the job, or what it waits for
    notes: str = ""  # targets left out, a refusal


def job_panel(figures: JobFigures | None, plan_ticked: bool, n: Numbers = POINT) -> JobPanelView | None:
    """What the job's panel over the summary says (None: the profile is no job), in ``n``'s separators."""
    if figures is None:
        return None
    job = figures.job
    heading = (
        f"{whose_ranks(job, n.count(len(job.ranks)), n)} ({figures.name}): the summary answers the plan for the whole "
        "job"
    )
    if figures.profile_rank is not None:
        heading += f"; the table is rank {figures.profile_rank}'s profile, its own figures beside the job's"
    words = job_view(job, n).sentence
    notes = ""
    if figures.left_out:
        notes = (
            "Left out of the job's answer (time defined against one rank's other components, not events found "
            "alike on every rank): " + ", ".join(figures.left_out) + "."
        )
    if figures.problem:
        plan = f"The plan cannot be answered for the job: {figures.problem}"
    elif figures.computing:
        plan = "Computing the plan for the job (its ranks read again with the plan's events scaled)…"
    elif figures.answer is not None:
        plan = _matched(figures.answer, n)
    elif plan_ticked and figures.left_out:
        plan = "No ticked target names events of the job: nothing to answer for it."
    else:
        plan = (
            "Tick optimizations in the checklist: each is answered for the job, its targets' events made faster on "
            f"{EVERY_RANK} (or on the ranks chosen here)."
        )
    return JobPanelView(heading, words, plan, notes)


def _matched(answer: JobWhatIf, n: Numbers) -> str:
    """What the summary's answer scaled: each target's events as matched on the ranks, and Amdahl's law on sums."""
    where = (
        "on every rank"
        if answer.on_ranks is None
        else f"on rank{'s' * (len(answer.on_ranks) != 1)} {ranges(answer.on_ranks)}"
    )
    scaled = "; ".join(f"{events_label(p)} {n.plain(k, 'g')}×" for p, k in answer.speedups)
    text = f"The summary's answer scales these events {where}: {scaled}."
    return text + sums_sentence(answer, n)


def chosen_ranks(text: str, ranks: tuple[int, ...]) -> tuple[tuple[int, ...] | None, str]:
    """The ranks typed (``0-3,7``; empty or "every rank": None) and "" — or None and why they are refused."""
    from ..model.errors import BadInputError
    from ..model.job.analysis import parse_ranks, rank_ranges

    t = text.strip()
    if not t or t.lower() in (EVERY_RANK, "all", "every"):
        return None, ""
    try:
        chosen = parse_ranks(t)
    except BadInputError:
        return None, f"“{t}”: expected rank numbers and ranges, like 3 or 0-3,7"
    missing = sorted(set(chosen) - set(ranks))
    if missing:
        return None, f"rank {missing[0]} is not in the job; its ranks are {rank_ranges(ranks)}"
    return tuple(chosen), ""


def not_restored_text(workbook: str, unreadable: Sequence[tuple[int, str, str]], rank: int | None) -> str:
    """Why a workbook's job is not shown again: each rank trace that can no longer be read (rank, the file as the
    workbook names it, why), or the job's own refusal; what opens instead."""
    listed = "; ".join(f"rank {r}: {name} ({why})" for r, name, why in unreadable[:8])
    more = f"; and {len(unreadable) - 8:,} more" if len(unreadable) > 8 else ""
    alone = f"rank {rank}'s profile alone" if rank is not None else "its profile alone"
    return (
        f"{workbook} was saved with a job of many ranks, but {'these rank traces' if len(unreadable) > 1 else 'this rank trace'} "
        f"can no longer be read: {listed}{more}.\n\n{workbook} opens as {alone}, without the job's view; import the "
        "job's folder again (File → Import Profile from Folder…) to see it."
    )


def job_refused_text(workbook: str, why: str, rank: int | None) -> str:
    """A workbook's job whose rank traces are there but cannot be joined again."""
    alone = f"rank {rank}'s profile alone" if rank is not None else "its profile alone"
    return f"{workbook} was saved with a job of many ranks, but it cannot be read again: {why}\n\n{workbook} opens as {alone}."


_MATCHER_LABELS = {"gpu:compute": "GPU compute", "gpu:memory": "GPU memory", "gpu:communication": "GPU communication"}


def events_label(pattern: str) -> str:
    """What a job's speedup matches, as a person names it: a component's matcher by its component's events
    (``annotation:backward`` → ``backward``, ``gpu:compute`` → ``GPU compute``), a pattern as typed."""
    for prefix in ("annotation:", "op:"):
        if pattern.startswith(prefix):
            return pattern[len(prefix) :]
    return _MATCHER_LABELS.get(pattern, pattern)
