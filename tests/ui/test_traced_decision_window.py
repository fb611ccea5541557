"""A traced profile in the window decides on its trace's dependencies: the cheapest plan the summary states, where
the time goes and the table's total are the answer on the step's critical path (the planner's own pass), the sum
beside; edits that take the times away from the trace leave no chart with a figure of the trace as it was."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.files import save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.model.profile import Optimization
from amdahl_desk.ui.profile.component_table import ON_PATH
from amdahl_desk.ui.profile.optimization_table import SAVES

from ..traces import expect
from .test_whatif_window import WAIT_MS, settled

pytestmark = pytest.mark.gui
BW, FW = ("## backward ##",), ("## forward ##",)


@pytest.fixture
def traced_workbook(tmp_path):
    """The 1-GPU trace by annotation; backward 2× for 5 days (ticked), forward 1.5× for 1 day; target 70 ms: the sum
    says forward alone meets it, the critical path says only backward does."""
    trace = tmp_path / "trace.json.gz"
    shutil.copy(expect.ONE_GPU, trace)
    profile = import_trace(trace).to_profile()
    profile.set_components([c._replace(time_low=None, time_high=None) for c in profile.components])
    profile.set_optimizations(
        [Optimization("bw", BW, 2.0, effort=5.0), Optimization("fw", FW, 1.5, enabled=False, effort=1.0)]
    )
    profile.set_settings(replace(profile.settings, target_time=70.0))
    save_profile(profile, tmp_path / "p.xlsx")
    return tmp_path / "p.xlsx"


def decided(window, qtbot):
    settled(window, qtbot)
    qtbot.waitUntil(lambda: not window.doc.decision.busy and window.doc.decision.search is not None, timeout=WAIT_MS)
    window.drawn()


def test_the_window_decides_on_the_critical_path(window, qtbot, traced_workbook):
    assert window.files.open_path(traced_workbook, ask=False)
    decided(window, qtbot)
    planner = window.doc.trace.planner
    base = window.doc.analysis.baseline_total
    after = base * planner.plan(((BW, 2.0),)).predicted.length / planner.baseline.length
    search = window.doc.decision.search
    assert search.cheapest is not None and search.cheapest.names == ("bw",)
    assert search.cheapest.new_total_p50 == pytest.approx(after, rel=1e-9)
    chart = window.results.chart("breakdown")
    window.drawn()
    view = chart._view
    assert view.after_total == pytest.approx(after, rel=1e-9) and "the sum: 54.8 ms" in view.after_text
    total = window.total_label.text().replace("&nbsp;", " ")
    assert f"{after:.1f} ms</b> with the trace's dependencies" in total and "the sum: 54.8 ms" in total
    # the checklist's Saves: each optimization alone on the critical path (what a sort by it orders by)
    model = window.optimization_model
    assert model.headerData(SAVES, Qt.Orientation.Horizontal) == "Saves with deps (ms)"
    for row, (targets, k) in enumerate(((BW, 2.0), (FW, 1.5))):
        alone = planner.alone(targets, k).speedup
        assert float(model.index(row, SAVES).data()) == pytest.approx(base - base / alone, rel=5e-3)
    sums = window.doc.analysis.optimizations.time_saved
    assert float(model.index(1, SAVES).data()) < 0.8 * float(sums[1])  # forward's 9.73 ms by the sum is ~6.2 here


def test_zeros_pasted_over_every_time_leave_no_stale_path(window, qtbot, traced_workbook):
    assert window.files.open_path(traced_workbook, ask=False)
    settled(window, qtbot)
    doc = window.doc
    path_chart = window.results.chart("critical_path")
    window.drawn()
    before_title = path_chart.drawn.title
    assert before_title
    zeros = {r: c._replace(time=0.0) for r, c in enumerate(doc.profile.components)}
    doc.edit_components(zeros, "Paste")
    settled(window, qtbot)
    window.drawn()
    model = window.component_model
    shown = [model.index(r, ON_PATH).data() for r in range(len(doc.profile.components))]
    assert all(s in ("—", "", None) for s in shown), shown
    title = window.results.chart("critical_path").drawn.title.replace("\xa0", " ")
    assert title != before_title.replace("\xa0", " ") or "as measured" in title, title


def test_a_ticks_answer_never_waits_for_the_plan_search(window, qtbot, traced_workbook, monkeypatch):
    """The cheapest plan's search (0.5–0.9 s a set on this trace) is held mid-way; a tick's headline still comes,
    and while the search is held the window shows no plan for the profile as it is now, never the one before."""
    import threading

    from amdahl_desk.model.traces import plan_choice

    release, entered = threading.Event(), threading.Event()
    real = plan_choice.trace_cheapest_plan

    def held(*args, **kwargs):
        entered.set()
        assert release.wait(WAIT_MS / 1000)
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_choice, "trace_cheapest_plan", held)
    assert window.files.open_path(traced_workbook, ask=False)
    settled(window, qtbot)
    qtbot.waitUntil(entered.is_set, timeout=WAIT_MS)  # the search started once the headline had come
    doc = window.doc
    assert doc.decision.plan_pending and doc.decision.search is None
    ticked = [o if o.name != "fw" else replace(o, enabled=True) for o in doc.profile.optimizations]
    doc.set_optimizations(ticked, "Tick fw")
    try:
        # the plan of both ticked is answered on the trace's thread while the search is still held
        qtbot.waitUntil(lambda: doc.trace.figures.current(doc.profile) is not None, timeout=WAIT_MS)
        assert not release.is_set() and doc.decision.search is None
        planner = doc.trace.planner
        both = planner.plan(((BW, 2.0), (FW, 1.5))).predicted.length
        base = doc.analysis.baseline_total
        window.drawn()
        big = window.summary.new_time.value.full.replace("\xa0", " ")
        assert big.endswith(" ms") and float(big[:-3]) == pytest.approx(base * both / planner.baseline.length, abs=0.05)
    finally:
        release.set()
    decided(window, qtbot)
    assert window.doc.decision.search is not None


def test_load_and_cost_serve_the_step_on_the_path(window, qtbot, traced_workbook):
    """With an arrival rate and a price, the loaded service's time after the plan and the money saved per run are
    the plan's on the critical path; the sum's beside them."""
    assert window.files.open_path(traced_workbook, ask=False)
    decided(window, qtbot)
    doc = window.doc
    doc.change_settings("Load and price", arrival_rate=10.0, gpu_price_per_hour=3.6)
    settled(window, qtbot)
    window.drawn()
    planner = doc.trace.planner
    base = doc.analysis.baseline_total
    after = base * planner.plan(((BW, 2.0),)).predicted.length / planner.baseline.length
    load = window.results.choice.outcomes.load
    assert load.after.service_time == pytest.approx(after, rel=1e-9)
    # M/M/1 at 10 requests/s: mean response s/(1 − λs)
    s = after / 1000
    assert load.after.mean_response == pytest.approx(1000 * s / (1 - 10 * s), rel=1e-9)
    panel = window.results.outcomes
    qtbot.waitUntil(lambda: "critical path" in panel.cost.text(), timeout=WAIT_MS)
    per_million = 3.6 * (base - after) / 1000 / 3600 * 1e6  # 3.60 an hour, the saving in ms, a million runs
    assert f"{per_million:.2f} per million runs" in panel.cost.text().replace("\xa0", " ")
    assert "the sum of the components' times promises 54.8 ms" in panel.load.text().replace("\xa0", " ")


def test_a_components_new_time_says_what_it_is_and_what_the_path_does(window, qtbot, traced_workbook):
    """backward's New time is its own events at k = 2 (48.1 ÷ 2); its tooltip says so and gives its time on the
    critical path and the step's, before and after the plan, so the column is not read as the step's."""
    from amdahl_desk.ui.profile.component_table import NEW_TIME

    assert window.files.open_path(traced_workbook, ask=False)
    settled(window, qtbot)
    doc = window.doc
    row = next(i for i, c in enumerate(doc.profile.components) if c.name == BW[0])
    tip = window.component_model.index(row, NEW_TIME).data(Qt.ItemDataRole.ToolTipRole).replace("\xa0", " ")
    path = doc.trace.planner.plan(((BW, 2.0),))
    on, after = dict(path.baseline.components)[BW[0]], dict(path.predicted.components)[BW[0]]
    assert f"go {on:.1f} ms → {after:.1f} ms per step" in tip, tip
    assert f"the step {path.baseline.length:.1f} ms → {path.predicted.length:.1f} ms" in tip, tip
    assert "÷ 2" in tip and "what the sum promises" in tip


def test_a_missed_target_says_the_k_on_the_path_and_follows_the_target(window, qtbot, traced_workbook):
    """A target the plan misses on the path: the verdict gives the least k of the plan's events that meets it
    (the planner's own search, held to single passes in tests/traces/test_target_on_path.py), and a new target
    time gets its own k — never the k of the target before."""
    assert window.files.open_path(traced_workbook, ask=False)
    for goal in (50.0, 47.0):
        window.doc.change_settings("Set the target", target_time=goal)
        settled(window, qtbot)
        planner = window.doc.trace.planner
        need = window.doc.profile.total / goal
        k = planner.required(((BW, 2.0),), [need])[need]
        assert k is not None and planner.plan(((BW, k),)).speedup >= need * (1 - 1e-9)
        said = window.results.summary.target.text().replace("\u00a0", " ")
        assert f"events {k:.2f}× faster, all at once" in said, said
