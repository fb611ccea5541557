"""The JSON contracts of a job (``job --json``, a job's ``whatif --json``), written where the command line lives from
the model's records; the Python API's ``Job`` reads its tables and ``to_dict()`` from the same."""

from __future__ import annotations

from typing import Any

from ..model.job.analysis import Job, JobWhatIf


def job_json(job: Job) -> dict[str, Any]:
    """``job --json``: the job's step, each rank's parts, the straggler, the collectives and each step (ms)."""
    return {
        "unit": "ms",
        "ranks": len(job.ranks),
        "steps": len(job.steps),
        "step_time": job.step_time,
        "per_rank": [
            {
                "rank": r.rank,
                "step_time": r.step_time,
                "compute": r.compute,
                "communication": r.communication,
                "waiting": r.waiting,
                "waited_for": r.waited_for,
                "source": r.source,
                "host": r.host,
            }
            for r in job.per_rank
        ],
        "straggler": {"rank": job.straggler, "cost": job.straggler_cost},
        "collectives": [
            {
                "name": c.name,
                "count": c.count,
                "transfer": c.transfer,
                "skew_mean": c.skew_mean,
                "skew_max": c.skew_max,
            }
            for c in job.collectives
        ],  # fmt: skip
        "step_list": [{"step": n, "step_time": t} for n, t in zip(job.steps, job.step_times, strict=True)],
        "replay_error": job.replay_error,
        "start_spread": job.start_spread,
        "end_spread": job.end_spread,
        "hosts": {"offsets": job.host_offsets, "aligned": job.hosts_aligned},
        "stated_ranks": job.stated_size,
        "missing_ranks": list(job.missing),
    }


def job_whatif_json(w: JobWhatIf) -> dict[str, Any]:
    """A job's ``whatif --json`` without its step: the job's step before and after, each rank's, each rank's alone."""
    return {
        "unit": "ms",
        "ranks": len(w.ranks),
        "on_ranks": list(w.on_ranks) if w.on_ranks is not None else None,
        "baseline": w.baseline,
        "predicted": w.predicted,
        "speedup": w.speedup if w.predicted > 0 else None,
        "sum_speedup": w.sum_speedup,
        "sum_rank": w.sum_rank,
        "per_rank": [{"rank": a.rank, "baseline": a.baseline, "predicted": a.predicted} for a in w.per_rank],
        "alone": [{"rank": r, "predicted": p} for r, p in w.alone],
        "step_list": [{"step": n, "baseline": b, "predicted": p} for n, b, p in w.step_figures],
        "speedups": [{"pattern": p, "k": k} for p, k in w.speedups],
        "replay_error": w.replay_error,
    }
