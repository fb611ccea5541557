"""File → Compare With… on the lessons' LLM request: the figures, live updates, Adopt and Undo, Continue, refusals.

Expected figures are worked by hand from the two bundled workbooks:
before 40 + 60 + 300 + 900 + 200 = 1,500 ms, the plan "Faster decode" 2× on decode (900 → 450),
so the plan promised 1,050 ms, S = 1,500/1,050 = 1.4286; after 40 + 60 + 300 + 530 + 240 = 1,170 ms,
S = 1,500/1,170 = 1.2821; decode 900/530 = 1.698× (below 90% of 2×: fell short), streaming 200/240
(slower: regressed); 120 ms short of the plan; decode 60% before, 530/1,170 = 45.3% after.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QMessageBox

from amdahl_desk.model.comparison import Status
from amdahl_desk.resources import example_path
from amdahl_desk.ui.compare.comparison_table import (
    AFTER_NAME,
    MEASURED,
    NAME,
    PLANNED,
    PROMISED,
    VERDICT,
)

pytestmark = pytest.mark.gui

AFTER = example_path("llm-request-after.xlsx")


@pytest.fixture
def llm(qtbot, tmp_path):
    """A window on a copy of the LLM example, its dialogs answered by the test."""
    from amdahl_desk.ui.main_window import MainWindow

    copy = tmp_path / "llm-request.xlsx"
    copy.write_bytes(example_path("llm-request.xlsx").read_bytes())
    win = MainWindow()
    qtbot.addWidget(win)
    win.asked, win.errors, win.answer = [], [], None

    def ask(title, text, buttons, default):
        win.asked.append(text)
        return win.answer

    win.ask = ask
    win.show_error = lambda title, text: win.errors.append(text)
    assert win.files.open_path(copy, ask=False)
    win.show()
    qtbot.waitExposed(win)
    win.drawn = lambda: qtbot.waitUntil(lambda: not win.redraws.pending)
    win.drawn()
    return win


def file_action(win, text):
    menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&File")
    return next(a for a in menu.actions() if a.text() == text)


def compare_through_the_menu(win, path, monkeypatch):
    monkeypatch.setattr(win, "choose_file", lambda save, suggested="", filters="": str(path))
    file_action(win, "Compare &With…").trigger()
    return win.comparison_panel


def cell(panel, name, column):
    model = panel.model
    row = next(i for i, r in enumerate(model.rows) if r.name == name)
    return model.index(row, column).data()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_compare_with_the_bundled_after_profile(llm, monkeypatch):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    assert llm.errors == []
    assert llm.results_tabs.currentWidget() is panel and llm.results_tabs.tabBar().isVisible()
    c = panel.comparison
    assert c.before_total == pytest.approx(1500) and c.after_total == pytest.approx(1170)
    assert c.predicted_total == pytest.approx(1050)
    assert c.predicted_speedup == pytest.approx(1500 / 1050)
    assert c.measured_speedup == pytest.approx(1500 / 1170)
    assert c.shortfall == pytest.approx(120)
    # The headline, the reviewer's sentence, the bottleneck
    assert (panel.predicted.value.text(), panel.measured.value.text(), panel.gap.value.text()) == (
        "1.43×",
        "1.28×",
        "120 ms",
    )
    assert panel.gap.caption.text() == "short of the plan"
    assert panel.sentence.text().startswith(
        "Predicted 1.43×, measured 1.28×: Autoregressive decode got 1.7× instead of 2×"
    )
    assert "Token streaming and completion work regressed by 40 ms" in panel.sentence.text()
    assert panel.largest.value.text() == "45%"  # 530/1,170
    assert panel.bottleneck.text().startswith("Autoregressive decode was 60% of the time and is still the largest")
    assert "1.83×" in panel.bottleneck.text()  # 1/(1 − 530/1,170) = 1,170/640
    # The table, cell by cell where the plan touches it
    assert cell(panel, "Autoregressive decode", PLANNED) == "2×"
    assert cell(panel, "Autoregressive decode", PROMISED) == "450"
    assert cell(panel, "Autoregressive decode", MEASURED) == "1.7×"  # 900/530 = 1.698
    assert cell(panel, "Autoregressive decode", VERDICT) == "fell short"
    assert cell(panel, "Token streaming and completion work", MEASURED) == "0.83×"  # 200/240
    assert cell(panel, "Token streaming and completion work", VERDICT) == "regressed"
    assert cell(panel, "Prompt prefill", VERDICT) == "unchanged"
    total = panel.model.total_row
    assert [panel.model.index(total, col).data() for col in (NAME, PLANNED, PROMISED, MEASURED, VERDICT)] == [
        "Total",
        "1.43×",
        "1,050",
        "1.28×",
        "short",
    ]
    # Nothing to pair: every name matched, so the after-name column stays out of the way.
    assert panel.table.isColumnHidden(AFTER_NAME)
    assert llm.export_comparison_action.isEnabled()


def test_the_view_follows_edits_of_the_plan(llm, monkeypatch):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    model = llm.optimization_model
    row = next(i for i, o in enumerate(llm.doc.profile.optimizations) if o.name == "Leaner streaming path")
    model.setData(model.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    llm.drawn()
    # Streaming 200 → 100 as well: the plan now promises 40 + 60 + 300 + 450 + 100 = 950 ms.
    assert panel.comparison.predicted_total == pytest.approx(950)
    assert panel.predicted.value.text() == "1.58×"  # 1,500/950
    assert cell(panel, "Token streaming and completion work", PLANNED) == "2×"
    assert cell(panel, "Token streaming and completion work", PROMISED) == "100"
    assert panel.gap.value.text() == "220 ms"  # 1,170 − 950
    llm.undo_action.trigger()
    llm.drawn()
    assert panel.comparison.predicted_total == pytest.approx(1050)


def test_adopt_measured_k_is_one_undoable_step(llm, monkeypatch, qtbot):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    before = list(llm.doc.profile.optimizations)
    steps = llm.doc.undo_stack.count()
    qtbot.mouseClick(panel.adopt_button, Qt.MouseButton.LeftButton)
    llm.drawn()
    assert llm.doc.undo_stack.count() == steps + 1
    decode = next(o for o in llm.doc.profile.optimizations if o.name == "Faster decode")
    assert decode.speedup == pytest.approx(900 / 530)
    # The untried optimizations keep their planned k.
    assert [o.speedup for o in llm.doc.profile.optimizations[1:]] == [o.speedup for o in before[1:]]
    # The plan now promises what decode delivered: 40 + 60 + 300 + 530 + 200 = 1,130 ms.
    assert panel.comparison.predicted_total == pytest.approx(1130)
    assert cell(panel, "Autoregressive decode", VERDICT) == "met"
    assert panel.gap.value.text() == "40 ms"  # only the streaming regression is left
    assert "Adopt measured k" in llm.doc.undo_stack.undoText()
    llm.undo_action.trigger()
    llm.drawn()
    assert llm.doc.profile.optimizations == before
    assert llm.doc.undo_stack.isClean()
    assert panel.comparison.predicted_total == pytest.approx(1050)
    assert cell(panel, "Autoregressive decode", VERDICT) == "fell short"


def test_continue_from_after_asks_to_save_first_and_carries_the_plan_as_built(llm, monkeypatch, qtbot):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    panel.adopt()  # an unsaved change: continuing must ask
    llm.answer = QMessageBox.StandardButton.Cancel
    qtbot.mouseClick(panel.continue_button, Qt.MouseButton.LeftButton)
    assert len(llm.asked) == 1 and "Save the changes" in llm.asked[0]
    assert llm.doc.profile.components[3].time == 900  # still the before profile
    assert llm.results_tabs.indexOf(panel) > 0  # and the comparison stays open
    llm.answer = QMessageBox.StandardButton.Discard
    qtbot.mouseClick(panel.continue_button, Qt.MouseButton.LeftButton)
    profile = llm.doc.profile
    assert [c.time for c in profile.components] == [40, 60, 300, 530, 240]
    assert [(o.name, o.enabled, o.built) for o in profile.optimizations] == [
        ("Faster decode", False, True),  # the plan: done, off, k = 1 against the after times
        ("Prefill attention kernels", False, False),
        ("Leaner streaming path", False, False),
    ]
    checklist = llm.optimization_model
    assert checklist.index(0, 0).data() == "✓ built: Faster decode"
    assert checklist.index(0, 0).data(Qt.ItemDataRole.CheckStateRole) is None  # nothing to tick
    assert profile.objectives  # TTFT's target came along, and the objective picker with it
    assert llm.results.picker.isVisible()
    assert profile.settings.boundary == "No-queue request latency, admission to final token"
    assert llm.doc.path is None and not llm.doc.undo_stack.isClean()  # new work: Save asks where
    assert "llm-request-after.xlsx" in llm.windowTitle()
    # The comparison belonged to the old before profile: its tab is gone.
    assert llm.results_tabs.indexOf(panel) < 0 and not llm.results_tabs.tabBar().isVisible()
    assert not llm.export_comparison_action.isEnabled()


@pytest.fixture
def renamed(tmp_path):
    """The after profile with decode renamed and a new step: nothing pairs it by name."""
    return write(
        tmp_path / "after-renamed.csv",
        'Component,Time (s)\n"Gateway, validation, routing",0.04\nScheduler waiting and batch formation,0.06\n'
        "Prompt prefill,0.3\nDecode (paged),0.53\nToken streaming and completion work,0.24\n",
    )


def test_pair_a_renamed_component_by_hand_with_the_keyboard(llm, monkeypatch, qtbot, renamed):
    panel = compare_through_the_menu(llm, renamed, monkeypatch)
    c = panel.comparison
    assert c.after_unit.value == "s" and c.after_total == pytest.approx(1170)  # converted to ms
    statuses = {r.name: r.status for r in c.rows}
    assert statuses["Autoregressive decode"] is Status.REMOVED and statuses["Decode (paged)"] is Status.ADDED
    assert not panel.table.isColumnHidden(AFTER_NAME)
    assert "Removed (only before): Autoregressive decode" in panel.notes.text()
    # Select decode's row and press F2: a combo of what it can be paired with; Down picks the new step.
    row = next(i for i, r in enumerate(panel.model.rows) if r.name == "Autoregressive decode")
    panel.table.setFocus()
    panel.table.setCurrentIndex(panel.model.index(row, NAME))
    qtbot.keyClick(panel.table, Qt.Key.Key_F2)
    combo = panel.table.findChild(QComboBox)
    assert combo is not None and [combo.itemText(i) for i in range(combo.count())] == [
        "(not paired)",
        "Decode (paged)",
    ]
    assert combo.currentText() == "(not paired)"
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # moves the choice; nothing is paired yet
    assert combo.currentText() == "Decode (paged)" and panel.comparison.pairs == ()
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.comparison.pairs == (("Autoregressive decode", "Decode (paged)"),))
    c = panel.comparison
    assert c.measured_speedup == pytest.approx(1500 / 1170)
    assert cell(panel, "Autoregressive decode", AFTER_NAME) == "Decode (paged)"
    assert cell(panel, "Autoregressive decode", MEASURED) == "1.7×"
    assert cell(panel, "Autoregressive decode", VERDICT) == "fell short"
    assert len(panel.model.rows) == 5  # no added or removed rows any more
    assert "Paired by hand: Autoregressive decode = Decode (paged)" in panel.notes.text()
    line = panel.copy_command_line()
    assert line.endswith("--pair 'Autoregressive decode=Decode (paged)'")
    # Saved with the comparison: closing and comparing the same file again restores the pair.
    llm.close_comparison()
    assert llm.results_tabs.indexOf(panel) < 0
    assert llm.compare_with(renamed)
    assert panel.comparison.pairs == (("Autoregressive decode", "Decode (paged)"),)
    # Unpair: matched by name again, so decode is removed and the new name added.
    panel.table.setCurrentIndex(panel.model.index(row, NAME))
    assert panel.unpair_button.isEnabled()
    qtbot.mouseClick(panel.unpair_button, Qt.MouseButton.LeftButton)
    assert panel.comparison.pairs == ()
    assert {r.name: r.status for r in panel.comparison.rows}["Autoregressive decode"] is Status.REMOVED


def test_a_pick_from_the_popup_pairs_at_once(llm, monkeypatch, qtbot, renamed):
    panel = compare_through_the_menu(llm, renamed, monkeypatch)
    row = next(i for i, r in enumerate(panel.model.rows) if r.name == "Autoregressive decode")
    panel.table.setCurrentIndex(panel.model.index(row, NAME))
    assert panel.table.edit_pair()
    combo = panel.table.findChild(QComboBox)
    combo.setCurrentIndex(1)
    combo.hidePopup()  # as a click on an item does, before it reports the activation
    combo.activated.emit(1)
    qtbot.waitUntil(lambda: panel.comparison.pairs == (("Autoregressive decode", "Decode (paged)"),))


def test_the_command_line_pair_gives_the_same_comparison(llm, monkeypatch, renamed, capsys):
    import json
    import shlex

    from amdahl_desk.cli import main

    panel = compare_through_the_menu(llm, renamed, monkeypatch)
    panel.pair("Autoregressive decode", "Decode (paged)")
    args = shlex.split(panel.copy_command_line())[1:]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["measured_speedup"] == pytest.approx(panel.comparison.measured_speedup)
    assert [r["status"] for r in data["components"]] == [r.status.value for r in panel.comparison.rows]


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"PK\x03\x04 not really a workbook", "after.xlsx", "cannot be compared"),
        (b"Component,Time\nSomething else,10\nAnother,20\n", "after.csv", "no component in common"),
        (b"{}", "after.pt.trace.json", "profiler trace"),
        (b"Component,Time\nPrompt prefill,0\n", "after.csv", "add up to 0"),
    ],
)
def test_refusals_leave_the_document_untouched(llm, monkeypatch, tmp_path, content, name, message):
    path = tmp_path / name
    path.write_bytes(content)
    profile = llm.doc.profile
    components, optimizations = list(profile.components), list(profile.optimizations)
    compare_through_the_menu(llm, path, monkeypatch)
    assert len(llm.errors) == 1 and message in llm.errors[0]
    assert llm.doc.profile is profile
    assert profile.components == components and profile.optimizations == optimizations
    assert llm.doc.undo_stack.count() == 0 and llm.doc.undo_stack.isClean()
    assert llm.results_tabs.count() == 1 and not llm.results_tabs.tabBar().isVisible()


def test_a_refused_first_file_leaves_no_panel_behind_the_window(llm, monkeypatch, tmp_path):
    """The comparison's panel is the window's from the start, hidden until its tab shows it: refused before the tab
    exists, it goes with the window (with no parent it outlived the window to the end of the process)."""
    compare_through_the_menu(llm, write(tmp_path / "x.csv", "Component,Time\nElse,1\n"), monkeypatch)
    assert "no component in common" in llm.errors[-1]
    panel = llm.comparison_panel
    assert panel is not None and panel.parent() is llm and not panel.isVisible()
    assert llm.results_tabs.indexOf(panel) < 0


def test_a_refused_second_file_keeps_the_open_comparison(llm, monkeypatch, tmp_path):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    compare_through_the_menu(llm, write(tmp_path / "x.csv", "Component,Time\nElse,1\n"), monkeypatch)
    assert "no component in common" in llm.errors[-1]
    assert panel.comparison is not None and panel.comparison.after_total == pytest.approx(1170)
    assert llm.results_tabs.indexOf(panel) > 0


def test_an_edit_that_breaks_the_comparison_says_so_and_undo_restores_it(llm, monkeypatch):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    llm.doc.remove_components(range(5), "Delete all")
    llm.drawn()
    assert panel.comparison is None and panel.sentence.text()
    assert not panel.adopt_button.isEnabled() and not panel.export_button.isEnabled()
    llm.undo_action.trigger()
    llm.drawn()
    assert panel.comparison is not None and panel.predicted.value.text() == "1.43×"


def test_opening_another_profile_closes_the_comparison(llm, monkeypatch):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    assert llm.files.open_path(example_path(), ask=False)
    assert llm.results_tabs.indexOf(panel) < 0 and panel.comparison is None


def test_closing_the_tab_closes_the_comparison(llm, monkeypatch):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    llm.results_tabs.tabCloseRequested.emit(llm.results_tabs.indexOf(panel))
    assert llm.results_tabs.count() == 1 and not panel.session.active


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 720)])
def test_columns_fit_their_content(llm, monkeypatch, qtbot, size):
    llm.resize(*size)
    llm.reset_layout()
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    qtbot.waitUntil(lambda: panel.table.isVisible())
    table = panel.table
    header = table.horizontalHeader()
    assert header.length() <= table.viewport().width()
    for col in range(1, panel.model.columnCount()):
        if not table.isColumnHidden(col):
            assert table.columnWidth(col) >= table.sizeHintForColumn(col), col  # no figure is cut
    assert table.verticalScrollBar().maximum() == 0  # every row and the total in view


def test_keyboard_only(llm, monkeypatch, qtbot):
    panel = compare_through_the_menu(llm, AFTER, monkeypatch)
    qtbot.waitUntil(lambda: panel.table.hasFocus())  # the table takes the focus when the tab opens
    qtbot.keyClick(panel.table, Qt.Key.Key_Down)
    assert panel.table.currentIndex().row() >= 0
    qtbot.keyClick(panel.table, Qt.Key.Key_Tab)  # out of the table, on to the buttons
    assert llm.focusWidget() in (panel.pair_button, panel.adopt_button)
    steps = llm.doc.undo_stack.count()
    for _ in range(8):  # Tab on to Adopt Measured k, Space presses it
        if llm.focusWidget() is panel.adopt_button:
            break
        qtbot.keyClick(llm.focusWidget(), Qt.Key.Key_Tab)
    assert llm.focusWidget() is panel.adopt_button
    qtbot.keyClick(panel.adopt_button, Qt.Key.Key_Space)
    assert llm.doc.undo_stack.count() == steps + 1
    qtbot.keyClick(llm.focusWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # and undo it
    assert llm.doc.undo_stack.index() == steps


def test_the_table_model_obeys_qt_rules(llm, monkeypatch, qtmodeltester, renamed):
    panel = compare_through_the_menu(llm, renamed, monkeypatch)
    qtmodeltester.check(panel.model)
    panel.pair("Autoregressive decode", "Decode (paged)")
    qtmodeltester.check(panel.model)


def test_many_components_stay_readable(llm, monkeypatch, tmp_path):
    from amdahl_desk.present.comparison import TOP

    # 30 kernels before; after, the first 20 kept (each 2× faster) and 10 renamed.
    before = "Component,Time (ms)\n" + "".join(f"kernel {i},{10 + i}\n" for i in range(30))
    after = "Component,Time (ms)\n" + "".join(
        f"kernel {i},{(10 + i) / 2}\n" if i < 20 else f"fused {i},{10 + i}\n" for i in range(30)
    )
    assert llm.files.open_path(write(tmp_path / "before.csv", before), ask=False)
    panel = compare_through_the_menu(llm, write(tmp_path / "after.csv", after), monkeypatch)
    c = panel.comparison
    assert len(c.rows) == 40  # 20 matched, 10 removed, 10 added
    # Sums by hand: before Σ(10..39) = 735; after Σ(10..29)/2 + Σ(30..39) = 195 + 345 = 540
    assert c.before_total == pytest.approx(735) and c.after_total == pytest.approx(540)
    assert "and 4 more (see the table)" in panel.notes.text()  # ten names, six shown
    ticks = [name for _y, name in panel.chart._names]
    assert len(ticks) == TOP + 1 and ticks[-1] == "30 other components"


def test_a_long_caption_breaks_onto_a_second_line_before_it_is_elided(llm):
    from PySide6.QtGui import QFontMetrics

    from amdahl_desk.ui.compare.comparison_panel import two_lines

    metrics = QFontMetrics(llm.font())
    text = "predicted by the plan"
    wide = metrics.horizontalAdvance(text)
    assert two_lines(text, metrics, wide) == text
    narrow = metrics.horizontalAdvance("predicted by the")
    assert two_lines(text, metrics, narrow) == "predicted by the\nplan"
    long = two_lines("largest now: Autoregressive decode and its many friends", metrics, narrow)
    first, second = long.split("\n")
    assert first == "largest now:" and second.endswith("…")
    assert metrics.horizontalAdvance(second) <= narrow
