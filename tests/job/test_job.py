"""Synthetic jobs with answers worked out by hand (see tests/job/make_jobs.py for the jobs' layout)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.analysis import analyse_job, job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.replay import Replay
from amdahl_desk.model.traces.errors import TraceError
from amdahl_desk.model.traces.patterns import parse_pattern_speedup
from amdahl_desk.present.job import job_view, job_what_if_view

from .make_jobs import Rank, allreduce_job, example, groups_job

STEP = "ProfilerStep#"


def write(ranks: list[Rank], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for r in ranks:
        r.write(folder)
    return folder


def job_of(folder: Path, *speedups: str) -> tuple:
    sp = [parse_pattern_speedup(s) for s in speedups]
    jg = match(load_job([str(folder)], STEP, sp))
    rp = Replay(jg)
    return jg, rp, analyse_job(jg, rp)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_issue_example_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 12, 10, 20, 11 ms; all-reduce 3 ms after the last arrival (rank 2, at 20): every step ends at 23.
    Waiting = 20 − A: 8, 10, 0, 9; the others wait 27 ms for rank 2. Rank 2's A as the median's (11.5):
    the last arrival is rank 0 at 12, the step 15: the straggler costs 8 ms."""
    folder = write(example(), tmp_path / "job")
    out = run_json(capsys, "job", str(folder), "--json")
    assert out["unit"] == "ms" and out["ranks"] == 4 and out["steps"] == 1
    assert out["step_time"] == pytest.approx(23.0)
    assert [r["rank"] for r in out["per_rank"]] == [0, 1, 2, 3]
    assert [r["step_time"] for r in out["per_rank"]] == pytest.approx([23.0] * 4)
    assert [r["compute"] for r in out["per_rank"]] == pytest.approx([12.0, 10.0, 20.0, 11.0])
    assert [r["communication"] for r in out["per_rank"]] == pytest.approx([3.0] * 4)
    assert [r["waiting"] for r in out["per_rank"]] == pytest.approx([8.0, 10.0, 0.0, 9.0])
    assert out["straggler"] == {"rank": 2, "cost": pytest.approx(8.0)}
    (c,) = out["collectives"]
    assert c["name"] == "all_reduce" and c["count"] == 1
    assert (c["transfer"], c["skew_mean"], c["skew_max"]) == pytest.approx((3.0, 10.0, 10.0))
    assert out["replay_error"] == pytest.approx(0.0, abs=1e-9)


def test_issue_example_whatif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 2× on every rank: 6, 5, 10, 5.5; rank 2 arrives last at 10: 13. On rank 2 alone: rank 0 at 12: 15
    (23/15 = 1.53×). On rank 0 alone: rank 2 still arrives at 20: 23, nothing."""
    folder = write(example(), tmp_path / "job")
    out = run_json(capsys, "whatif", str(folder), "--speedup", "kernel_A=2", "--json")
    assert (out["baseline"], out["predicted"]) == pytest.approx((23.0, 13.0))
    assert out["speedup"] == pytest.approx(23 / 13)
    assert out["ranks"] == 4 and out["unit"] == "ms"
    assert [(r["rank"], r["baseline"], r["predicted"]) for r in out["per_rank"]] == [
        (i, pytest.approx(23.0), pytest.approx(13.0)) for i in range(4)
    ]
    assert out["sum_speedup"] == pytest.approx(23 / 13)  # rank 2's sums: A 20 of 23 → 10
    alone = run_json(capsys, "whatif", str(folder), "--speedup", "kernel_A=2", "--on-ranks", "2", "--json")
    assert alone["predicted"] == pytest.approx(15.0)
    zero = run_json(capsys, "whatif", str(folder), "--speedup", "kernel_A=2", "--on-ranks", "0", "--json")
    assert zero["predicted"] == pytest.approx(23.0)
    assert main(["whatif", str(folder), "--speedup", "kernel_A=2"]) == 0
    text = capsys.readouterr().out
    assert (
        "Making kernel_A 2× faster on every rank shortens the job's step 1.77× (23.0 → 13.0 ms); on rank 2 "
        "alone 1.53×; on rank 0 alone nothing: rank 0 already waits 8.0 ms for rank 2 at the all_reduce."
    ) in text


def test_single_rank_answer_kept_with_rank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--rank 2: rank 2's own graph, where A 20 → 10 makes the all-reduce (its 3 ms) end at 13 too."""
    folder = write(example(), tmp_path / "job")
    out = run_json(capsys, "whatif", str(folder), "--rank", "2", "--speedup", "kernel_A=2", "--json")
    assert out["rank"] == 2 and "critical_path" in out
    assert out["baseline"] == pytest.approx(23.0)


def test_cpu_straggler(tmp_path: Path) -> None:
    """Rank 1 spends 8 ms in a CPU operator before launching A (10 ms on every rank): it arrives at 18, the
    step is 21, the others wait 8 ms each (24 ms for rank 1). Its CPU work as the other ranks' median (a few µs):
    it arrives at ≈ 10, the step ≈ 13: the straggler costs ≈ 8 ms."""
    a = [[10000.0]] * 4
    cpu = [[0.0], [8000.0], [0.0], [0.0]]
    jg, rp, job = job_of(write(allreduce_job(a, cpu=cpu), tmp_path / "job"))
    assert job.step_time == pytest.approx(21.0)
    assert job.straggler == 1
    assert [r.waiting for r in job.per_rank] == pytest.approx([8.0, 0.0, 8.0, 8.0])
    assert [r.compute for r in job.per_rank] == pytest.approx([10.0] * 4)
    assert job.straggler_cost == pytest.approx(8.0, abs=0.05)
    assert "Rank 1 is the straggler" in job_view(job).text


def test_ddp_allreduce_on_second_stream(tmp_path: Path) -> None:
    """The all-reduce on stream 20 after cudaStreamWaitEvent on A: the same answers as on one stream."""
    folder = write(allreduce_job([[12000.0], [10000.0], [20000.0], [11000.0]], second_stream=True), tmp_path / "j")
    jg, rp, job = job_of(folder, "kernel_A=2")
    assert rp.error == pytest.approx(0.0, abs=1e-6)
    assert job.step_time == pytest.approx(23.0) and job.straggler == 2
    assert job_what_if(jg, [("kernel_A", 2.0)], None, rp, job).predicted == pytest.approx(13.0)
    assert job_what_if(jg, [("kernel_A", 2.0)], [2], rp, job).predicted == pytest.approx(15.0)


def test_steps_with_different_stragglers(tmp_path: Path) -> None:
    """Step 1: A 12, 10, 20, 11 (rank 2 last; 23; waits 8+10+9 = 27). Step 2: A 10, 19, 11, 12 (rank 1 last;
    22; waits 9+8+7 = 24). Mean step 22.5; rank 2 waited for 27/2 = 13.5 per step, rank 1 12.0: rank 2 is the
    straggler. A 2×: step 1 13.0, step 2 9.5 + 3 = 12.5: mean 12.75."""
    a = [[12000.0, 10000.0], [10000.0, 19000.0], [20000.0, 11000.0], [11000.0, 12000.0]]
    jg, rp, job = job_of(write(allreduce_job(a), tmp_path / "job"), "kernel_A=2")
    assert job.steps == (1, 2)
    assert job.step_times == pytest.approx((23.0, 22.0))
    assert job.step_time == pytest.approx(22.5)
    assert [r.waited_for for r in job.per_rank] == pytest.approx([0.0, 12.0, 13.5, 0.0])
    assert job.straggler == 2
    w = job_what_if(jg, [("kernel_A", 2.0)], None, rp, job)
    assert [p for _, _, p in w.step_figures] == pytest.approx([13.0, 12.5])
    assert w.predicted == pytest.approx(12.75)


def test_tensor_and_data_parallel_groups(tmp_path: Path) -> None:
    """A 10, 12, 15, 11. The pair all-reduces (groups "1": ranks 0, 1 and "2": ranks 2, 3) end at 12 + 1 = 13
    and 15 + 1 = 16; the all-reduce over all four (group "0") at 16 + 2 = 18, the step. Waiting: rank 0
    2 (pair) + 3 (all), rank 1 0 + 3, rank 2 0 + 0, rank 3 4 + 0. Matched by order instead, the pairs'
    all-reduces would be one, and rank 0 would wait 5 at it. A 2×: 5, 6, 7.5, 5.5: pairs at 7 and 8.5,
    the step 10.5."""
    jg, rp, job = job_of(write(groups_job([10000.0, 12000.0, 15000.0, 11000.0]), tmp_path / "job"), "kernel_A=2")
    assert job.step_time == pytest.approx(18.0)
    assert [r.waiting for r in job.per_rank] == pytest.approx([5.0, 3.0, 0.0, 4.0])
    assert [r.communication for r in job.per_rank] == pytest.approx([3.0] * 4)
    assert job.straggler == 2
    assert sorted(c.count for c in job.collectives) == [3]  # two pair instances and one over all four
    assert job_what_if(jg, [("kernel_A", 2.0)], None, rp, job).predicted == pytest.approx(10.5)


def test_two_hosts_with_a_clock_offset(tmp_path: Path) -> None:
    """Ranks 2 and 3 on host b, whose clock reads 5 s later: aligned by the all-reduce's ends, the answers are
    the single clock's."""
    ranks = allreduce_job(
        [[12000.0], [10000.0], [20000.0], [11000.0]], hosts=["a", "a", "b", "b"], clocks=[0, 0, 5e6, 5e6]
    )
    jg, rp, job = job_of(write(ranks, tmp_path / "job"), "kernel_A=2")
    assert job.host_offsets == pytest.approx({"a": 0.0, "b": -5000.0})
    assert job.step_time == pytest.approx(23.0) and job.straggler == 2
    assert [r.waiting for r in job.per_rank] == pytest.approx([8.0, 10.0, 0.0, 9.0])
    assert job_what_if(jg, [("kernel_A", 2.0)], None, rp, job).predicted == pytest.approx(13.0)
    assert "Host clocks aligned" in job_view(job).text


JOBS = {
    "example": lambda: example(),
    "cpu": lambda: allreduce_job([[10000.0]] * 4, cpu=[[0.0], [8000.0], [0.0], [0.0]]),
    "ddp": lambda: allreduce_job([[12000.0], [10000.0], [20000.0], [11000.0]], second_stream=True),
    "steps": lambda: allreduce_job([[12000.0, 10000.0], [10000.0, 19000.0], [20000.0, 11000.0], [11000.0, 12000.0]]),
    "groups": lambda: groups_job([10000.0, 12000.0, 15000.0, 11000.0]),
}


@pytest.mark.parametrize("name", sorted(JOBS))
def test_invariants(tmp_path: Path, name: str) -> None:
    """K = 1 gives back the job; waiting ≥ 0; K ≥ 1 on any events, on any ranks, never slows the job."""
    folder = write(JOBS[name](), tmp_path / name)
    patterns = ["kernel_A=1.7", "nccl=3", "cudaLaunchKernel=4", "re:.=1"]
    jg, rp, job = job_of(folder, *patterns)
    assert rp.error == pytest.approx(0.0, abs=1e-6)
    assert all(r.waiting >= 0 for r in job.per_rank)
    base = rp.baseline.job
    rng = np.random.default_rng(7)
    for _ in range(6):
        on = sorted(rng.choice(jg.rank_numbers(), size=int(rng.integers(1, jg.size + 1)), replace=False).tolist())
        w = job_what_if(jg, [(p.split("=")[0], float(p.split("=")[1])) for p in patterns], on, rp, job)
        assert w.predicted <= float(base.mean()) * 1e-3 + 1e-9
    jg1, rp1, job1 = job_of(folder, "re:.=1")  # every event matched, K = 1
    one = job_what_if(jg1, [("re:.", 1.0)], None, rp1, job1)
    assert one.predicted == pytest.approx(one.baseline)
    assert one.baseline == pytest.approx(job.step_time)


def _expect_refusal(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    for w in words:
        assert w in err


def test_bad_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a2 = [[12000.0, 10000.0], [10000.0, 19000.0], [20000.0, 11000.0], [11000.0, 12000.0]]
    fewer = write(allreduce_job(a2, steps_of=[2, 2, 1, 2]), tmp_path / "fewer")
    _expect_refusal(capsys, ["job", str(fewer)], "rank2.json.gz", "rank 2 has 1 step")

    ranks = example()
    extra = ranks[3]
    extra.x("user_annotation", "nccl:all_reduce", 30, 5)
    extra.launch(31, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", 22990, 5)
    unmatched = write(ranks, tmp_path / "unmatched")
    _expect_refusal(capsys, ["job", str(unmatched)], "cannot be matched", "rank3.json.gz")

    damaged = write(example(), tmp_path / "damaged")
    data = gzip.decompress((damaged / "rank1.json.gz").read_bytes())
    (damaged / "rank1.json.gz").write_bytes(gzip.compress(data[: len(data) // 2]))
    _expect_refusal(capsys, ["job", str(damaged)], "rank1.json.gz")

    good = write(example(), tmp_path / "good")
    _expect_refusal(capsys, ["whatif", str(good), "--speedup", "kernel_A=2", "--on-ranks", "7"], "rank 7", "0-3")
    _expect_refusal(capsys, ["whatif", str(good), "--speedup", "kernel_A=2", "--on-ranks", "x"], "--on-ranks")
    _expect_refusal(capsys, ["whatif", str(good), "--speedup", "nomatch=2"], "nomatch")
    _expect_refusal(
        capsys, ["whatif", str(good), "--speedup", "kernel_A=2", "--step", "ProfilerStep#", "--step", "Step"], "--step"
    )


def test_load_job_reads_in_worker_processes(tmp_path: Path) -> None:
    """The ranks come back as compact graphs whatever the executor: a process pool here (four files)."""
    folder = write(example(), tmp_path / "job")
    ranks = load_job([str(folder / "rank*.json.gz")], STEP)
    assert [r.rank for r in ranks] == [0, 1, 2, 3]
    assert all(r.step_numbers == (1,) and len(r.coll_key) == 1 for r in ranks)
    with pytest.raises(TraceError, match="matches no file"):
        load_job([str(folder / "nothing*.gz")], STEP)


def test_views_read_as_answers(tmp_path: Path) -> None:
    jg, rp, job = job_of(write(example(), tmp_path / "job"), "kernel_A=2")
    text = job_view(job).text
    assert text.startswith("The job's step takes 23.0 ms (4 ranks, 1 step")
    assert "Rank 2 is the straggler" in text and "15.0 ms instead of 23.0 ms" in text
    w = job_what_if(jg, [("kernel_A", 2.0)], [1, 3], rp, job)
    assert job_what_if_view(w).sentence.startswith("Making kernel_A 2× faster on ranks 1,3 does not shorten")


def test_gloo_collectives_on_cpu_threads(tmp_path: Path) -> None:
    """gloo:all_reduce on the run-loop thread, from each rank's end of compute (5, 9, 6 ms) to 9 + 2 = 11:
    transfer 2 (rank 1's), waiting 4, 0, 3; rank 1 is waited for 7 ms."""
    from .make_jobs import gloo_job

    jg, rp, job = job_of(write(gloo_job([5000.0, 9000.0, 6000.0]), tmp_path / "job"))
    assert rp.error == pytest.approx(0.0, abs=1e-6)
    assert job.step_time == pytest.approx(11.0)
    (c,) = job.collectives
    assert c.name == "all_reduce" and c.transfer == pytest.approx(2.0) and c.skew_max == pytest.approx(4.0)
    assert [r.waiting for r in job.per_rank] == pytest.approx([4.0, 0.0, 3.0])
    assert job.straggler == 1 and job.per_rank[1].waited_for == pytest.approx(7.0)
