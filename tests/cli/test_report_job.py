"""``report`` of a profile that stands for a job of many ranks leads with the job's answer, as the window does: the
job and its straggler, the ticked plan replayed through every rank with its ceiling, the odds with every draw
replayed through the ranks; the profile's own rank follows, labelled. A workbook saved with its job (its Ranks
sheet) keeps the ranks its plan is on.

The hand-worked job (tests/job/make_jobs.example): kernel A 12, 10, 20, 11 ms on ranks 0–3, a 3 ms all-reduce
that ends when rank 2 arrives. Grouped by GPU, rank 2's profile is GPU compute 20 ms (kernel A) and exposed
communication 3 ms. GPU compute k× faster on every rank: rank 2 still arrives last, the job's step is 20/k + 3 ms;
free, the all-reduce starts at its launch 10 µs into the step: 3.010 ms; on rank 0 alone it stays 23 ms (rank 0
already waits 8 ms for rank 2)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile, save_profile
from amdahl_desk.files.job_sheet import JobSheet

from ..job.make_jobs import example


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("reported") / "job"
    out.mkdir()
    for r in example():
        r.write(out)
    return out


def _report(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(["report", *argv]) == 0
    return capsys.readouterr().out


def _workbook(folder, tmp_path, capsys, plan_on=None):
    """Rank 2's profile by GPU, GPU compute 2× (1.5–4×, 90% confidence, 2 days) and a 13 ms target."""
    from amdahl_desk.model.profile import Optimization

    path = tmp_path / "job.xlsx"
    capsys.readouterr()
    assert main(["import", str(folder), "--group-by", "gpu", "--out", str(path)]) == 0
    loaded = load_profile(path)
    profile = loaded.profile
    profile.set_optimizations(
        [Optimization("GPU 2x", ("GPU compute",), 2.0, speedup_low=1.5, speedup_high=4.0, confidence=0.9, effort=2.0)]
    )
    profile.set_settings(replace(profile.settings, target_time=13.0))
    job = None
    if plan_on is not None:
        from amdahl_desk.files.job_sheet import RankRow

        rows = [
            RankRow(r, "", 23.0, 0.0, 3.0, 0.0, 0.0, r == 2, f"job/rank{r}.json.gz", r in plan_on) for r in range(4)
        ]
        job = JobSheet(tuple(rows))
        path = folder.parent / "with_ranks.xlsx"
    save_profile(profile, path, job=job)
    return path


def test_a_folder_is_reported_as_its_job(folder, capsys):
    text = _report(capsys, str(folder))
    assert text.startswith(
        "The job (job): The job's step takes 23.0 ms (4 ranks, 1 step, means per step). Rank 2 is the straggler"
    )
    assert "The job's step takes 23 ms (4 ranks). Tick an optimization" in text
    assert "The profile is rank 2's (the straggler); what follows is that rank's alone:" in text
    data = json.loads(_report(capsys, str(folder), "--json"))["job"]
    assert data["ranks"] == 4 and data["step_time"] == pytest.approx(23.0)
    assert data["straggler"]["rank"] == 2 and data["plan"] is None


def test_the_plan_and_its_odds_are_the_jobs(folder, tmp_path, capsys):
    path = _workbook(folder, tmp_path, capsys)
    data = json.loads(_report(capsys, str(path), "--json"))
    plan = data["job"]["plan"]
    assert plan["predicted"] == pytest.approx(13.0) and plan["speedup"] == pytest.approx(23 / 13)
    assert plan["ceiling"] == pytest.approx(23 / 3.010, rel=1e-6)
    u = data["job"]["uncertainty"]  # the job's odds, beside its answer; the top level's are rank 2's own
    assert u["job_ranks"] == 4 and data["job"]["plans"] is None and data["uncertainty"]["job_ranks"] is None
    assert data["job"]["target"] == {"time": 13.0, "met_by_plan": True, "feasible": True, "floor": pytest.approx(3.010)}
    assert (u["new_total"]["low"], u["new_total"]["high"]) == pytest.approx((20 / 4 + 3, 20 / 1.5 + 3))
    assert u["best_case"] == pytest.approx(8.0) and u["worst_case"] == pytest.approx(23.0)
    # the odds: the share of draws whose k ≥ 2 (20/k + 3 ≤ 13), on the profile's own draws of k
    from amdahl_desk.model.draws import make_draws

    draws = make_draws(load_profile(path).profile, seed=0)
    k = 1.0 / np.broadcast_to(np.asarray(draws.reciprocal[0], dtype=float), (draws.count,))
    assert u["probability_target"] == pytest.approx(float(np.mean(20.0 / k + 3.0 <= 13.0 * (1 + 1e-12))))
    text = _report(capsys, str(path))
    lead, rank = text.split("what follows is that rank's alone:")
    assert (
        "For the job: Making GPU compute 2× faster on every rank shortens the job's step 1.769× (23 ms → 13 ms)" in lead
    )
    assert "makes the job's step" in lead and "replayed through the job's 4 ranks" in lead
    assert "Cheapest plan: Not searched for a job" in lead
    assert "makes the whole workload" in rank  # rank 2's own odds, under its own heading


def test_a_workbook_with_its_ranks_keeps_the_ranks_its_plan_is_on(folder, tmp_path, capsys):
    path = _workbook(folder, tmp_path, capsys, plan_on=(0,))
    data = json.loads(_report(capsys, str(path), "--json"))
    job = data["job"]
    assert job["on_ranks"] == [0] and job["plan"]["predicted"] == pytest.approx(23.0)
    assert data["job"]["uncertainty"]["probability_target"] == 0.0  # rank 0 already waits for rank 2: no draw gains
    assert data["job"]["target"]["met_by_plan"] is False and data["job"]["target"]["feasible"] is False


def test_a_job_whose_traces_are_gone_is_said_and_the_rank_reported(folder, tmp_path, capsys):
    path = _workbook(folder, tmp_path, capsys, plan_on=(0, 1, 2, 3))
    moved = tmp_path / "alone.xlsx"
    moved.write_bytes(path.read_bytes())  # its Ranks sheet names job/rank*.json.gz beside it: not there
    text = _report(capsys, str(moved))
    assert text.startswith("The job (4 files) could not be read:") and "one rank's alone" in text


def test_every_job_key_is_documented(folder, tmp_path, capsys):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "json-contract.md").read_text(encoding="utf-8")
    section = doc.split("### `job`")[1].split("\n## ")[0]
    documented = {
        k.strip("` ") for line in section.splitlines() if line.startswith("| `") for k in line.split("|")[1].split(",")
    }
    job = json.loads(_report(capsys, str(_workbook(folder, tmp_path, capsys)), "--json"))["job"]
    assert set(job) <= documented, set(job) - documented


def test_export_keeps_the_job(folder, tmp_path, capsys):
    """A folder exported to a workbook, and a workbook saved with its job exported again, keep the job (a Ranks
    sheet naming every rank's trace from where the new workbook is); the slide of a job with ranges states the
    job's answer and its odds."""
    import pandas as pd

    out = tmp_path / "out"
    assert main(["export", str(folder), "--format", "xlsx", "--out", str(out)]) == 0
    ranks = pd.read_excel(out / "job.xlsx", sheet_name="Ranks", engine="calamine")
    assert [(out / p).resolve() for p in ranks["Trace file"]] == [
        (folder / f"rank{r}.json.gz").resolve() for r in range(4)
    ]
    assert _report(capsys, str(out / "job.xlsx")).startswith("The job (")

    saved = _workbook(folder, tmp_path, capsys, plan_on=(0, 1, 2, 3))
    again = tmp_path / "again"
    assert main(["export", str(saved), "--format", "xlsx", "--out", str(again)]) == 0
    assert json.loads(_report(capsys, str(again / saved.name), "--json"))["job"]["plan"]["predicted"] == pytest.approx(
        13.0
    )
    assert main(["export", str(saved), "--chart", "slide", "--format", "svg", "--out", str(again)]) == 0
    svg = (again / f"{saved.stem}-slide.svg").read_text(encoding="utf-8")
    text = svg.replace("\u00a0", " ")
    assert "A job of 4 ranks" in text and "shortens the job's step 1.769×" in text
    assert "makes the job's step" in text and "it meets 13 ms with" in text  # the odds, replayed through the ranks


def test_the_summary_sheet_of_a_job_leads_with_the_job(folder, tmp_path, capsys):
    """The workbook export of a workbook saved with its job: the Summary sheet's first figures are the job's (values
    as written), its odds the job's, and the rank's own figures follow under a line that says whose they are."""
    from python_calamine import CalamineWorkbook

    saved = _workbook(folder, tmp_path, capsys, plan_on=(0, 1, 2, 3))
    out = tmp_path / "summary"
    assert main(["export", str(saved), "--format", "xlsx", "--out", str(out)]) == 0
    rows = CalamineWorkbook.from_path(str(out / saved.name)).get_sheet_by_name("Summary").to_python()
    labels = [str(r[0]) for r in rows]
    lead = labels.index("The job of 4 ranks (the answer; values as written, ms per step)")
    figures = {str(r[0]): r[1] for r in rows[lead : lead + 7]}
    assert figures["The job's step (ms)"] == pytest.approx(23.0)
    assert figures["New job step (ms)"] == pytest.approx(13.0)
    assert figures["The job's speedup"] == pytest.approx(23 / 13)
    assert figures["The job's ceiling"] == pytest.approx(23 / 3.010, rel=1e-6)
    rank = labels.index("The profile is rank 2's (the straggler); what follows is that rank's alone:")
    odds = [i for i, t in enumerate(labels) if t.startswith("Under uncertainty:")]
    assert lead < odds[0] < rank and "the job's step" in labels[odds[0]]  # the job's odds in the job's lead
    assert all(i > rank and "whole workload" in labels[i] for i in odds[1:])  # the rank's own, after its heading


def test_whatif_of_a_workbook_saved_with_its_job_leads_with_the_job(folder, tmp_path, capsys):
    """With the plan on ranks 0, 1 and 3 (not the straggler) the job gains nothing, though rank 2's own trace says
    1.769×: ``whatif`` says the job's answer first, as ``report`` does, and its JSON has the job's entry."""
    path = _workbook(folder, tmp_path, capsys, plan_on=(0, 1, 3))
    capsys.readouterr()
    assert main(["whatif", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("The job (") and "does not shorten the job's step (23 ms → 23 ms)" in text
    assert main(["whatif", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["job"]["plan"]["predicted"] == pytest.approx(23.0) and data["job"]["on_ranks"] == [0, 1, 3]
    assert data["combined"]["overall_speedup"] == pytest.approx(23 / 13, rel=1e-3)  # rank 2's own, beside


def test_a_trace_named_from_where_the_command_ran_is_written_from_the_workbook(folder, tmp_path, capsys, monkeypatch):
    """``export job --out out`` run beside the folder: the workbook's Settings name rank 2's trace as the workbook
    finds it (``../job/rank2.json.gz``), so a report run from anywhere uses it."""
    from python_calamine import CalamineWorkbook

    monkeypatch.chdir(folder.parent)
    assert main(["export", "job", "--format", "xlsx", "--out", "out"]) == 0
    settings = CalamineWorkbook.from_path(str(folder.parent / "out" / "job.xlsx")).get_sheet_by_name("Settings")
    trace = next(r[1] for r in settings.to_python() if str(r[0]).strip().lower() == "trace")
    assert trace == "../job/rank2.json.gz"
    monkeypatch.chdir(tmp_path)
    data = json.loads(_report(capsys, str(folder.parent / "out" / "job.xlsx"), "--json"))
    assert data["dependencies"]["used"] is True and data["job"]["ranks"] == 4


def test_a_job_with_a_damaged_rank_is_said_and_the_rank_reported(folder, tmp_path, capsys):
    """A rank cut in the middle of its events: the job cannot be read, report says so naming the rank's file and
    its place, and goes on with the profile's rank (a worker's typed refusal is still the trace's)."""
    import gzip
    import shutil

    path = _workbook(folder, tmp_path, capsys, plan_on=(0, 1, 2, 3))
    job = tmp_path / "job"
    shutil.copytree(folder, job)
    rank = sorted(job.glob("rank*.json*"))[-1]
    raw = gzip.decompress(rank.read_bytes()) if rank.suffix == ".gz" else rank.read_bytes()
    rank.write_bytes(gzip.compress(raw[: len(raw) // 2]) if rank.suffix == ".gz" else raw[: len(raw) // 2])
    beside = tmp_path / "with_ranks.xlsx"  # its Ranks sheet names job/rank*.json.gz beside it: the damaged copy
    beside.write_bytes(path.read_bytes())
    text = _report(capsys, str(beside))
    assert text.startswith(f"The job (4 files) could not be read: {rank.name}: event ") and "one rank's alone" in text
