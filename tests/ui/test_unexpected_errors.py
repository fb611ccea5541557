"""What a random soak of the window raised as "Unexpected error": each is now read or refused with a message."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QGuiApplication

from amdahl_desk.resources import example_path
from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import OBJECTIVES, TIME

from .driving import press, show_tab, type_in_cell, type_into

pytestmark = pytest.mark.gui
MEASUREMENTS = 1


def paste_keys(qtbot, view) -> None:
    """Paste from the menu (Edit, or the table's own) while no cell of the table is current: the runs table
    before it is clicked, the components table once its model is reset under it (an import undone). A window
    opens with a cell current; clearing the current cell leaves it selected or not depending on focus, so the
    selection is cleared too, as a model reset clears it."""
    view.clearSelection()
    view.setCurrentIndex(QModelIndex())
    view.paste_action.trigger()
    settle_layout()


def test_a_paste_before_any_cell_is_current_fills_from_the_first_cell(window, qtbot):
    QGuiApplication.clipboard().setText("Loader\t5\nDecoder\t7\n")
    paste_keys(qtbot, window.table)
    assert window.doc.profile.components[0][:2] == ("Loader", 5.0)
    assert window.doc.profile.components[1][:2] == ("Decoder", 7.0)
    show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    QGuiApplication.clipboard().setText("1\t100\n2\t60\n")
    paste_keys(qtbot, window.fit_panel.view)
    assert [(r.n, r.value) for r in window.doc.measured_runs().rows] == [(1, 100), (2, 60)]
    assert window.errors == []


def test_a_header_alone_pastes_nothing(window, qtbot):
    before = list(window.doc.profile.components)
    QGuiApplication.clipboard().setText("Component\tTime (ms)\n")
    paste_keys(qtbot, window.table)
    assert window.doc.profile.components == before and not window.doc.undo_stack.canUndo()


@pytest.mark.parametrize("table", ["components", "runs"])
def test_a_cell_longer_than_the_csv_field_limit_is_refused_with_a_message(window, qtbot, table):
    if table == "runs":
        show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    view = window.table if table == "components" else window.fit_panel.view
    QGuiApplication.clipboard().setText("A" + "x" * 200_000 + "\t5\n")
    paste_keys(qtbot, view)
    assert "longer than 131,072 characters; nothing was pasted" in view.last_rejection
    assert view.message.isVisible() and not window.doc.undo_stack.canUndo()
    assert "131,072" in window.statusBar().currentMessage()


def test_every_column_header_sorts_the_components(window, qtbot, tmp_path):
    copy = tmp_path / "llm-request.xlsx"
    copy.write_bytes(example_path("llm-request.xlsx").read_bytes())
    assert window.files.open_path(copy, ask=False)
    view = window.table
    qtbot.waitUntil(lambda: not view.isColumnHidden(OBJECTIVES))  # the example names objectives
    header = view.horizontalHeader()
    shown = [c for c in range(window.component_model.columnCount()) if not view.isColumnHidden(c)]
    assert len(shown) >= 8  # Component … Notes; the columns of a trace and of time ranges are hidden here
    for col in shown:
        for _twice in range(2):  # once each way
            x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
            qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
            settle_layout()
            assert header.sortIndicatorSection() == col
    assert window.errors == []


def test_every_column_header_sorts_the_runs(window, qtbot):
    show_tab(qtbot, window.left_tabs, MEASUREMENTS)
    view = window.fit_panel.view
    QGuiApplication.clipboard().setText("1\t100\tone\n4\t40\tfour\n2\t60\ttwo\n")
    paste_keys(qtbot, view)
    header = view.horizontalHeader()
    for col in range(view.model().columnCount()):
        x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
        settle_layout()
    assert sorted(r.n for r in window.doc.measured_runs().rows) == [1, 2, 4]
    assert window.errors == []


def test_a_time_too_large_for_its_figures_is_refused_at_its_cell(window, qtbot):
    form = window.objectives_panel.settings
    assert type_into(form, "gpu_price_per_hour", "2.5")  # the cost figures are computed from here on
    before = window.doc.profile.components[1].time
    type_in_cell(qtbot, window.table, 1, TIME, "1e300")
    assert "too large for a measured time" in window.table.last_rejection
    assert window.doc.profile.components[1].time == before
    press(qtbot, Qt.Key.Key_Escape)
    type_in_cell(qtbot, window.table, 1, TIME, "1e15")  # the largest time: every figure of it is finite
    assert window.doc.profile.components[1].time == 1e15
    window.drawn()
    assert window.errors == []
