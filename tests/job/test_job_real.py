"""The real 16-GPU NCCL trace as a job of two identical ranks: the invariants hold on a real step graph."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.job.analysis import analyse_job, job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.replay import Replay
from amdahl_desk.model.traces.patterns import parse_pattern_speedup

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_16gpu_nccl_rank0.json.gz"


def test_real_trace_job_invariants(tmp_path: Path) -> None:
    doc = json.loads(gzip.decompress(REAL.read_bytes()))
    for r in range(2):
        doc["distributedInfo"]["rank"] = r
        (tmp_path / f"rank{r}.json.gz").write_bytes(gzip.compress(json.dumps(doc).encode(), 1))
    sp = [parse_pattern_speedup("nccl=2"), parse_pattern_speedup("gemm=3")]
    jg = match(load_job([str(tmp_path)], "ProfilerStep#", sp))
    rp = Replay(jg)
    job = analyse_job(jg, rp)
    assert job.steps == (550, 551, 552, 553, 554)
    assert rp.error == pytest.approx(0.0, abs=1e-6)  # K = 1 gives back every rank's measured step
    assert all(r.waiting == pytest.approx(0.0, abs=1e-9) for r in job.per_rank)  # the same rank twice: no wait
    assert job.straggler is None and len(job.collectives) >= 4
    measured = sum(s for s in job.step_times) / len(job.step_times)
    assert job.step_time == pytest.approx(measured)
    for on in (None, [0], [1]):
        w = job_what_if(jg, [("nccl", 2.0), ("gemm", 3.0)], on, rp, job)
        assert w.predicted <= w.baseline + 1e-9
