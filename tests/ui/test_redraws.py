"""Views subscribe to what they show: a chart redraws only when that changed, at most once a frame."""

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.cli.export import CHART_KEYS
from amdahl_desk.ui.charts.base import Chart
from amdahl_desk.ui.charts.registry import CHART_TITLES, CHARTS, ENTRIES

pytestmark = pytest.mark.gui


def count_redraws(window):
    counts = dict.fromkeys(window.results.charts, 0)
    for key, chart in window.results.charts.items():
        original = chart.show_analysis

        def counted(*args, key=key, original=original):
            counts[key] += 1
            original(*args)

        chart.show_analysis = counted
    return counts


def test_a_burst_of_k_changes_redraws_once_and_only_what_depends_on_k(window, qtbot):
    counts = count_redraws(window)
    panel = window.optimizations
    panel.slider.sliderPressed.emit()
    for pos in range(400, 700, 15):  # twenty steps inside one pass of the event loop
        panel.slider.setValue(pos)
    panel.slider.sliderReleased.emit()
    with qtbot.waitSignal(window.redraws.redrawn):
        pass
    # scaling and cost never read the optimizations; the load chart does (the service time after the plan)
    assert counts == {"breakdown": 1, "speedup": 1, "scaling": 0, "load": 1, "cost": 0}
    k = window.doc.profile.optimizations[0].speedup
    assert k == 55  # the last position, snapped to two digits
    assert window.doc.undo_stack.count() == 1  # the whole drag is one step, named by where it ended
    assert window.doc.undo_stack.undoText() == "Set k of Reduced precision and tensor-core kernels to 55×"


def test_selecting_another_optimization_redraws_only_the_speedup_chart(window, qtbot):
    counts = count_redraws(window)
    window.optimizations.select_row(2)
    window.drawn()
    assert counts == {"breakdown": 0, "speedup": 1, "scaling": 0, "load": 0, "cost": 0}
    assert "Kernel fusion" in window.speedup.title


def test_a_settings_change_leaves_the_speedup_chart_alone(window, qtbot):
    counts = count_redraws(window)
    window.settings_panel.max_gpus.setValue(64)
    window.settings_panel.max_gpus.editingFinished.emit()
    window.drawn()
    assert counts == {"breakdown": 1, "speedup": 0, "scaling": 1, "load": 1, "cost": 1}


def test_one_registry_for_menus_dialog_and_command_line(window):
    assert CHARTS == CHART_KEYS
    for entry in ENTRIES:
        assert issubclass(entry.load(), Chart)
    copy_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "E&xport")
    copy_chart = next(a.menu() for a in copy_menu.actions() if a.menu() is not None)
    assert [a.text() for a in copy_chart.actions()] == [
        CHART_TITLES[k] for k in ("breakdown", "speedup", "scaling", "load", "cost")
    ]
    from amdahl_desk.ui.charts.export_dialog import ExportDialog

    dialog = ExportDialog("speedup", window)
    assert [dialog.chart.itemData(i) for i in range(dialog.chart.count())] == list(CHARTS)
    assert dialog.chart.currentData() == "speedup"
    dialog.deleteLater()


def test_tick_redraws_from_the_current_analysis(window, qtbot):
    model = window.optimization_model
    model.setData(model.index(1, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    window.drawn()
    assert window.summary.speedup.value.text() == "2×"
