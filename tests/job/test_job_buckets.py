"""A real DDP job over gloo with two gradient buckets a step (tests/traces/fixtures/ddp2_buckets, recorded by
make_fixtures.py's ``buckets`` recipe): each rank runs its two all-reduces on gloo's two threads at once, and the
k-th all-reduce a rank starts in a step is joined with the k-th the other starts. Also: ranks of different runs,
and a file named twice, are refused."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.cli import main
from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.analysis import analyse_job
from amdahl_desk.model.job.join import match
from amdahl_desk.model.traces.errors import TraceError

FIXTURES = Path(__file__).resolve().parents[1] / "traces" / "fixtures"
BUCKETS = FIXTURES / "ddp2_buckets"
STEP = "ProfilerStep#"


def _gloo_starts(folder: Path, rank: int) -> dict[int, list[float]]:
    """Per step number: the starts (µs) of the rank's gloo all-reduces in it, in the order they start, from the
    JSON itself."""
    doc = json.loads(gzip.decompress((folder / f"rank{rank}.json.gz").read_bytes()))
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    steps = [(int(e["name"][len(STEP) :]), e["ts"], e["ts"] + e["dur"]) for e in events if e["name"].startswith(STEP)]
    out: dict[int, list[float]] = {}
    for e in events:
        if e["name"].startswith("gloo:all_reduce"):
            n = next(n for n, a, b in steps if a <= e["ts"] <= b)
            out.setdefault(n, []).append(float(e["ts"]))
    return {n: sorted(ts) for n, ts in out.items()}


@pytest.mark.parametrize("folder", ["ddp2_buckets", "ddp4"])
def test_the_kth_all_reduce_of_one_rank_is_joined_with_the_kth_of_the_others(folder):
    """In ddp2_buckets rank 0's first bucket waits for the straggler while its second starts, so the first's own
    work ends last; in ddp4 the same on the fast ranks. Joined by where their work ended, every pair was crossed
    (rank 0's first bucket with rank 1's second)."""
    path = FIXTURES / folder
    job = match(load_job([str(path)], STEP))
    starts = {r.rank: _gloo_starts(path, r.rank) for r in job.ranks}
    assert all(len(ts) >= 2 for s in starts.values() for ts in s.values())  # buckets at once, on every rank
    for inst in job.instances:
        n = job.step_numbers[inst.step]
        order = []
        for member, at in zip(inst.members.tolist(), inst.start.tolist(), strict=True):
            ts = np.array(starts[job.ranks[member].rank][n])
            nearest = int(np.argmin(np.abs(ts - at)))
            assert abs(ts[nearest] - at) < 50  # µs: the instance starts where a gloo all-reduce does
            order.append(nearest)
        assert len(set(order)) == 1, f"step {n}: the ranks' all-reduces {order} joined as one"


def test_a_ranks_communication_and_waiting_fit_in_its_step():
    job = analyse_job(match(load_job([str(BUCKETS)], STEP)))
    assert job.straggler == 1
    for r in job.per_rank:
        assert r.communication + r.waiting <= r.step_time + 1e-9, r


def test_ranks_of_different_runs_are_refused(tmp_path):
    """Rank 0 of a two-rank run beside rank 1 of a four-rank run: their traces state different job sizes."""
    with pytest.raises(TraceError, match=r"different runs: .*4 ranks.* 2"):
        match(load_job([str(BUCKETS / "rank0.json.gz"), str(FIXTURES / "ddp4" / "rank1.json.gz")], STEP))


def test_a_rank_beyond_the_job_the_traces_state_is_refused(tmp_path):
    """A third trace that says it is rank 2 of the same two-rank job."""
    doc = json.loads(gzip.decompress((BUCKETS / "rank1.json.gz").read_bytes()))
    doc["distributedInfo"]["rank"] = 2
    third = tmp_path / "rank2.json"
    third.write_text(json.dumps(doc))
    with pytest.raises(TraceError, match=r"rank2.json: rank 2 in a job the traces say has 2 ranks \(0 to 1\)"):
        match(load_job([str(BUCKETS), str(third)], STEP))
    del doc["distributedInfo"]["world_size"]  # one that states no size is held to the others'
    doc["distributedInfo"]["rank"] = 5
    third.write_text(json.dumps(doc))
    with pytest.raises(TraceError, match=r"rank2.json: rank 5 in a job the traces say has 2 ranks"):
        match(load_job([str(BUCKETS / "rank0.json.gz"), str(third)], STEP))


def test_a_file_named_twice_is_refused(capsys):
    path = str(BUCKETS / "rank0.json.gz")
    assert main(["job", path, path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "rank0.json.gz: the file is named twice" in err


@pytest.mark.parametrize(
    ("trace", "grouping"),
    [("torch_cpu_steps.json.gz", "gpu"), ("torch_cpu_steps.json.gz", "function"), ("pyspy.speedscope.json", "op")],
)
def test_a_grouping_that_does_not_apply_is_refused_naming_the_file(capsys, trace, grouping):
    assert main(["import", str(FIXTURES / trace), "--group-by", grouping]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{trace}: ")


@pytest.mark.parametrize("speedup", ["annotation:backward=2", "annotation:forward=2", "aten::mm=2"])
def test_amdahl_on_the_stragglers_sums_is_the_single_rank_answers(capsys, speedup):
    """The job's "Amdahl's law on rank 1's sums" is what the single-rank what-if of rank 1 says: the same share of
    the same step (it took backward's time on gloo's threads too, against the job's step: 1.25× for 1.14×)."""

    def answer(*extra: str) -> dict:
        assert main(["whatif", str(BUCKETS), "--speedup", speedup, "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    job, alone = answer(), answer("--rank", "1")
    assert job["sum_rank"] == 1
    assert job["sum_speedup"] == pytest.approx(alone["sum_speedup"], rel=1e-6)


def test_one_rank_of_a_job_says_its_waiting_counts_as_its_own_time(capsys):
    """Rank 0 waits for the straggler at every all-reduce: its own graph scales that waiting as if it were work
    (1.86× for backward made 2× faster, where the job gains 1.01× from rank 0), and the answer says so."""
    assert main(["whatif", str(BUCKETS), "--rank", "0", "--speedup", "annotation:backward=2"]) == 0
    out = capsys.readouterr().out
    assert "Rank 0's graph alone: its waiting at collectives for the other ranks counts as its own time" in out
    assert "--on-ranks 0" in out


def test_one_trace_that_is_no_job_gets_no_such_note(capsys):
    trace = FIXTURES / "torch_cpu_steps.json.gz"  # one process: no distributedInfo, no collectives
    assert main(["whatif", str(trace), "--rank", "0", "--speedup", "aten::mm=2"]) == 0
    assert "graph alone" not in capsys.readouterr().out
