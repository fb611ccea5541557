"""Real jobs: torch DistributedDataParallel over gloo on 2 and 4 processes (tests/traces/fixtures/ddp2, ddp4,
recorded by make_fixtures.py's ``ddp`` recipe on CPUs). The invariants hold on them, and the recipe's own
sleep is a natural experiment: the rank that sleeps is the straggler, and it arrives at the gradient
all-reduces about that much later than the others."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.analysis import analyse_job, job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.replay import Replay
from amdahl_desk.model.traces.patterns import parse_pattern_speedup

FIXTURES = Path(__file__).resolve().parents[1] / "traces" / "fixtures"
STEP = "ProfilerStep#"
MS = 1e-3
# operators every rank's steps have: the forward and backward matrix products, the optimizer's update, the
# batch's making, DDP's copies of the gradients' buckets and the call that hands a bucket to gloo
PATTERNS = ["aten::addmm", "aten::mm", "aten::add_", "aten::randn", "aten::copy_", "c10d::allreduce_"]


def _recipe() -> ModuleType:
    """The script that recorded the jobs: its sleep and its slow rank are what the jobs are known to be."""
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECIPE = _recipe()
SLEEP_MS = RECIPE.DDP_SLEEP_S * 1000.0


def _job(world: int, *speedups: str) -> tuple:
    sp = [parse_pattern_speedup(s) for s in speedups]
    jg = match(load_job([str(FIXTURES / f"ddp{world}")], STEP, sp))
    rp = Replay(jg)
    return jg, rp, analyse_job(jg, rp)


def _measured_steps(world: int) -> dict[int, float]:
    """Per step number: the latest ``ProfilerStep#n`` end over the ranks minus the earliest start (ms), from
    the JSON itself (one host, one clock)."""
    spans: dict[int, list[tuple[float, float]]] = {}
    for r in range(world):
        doc = json.loads(gzip.decompress((FIXTURES / f"ddp{world}" / f"rank{r}.json.gz").read_bytes()))
        for e in doc["traceEvents"]:
            if e.get("ph") == "X" and str(e.get("name", "")).startswith(STEP):
                n = int(e["name"][len(STEP) :])
                spans.setdefault(n, []).append((float(e["ts"]), float(e["ts"]) + float(e["dur"])))
    assert all(len(v) == world for v in spans.values())
    return {n: (max(b for _, b in v) - min(a for a, _ in v)) * MS for n, v in spans.items()}


@pytest.mark.parametrize("world", [2, 4])
def test_k1_gives_back_every_rank_and_the_job(world: int) -> None:
    jg, rp, job = _job(world)
    assert job.ranks == tuple(range(world))
    # K = 1: every rank's step ends where it was measured (the replay error, µs, is the largest difference), to
    # the trace's resolution: its times are written in whole nanoseconds, a start and a duration rounded apart
    assert rp.error <= 2e-3, f"replay error {rp.error:.6f} µs on the {world}-rank DDP job"
    measured = _measured_steps(world)
    assert job.steps == tuple(sorted(measured))
    assert list(job.step_times) == pytest.approx([measured[n] for n in job.steps], abs=1e-6), (
        f"job steps {job.step_times} against the traces' {measured}"
    )
    assert job.step_time == pytest.approx(float(np.mean(list(measured.values()))), abs=1e-6)


@pytest.mark.parametrize("world", [2, 4])
def test_waiting_is_never_negative(world: int) -> None:
    jg, _rp, job = _job(world)
    assert all(r.waiting >= 0.0 for r in job.per_rank)
    assert all((inst.waiting >= 0.0).all() for inst in jg.instances)
    assert all(inst.transfer >= 0.0 for inst in jg.instances)
    assert len(jg.instances) >= 2 * len(job.steps)  # several gradient buckets: several all-reduces a step


@pytest.mark.parametrize("world", [2, 4])
def test_faster_events_never_slow_the_job(world: int) -> None:
    ks = [2.0, 4.0, 1.5, 3.0, 2.0, 1.25]
    jg, rp, job = _job(world, *(f"{p}={k}" for p, k in zip(PATTERNS, ks, strict=True)))
    base = rp.baseline.job.mean() * MS
    ranks = list(range(world))
    for p, k in zip(PATTERNS, ks, strict=True):
        one = _job(world, f"{p}={k}")
        for on in [None, *([r] for r in ranks)]:
            w = job_what_if(one[0], [(p, k)], on, one[1], one[2])
            assert w.predicted <= w.baseline + 1e-9, f"{p}={k} on {on}: {w.baseline} → {w.predicted} ms"
            assert w.baseline == pytest.approx(base)
    every = job_what_if(jg, list(zip(PATTERNS, ks, strict=True)), None, rp, job)
    assert every.predicted <= every.baseline + 1e-9
    for on in ([r] for r in ranks):
        w = job_what_if(jg, list(zip(PATTERNS, ks, strict=True)), on, rp, job)
        assert w.predicted <= w.baseline + 1e-9
        assert w.predicted >= every.predicted - 1e-9  # one rank alone never beats every rank


@pytest.mark.parametrize("world", [2, 4])
def test_k_of_one_changes_nothing(world: int) -> None:
    jg, rp, job = _job(world, *(f"{p}=1" for p in PATTERNS))
    w = job_what_if(jg, [(p, 1.0) for p in PATTERNS], None, rp, job)
    assert w.predicted == pytest.approx(w.baseline, abs=1e-9)


@pytest.mark.parametrize("world", [2, 4])
def test_the_sleeping_rank_is_the_straggler(world: int) -> None:
    """The recipe's slow rank reaches each step's all-reduces about the sleep later than the first rank:
    the collectives' skew is the sleep give or take the ranks' own few ms of work."""
    _jg, _rp, job = _job(world)
    assert job.straggler == RECIPE.DDP_SLOW_RANK[world]
    (c,) = job.collectives
    assert c.name == "all_reduce"
    assert SLEEP_MS * 0.9 <= c.skew_mean <= SLEEP_MS * 1.2, f"skew {c.skew_mean:.1f} ms, sleep {SLEEP_MS} ms"
    slow = job.per_rank[RECIPE.DDP_SLOW_RANK[world]]
    assert slow.waiting == pytest.approx(0.0, abs=0.05 * SLEEP_MS)  # it arrives last: it hardly waits
    assert slow.waited_for > 0.9 * SLEEP_MS * (world - 1)  # each other rank waits about the sleep for it


def test_straggler_cost_two_ranks() -> None:
    """With two ranks the median of the other ranks is the other rank: work as fast as its takes the whole sleep
    off the slow rank, and the job's step shortens by about the sleep (a median with the straggler in it was the
    mean of the two, and gave back half)."""
    _jg, _rp, job = _job(2)
    assert job.straggler_cost == pytest.approx(SLEEP_MS, rel=0.15), f"cost {job.straggler_cost:.1f} ms"


def test_straggler_cost_four_ranks() -> None:
    """With four ranks the other ranks' median work is a fast rank's: the slow rank's sleep is all taken off, and
    the job's step shortens by about the sleep. It does because the fast ranks' step threads wait inside
    ``backward`` for DDP's gradient futures until gloo's all-reduces end on their run-loop threads (waking up to
    5 ms later when the machine is busy), and the first step's all-reduce starts 3 ms after the call that
    enqueued it: both are recognised as dependencies on the collectives, not as the step thread's own work."""
    jg, _rp, job = _job(4)
    assert sum(r.extra.get("collective_joins", 0) for r in jg.ranks) > 0
    assert job.straggler_cost == pytest.approx(SLEEP_MS, rel=0.15), f"cost {job.straggler_cost:.1f} ms"


@pytest.mark.parametrize("world", [2, 4])
def test_waiting_fits_in_the_step(world: int) -> None:
    """DDP all-reduces two gradient buckets at once on two gloo threads: a rank waits once for both. Every fast
    rank waits about the slow rank's sleep per step (the script's 0.1 s), the sleeping rank next to nothing."""
    _jg, _rp, job = _job(world)
    for r in job.per_rank:
        assert r.waiting <= r.step_time + 1e-9, f"rank {r.rank}: waiting {r.waiting:.1f} of {r.step_time:.1f} ms"
        if r.rank == RECIPE.DDP_SLOW_RANK[world]:
            assert r.waiting < 0.05 * SLEEP_MS
        else:
            assert r.waiting == pytest.approx(SLEEP_MS, rel=0.1), f"rank {r.rank}"
    # and each waits that long for the sleeping rank, the one the others wait for
    assert [w.wait for w in job.straggler_waits] == pytest.approx([SLEEP_MS] * (world - 1), rel=0.1)
    slow = job.per_rank[RECIPE.DDP_SLOW_RANK[world]]
    assert slow.waited_for == pytest.approx((world - 1) * SLEEP_MS, rel=0.1)


@pytest.mark.parametrize("world", [2, 4])
def test_a_ranks_transfer_and_waiting_fit_in_its_step_though_two_buckets_run_at_once(world: int) -> None:
    """DDP hands its two gradient buckets to gloo at once (two all-reduces on two threads): each rank's
    communication is the time its transfers cover, as its waiting is, so the two fit in its measured step; a
    sum of the two buckets' transfers counted their common time twice (ddp4's rank 0: 13.7 + 104.6 ms in a
    113.4 ms step)."""
    _, _, job = _job(world)
    by_name = {c.name: c for c in job.collectives}
    summed = sum(c.count * c.transfer for c in by_name.values()) / len(job.steps)  # ms per step, overlaps twice
    for r in job.per_rank:
        assert r.communication + r.waiting <= r.step_time, r
        assert 0 < r.communication < summed


def test_overlapping_patterns_give_no_sum_for_the_job_as_for_one_rank() -> None:
    """backward's phase holds aten::mm's events too: their shares overlap, so Amdahl's law on their sums cannot
    say, for the job as for one rank (it said 1.09×)."""
    speedups = ("annotation:backward=2", "aten::mm=2")
    _, rp, job = _job(4, *speedups)
    jg = rp.job
    answer = job_what_if(jg, [(s.rpartition("=")[0], 2.0) for s in speedups], analysis=job, replay=rp)
    assert answer.sum_speedup is None
    _, rp, job = _job(4, "aten::mm=2")
    assert job_what_if(rp.job, [("aten::mm", 2.0)], analysis=job, replay=rp).sum_speedup is not None
