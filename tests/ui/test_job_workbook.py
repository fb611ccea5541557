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
        "Straggler", "Trace file", "Plan on",
    ]  # fmt: skip
    assert list(ranks["Plan on"]) == [True] * 4  # the plan on every rank
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


def _type_ranks(window, text: str) -> None:
    field = window.results.job_panel.ranks
    field.setText(text)
    field.editingFinished.emit()


def _answered(qtbot, win) -> float:
    done = lambda: not win.doc.job.figures.computing and win.doc.job.figures.answer is not None  # noqa: E731
    qtbot.waitUntil(lambda: done() or bool(win.errors), timeout=60_000)
    assert not win.errors, win.errors
    return win.doc.job.figures.answer.predicted


def test_the_ranks_the_plan_is_on_are_kept(qtbot, window, tmp_path):
    """Kernel A 2× on ranks 0 and 1 only: rank 2 still arrives at 20 ms, the job stays 23 ms; on every rank, 13 ms.
    The ranks typed are saved (*Plan on*) and the job reopens with the plan on them, the field saying so."""
    from amdahl_desk.model.profile import Component, Optimization, Scaling

    open_job(qtbot, window, write(example(), tmp_path / "job"))
    doc = window.doc  # a row typed into the table: its name is its events' pattern on every rank
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.set_optimizations([Optimization("A 2× faster", ("kernel_A",), 2.0)], "Plan")
    _type_ranks(window, "0-1")
    assert window.doc.job.figures.on_ranks == (0, 1)
    assert _answered(qtbot, window) == pytest.approx(23.0, rel=1e-6)
    out = tmp_path / "job.xlsx"
    assert save_as(window, out) and not window.errors
    assert list(pd.read_excel(out, sheet_name="Ranks", engine="calamine")["Plan on"]) == [True, True, False, False]
    summary = pd.read_excel(out, sheet_name="Summary", engine="calamine", header=None)
    label = summary.iloc[:, 0].astype(str).tolist()
    assert "The job of 4 ranks (the answer; values as written, ms per step)" in label  # the job's answer leads
    assert summary.iloc[label.index("New job step (ms)"), 1] == pytest.approx(23.0)  # on ranks 0-1: nothing

    again = fresh_window(qtbot)
    assert again.files.open_path(out, ask=False)
    qtbot.waitUntil(lambda: again.doc.job.figures is not None or bool(again.errors), timeout=60_000)
    assert again.doc.job.figures.on_ranks == (0, 1)
    assert _answered(qtbot, again) == pytest.approx(23.0, rel=1e-6)
    again.drawn()
    assert again.results.job_panel.ranks.text() == "0-1"
    _type_ranks(again, "")
    assert again.doc.job.figures.on_ranks is None
    assert _answered(qtbot, again) == pytest.approx(13.0, rel=1e-6)


def test_a_sheet_saying_the_plan_is_on_no_rank_names_its_cell(tmp_path):
    from amdahl_desk.files.grid import Grid
    from amdahl_desk.files.job_sheet import HEADERS, PLAN_ON_HEADER, read_job_sheet

    rows = [
        [*HEADERS, PLAN_ON_HEADER],
        [0, "a", 23.0, 12.0, 3.0, 8.0, 0.0, False, "rank0.json.gz", False],
        [1, "a", 23.0, 20.0, 3.0, 0.0, 8.0, True, "rank1.json.gz", False],
    ]
    sheet, problems = read_job_sheet(Grid("Ranks", rows))
    assert sheet is None and [p.where for p in problems] == ["Ranks!J2"]
    old, problems = read_job_sheet(Grid("Ranks", [r[:-1] for r in rows]))  # written before the column: every rank
    assert not problems and old is not None and old.plan_on is None


def test_a_crashed_sessions_job_comes_back_with_its_work(qtbot, tmp_path):
    """The recovery copy keeps the job (every rank's trace, written whole, and the ranks the plan is on): restored,
    the window holds the job again as well as the unsaved edits."""
    from PySide6.QtWidgets import QMessageBox

    from amdahl_desk.ui.document_files.recovery import RecoveryStore

    crashed = fresh_window(qtbot)
    open_job(qtbot, crashed, write(example(), tmp_path / "job"))
    _type_ranks(crashed, "2")
    store = RecoveryStore(tmp_path / "data", pid=2**22 + 23456)  # a process id no running process has
    keeper_job = crashed.files.keeper._job()
    store.write(crashed.doc.profile, None, keeper_job)
    crashed.doc.undo_stack.setClean()

    again = fresh_window(qtbot)
    again.files.recovery = RecoveryStore(tmp_path / "data")
    again.ask = lambda *a: QMessageBox.StandardButton.Yes
    assert again.files.offer_recovery()
    qtbot.waitUntil(lambda: again.doc.job.figures is not None or bool(again.errors), timeout=60_000)
    assert not again.errors, again.errors
    figures = again.doc.job.figures
    assert figures.job.ranks == (0, 1, 2, 3) and figures.on_ranks == (2,)
    assert [Path(p).resolve() for p in again.doc.job.held.paths] == [
        (tmp_path / "job" / f"rank{r}.json.gz").resolve() for r in range(4)
    ]
    again.doc.undo_stack.setClean()


def test_plan_on_ranks_is_an_undoable_change_of_the_document(qtbot, window, tmp_path):
    """Typing the ranks modifies the document (closing asks to save it; the recovery copy follows) and is one undo
    step: Undo puts the plan back on every rank, the field saying so."""
    open_job(qtbot, window, write(example(), tmp_path / "job"))
    stack, keeper = window.doc.undo_stack, window.files.keeper
    stack.setClean()
    keeper.timer.stop()
    revision = window.doc.revision
    _type_ranks(window, "0-1")
    assert window.doc.job.figures.on_ranks == (0, 1)
    assert not stack.isClean() and window.doc.revision > revision and keeper.timer.isActive()
    assert stack.undoText() == "Plan on ranks 0-1"
    stack.undo()
    assert window.doc.job.figures.on_ranks is None
    window.drawn()
    assert window.results.job_panel.ranks.text() == ""
    stack.redo()
    assert window.doc.job.figures.on_ranks == (0, 1)
    stack.setClean()
