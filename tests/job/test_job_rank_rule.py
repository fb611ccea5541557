"""One rule for which rank's profile stands for a job: the rank the job waits for (its straggler), whether the
folder is opened in the window, imported (``amdahl-desk import``), reported or loaded (``ad.load``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import amdahl_desk as ad
from amdahl_desk.cli import main

from .make_jobs import allreduce_job, example


@pytest.fixture(scope="module")
def issue_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Kernel A 12, 10, 20, 11 ms on ranks 0–3, then a 3 ms all-reduce: every rank's step is 23 ms (a tie: the
    slowest step says nothing), and ranks 0, 1 and 3 wait 8, 10 and 9 ms for rank 2."""
    folder = tmp_path_factory.mktemp("job")
    for r in example():
        r.write(folder)
    return folder


def test_import_takes_the_rank_the_job_waits_for(issue_job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(issue_job), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rank"] == 2
    assert [r["straggler"] for r in data["ranks"]] == [False, False, True, False]
    assert [r["step_time"] for r in data["ranks"]] == pytest.approx([23.0] * 4)
    assert main(["import", str(issue_job)]) == 0
    out = capsys.readouterr().out
    assert "rank 2 of 4 (the straggler" in out and "rank 2 (rank2.json.gz): 23 ms per step  ← straggler" in out


def test_ad_load_takes_the_same_rank(issue_job: Path) -> None:
    p = ad.load(issue_job, group_by="gpu")  # rank 2's GPU: kernel A's 20 ms, the all-reduce's 3 ms
    times = dict(zip(p.components["name"], p.components["time"], strict=True))
    assert times["GPU compute"] == pytest.approx(20.0) and times["Exposed communication"] == pytest.approx(3.0)
    assert p.job is not None and p.job.straggler.rank == 2
    assert ad.load(issue_job, group_by="gpu", rank=0).components["time"].iloc[0] == pytest.approx(12.0)


def test_report_of_a_folder_reads_the_same_rank(issue_job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(issue_job), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "rank 2 of 4 (the straggler" in json.dumps(report)


def test_ranks_that_cannot_be_joined_take_the_slowest_and_say_why(tmp_path: Path) -> None:
    # rank 1 has one step fewer: the ranks cannot be joined; rank 0's steps (20 + 3 ms) are the longest
    for r in allreduce_job([[20000.0, 20000.0], [10000.0, 10000.0]], steps_of=[2, 1]):
        r.write(tmp_path)
    p = ad.load(tmp_path, group_by="gpu")
    assert p.components["time"].iloc[0] == pytest.approx(20.0)
    said = " ".join(p.warnings)
    assert "cannot be joined as one job" in said and "rank1.json.gz" in said and "rank 0, the slowest" in said


def test_the_rule_has_one_home() -> None:
    """The window, export and the import call model/job/representative; none picks a rank by its own rule."""
    root = Path(__file__).parents[2] / "amdahl_desk"
    own = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "job.straggler if job.straggler is not None" in p.read_text(encoding="utf-8")
    ]
    assert own == []
