"""A job of many ranks in the window: File → Import Profile from Folder… reads it off the GUI thread with a count of
ranks and Cancel, its charts show the figures ``amdahl-desk job --json`` prints, the ticked plan is answered for the
job (on every rank, or on chosen ones), and a bad job is refused with the file's name, the document unchanged.

Expected figures are the hand-derived ones (tests/job/make_jobs.py: kernel A 12, 10, 20, 11 ms on ranks
0–3 and a 3 ms all-reduce) or ``job --json`` run apart from the window."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from PySide6.QtGui import QAction

from amdahl_desk.cli import main as cli_main
from amdahl_desk.model.profile import Component, Optimization, Scaling

from ..job.make_jobs import allreduce_job, example

pytestmark = pytest.mark.gui

GLOO = Path(__file__).parents[1] / "traces" / "fixtures" / "gloo"


def write(ranks, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for r in ranks:
        r.write(folder)
    return folder


def action(win, text: str) -> QAction:
    return next(a for a in win.findChildren(QAction) if a.text().replace("&", "") == text)


def open_job(qtbot, win, folder: Path):
    """The job in ``folder`` opened through File → Import Profile from Folder…, as a person does."""
    win.choose_trace = lambda folder_=False: [str(folder)]
    action(win, "Import Profile from Folder…").trigger()
    qtbot.waitUntil(lambda: win.doc.job.figures is not None or bool(win.errors), timeout=60_000)
    assert not win.errors, win.errors
    win.drawn()
    return win.doc.job.figures


def job_json(capsys, folder: Path) -> dict:
    capsys.readouterr()
    assert cli_main(["job", str(folder), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_issue_job_opens_with_its_straggler_and_charts(qtbot, window, tmp_path):
    folder = write(example(), tmp_path / "job")
    before = window.doc.undo_stack.count()
    figures = open_job(qtbot, window, folder)
    job = figures.job
    assert job.ranks == (0, 1, 2, 3)
    assert job.step_time == pytest.approx(23.0)
    assert job.straggler == 2 and job.straggler_cost == pytest.approx(8.0)
    assert window.doc.undo_stack.count() == before + 1  # one undo step
    # the profile is the straggler's import
    assert "rank2.json.gz" in window.doc.profile.settings.trace_source
    # the job's charts: the bars sorted with the straggler first, its waiting 0 and the others' 8, 10, 9 ms
    bars = window.results.chart("job_ranks").drawn
    assert [b.rank for b in bars.bars][0] == 2
    waits = {b.rank: b.parts[2] for b in bars.bars}
    assert waits == pytest.approx({0: 8.0, 1: 10.0, 2: 0.0, 3: 9.0})
    note = bars.note.replace("\u00a0", " ")
    assert "Rank 2 is the straggler" in note and "15 ms" in note and "23 ms" in note
    line = window.results.chart("job_ranks").job_step  # the job's step, 23 ms: its dashed line drawn there
    assert line.isVisible() and line.value() == pytest.approx(23.0)
    steps = window.results.chart("job_steps").drawn
    assert steps.marked_row == 2 and "rank 2" in steps.marked_label
    assert steps.values == ((23.0,), (23.0,), (23.0,), (23.0,))
    skew = window.results.chart("job_skew").drawn
    assert [r.name for r in skew.rows] == ["all_reduce"]
    assert skew.rows[0].values == pytest.approx((3.0, 10.0, 10.0))  # transfer 3; last (20 ms) − first (10 ms)
    # the panel over the summary says it, and the job's tabs are there
    assert window.results.job_panel.isVisible()
    assert "Rank 2 is the straggler" in window.results.job_panel.job_text.text().replace("\u00a0", " ")
    # Undo brings back the profile before, and the job goes with it; Redo brings both back
    window.doc.undo_stack.undo()
    window.drawn()
    assert window.doc.job.figures is None and not window.results.job_panel.isVisible()
    window.doc.undo_stack.redo()
    assert window.doc.job.figures is not None


def test_the_gloo_job_shows_what_job_json_says(qtbot, window, capsys):
    expected = job_json(capsys, GLOO)
    figures = open_job(qtbot, window, GLOO)
    bars = window.results.chart("job_ranks").drawn
    by_rank = {b.rank: b.parts for b in bars.bars}
    for r in expected["per_rank"]:
        compute, comm, waiting, _rest = by_rank[r["rank"]]
        assert (compute, comm, waiting) == pytest.approx((r["compute"], r["communication"], r["waiting"]), abs=1e-9)
    steps = window.results.chart("job_steps").drawn
    assert len(steps.values) == expected["ranks"] and len(steps.values[0]) == expected["steps"]
    for r, row in zip(expected["per_rank"], steps.values, strict=True):
        assert sum(row) / len(row) == pytest.approx(r["step_time"])
    assert steps.marked_row == [r["rank"] for r in expected["per_rank"]].index(expected["straggler"]["rank"])
    skew = window.results.chart("job_skew").drawn
    (c,) = expected["collectives"]
    assert skew.rows[0].values == pytest.approx((c["transfer"], c["skew_mean"], c["skew_max"]))
    assert figures.job.straggler_cost == pytest.approx(expected["straggler"]["cost"])


def test_the_plan_is_answered_for_the_job_on_every_rank_and_on_chosen_ranks(qtbot, window, tmp_path):
    open_job(qtbot, window, write(example(), tmp_path / "job"))
    doc = window.doc
    # a row typed into the table: its name is the events' pattern on every rank (as whatif --speedup kernel_A=2)
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.set_optimizations([Optimization("A 2× faster", ("kernel_A",), 2.0)], "Tick")
    whatif = window.results.job_whatif
    qtbot.waitUntil(lambda: doc.job.figures.answer is not None and not doc.job.figures.computing, timeout=60_000)
    a = doc.job.figures.answer
    # by hand: kernel A 6, 5, 10, 5.5 ms; the all-reduce ends at 10 + 3 = 13 ms
    assert (a.baseline, a.predicted) == pytest.approx((23.0, 13.0))
    assert "1.77×" in window.results.job_panel.plan_text.text().replace("\u00a0", " ")
    assert "on every rank" in window.results.job_panel.plan_text.text().replace("\u00a0", " ")
    # on rank 2 alone: the others' 12 ms sets the pace, 12 + 3 = 15 ms
    panel = window.results.job_panel
    panel.ranks.setText("2")
    panel.ranks.editingFinished.emit()
    qtbot.waitUntil(lambda: doc.job.figures.on_ranks == (2,) and doc.job.figures.answer is not None)
    qtbot.waitUntil(lambda: whatif.idle and not doc.job.figures.computing)
    assert doc.job.figures.answer.predicted == pytest.approx(15.0)
    assert "on rank 2" in panel.plan_text.text().replace("\u00a0", " ")
    # the slide's title states the plan's step for the job, not "1.53× the job's speedup (on rank 2)"
    from amdahl_desk.ui.chart_factory import make_chart
    from amdahl_desk.ui.charts import export

    slide = export.chart_widget(make_chart, "slide", window.export_inputs(), (1920, 1080))
    try:
        title = slide.title.text().replace("\u00a0", " ")
        assert title == "A job of 4 ranks: 1.533× faster a step (23 ms → 15 ms) on rank 2", title
    finally:
        slide.close()
    # on rank 0 alone nothing: rank 0 already waits for rank 2
    panel.ranks.setText("0")
    panel.ranks.editingFinished.emit()
    qtbot.waitUntil(lambda: doc.job.figures.on_ranks == (0,) and whatif.idle and not doc.job.figures.computing)
    assert doc.job.figures.answer.predicted == pytest.approx(23.0)
    # a rank the job lacks is refused at the field, the answer kept
    panel.ranks.setText("0-3,9")
    panel.ranks.editingFinished.emit()
    assert "rank 9 is not in the job" in panel.ranks_problem.text()
    assert doc.job.figures.on_ranks == (0,)


def test_a_target_that_names_no_events_is_left_out_and_said(qtbot, window, tmp_path):
    open_job(qtbot, window, write(example(), tmp_path / "job"))
    qtbot.waitUntil(lambda: window.results.job_whatif.idle)  # the plan of no tick answered first
    doc = window.doc
    unattributed = next(c.name for c in doc.profile.components if c.name == "Unattributed")
    doc.set_optimizations([Optimization("Less idle", (unattributed,), 2.0)], "Tick")
    qtbot.waitUntil(
        lambda: doc.job.figures.left_out == (unattributed,) and window.results.job_whatif.idle, timeout=60_000
    )  # the plan re-reads every rank in worker processes
    window.drawn()
    assert doc.job.figures.answer is None
    assert "Left out of the job's answer" in window.results.job_panel.notes.text()


def test_cancel_mid_load_leaves_the_window_as_it_was(qtbot, window, tmp_path, monkeypatch):
    import amdahl_desk.files.traces.job as job_files

    folder = write(allreduce_job([[10000.0]] * 6), tmp_path / "job")
    gate, reading = threading.Event(), threading.Event()
    real = job_files.read_rank_file

    def slow(f, *args):  # the first rank is read, then the read waits until the test has pressed Cancel
        if f.order == 1:
            reading.set()
            gate.wait(30)
        return real(f, *args)

    monkeypatch.setattr(job_files, "read_rank_file", slow)
    profile, count = window.doc.profile, window.doc.undo_stack.count()
    window.choose_trace = lambda folder_=False: [str(folder)]
    action(window, "Import Profile from Folder…").trigger()
    dialog = window.job_import.dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: "1 of 6 ranks" in dialog.label.text())
    assert reading.wait(10)
    session = window.job_import.session
    dialog.reject()  # Cancel
    gate.set()
    qtbot.waitUntil(lambda: window.job_import.dialog is None)
    assert session.worker.outcome == "cancelled"
    assert window.doc.profile is profile and window.doc.undo_stack.count() == count
    assert window.doc.job.figures is None and window.doc.job.held is None
    assert "cancelled" in window.statusBar().currentMessage()
    assert not window.errors


def test_a_bad_job_is_refused_naming_the_file(qtbot, window, tmp_path):
    a = [[10000.0, 10000.0]] * 4
    fewer = write(allreduce_job(a, steps_of=[2, 2, 1, 2]), tmp_path / "fewer")
    profile = window.doc.profile
    window.choose_trace = lambda folder_=False: [str(fewer)]
    action(window, "Import Profile from Folder…").trigger()
    qtbot.waitUntil(lambda: bool(window.errors))
    (message,) = window.errors
    assert "rank2.json.gz" in message and "Traceback" not in message and "unchanged" in message
    assert window.doc.profile is profile and window.doc.job.figures is None
    # a damaged rank file
    damaged = write(example(), tmp_path / "damaged")
    (damaged / "rank1.json.gz").write_bytes(b"\x1f\x8b not a gzip stream")
    window.errors.clear()
    window.choose_trace = lambda folder_=False: [str(damaged)]
    action(window, "Import Profile from Folder…").trigger()
    qtbot.waitUntil(lambda: bool(window.errors))
    assert "rank1.json.gz" in window.errors[0] and "Traceback" not in window.errors[0]
    assert window.doc.profile is profile


def test_a_job_of_eight_ranks_is_read_in_worker_processes(qtbot, window, tmp_path):
    """From 8 ranks the window reads in a process pool (fresh interpreters, never a fork of the window)."""
    from amdahl_desk.ui.job import job_load

    assert job_load.POOL_FROM_RANKS <= 8
    a = [[10000.0 + 1000 * (r == 5)] for r in range(8)]
    counts: list[str] = []
    window.choose_trace = lambda folder_=False: [str(write(allreduce_job(a), tmp_path / "eight"))]
    action(window, "Import Profile from Folder…").trigger()
    window.job_import.session.worker.progressed.connect(lambda done, total: counts.append(f"{done}/{total}"))
    qtbot.waitUntil(lambda: window.doc.job.figures is not None or bool(window.errors), timeout=120_000)
    assert not window.errors
    job = window.doc.job.figures.job
    assert job.ranks == tuple(range(8)) and job.straggler == 5
    assert job.step_time == pytest.approx(14.0)  # the last arrival at 11 ms, a 3 ms all-reduce
    assert counts and counts[-1] == "8/8"


def test_export_writes_a_jobs_charts_from_a_folder_and_refuses_them_without_one(tmp_path, capsys):
    from amdahl_desk.resources import example_path

    assert cli_main(["export", str(GLOO), "--chart", "job_steps", "--out", str(tmp_path), "--size", "800x450"]) == 0
    written = Path(capsys.readouterr().out.strip())
    assert written.name == "gloo-job_steps.png" and written.stat().st_size > 1000
    assert cli_main(["export", str(example_path()), "--chart", "job_ranks", "--out", str(tmp_path)]) == 2
    assert "give a folder of rank traces" in capsys.readouterr().err


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_job_shows_whole_at_laptop_and_desktop_sizes(qtbot, window, tmp_path, size):
    """The job's panel, its tabs and its charts at 1280×720 and 1920×1080: no tab title cut, no chart label cut
    by its plot or over another, the panel's sentences wrapped inside it."""
    from .screens import cut_tabs, show_at
    from .test_nothing_cut import each_chart, labels_cut_or_covered

    open_job(qtbot, window, write(example(), tmp_path / "job"))
    show_at(window, qtbot, size)
    assert cut_tabs(window.results) == []
    panel = window.results.job_panel
    assert panel.isVisible() and panel.width() <= window.results.width()
    for label in (panel.heading, panel.job_text, panel.plan_text):
        need = label.heightForWidth(label.width())
        assert label.height() + 1 >= need, label.text()
    shown = {key for key, chart in each_chart(window, qtbot) if labels_cut_or_covered(chart) == []}
    assert {"job_ranks", "job_steps", "job_skew"} <= shown


def test_the_folder_dialog_shows_the_rank_traces_in_a_folder(window, qtbot, monkeypatch):
    """Import Profile from Folder… showed folders only: the traces in a folder could not be seen before choosing it.
    Asked without ShowDirsOnly, Qt's own dialog lists a folder's files (checked here on ddp4's folder)."""
    from PySide6.QtWidgets import QFileDialog, QListView

    asked = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: asked.append(a) or "")
    assert window.choose_trace(folder=True) == []
    options = asked[0][3]
    assert not options & QFileDialog.Option.ShowDirsOnly
    dialog = QFileDialog(window, "", str(GLOO.parent / "ddp4"))
    qtbot.addWidget(dialog)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOptions(options | QFileDialog.Option.DontUseNativeDialog)
    dialog.show()
    view = dialog.findChild(QListView, "listView")
    model = view.model()

    def listed() -> list[str]:
        root = view.rootIndex()
        return [model.index(i, 0, root).data() for i in range(model.rowCount(root))]

    qtbot.waitUntil(lambda: "rank0.json.gz" in listed(), timeout=10_000)
