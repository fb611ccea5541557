"""The checklist is the what-if: ticking, k, targets and adding change every number and chart at once."""

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt

from amdahl_desk.ui.profile.component_table import NAME as C_NAME
from amdahl_desk.ui.profile.component_table import TIME as C_TIME
from amdahl_desk.ui.profile.optimization_table import NAME, SPEEDUP, TARGETS, K

pytestmark = pytest.mark.gui


def toggle(win, row, qtbot):
    """Click the checkbox of an optimization row, as a person does."""
    view = win.optimizations.view
    rect = view.visualRect(win.optimization_model.index(row, NAME))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 10, rect.center().y()))


def test_ticking_an_optimization_updates_numbers_and_charts(window, qtbot):
    assert window.summary.speedup.value.text() == "1.82×"
    toggle(window, 1, qtbot)  # Faster input pipeline, 2× on 100 ms
    assert window.doc.profile.optimizations[1].enabled
    c = window.doc.analysis.combined
    assert c.new_total == pytest.approx(500)  # 100/2 + 600/4 + 150 + 100 + 50
    window.drawn()
    assert window.summary.speedup.value.text() == "2×"
    assert window.summary.new_time.value.text() == "500 ms"
    assert "500 ms" in window.breakdown.totals[1].toPlainText()
    # the bars hold the new times: after-bar widths sum to the new total
    widths = window.breakdown.bars.opts["width"]
    assert sum(widths[len(widths) // 2 :]) == pytest.approx(500)
    # speedup chart: the combined curve appears once two are enabled
    assert window.speedup.combined.isVisible()
    toggle(window, 1, qtbot)
    assert window.doc.analysis.combined.new_total == pytest.approx(550)
    window.doc.undo_stack.undo()
    assert window.doc.profile.optimizations[1].enabled


def test_speedup_chart_marks_current_k_and_ceiling(window):
    window.optimizations.select_row(0)
    x, y = window.speedup.marker.getData()
    assert 10 ** x[0] == pytest.approx(4) and y[0] == pytest.approx(1 / 0.55)
    assert window.speedup.ceiling.value() == pytest.approx(2.5)
    assert "Reduced precision" in window.speedup.title
    assert window.speedup.marker_label.toPlainText() == "k = 4× → 1.82×"


def test_scaling_chart_holds_the_analysis(window):
    s = window.doc.analysis.scaling
    x, y = window.scaling.overhead.getData()
    assert np.allclose(2.0**x, s.gpus) and np.allclose(10.0**y, s.with_overhead)
    assert window.scaling.ceiling.value() == pytest.approx(np.log10(4))
    bx, _ = window.scaling.best.getData()
    assert 2 ** bx[0] == s.best_gpus
    assert f"{s.best_gpus:,} GPUs" in window.scaling.title


def test_k_slider_is_live_and_one_undo_step_per_drag(checklist, qtbot):
    panel = checklist.panel
    panel.select_row(0)
    before = checklist.doc.undo_stack.count()
    panel.slider.sliderPressed.emit()
    for pos in (600, 650, 700):
        panel.slider.setValue(pos)
    k = checklist.doc.profile.optimizations[0].speedup
    assert k > 4 and panel.k_spin.value() == pytest.approx(k)
    assert checklist.doc.analysis.combined.overall_speedup == pytest.approx(1 / (0.4 + 0.6 / k))
    assert checklist.doc.undo_stack.count() == before + 1
    checklist.doc.undo_stack.undo()
    assert checklist.doc.profile.optimizations[0].speedup == 4


def test_typed_k_and_refused_k(checklist):
    m = checklist.model
    assert m.setData(m.index(0, K), "8x")
    assert checklist.doc.analysis.optimizations.overall_speedup[0] == pytest.approx(1 / (0.4 + 0.6 / 8))
    assert m.data(m.index(0, SPEEDUP)) == "2.11×"
    assert not m.setData(m.index(0, K), "0")
    assert "not a valid speedup" in checklist.panel.last_rejection
    assert not m.setData(m.index(0, K), "fast")


def test_retarget_and_unknown_target(checklist):
    m = checklist.model
    assert m.setData(m.index(0, TARGETS), ["GPU matrix multiplications", "Other GPU kernels"])
    assert checklist.doc.analysis.optimizations.fraction[0] == pytest.approx(0.75)
    assert not m.setData(m.index(0, TARGETS), "GPU matrix multiplications; Warp drive")
    assert '"Warp drive" is not a component' in checklist.panel.last_rejection
    assert not m.setData(m.index(0, TARGETS), "")
    assert "no targets" in checklist.panel.last_rejection


def test_add_optimization_for_selected_components_is_one_action(window, qtbot):
    sel = QItemSelection(window.component_model.index(2, C_NAME), window.component_model.index(3, C_TIME))
    window.table.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    window.optimizations.add_action.trigger()
    new = window.doc.profile.optimizations[-1]
    assert new.targets == ("Other GPU kernels", "Gradient synchronization") and new.speedup == 2 and new.enabled
    assert window.optimizations.current_row() == 4
    window.doc.undo_stack.undo()
    assert len(window.doc.profile.optimizations) == 4


def test_remove_optimization(checklist):
    checklist.panel.select_row(1)
    checklist.panel.remove_action.trigger()
    assert [o.name for o in checklist.doc.profile.optimizations][:2] == [
        "Reduced precision and tensor-core kernels",
        "Kernel fusion",
    ]


def test_pick_targets_from_the_component_list(checklist, qtbot):
    from PySide6.QtCore import Qt as QtNs

    from amdahl_desk.ui.profile.checklist_editors import TargetPicker

    view = checklist.panel.view
    index = checklist.model.index(0, TARGETS)
    view.setCurrentIndex(index)
    view.edit(index)
    picker = view.findChild(TargetPicker)
    assert picker is not None and picker.chosen() == ["GPU matrix multiplications"]
    picker.filter.setText("other")
    visible = [picker.list.item(i).text() for i in range(picker.list.count()) if not picker.list.item(i).isHidden()]
    assert visible == ["Other GPU kernels"]
    picker.list.item(2).setCheckState(QtNs.CheckState.Checked)
    view.commitData(picker)
    view.closeEditor(picker, view.itemDelegate().EndEditHint.NoHint)
    assert checklist.doc.profile.optimizations[0].targets == ("GPU matrix multiplications", "Other GPU kernels")
    assert checklist.doc.analysis.optimizations.fraction[0] == pytest.approx(0.75)


def test_overlapping_optimizations_are_noted_where_the_answer_is(window):
    from dataclasses import replace

    opts = list(window.doc.profile.optimizations)
    opts[3] = replace(opts[3], targets=("GPU matrix multiplications",), enabled=True)  # a second one on matmul
    assert window.optimization_model.set_all(opts, "overlap")
    assert window.doc.analysis.new_times[1] == pytest.approx(600 / 12)
    window.drawn()
    assert "multiply to 12×" in window.summary.notes.toolTip()
    assert window.summary.notes.text().startswith("Note: ")


def test_the_names_and_targets_the_columns_fit_are_those_the_cells_show(window):
    """The checklist's names and targets give way no further than each one's first word: the texts it measures
    are the cells' own, a built optimization's mark included, however many rows are asked for."""
    from dataclasses import replace

    model = window.optimization_model
    profile = window.doc.profile.copy()
    profile.optimizations[0] = replace(profile.optimizations[0], built=True, enabled=False)
    window.doc.reset(profile, None, [])
    rows = model.rowCount()
    for col in (NAME, TARGETS):
        cells = [str(model.data(model.index(r, col)) or "") for r in range(rows)]
        assert model.label_texts(col, 500) == cells
        assert model.label_texts(col, 2) == cells[:2]
    assert model.label_texts(NAME, 1)[0].startswith("✓ built: ")
