"""A job's plan under uncertainty: the odds, the spread, the bounds and What matters with every draw replayed
through the job's joined graph — the figures a traced profile gets from its trace (:mod:`..traces.plan_answer`),
for the job of many ranks the profile stands for.

Each draw's k of every ticked optimization scales, on every chosen rank, the events its targets stand for (the
job's plan, :mod:`.plan`, read with the ranks: each point's signature says which of the plan's speedups match
it), and the job's step is recomputed for all draws at once (:meth:`.replay.Replay.run_many`). The bounds, the
best and worst cases, the floor and What matters are rows of the same pass. The components' time ranges are not
drawn: a job's steps are measured on every rank, and their spread is in the replay. The time each optimization
saves per engineer-day is not ranked for a job (its unticked candidates were not read with the ranks).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..profile import Profile
from ..traces.events import MS_PER_US, FloatArray, IntArray
from ..uncertainty import PERCENTILES, Sensitivity, Spread, UncertaintyFigures, meets
from ..units import TimeUnit, convert
from .join import JobGraph
from .plan import CEILING_K, JobPlan
from .replay import Replay

# The most (graph points × draws) one pass takes: about 8 s on one core (250 M point-draws a second on the 1-GPU
# trace); a larger job is drawn fewer times.
DRAW_BUDGET = 2e9
FEWEST_DRAWS = 1000


def job_uncertainty(
    profile: Profile,
    figures: UncertaintyFigures,
    job: JobGraph,
    plan: JobPlan,
    on_ranks: Sequence[int] | None = None,
    replay: Replay | None = None,
) -> UncertaintyFigures | None:
    """``figures`` (the profile's plan under uncertainty, on its common draws) with its figures through the job:
    None when the job cannot answer them — a ticked optimization that may change its events has none read with
    the ranks (a target the job leaves out), or the ranks were read with too many patterns to tell apart."""
    enabled = [j for j, o in enumerate(profile.optimizations) if o.enabled]
    read = set(plan.owners)
    for j in enabled:
        o = profile.optimizations[j]
        certain = o.speedup_range == (o.speedup, o.speedup) and o.confidence >= 1 and o.speedup == 1
        if j not in read and not certain:
            return None
    if plan.left_out or any(r.signature is None for r in job.ranks) or len(plan.owners) != len(plan.speedups):
        return None
    rp = replay or Replay(job)
    numbers = job.rank_numbers()
    chosen = [i for i, r in enumerate(numbers) if on_ranks is None or r in on_ranks]
    rank_class, instance_class, values = _classes(job, chosen)
    column = {j: c for c, j in enumerate(enabled)}
    bit_column = [column[j] for j in plan.owners]

    likely = np.array([profile.optimizations[j].speedup for j in enabled], dtype=float)
    lows = np.array([profile.optimizations[j].speedup_range[0] for j in enabled], dtype=float)
    highs = np.array([profile.optimizations[j].speedup_range[1] for j in enabled], dtype=float)
    conf = np.array([profile.optimizations[j].confidence for j in enabled], dtype=float)
    best = np.where(conf >= 1, highs, np.where(conf <= 0, 1.0, np.maximum(highs, 1.0)))
    worst = np.where(conf >= 1, lows, np.where(conf <= 0, 1.0, np.minimum(lows, 1.0)))
    fixed = [likely, lows, highs, best, worst, np.full(len(enabled), CEILING_K)]
    ranged = [(c, j) for c, j in enumerate(enabled) if highs[c] > lows[c]]
    for c, _ in ranged:
        for k in (lows[c], highs[c]):
            row = likely.copy()
            row[c] = k
            fixed.append(row)
    count = _draw_count(rp, figures.common.count)
    drawn = np.ones((count, len(enabled)))
    with np.errstate(divide="ignore"):
        for c, j in enumerate(enabled):
            reciprocal = np.broadcast_to(np.asarray(figures.common.reciprocal[j], dtype=float), (figures.common.count,))
            drawn[:, c] = 1.0 / reciprocal[:count]
    ks = np.vstack([np.array(fixed), drawn])
    lengths = rp.run_many(rank_class, instance_class, _class_factors(values, bit_column, ks)).mean(axis=1) * MS_PER_US
    base_ms = float(rp.baseline.job.mean()) * MS_PER_US
    at = lengths[: len(fixed)]
    per_draw = lengths[len(fixed) :]

    per_ms = convert(1.0, TimeUnit.MS, profile.unit)  # a job's times are in ms; the figures in the profile's unit

    def total(ms: float | FloatArray) -> float | FloatArray:
        return ms * per_ms

    def ratio(ms: float) -> float:
        return base_ms / ms if ms > 0 else math.inf

    with np.errstate(divide="ignore"):
        speedups = np.where(per_draw > 0, base_ms / per_draw, np.inf)
    totals = np.asarray(total(per_draw), dtype=float)
    sensitivity = [
        Sensitivity(j, profile.optimizations[j].name, ratio(float(at[6 + 2 * n])), ratio(float(at[7 + 2 * n])))
        for n, (_, j) in enumerate(ranged)
    ]
    sensitivity.sort(key=lambda s: -s.swing)
    target = profile.settings.target_time

    def spread(low: float, high: float, values_: FloatArray) -> Spread:
        p5, p50, p95 = (float(v) for v in np.percentile(values_, PERCENTILES))
        return Spread(low, high, p5, p50, p95, float(np.mean(values_)))

    return replace(
        figures,
        draws=count,
        overall_speedup=spread(ratio(float(at[1])), ratio(float(at[2])), speedups),
        new_total=spread(float(total(float(at[2]))), float(total(float(at[1]))), totals),
        probability_target=None if target is None else meets(totals, target),
        best_case=float(total(float(at[3]))),
        worst_case=float(total(float(at[4]))),
        floor=float(total(float(at[5]))),
        sensitivity=tuple(sensitivity),
        ranking=(),
        new_total_draws=totals,
        speedup_draws=speedups,
        job_ranks=job.size,
    )


def _classes(job: JobGraph, chosen: Sequence[int]) -> tuple[list[IntArray | None], list[int], IntArray]:
    """Each chosen rank's points and each matched collective's transfer as a class — an index into the distinct
    signatures (which of the plan's speedups match) — and those signatures; a rank not chosen is class 0 (none)."""
    sigs = {i: np.asarray(job.ranks[i].signature, dtype=np.int64) for i in chosen}
    inst = []
    for it in job.instances:
        last = int(it.members[it.last])
        r = job.ranks[last]
        inst.append(int(sigs[last][r.coll_end[it.index[it.last]]]) if last in sigs else 0)
    values = np.unique(np.concatenate([np.zeros(1, dtype=np.int64), *sigs.values(), np.array(inst, dtype=np.int64)]))
    rank_class: list[IntArray | None] = [
        np.searchsorted(values, sigs[i]) if i in sigs else None for i in range(job.size)
    ]
    instance_class = np.searchsorted(values, np.array(inst, dtype=np.int64)).tolist() if inst else []
    return rank_class, instance_class, values


def _class_factors(values: IntArray, bit_column: Sequence[int], ks: FloatArray) -> FloatArray:
    """``(rows, classes)``: a class's factor in each row of ``ks`` — the product of the k of every optimization
    one of whose speedups its signature holds (a point two speedups match takes both, as the job's answer)."""
    out = np.ones((ks.shape[0], len(values)))
    for c, v in enumerate(values.tolist()):
        for bit, col in enumerate(bit_column):
            if (v >> bit) & 1:
                out[:, c] *= ks[:, col]
    return out


def _draw_count(rp: Replay, wanted: int) -> int:
    """The draws one pass can take for this job within :data:`DRAW_BUDGET` (at least :data:`FEWEST_DRAWS`)."""
    points = sum(len(p.pos) for p in rp.parts)
    return int(min(wanted, max(FEWEST_DRAWS, DRAW_BUDGET // max(points, 1))))
