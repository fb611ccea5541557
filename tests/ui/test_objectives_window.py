"""Objectives in the window, on the lessons' LLM request: the picker, the Objectives column, the sheet, the table.

Hand-computed from resources/examples/llm-request.xlsx: components 40 (gateway), 60 (scheduler), 300 (prefill),
900 (decode), 200 (streaming) ms. TTFT holds gateway, scheduler and prefill: 40 + 60 + 300 = 400 ms; ITL holds
decode and streaming: 1,100 ms. The plan is "Faster decode" 2× on decode, so TTFT stays 400 ms (1×) while end
to end goes 1,500 → 1,050 ms (1.43×) and ITL 1,100 → 650 ms (1.69×). Ticking "Prefill attention kernels" (1.5×)
makes prefill 200 ms: TTFT 300 ms, 400/300 = 1.33×, which meets TTFT's own 300 ms target.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.resources import example_path

from . import panels

pytestmark = pytest.mark.gui


@pytest.fixture
def llm(qtbot, tmp_path):
    from amdahl_desk.ui.main_window import MainWindow

    copy = tmp_path / "llm-request.xlsx"
    copy.write_bytes(example_path("llm-request.xlsx").read_bytes())
    win = MainWindow()
    qtbot.addWidget(win)
    win.errors, win.asked = [], []
    win.show_error = lambda title, text: win.errors.append(text)
    win.ask = lambda title, text, buttons, default: win.asked.append(text)  # never a modal box in a test
    assert win.files.open_path(copy, ask=False)
    win.show()
    qtbot.waitExposed(win)
    win.drawn = lambda: qtbot.waitUntil(lambda: not win.redraws.pending)
    win.results.build_charts()
    win.drawn()
    return win


def tick(win, row):
    model = win.optimization_model
    model.setData(model.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)


def test_the_picker_shows_ttft_with_hand_computed_numbers(llm):
    picker, summary = llm.results.picker, llm.summary
    assert picker.isVisible()
    assert [picker.combo.itemText(i) for i in range(picker.combo.count())] == ["End to end", "TTFT", "ITL"]
    assert summary.speedup.value.text() == "1.43×" and summary.new_time.value.text() == "1,050 ms"
    picker.select("TTFT")
    llm.drawn()
    assert summary.speedup.value.text() == "1×"
    assert summary.new_time.value.text() == "400 ms" and "baseline 400 ms" in summary.new_time.caption.text()
    assert summary.speedup.caption.text() == "TTFT speedup"
    assert "Faster decode: 1.43× end to end, 1× TTFT, 1.69× ITL" in summary.sentence.text()
    assert "300 ms" in summary.target.text()  # TTFT's own target, not end to end's 600 ms
    breakdown = llm.results.chart("breakdown")
    assert breakdown.target.value() == pytest.approx(300)
    tick(llm, 1)  # Prefill attention kernels, 1.5×
    llm.drawn()
    assert summary.speedup.value.text() == "1.33×" and summary.new_time.value.text() == "300 ms"
    assert "✔" in summary.target.text()
    picker.select("ITL")
    llm.drawn()
    assert summary.new_time.value.text() == "650 ms" and summary.speedup.value.text() == "1.69×"


def test_the_objectives_table_colours_met_and_missed(llm):
    table = llm.results.outcomes.table
    assert table.isVisible()
    head = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert head == ["Objective", "Faster decode", "Combined"]
    rows = [[table.item(r, c).text() for c in range(3)] for r in range(table.rowCount())]
    assert rows == [["End to end  ✘", "1.43×", "1.43×"], ["TTFT  ✘", "1×", "1×"], ["ITL", "1.69×", "1.69×"]]
    assert table.item(1, 0).foreground().color().name() == "#aa3333"
    tick(llm, 1)
    llm.drawn()
    assert table.item(1, 0).text() == "TTFT  ✔" and table.item(1, 0).foreground().color().name() == "#1a6e2e"
    assert [table.horizontalHeaderItem(c).text() for c in range(3)][1] == "Faster decode"


def test_an_objectives_cell_is_edited_and_undone(llm):
    from amdahl_desk.ui.profile.component_table import OBJECTIVES

    model = llm.component_model
    assert model.headerData(OBJECTIVES, Qt.Orientation.Horizontal) == "Objectives"
    assert model.data(model.index(0, OBJECTIVES)) == "TTFT; End to end"
    assert model.setData(model.index(0, OBJECTIVES), "TTFT; Admission")
    assert llm.doc.profile.components[0].objectives == ("TTFT", "Admission")
    llm.drawn()
    names = [llm.results.picker.combo.itemText(i) for i in range(llm.results.picker.combo.count())]
    assert "Admission" in names
    llm.doc.undo_stack.undo()
    llm.drawn()
    assert model.data(model.index(0, OBJECTIVES)) == "TTFT; End to end"
    assert "Admission" not in [llm.results.picker.combo.itemText(i) for i in range(llm.results.picker.combo.count())]


def test_the_picker_hides_with_end_to_end_only(window):
    window.drawn()
    assert not window.results.picker.isVisible() and not window.results.outcomes.table.isVisible()


def test_the_objectives_sheet_is_edited_refused_and_undone(qtbot, panel_doc, tmp_path):
    from amdahl_desk.ui.objectives.objectives_sheet import NAME, TARGET

    sheet = panels.objectives_panel(qtbot, panel_doc, tmp_path, "llm-request.xlsx").panel.sheet_model  # the sheet alone
    assert sheet.rowCount() == 3 and sheet.data(sheet.index(0, NAME)) == "TTFT"
    assert sheet.setData(sheet.index(1, TARGET), "0.8 s")
    assert panel_doc.profile.objectives[1].target_time == pytest.approx(800)
    assert sheet.data(sheet.index(1, TARGET)) == "800"
    refused = []
    sheet.editRejected.connect(lambda r, c, m: refused.append((r, c, m)))
    assert not sheet.setData(sheet.index(2, NAME), "ttft")  # listed twice
    assert refused and refused[-1][:2] == (2, NAME) and "twice" in refused[-1][2]
    assert not sheet.setData(sheet.index(0, TARGET), "soon")
    assert refused[-1][:2] == (0, TARGET)
    assert sheet.setData(sheet.index(2, NAME), "Queue")
    assert [s.name for s in panel_doc.profile.objectives] == ["TTFT", "ITL", "Queue"]
    panel_doc.undo_stack.undo()
    panel_doc.undo_stack.undo()
    assert panel_doc.profile.objectives[1].target_time is None and sheet.rowCount() == 3


def test_the_picker_hint_is_cut_with_an_ellipsis_not_at_the_edge(llm):
    picker = llm.results.picker
    full = "5 of the components: Gateway, validation, routing, Scheduler waiting and batch formation, Prompt prefill, "
    full += "Autoregressive decode …"
    assert picker.hint_text == full and "Prompt prefill" in picker.hint.toolTip()
    picker.resize(300, picker.height())
    shown = picker.hint.text()
    assert shown.endswith("…") and len(shown) < len(full)
    assert picker.hint.fontMetrics().horizontalAdvance(shown) <= picker.hint.width()


def test_the_breakdown_key_names_only_the_objectives_components(llm):
    chart = llm.results.chart("breakdown")
    llm.drawn()
    assert "Autoregressive&nbsp;decode" in chart.legend_label.text()
    llm.results.picker.select("TTFT")
    llm.drawn()
    key = chart.legend_label.text()
    assert "Prompt&nbsp;prefill" in key and "Gateway" in key
    assert "Autoregressive" not in key and "Token&nbsp;streaming" not in key  # not part of TTFT, no bar


def test_with_end_to_end_alone_and_no_load_or_price_the_objectives_wait_until_something_shows_them(window, monkeypatch):
    """Nothing computes the objectives at a change while the answer shows none of them; an objective named,
    an arrival rate or a price shows them again, from the document as it is then."""
    from amdahl_desk.ui.objectives import choice as choice_module
    from amdahl_desk.ui.profile.component_table import OBJECTIVES, TIME

    computed = []
    original = choice_module.analyse_outcomes
    monkeypatch.setattr(choice_module, "analyse_outcomes", lambda *a, **k: computed.append(1) or original(*a, **k))
    results, model = window.results, window.component_model
    assert model.setData(model.index(0, TIME), "123")
    window.drawn()
    assert not computed and not results.picker.isVisible() and not results.outcomes.load.isVisible()
    window.doc.change_settings("Arrival rate", arrival_rate=2.0)
    window.drawn()
    assert computed and results.outcomes.load.isVisible() and results.outcomes.load.text()
    window.doc.change_settings("No arrival rate", arrival_rate=None)
    window.drawn()
    assert not results.outcomes.load.isVisible()
    assert model.setData(model.index(1, OBJECTIVES), "TTFT")
    window.drawn()
    assert results.picker.isVisible() and "TTFT" in [
        results.picker.combo.itemText(i) for i in range(results.picker.combo.count())
    ]
