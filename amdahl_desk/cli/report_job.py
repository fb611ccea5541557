"""``report`` of a profile that stands for a job of many ranks: a folder of rank traces, several files, or a
workbook saved with its job (its *Ranks* sheet). The job's answer leads, as in the window: the ticked plan on
every rank (or on the ranks the sheet has it on) replayed through the joined graph, its ceiling, the straggler,
and the odds with every draw replayed through the ranks; the profile's own rank follows, labelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..files.tables import Loaded
    from ..model.profile import Profile
    from ..model.uncertainty import UncertaintyFigures
    from ..present.job_charts import JobFigures


@dataclass(frozen=True)
class JobReport:
    """The job a report answers for: its figures (the plan's answer and its ceiling in ``replays``) and the
    plan's odds through it (None: nothing is uncertain; a text: why the job cannot answer them); ``problem``:
    why the job could not be read (the report is then the profile's rank's alone, and says so)."""

    figures: JobFigures | None
    odds: UncertaintyFigures | str | None = None
    problem: str = ""
    name: str = ""


def job_sources(loaded: Loaded, path: str) -> tuple[list[str], tuple[int, ...] | None] | None:
    """The rank traces the profile stands for and the ranks its plan is on (None: every rank); None when the
    profile is one trace's or none's."""
    sheet = loaded.job
    if sheet is not None:
        return [str(p) for p in sheet.paths(Path(path).resolve().parent)], sheet.plan_on
    source = loaded.profile.settings.trace_source
    if not source:
        return None
    from ..files.traces.job import job_files
    from ..files.traces.linked import trace_paths
    from ..model.traces.errors import TraceError

    try:
        paths = [str(p) for p in trace_paths(source, Path(path).resolve().parent)]
        many = len(job_files(paths)) > 1
    except TraceError:
        return None  # the profile's own trace link says what is wrong with it
    return (paths, None) if many else None


def job_report(
    profile: Profile, sources: list[str], on_ranks: tuple[int, ...] | None, figures: UncertaintyFigures | None
) -> JobReport:
    """The job of ``sources`` read with the profile's ticked plan and answered: a :class:`JobReport`."""
    from ..files.traces.job import load_job
    from ..model.errors import BadInputError
    from ..model.job.analysis import analyse_job, job_what_if
    from ..model.job.join import match, with_ks
    from ..model.job.odds import job_uncertainty
    from ..model.job.plan import job_plan
    from ..model.job.replay import Replay
    from ..model.names import STEP_PREFIX
    from ..model.traces.errors import TraceError
    from ..present.job_charts import JobFigures

    plan = job_plan(profile.optimizations, profile.settings.trace_events)
    name = Path(sources[0]).name if len(sources) == 1 else f"{len(sources)} files"
    try:
        graph = match(load_job(sources, STEP_PREFIX, plan.speedups))
    except (TraceError, BadInputError) as exc:
        return JobReport(None, problem=str(exc), name=name)
    replay = Replay(graph)
    job = analyse_job(graph, replay)
    from ..model.job.representative import representative_rank

    rank = representative_rank(job)
    base = JobFigures(
        job, name, tuple(sources), STEP_PREFIX, on_ranks=on_ranks, left_out=plan.left_out, profile_rank=rank
    )
    if not plan.speedups:
        return JobReport(base, name=name)
    pairs = list(plan.key)
    try:
        answer = job_what_if(graph, pairs, on_ranks, replay, job)
    except BadInputError as exc:
        return JobReport(_replace(base, problem=str(exc)), name=name)
    replays: dict[Any, float | str] = {(plan.key, on_ranks): answer.predicted}
    free = with_ks(graph, [(p, k) for p, k in plan.ceiling().key])
    if free is not None:
        ceiling = job_what_if(free, list(plan.ceiling().key), on_ranks, replay, job)
        replays[(plan.ceiling().key, on_ranks)] = ceiling.predicted
    odds: UncertaintyFigures | str | None = None
    if figures is not None:
        odds = job_uncertainty(profile, figures, graph, plan, on_ranks, replay)
        if odds is None:
            from ..present.job_charts import JOB_ODDS_CANNOT

            odds = JOB_ODDS_CANNOT
    # the odds travel with the figures too (a Summary sheet's lead): "as given" (no key), not the window's
    return JobReport(
        _replace(base, answer=answer, replays=replays, odds=(None, odds) if odds is not None else None), odds, name=name
    )


def _replace(figures: JobFigures, **changes: Any) -> JobFigures:
    from dataclasses import replace

    return replace(figures, **changes)


def job_report_json(report: JobReport, rank_sum: float | None = None, target_ms: float | None = None) -> dict[str, Any]:
    """``report --json``'s ``"job"``: the job (as ``job --json`` summarises it), the ranks the plan is on, the
    plan's answer for the job (as ``whatif FOLDER --json``: null when nothing is ticked) with its ceiling, and why
    the odds or the job itself could not be answered. The ``uncertainty`` beside it is then the job's.
    ``sum_speedup`` is Amdahl on the sums of the rank that sets the pace (the straggler when the plan is on it,
    else the chosen rank with the longest step): its matched events' times, else (a component whose events run on
    several threads at once) ``rank_sum``, the profile's own table's, when the profile is that rank's."""
    f = report.figures
    if f is None:
        return {"name": report.name, "problem": report.problem}
    job = f.job
    out: dict[str, Any] = {
        "name": report.name,
        "ranks": len(job.ranks),
        "steps": len(job.steps),
        "step_time": job.step_time,
        "straggler": {"rank": job.straggler, "cost": job.straggler_cost} if job.straggler is not None else None,
        "profile_rank": f.profile_rank,
        "on_ranks": list(f.on_ranks) if f.on_ranks is not None else None,
        "left_out": list(f.left_out),
        "plan": None,
        "problem": f.problem or None,
        "odds_problem": report.odds if isinstance(report.odds, str) else None,
        "uncertainty": None,
        "target": None,
        "plans": None,  # the cheapest plan is not searched through a job's ranks
    }
    if report.odds is not None and not isinstance(report.odds, str):
        from .json_uncertainty import uncertainty_json

        out["uncertainty"] = uncertainty_json(report.odds)
    if target_ms is not None:
        out["target"] = job_target_json(f, target_ms)
    a = f.answer
    if a is not None:
        from ..model.job.plan import CEILING_K

        free = f.replays.get((tuple((p, CEILING_K) for p, _ in a.speedups), f.on_ranks))
        # the profile's rank sets the job's pace (the straggler, the plan on it): its table's sum is the pace's
        paced = f.profile_rank == job.straggler and (f.on_ranks is None or job.straggler in f.on_ranks)
        out["plan"] = {
            "speedups": [{"pattern": p, "k": k} for p, k in a.speedups],
            "baseline": a.baseline,
            "predicted": a.predicted,
            "speedup": a.speedup,
            "sum_speedup": a.sum_speedup if a.sum_speedup is not None else (rank_sum if paced else None),
            "ceiling": a.baseline / free if isinstance(free, float) and free > 0 else None,
            "time_saved": a.baseline - a.predicted,
        }
    return out


def job_target_json(f: JobFigures, target_ms: float) -> dict[str, Any]:
    """The job's target verdict (ms per step): met by the plan's new step, and within reach of its targets' events
    (all but) free; the least k is not searched for a job."""
    from ..model.job.plan import CEILING_K

    base = f.job.step_time
    a = f.answer
    after = a.predicted if a is not None else base
    free = f.replays.get((tuple((p, CEILING_K) for p, _ in a.speedups), f.on_ranks)) if a is not None else base
    floor = free if isinstance(free, float) else None
    tolerance = 1 + 1e-12
    return {
        "time": target_ms,
        "met_by_plan": after <= target_ms * tolerance,
        "feasible": floor is not None and floor <= target_ms * tolerance,
        "floor": floor,
    }
