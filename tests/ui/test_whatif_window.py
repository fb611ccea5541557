"""The plan with the trace's dependencies in the window, driven as a person does: import the 1-GPU trace, select a
component, Optimize selected…, type k, tick; every figure the window shows is the one computed directly on the
trace for the plan shown, never an older plan's; a trace that cannot be read is a note; a workbook hides it all."""

from __future__ import annotations

import shutil
import threading

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt

from amdahl_desk.files import save_profile
from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.profile import Component, Profile, Scaling, Settings
from amdahl_desk.model.traces import ImportOptions
from amdahl_desk.model.traces import plan_path as plan_module
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.whatif import prepare, what_if
from amdahl_desk.present.trace_plan import trace_based
from amdahl_desk.ui.profile.component_table import K_MOVES, NAME, ON_PATH, PATH_COLUMNS, SLACK
from amdahl_desk.ui.profile.optimization_table import TRACE_CEILING, TRACE_FIGURES, TRACE_SPEEDUP

from ..traces import expect, synthetic
from .test_import_dialog import set_grouping, start_import, wait_preview

pytestmark = pytest.mark.gui
WAIT_MS = 60_000  # reading and preparing a trace on a loaded machine; conditions end the wait far sooner


def settled(window, qtbot):
    """Until the trace is read, the current plan answered, the components' figures in, and all of it drawn."""
    doc = window.doc

    def done() -> bool:
        f = doc.trace.figures
        ready = not trace_based(f) or (f.current(doc.profile) is not None and f.components is not None)
        return window.whatif.idle and ready

    qtbot.waitUntil(done, timeout=WAIT_MS)
    window.drawn()


def dependency_text(window) -> str:
    """The summary's line with the trace's dependencies, whole (the label may elide it at its width)."""
    label = window.summary.dependencies
    return label.toolTip() or label.text()


def answer(window) -> str:
    """The summary's headline figure: for a trace-based profile, the speedup with the trace's dependencies."""
    return window.summary.speedup.value.full


def cell(model, row, col):
    return model.index(row, col).data()


def optimize(window, qtbot, name, k):
    """Select the component's row, Optimize selected… (ticked, named after it), type k in the k box."""
    table, model = window.table, window.component_model
    row = [c.name for c in window.doc.profile.components].index(name)
    table.selectionModel().setCurrentIndex(model.index(row, NAME), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    panel = window.optimizations
    panel.add_button.click()
    panel.k_spin.setValue(k)
    return len(window.doc.profile.optimizations) - 1


def test_an_imported_trace_shows_each_figure_with_its_dependencies(window, qtbot):
    dialog = start_import(window, qtbot, expect.ONE_GPU)
    wait_preview(qtbot, dialog)
    preview = dialog.shown.preview_model
    view = dialog.shown.preview
    assert not view.isColumnHidden(preview.GPU) and not view.isColumnHidden(preview.PATH)
    qtbot.waitUntil(lambda: preview.enriched, timeout=WAIT_MS)  # the critical path comes a moment after the rest
    direct = import_trace(expect.ONE_GPU, ImportOptions(critical_path=True))
    on_path = {c.name: c.path_time for c in direct.components}
    gpu = {c.name: c.gpu_time for c in direct.components}
    for r in range(preview.rowCount()):
        name = preview.index(r, preview.NAME).data()
        assert preview.index(r, preview.PATH).data(Qt.ItemDataRole.UserRole) == pytest.approx(on_path[name])
        if gpu[name] is not None:
            assert preview.index(r, preview.GPU).data(Qt.ItemDataRole.UserRole) == pytest.approx(gpu[name])
    dialog.import_button.click()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
    settled(window, qtbot)
    for col in PATH_COLUMNS:
        assert not window.table.isColumnHidden(col)
    for col in TRACE_FIGURES:
        assert not window.optimizations.view.isColumnHidden(col)
    model = window.component_model
    paths = {p.name: p for p in direct.critical_path.components}
    names = [c.name for c in window.doc.profile.components]
    for row, name in enumerate(names):
        p = paths[name]
        assert float(cell(model, row, ON_PATH)) == pytest.approx(p.on_path, rel=5e-3)
        assert float(cell(model, row, SLACK)) == pytest.approx(p.slack, rel=5e-3, abs=1e-4)
        k = cell(model, row, K_MOVES)
        assert k == ("never" if p.k_moves is None else f"{p.k_moves:.3g}×")
    assert model.headerData(ON_PATH, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith(
        "Time on the critical path"
    )

    row = optimize(window, qtbot, "## backward ##", 3.0)
    settled(window, qtbot)
    planner = window.doc.trace.planner
    plan = planner.plan(((("## backward ##",), 3.0),))
    assert answer(window) == f"{plan.speedup:.3f}×"
    assert "The sum of the components' times promises" in dependency_text(window)
    s, c = window.optimization_model, planner.alone(("## backward ##",), 3.0)
    assert cell(s, row, TRACE_SPEEDUP) == f"{c.speedup:.3f}×" and float(
        cell(s, row, TRACE_CEILING).rstrip("×")
    ) == pytest.approx(c.ceiling, rel=2e-3)
    results = window.results
    tabs = results.tabs if results.in_tabs else results.more
    assert tabs.tabText(tabs.currentIndex()) == "Critical path"  # it comes to the front when it appears
    chart = window.results.chart("critical_path")
    assert chart.drawn.kinds and f"{plan.speedup:.3f}×" in chart.drawn.title.replace("\xa0", " ")
    # Undo back before the import hides it all; redo shows it again without reading the trace again.
    stack = window.doc.undo_stack
    while stack.canUndo():
        window.undo_action.trigger()
    settled(window, qtbot)
    assert window.table.isColumnHidden(ON_PATH) and window.doc.trace.figures.source == ""
    while stack.canRedo():
        window.redo_action.trigger()
    settled(window, qtbot)
    assert not window.table.isColumnHidden(ON_PATH) and window.doc.trace.planner is planner  # the one read before
    assert answer(window) == f"{plan.speedup:.3f}×"


@pytest.fixture
def patterns_workbook(tmp_path):
    """A workbook whose components are what three ``whatif`` patterns match in the 1-GPU trace, and the trace's
    steps ready for ``what_if`` itself."""
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    events = (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn"), ("aten ops", "pattern:aten::"))
    times = [what_if(pt, [Speedup(m.removeprefix("pattern:"), 2.0)]).matched_time for _, m in events]
    settings = Settings(trace_source=str(expect.ONE_GPU), trace_grouping="op", trace_events=events)
    comps = [Component(n, t, Scaling.PARALLEL) for (n, _), t in zip(events, times, strict=True)]
    path = tmp_path / "patterns.xlsx"
    save_profile(Profile(comps, settings=settings), path)
    return path, pt


def test_the_window_s_figures_are_what_if_on_the_same_patterns(window, qtbot, patterns_workbook):
    path, pt = patterns_workbook
    assert window.files.open_path(path, ask=False)
    settled(window, qtbot)
    row = optimize(window, qtbot, "gemm kernels", 3.0)
    settled(window, qtbot)
    one = what_if(pt, [Speedup("gemm", 3.0)])
    assert answer(window) == f"{one.speedup:.3f}×"
    assert float(window.summary.ceiling.value.full.rstrip("×")) == pytest.approx(one.ceiling, rel=2e-3)
    model = window.optimization_model
    assert cell(model, row, TRACE_SPEEDUP) == f"{one.speedup:.3f}×"
    assert float(cell(model, row, TRACE_CEILING).rstrip("×")) == pytest.approx(one.ceiling, rel=2e-3)
    second = optimize(window, qtbot, "cudnn kernels", 2.0)
    settled(window, qtbot)
    both = what_if(pt, [Speedup("gemm", 3.0), Speedup("cudnn", 2.0)])
    assert answer(window) == f"{both.speedup:.3f}×"
    assert cell(model, second, TRACE_SPEEDUP) == f"{what_if(pt, [Speedup('cudnn', 2.0)]).speedup:.3f}×"
    # Unticked, the plan is gemm's alone again: answered at once from the answers kept
    model.setData(model.index(second, 0), Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    settled(window, qtbot)
    assert answer(window) == f"{one.speedup:.3f}×"


def test_a_stale_answer_is_never_shown(window, qtbot, patterns_workbook, monkeypatch):
    """The answer for k = 3 is held on the background thread until k has moved to 4: it is dropped, the window says
    "computing" meanwhile, and only k = 4's figure ever shows."""
    path, pt = patterns_workbook
    assert window.files.open_path(path, ask=False)
    settled(window, qtbot)
    row = optimize(window, qtbot, "gemm kernels", 2.0)
    settled(window, qtbot)
    held, entered = threading.Event(), threading.Event()
    real = plan_module.answers

    def slow(planner, plan, options, needs=()):
        if plan and plan[0][1] == 3.0:
            entered.set()
            held.wait(30)
        return real(planner, plan, options, needs)

    monkeypatch.setattr(plan_module, "answers", slow)
    shown: list[str] = []
    draw = window.summary.draw
    monkeypatch.setattr(
        window.summary,
        "draw",
        lambda view: (shown.append(f"{view.speedup.value} {view.sentence} {view.dependencies.text}"), draw(view)),
    )
    window.optimizations.k_spin.setValue(3.0)
    qtbot.waitUntil(entered.is_set, timeout=WAIT_MS)
    window.optimizations.k_spin.setValue(4.0)
    window.drawn()
    assert "computing" in shown[-1]
    held.set()
    settled(window, qtbot)
    three, four = (what_if(pt, [Speedup("gemm", k)]).speedup for k in (3.0, 4.0))
    assert answer(window) == f"{four:.3f}×"
    assert cell(window.optimization_model, row, TRACE_SPEEDUP) == f"{four:.3f}×"
    assert shown and not any(f"{three:.3f}×" in t for t in shown), shown
    assert all("computing" in t or f"{four:.3f}×" in t for t in shown), shown


@pytest.mark.parametrize("harm", ["moved", "damaged"])
def test_a_trace_that_cannot_be_read_is_said_once_in_the_notes(window, qtbot, tmp_path, harm):
    copy = tmp_path / "runs" / "resnet.json.gz"
    copy.parent.mkdir()
    shutil.copy(expect.ONE_GPU, copy)
    profile = import_trace(copy).to_profile()
    workbook = tmp_path / "resnet.xlsx"
    save_profile(profile, workbook)
    if harm == "moved":
        copy.rename(tmp_path / "elsewhere.json.gz")
    else:
        copy.write_bytes(b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, ')
    assert window.files.open_path(workbook, ask=False)
    settled(window, qtbot)
    notes = window.summary.notes.toolTip()
    assert notes.count("cannot be used") == 1 and "resnet.json.gz" in notes
    assert ("no such file" if harm == "moved" else "resnet.json.gz") in notes
    assert window.summary.holders[window.summary.dependencies].isHidden()
    for col in PATH_COLUMNS:
        assert window.table.isColumnHidden(col)
    # the rest works as before: a tick changes the headline
    before = window.summary.speedup.value.text()
    optimize(window, qtbot, "## backward ##", 2.0)
    window.drawn()
    assert window.summary.speedup.value.text() != before


def test_a_workbook_profile_shows_nothing_of_a_trace(window):
    for col in PATH_COLUMNS:
        assert window.table.isColumnHidden(col)
    for col in TRACE_FIGURES:
        assert window.optimizations.view.isColumnHidden(col)
    assert window.summary.holders[window.summary.dependencies].isHidden()
    results = window.results
    tabs = results.tabs if results.in_tabs else results.more
    titles = [tabs.tabText(i) for i in range(tabs.count()) if tabs.isTabVisible(i)]
    assert "Critical path" not in titles and "GPU scaling" in titles


def test_two_traces_compared_say_what_the_dependencies_predict(window, qtbot, tmp_path, capsys):
    from amdahl_desk.cli import main

    before = synthetic.gpu_bound().write(tmp_path / "before.json")
    after = synthetic.gpu_bound(kernel=100).write(tmp_path / "after.json")
    dialog = start_import(window, qtbot, before)
    wait_preview(qtbot, dialog)
    set_grouping(qtbot, dialog, "gpu")
    dialog.import_button.click()
    qtbot.waitUntil(lambda: window.trace_import.dialog is None)
    settled(window, qtbot)
    assert window.compare_with(after)
    panel = window.comparison_panel
    qtbot.waitUntil(lambda: "the steps measure" in panel.dependencies.text(), timeout=WAIT_MS)
    assert main(["compare", str(before), str(after), "--group-by", "gpu"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("With the trace's")]
    assert printed == [panel.dependencies.text()]
    assert "predict 1.93×" in printed[0]
