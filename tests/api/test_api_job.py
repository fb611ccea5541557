"""A job of many ranks through the Python API: the numbers of ``amdahl-desk job`` and of a job's ``whatif``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import amdahl_desk as ad
from amdahl_desk.cli import main

from ..job.make_jobs import example

ROOT = Path(__file__).parents[2]
GLOO = ROOT / "tests" / "traces" / "fixtures" / "gloo"  # torch DDP over gloo, 2 ranks


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err.strip().removeprefix("amdahl-desk: ")


@pytest.fixture(scope="module")
def issue_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Kernel A runs 12, 10, 20, 11 ms on ranks 0–3, then a 3 ms all-reduce: every rank's step ends at 23 ms."""
    folder = tmp_path_factory.mktemp("job")
    for r in example():
        r.write(folder)
    return folder


def test_job_to_dict_is_job_json(capsys: pytest.CaptureFixture[str]) -> None:
    j = ad.job(GLOO)
    code, out, _ = cli(capsys, "job", GLOO, "--json")
    assert code == 0 and j.to_dict() == json.loads(out)
    code, out, _ = cli(capsys, "job", GLOO)
    assert j.text == out.rstrip("\n") and out.startswith(j.text.split("\n")[0])


def test_the_issue_job_by_hand(issue_job: Path) -> None:
    """The straggler is rank 2 (20 ms of kernel A; the others wait 8, 10 and 9 ms for it). Were its work the
    other ranks' median 11 ms, rank 0 (12 ms) would arrive last: 12 + 3 = 15 ms, so its cost is 23 − 15 = 8 ms."""
    j = ad.job([str(p) for p in sorted(issue_job.iterdir())])
    assert j.ranks == (0, 1, 2, 3)
    assert j.step_time == pytest.approx(23.0)
    assert j.straggler == ad.Straggler(2, pytest.approx(8.0))
    waiting = j.per_rank["waiting"]
    assert list(waiting) == pytest.approx([8.0, 10.0, 0.0, 9.0])
    assert list(j.per_rank["communication"]) == pytest.approx([3.0] * 4)
    assert list(j.step_times.columns) == list(j.steps) and j.step_times.shape == (4, len(j.steps))
    assert j.collectives.loc[0, "skew_max"] == pytest.approx(10.0)  # rank 1 at 10 ms, rank 2 at 20 ms


def test_a_speedup_on_every_rank_and_on_some(issue_job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Kernel A 2×: 6, 5, 10, 5.5 ms → every rank waits for rank 2 until 10, + 3 = 13 ms. On rank 2 alone:
    12 (rank 0) + 3 = 15 ms. On rank 0 alone: rank 2 still arrives at 20: 23 ms."""
    w = ad.whatif(issue_job, {"kernel_A": 2})
    assert isinstance(w, ad.JobWhatIf)
    assert (w.baseline, w.predicted) == pytest.approx((23.0, 13.0))
    assert w.speedup == pytest.approx(23.0 / 13.0) and w.on_ranks is None
    assert list(w.per_rank["predicted"]) == pytest.approx([13.0] * 4)
    code, out, _ = cli(capsys, "whatif", issue_job, "--speedup", "kernel_A=2", "--json")
    assert code == 0 and w.to_dict() == json.loads(out)
    assert w.summary.startswith("Making kernel_A 2× faster on every rank shortens the job's step 1.77× (23.0 → 13.0")

    on_two = ad.job(issue_job).whatif(["kernel_A=2"], on_ranks=[2])
    assert on_two.predicted == pytest.approx(15.0) and on_two.on_ranks == (2,)
    code, out, _ = cli(capsys, "whatif", issue_job, "--speedup", "kernel_A=2", "--on-ranks", "2", "--json")
    assert on_two.to_dict() == json.loads(out)
    assert ad.whatif(issue_job, {"kernel_A": 2}, on_ranks="0").predicted == pytest.approx(23.0)


def test_one_rank_of_a_folder_alone(issue_job: Path, capsys: pytest.CaptureFixture[str]) -> None:
    w = ad.whatif(issue_job, {"kernel_A": 2}, rank=2)
    assert isinstance(w, ad.WhatIf)
    code, out, _ = cli(capsys, "whatif", issue_job, "--speedup", "kernel_A=2", "--rank", "2", "--json")
    assert code == 0 and w.to_dict() == json.loads(out)


def test_a_folder_loads_as_one_rank_and_knows_its_job(issue_job: Path) -> None:
    p = ad.load(issue_job, rank=1)
    assert p.total == pytest.approx(23.0)  # rank 1's own step, waiting included
    assert p.job is not None and p.job.step_time == pytest.approx(23.0) and p.job.straggler.rank == 2
    changed = p.with_target(15)
    assert changed.job is p.job  # the job is the folder's, whatever the profile's plan
    assert ad.load(ROOT / "resources" / "examples" / "training-iteration.xlsx").job is None


@pytest.mark.parametrize(
    ("call", "args"),
    [
        (lambda f: ad.whatif(f, {"kernel_A": 2}, on_ranks="9"), ("--on-ranks", "9")),
        (lambda f: ad.whatif(f, {"kernel_A": 2}, on_ranks="x"), ("--on-ranks", "x")),
        (lambda f: ad.whatif(f, {"kernel_A": 2}, rank=1, on_ranks="0"), ("--rank", "1", "--on-ranks", "0")),
        (lambda f: ad.whatif(f, {"no_such_kernel": 2}), ()),
    ],
)
def test_refusals_are_the_commands(issue_job: Path, capsys: pytest.CaptureFixture[str], call, args) -> None:
    speedup = "no_such_kernel=2" if not args else "kernel_A=2"
    code, _, message = cli(capsys, "whatif", issue_job, "--speedup", speedup, *args)
    assert code == 2
    with pytest.raises(ad.Error) as caught:
        call(issue_job)
    assert str(caught.value) == message


def test_a_bad_job_names_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rank0.json").write_text("{not json")
    (tmp_path / "rank1.json").write_text("{not json")
    code, _, message = cli(capsys, "job", tmp_path)
    assert code == 2
    with pytest.raises(ad.Error) as caught:
        ad.job(tmp_path)
    assert str(caught.value) == message and "rank0.json" in message


def test_a_folder_and_a_workbook_saved_with_its_job_analyse_as_report_says(
    issue_job: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ad.load(FOLDER).analyse()`` is ``report FOLDER --json``, its ``job`` entry included; a workbook saved with
    its job (GPU compute 2×, 1.5–4×, a 13 ms target) gives the job's odds through ``decide`` as ``report`` does."""
    code, out, _ = cli(capsys, "report", issue_job, "--json")
    a = ad.load(issue_job).analyse()
    assert code == 0 and a.to_dict() == json.loads(out)
    assert a.to_dict()["job"]["straggler"]["rank"] == 2
    assert a.text.startswith("The job (") and "(4 ranks, " in a.text.split("\n")[0]

    book = tmp_path / "job.xlsx"
    assert cli(capsys, "import", issue_job, "--group-by", "gpu", "--out", book)[0] == 0
    p = ad.load(book).with_optimization("GPU 2x", ["GPU compute"], 2.0, k_low=1.5, k_high=4.0)
    d = p.decide(target="13 ms")
    saved = tmp_path / "planned.xlsx"
    p.with_target("13 ms").save(saved)
    code, out, _ = cli(capsys, "report", saved, "--json")
    assert code == 0 and d.to_dict()["job"] == json.loads(out)["job"]
    job = json.loads(out)["job"]
    assert job["uncertainty"]["job_ranks"] == 4 and d.probability == job["uncertainty"]["probability_target"]
    assert d.plan is None and "makes the job's step" in d.summary  # no cheapest plan is searched for a job
    assert repr(p.analyse()).startswith("<Analysis of a job of 4 ranks: 1.769× (23 → 13 ms); rank 2 alone")

    # single-valued k, the plan on ranks 0, 1 and 3: rank 2 still arrives at 20 ms, so the job never meets 13 ms
    from amdahl_desk.files import load_profile, save_profile
    from amdahl_desk.files.job_sheet import JobSheet, RankRow

    rows = [
        RankRow(r, "", 23.0, 0.0, 3.0, 0.0, 0.0, r == 2, str(issue_job / f"rank{r}.json.gz"), r != 2) for r in range(4)
    ]
    fixed = tmp_path / "fixed.xlsx"
    profile = load_profile(saved).profile
    save_profile(profile, fixed, job=JobSheet(tuple(rows)))
    single = ad.load(fixed).with_optimization("GPU 2x", ["GPU compute"], 2.0).decide(target="13 ms")
    assert single.probability == 0.0 and "out of reach" in single.summary
    assert single.to_dict()["job"]["target"]["met_by_plan"] is False
