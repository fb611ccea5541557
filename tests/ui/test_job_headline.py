"""With a job open, the headline and the checklist's S, Ceiling and Saves answer what the plan buys the job — the
numbers of ``amdahl-desk whatif FOLDER --speedup`` — and the profile's own rank (the straggler) stands beside them,
labelled.

The hand-worked job (tests/job/make_jobs.example): kernel A runs 12, 10, 20, 11 ms on ranks 0–3, then a 3 ms
all-reduce that ends when rank 2 (the last) reaches it: every rank's step is 20 + 3 = 23 ms.
- kernel A 2× on every rank: 6, 5, 10, 5.5 ms; the all-reduce ends at 10 + 3 = 13 ms: S = 23/13, saves 10 ms;
- kernel A free: the all-reduce starts at its launch, 10 µs into the step: 0.010 + 3 = 3.010 ms: ceiling 23/3.01;
- the all-reduce's kernel 1.5× (its transfer, 3 → 2 ms): 20 + 2 = 22 ms: S = 23/22, saves 1 ms; free: 20 ms.
- kernel A 2× on rank 0 only: rank 2 still arrives at 20 ms: 23 ms, nothing.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.cli import main as cli_main
from amdahl_desk.model.profile import Component, Optimization, Scaling
from amdahl_desk.ui.profile.optimization_table import CEILING, SAVES, SPEEDUP, TRACE_CEILING, TRACE_SPEEDUP

from ..job.make_jobs import example
from .test_job_window import open_job, write

pytestmark = pytest.mark.gui


def cli_predicted(capsys, folder, *speedups: str, on: str | None = None) -> float:
    capsys.readouterr()
    args = ["whatif", str(folder), *(a for s in speedups for a in ("--speedup", s)), "--json"]
    assert cli_main(args + (["--on-ranks", on] if on else [])) == 0
    return float(json.loads(capsys.readouterr().out)["predicted"])


def cells(window, row: int) -> dict[int, str]:
    m = window.optimization_model
    return {c: m.index(row, c).data() for c in (SPEEDUP, CEILING, SAVES, TRACE_SPEEDUP, TRACE_CEILING)}


def settled(qtbot, window) -> None:
    """Every replay the headline and the checklist show has come back."""
    figures = lambda: window.doc.job.figures  # noqa: E731
    qtbot.waitUntil(
        lambda: window.results.job_whatif.idle and not figures().computing and "…" not in str(cells(window, 0)),
        timeout=120_000,
    )
    window.drawn()


def test_the_headline_and_the_checklist_answer_for_the_job(qtbot, window, tmp_path, capsys):
    folder = write(example(), tmp_path / "job")
    open_job(qtbot, window, folder)
    doc = window.doc
    # rows typed into the table: a name with no matcher is its events' pattern on every rank (as --speedup)
    comps = [Component("kernel_A", 20.0, Scaling.PARALLEL), Component("ncclKernel", 3.0, Scaling.COMMUNICATION)]
    doc.insert_components(len(doc.profile.components), comps, "Add")
    doc.set_optimizations(
        [
            Optimization("A 2× faster", ("kernel_A",), 2.0),
            Optimization("Faster all-reduce", ("ncclKernel",), 1.5, enabled=False),
        ],
        "Plan",
    )
    settled(qtbot, window)
    # the headline: the job's answer, by hand and as amdahl-desk whatif FOLDER prints it
    assert cli_predicted(capsys, folder, "kernel_A=2") == pytest.approx(13.0)
    s = window.results.summary
    assert s.speedup.value.full == f"{23 / 13:.3f}×" == "1.769×"
    assert s.new_time.value.full == "13 ms" and "baseline 23 ms" in s.new_time.caption.full
    assert s.saved.value.full == "10 ms"
    assert cli_predicted(capsys, folder, "kernel_A=1000000") == pytest.approx(3.01)
    assert s.ceiling.value.full == f"{23 / 3.01:.2f}×" == "7.64×"
    assert "on every rank" in s.speedup.caption.full
    said = window.results.summary.sentence.text().replace("\u00a0", " ")
    assert said.startswith("Making kernel_A 2× faster on every rank shortens the job's step 1.769× (23 ms → 13 ms)")
    # on rank 2 alone: rank 0's 12 ms then sets the pace, 12 + 3 = 15 ms; on rank 0 alone nothing
    assert f"on rank 2 alone {23 / 15:.3f}×" in said
    assert "on rank 0 alone nothing: rank 0 already waits 8 ms for rank 2 at the all_reduce" in said
    # beside it, labelled: the straggler's own profile by the sum of its times (its trace does not know the rows
    # typed in): the table's total less half of kernel A's 20 ms
    total = sum(c.time for c in doc.profile.components)
    beside = s.dependencies.text().replace("\u00a0", " ")
    assert beside.startswith("The straggler, rank 2, alone, by the sum of its times")
    assert f"{total / (total - 10):.2f}×" in beside
    # the checklist: each optimization alone, for the job; rank 2's figure beside it
    a, r = cells(window, 0), cells(window, 1)
    assert (a[SPEEDUP], a[CEILING], a[SAVES]) == ("1.769×", "7.64×", "10")
    assert cli_predicted(capsys, folder, "ncclKernel=1.5") == pytest.approx(22.0)
    assert cli_predicted(capsys, folder, "ncclKernel=1000000") == pytest.approx(20.0)
    assert (
        (r[SPEEDUP], r[CEILING], r[SAVES]) == (f"{23 / 22:.3f}×", f"{23 / 20:.3f}×", "1") == ("1.045×", "1.150×", "1")
    )
    assert a[TRACE_SPEEDUP] == "—"  # rank 2's trace does not know a row typed in: its trace's figure is none
    tip = window.optimization_model.index(0, SPEEDUP).data(Qt.ItemDataRole.ToolTipRole).replace("\u00a0", " ")
    assert "A 2× faster alone" in tip and "23 ms → 13 ms" in tip
    m = window.optimization_model
    headers = [m.headerData(c, Qt.Orientation.Horizontal) for c in (SPEEDUP, CEILING, TRACE_SPEEDUP)]
    assert headers == ["S (job)", "Ceiling (job)", "S (rank 2 alone)"]


def test_on_chosen_ranks_the_headline_follows(qtbot, window, tmp_path, capsys):
    folder = write(example(), tmp_path / "job")
    open_job(qtbot, window, folder)
    doc = window.doc
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.set_optimizations([Optimization("A 2× faster", ("kernel_A",), 2.0)], "Tick")
    settled(qtbot, window)
    panel = window.results.job_panel
    panel.ranks.setText("0")
    panel.ranks.editingFinished.emit()
    qtbot.waitUntil(lambda: doc.job.figures.on_ranks == (0,))
    settled(qtbot, window)
    assert cli_predicted(capsys, folder, "kernel_A=2", on="0") == pytest.approx(23.0)
    s = window.results.summary
    assert s.speedup.value.full == "1.000×" and "on rank 0" in s.speedup.caption.full
    assert "does not shorten the job's step" in s.sentence.text()
    assert cells(window, 0)[SPEEDUP] == "1.000×" and cells(window, 0)[SAVES] == "0"


def test_another_k_for_the_same_targets_replays_the_ranks_already_read(qtbot, window, tmp_path, capsys, monkeypatch):
    """A k drag on a large job must not read every rank again at each pause: the graphs read for kernel A are kept
    with the events each pattern matched, so kernel A 4× is a replay. By hand: 3, 2.5, 5, 2.75 ms; the all-reduce
    ends at 5 + 3 = 8 ms: 23/8 = 2.875×."""
    from amdahl_desk.ui.job import job_load

    folder = write(example(), tmp_path / "job")
    open_job(qtbot, window, folder)
    doc = window.doc
    doc.insert_components(len(doc.profile.components), [Component("kernel_A", 20.0, Scaling.PARALLEL)], "Add")
    doc.set_optimizations([Optimization("A 2× faster", ("kernel_A",), 2.0)], "Tick")
    settled(qtbot, window)
    reads: list[object] = []
    real = job_load.read_ranks
    monkeypatch.setattr(job_load, "read_ranks", lambda *a, **k: reads.append(a) or real(*a, **k))
    doc.set_optimizations([Optimization("A 2× faster", ("kernel_A",), 4.0)], "k")
    qtbot.waitUntil(lambda: window.results.summary.new_time.value.full == "8 ms", timeout=120_000)
    settled(qtbot, window)
    assert cli_predicted(capsys, folder, "kernel_A=4") == pytest.approx(8.0)
    assert window.results.summary.speedup.value.full == f"{23 / 8:.2f}×" == "2.88×"
    assert cells(window, 0)[SPEEDUP] == "2.88×" and cells(window, 0)[CEILING] == "7.64×"
    assert reads == []  # the plan, the optimization alone and its targets free: all replays of kept reads


def test_a_ticked_plans_own_read_serves_each_ticked_optimization_alone(qtbot, window, tmp_path, capsys, monkeypatch):
    """Two ticked optimizations (kernel A 2×, the all-reduce 1.5×): the ranks are read once, for the plan; each
    optimization alone and with its targets free are replays of that read (the other's K at 1). By hand, alone:
    kernel A 2× 23 → 13 ms (1.769×); the all-reduce 1.5× 23 → 22 ms (1.045×); together 10 + 2 = 12 ms."""
    from amdahl_desk.ui.job import job_load

    folder = write(example(), tmp_path / "job")
    open_job(qtbot, window, folder)
    doc = window.doc
    comps = [Component("kernel_A", 20.0, Scaling.PARALLEL), Component("ncclKernel", 3.0, Scaling.COMMUNICATION)]
    doc.insert_components(len(doc.profile.components), comps, "Add")
    reads: list[object] = []
    real = job_load.read_ranks
    monkeypatch.setattr(job_load, "read_ranks", lambda *a, **k: reads.append(a) or real(*a, **k))
    doc.set_optimizations(
        [Optimization("A 2× faster", ("kernel_A",), 2.0), Optimization("Faster all-reduce", ("ncclKernel",), 1.5)],
        "Plan",
    )
    qtbot.waitUntil(lambda: window.results.summary.new_time.value.full == "12 ms", timeout=120_000)
    settled(qtbot, window)
    assert cli_predicted(capsys, folder, "kernel_A=2", "ncclKernel=1.5") == pytest.approx(12.0)
    assert cells(window, 0)[SPEEDUP] == "1.769×" and cells(window, 1)[SPEEDUP] == f"{23 / 22:.3f}×"
    assert len(reads) == 1  # the plan's read; every alone and free replay came from it
