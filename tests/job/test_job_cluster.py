"""A job's ranks read on a Dask cluster: a LocalCluster on loopback, its Client's executor doing the reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amdahl_desk.cli import main

from .make_jobs import example

distributed = pytest.importorskip("distributed")


def test_job_on_a_local_dask_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same answer as the local process pool's (the hand-worked example: 23.0 ms, rank 2 costs 8.0 ms)."""
    for r in example():
        r.write(tmp_path)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        code = main(["job", str(tmp_path), "--json", "--scheduler", cluster.scheduler_address])
        assert code == 0
        out = json.loads(capsys.readouterr().out)
        assert out["step_time"] == pytest.approx(23.0)
        assert out["straggler"] == {"rank": 2, "cost": pytest.approx(8.0)}
        code = main(["whatif", str(tmp_path), "--speedup", "kernel_A=2", "--json", "--scheduler",
                     cluster.scheduler_address])  # fmt: skip
        assert code == 0
        assert json.loads(capsys.readouterr().out)["predicted"] == pytest.approx(13.0)


def test_unreachable_scheduler_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for r in example():
        r.write(tmp_path)
    assert main(["job", str(tmp_path), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "Dask scheduler" in capsys.readouterr().err
