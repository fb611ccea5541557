"""A job saved keeps the job: the workbook's Ranks sheet remembers every rank (host, step, waiting, the straggler)
and its trace, relative to the workbook where it can be; reopening it shows the job again, or says which rank
traces can no longer be read, naming them, and opens the straggler's profile alone. A save that fails part-way
leaves the file before it whole.

Expected figures are the hand-worked job's (tests/job/make_jobs.example): kernel A 12, 10, 20, 11 ms on ranks
0–3, a 3 ms all-reduce that ends when rank 2 reaches it: every step 23 ms; ranks 0, 1, 3 wait 8, 10, 9 ms."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from amdahl_desk.ui.main_window import MainWindow

from ..job.make_jobs import example
from .test_job_window import open_job, write

pytestmark = pytest.mark.gui


def save_as(window, path: Path) -> bool:
    window.choose_file = lambda save, suggested="", filters="", title="": str(path)
    return window.files.save_as()


def fresh_window(qtbot) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.errors = []
    win.show_error = lambda title, text: win.errors.append(text)
    win.ask = lambda *a: None
    win.show()
    qtbot.waitExposed(win)
    win.drawn = lambda: qtbot.waitUntil(lambda: not win.redraws.pending)
    return win


def test_a_saved_job_keeps_every_rank_and_opens_as_the_job_again(qtbot, window, tmp_path):
    folder = write(example(), tmp_path / "traces" / "job")
    open_job(qtbot, window, folder)
    out = tmp_path / "reviews" / "job.xlsx"
    out.parent.mkdir()
    assert save_as(window, out) and not window.errors
    ranks = pd.read_excel(out, sheet_name="Ranks", engine="calamine")
    assert list(ranks.columns) == [
        "Rank", "Host", "Step time (ms)", "Compute (ms)", "Communication (ms)", "Waiting (ms)", "Waited for (ms)",
        "Straggler", "Trace file",
    ]  # fmt: skip
    assert list(ranks["Rank"]) == [0, 1, 2, 3]
    assert list(ranks["Step time (ms)"]) == pytest.approx([23.0] * 4)
    assert list(ranks["Waiting (ms)"]) == pytest.approx([8.0, 10.0, 0.0, 9.0])
    assert list(ranks["Waited for (ms)"]) == pytest.approx([0.0, 0.0, 27.0, 0.0])  # 8 + 10 + 9
    assert list(ranks["Straggler"]) == [False, False, True, False]
    assert list(ranks["Trace file"]) == [f"../traces/job/rank{r}.json.gz" for r in range(4)]  # relative
    # the rest of the workbook is the straggler's profile, as before
    with pd.ExcelFile(out, engine="calamine") as book:
        assert {"Components", "Ranks"} <= set(book.sheet_names)

    again = fresh_window(qtbot)
    assert again.files.open_path(out, ask=False)
    qtbot.waitUntil(lambda: again.doc.job.figures is not None or bool(again.errors), timeout=60_000)
    assert not again.errors, again.errors
    job = again.doc.job.figures.job
    assert job.ranks == (0, 1, 2, 3) and job.straggler == 2 and job.step_time == pytest.approx(23.0)
    assert again.doc.job.figures.profile_rank == 2
    again.drawn()
    assert again.results.job_panel.isVisible()

    # moved together, the workbook and its traces still find each other
    moved = tmp_path / "elsewhere"
    shutil.copytree(tmp_path / "traces", moved / "traces")
    (moved / "reviews").mkdir()
    shutil.copy(out, moved / "reviews" / "job.xlsx")
    third = fresh_window(qtbot)
    assert third.files.open_path(moved / "reviews" / "job.xlsx", ask=False)
    qtbot.waitUntil(lambda: third.doc.job.figures is not None or bool(third.errors), timeout=60_000)
    assert not third.errors and str(moved) in third.doc.job.held.paths[0]


def test_rank_traces_gone_are_named_and_the_profile_opens_alone(qtbot, window, tmp_path):
    folder = write(example(), tmp_path / "job")
    open_job(qtbot, window, folder)
    out = tmp_path / "job.xlsx"
    assert save_as(window, out)
    (folder / "rank3.json.gz").unlink()
    again = fresh_window(qtbot)
    assert again.files.open_path(out, ask=False)
    qtbot.waitUntil(lambda: bool(again.errors), timeout=60_000)
    (said,) = again.errors
    assert "job.xlsx" in said and "rank 3: job/rank3.json.gz" in said and "no such file" in said
    assert "opens as rank 2's profile alone" in said
    assert again.doc.job.figures is None and not again.results.job_panel.isVisible()
    assert again.doc.path == out.resolve() and again.doc.profile.components  # the profile itself opened


def test_a_save_that_fails_part_way_leaves_the_file_before(qtbot, window, tmp_path, monkeypatch):
    out = tmp_path / "job.xlsx"
    assert save_as(window, out)  # the training example, saved whole
    before = out.read_bytes()
    open_job(qtbot, window, write(example(), tmp_path / "job"))

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    import importlib

    monkeypatch.setattr(importlib.import_module("amdahl_desk.files.job_sheet"), "write_job_sheet", full_disk)
    assert not save_as(window, out)
    assert window.errors and "No space left" in window.errors[-1]
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"] == []


def test_a_damaged_ranks_sheet_is_a_warning_naming_its_cell(tmp_path):
    """The profile opens; the job is not restored from half a sheet; the warning names the cell."""
    from amdahl_desk.files import load_profile, save_profile
    from amdahl_desk.files.job_sheet import JobSheet, RankRow
    from amdahl_desk.model.profile import Component, Profile, Scaling

    rows = (
        RankRow(0, "a", 23.0, 12.0, 3.0, 8.0, 0.0, False, "job/rank0.json.gz"),
        RankRow(1, "a", 23.0, 20.0, 3.0, 0.0, 8.0, True, ""),  # no trace file
    )
    out = tmp_path / "bad.xlsx"
    save_profile(Profile([Component("step", 23.0, Scaling.PARALLEL)]), out, job=JobSheet(rows))
    loaded = load_profile(out)
    assert loaded.job is None and loaded.profile.components[0].time == 23.0
    assert any("Ranks!I3" in str(w) and "trace file" in str(w) for w in loaded.warnings), loaded.warnings
    good = tmp_path / "good.xlsx"
    save_profile(Profile([Component("step", 23.0, Scaling.PARALLEL)]), good, job=JobSheet(rows[:1]))
    assert load_profile(good).job == JobSheet(rows[:1])
