"""A refused paste says where, briefly, beside the refused cell, and goes once a later change is taken."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from amdahl_desk.ui.profile.component_table import NAME, TIME

from .driving import paste_at, press

pytestmark = pytest.mark.gui


def beside(view, row: int, col: int) -> bool:
    """The message touches the cell's bottom (or top) edge and overlaps it sideways."""
    cell, box = view.visualRect(view.model().index(row, col)), view.message.geometry()
    touching = box.top() in (cell.bottom() + 2, cell.top() - box.height() - 2)
    return cell.isValid() and touching and box.left() < cell.right() and box.right() > cell.left()


def test_a_refused_paste_names_the_first_refused_cells_and_counts_the_rest(components, qtbot):
    block = "".join(f"Stage {i}\t{'fast' if i % 2 else i}\n" for i in range(44))  # 22 words where times go
    paste_at(qtbot, components.table, 5, NAME, block)
    message = components.table.last_rejection
    assert message.startswith('Row 7 (Time): "fast" is not a time')
    assert "Also refused: row 9 (Time), row 11 (Time), row 13 (Time) and 18 more cells." in message
    assert "Stage" not in message and message.count("fast") == 1
    assert (
        components.table.message.text() == message
        and components.table.message.height() < 6 * components.table.fontMetrics().height()
    )
    assert len(components.doc.profile.components) == 5  # nothing was pasted


def test_a_whole_clipboard_read_as_one_quoted_cell_is_shown_cut_to_one_line(components, qtbot):
    # A cell that starts with a quote runs to the next quote: here the whole text becomes one time cell.
    block = '"fast\t1\n' + "".join(f"Stage {i}\t{i}\n" for i in range(40))
    paste_at(qtbot, components.table, 1, TIME, block)
    message = components.table.last_rejection
    assert "\n" not in message and len(message) < 160, message
    assert '"fast 1 Stage 0 0 Stage 1 1 Stage 2 2 St…" (466 characters) is not a time' in message


def test_a_refused_cell_message_sits_beside_that_cell_and_goes_with_a_later_valid_paste(components, qtbot):
    view = components.table
    paste_at(qtbot, view, 0, TIME, "100\n0,02\n300\n")  # a decimal comma where this table writes points
    assert '"0,02" is not a number' in view.last_rejection
    qtbot.waitUntil(view.message.isVisible)
    assert beside(view, 1, TIME)
    press(qtbot, Qt.Key.Key_Escape)  # Escape dismisses it ...
    assert not view.message.isVisible()
    paste_at(qtbot, view, 0, TIME, "100\n0,02\n300\n")
    qtbot.waitUntil(view.message.isVisible)
    QGuiApplication.clipboard().setText("100\n200\n300\n")  # ... and so does the fixed block, pasted
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert [c.time for c in components.doc.profile.components[:3]] == [100, 200, 300]
    assert not view.message.isVisible()


def test_a_refused_row_pasted_past_the_end_is_explained_beside_the_row_that_adds_rows(components, qtbot):
    view = components.table
    end = len(components.doc.profile.components)  # the * row
    paste_at(qtbot, view, end, NAME, "Loader\t5\nDecoder\t0,02\n")
    assert '"0,02" is not a number' in view.last_rejection
    qtbot.waitUntil(view.message.isVisible)
    assert beside(view, end, TIME), (view.message.geometry(), view.visualRect(view.model().index(end, TIME)))


def test_a_refused_run_names_its_row_and_sits_beside_it(runs, qtbot):
    view = runs.panel.view
    paste_at(qtbot, view, 0, 0, "1\t100\n2\tsoon\n4\tlater\n")
    assert view.last_rejection.startswith('Row 2 (Time): "soon"')
    assert view.last_rejection.endswith("Also refused: row 3 (Time).")
    qtbot.waitUntil(view.message.isVisible)
    assert beside(view, 0, 1)  # no run is in the table yet: beside the row that adds runs


def test_the_cost_chart_without_a_price_keeps_the_capitals_of_gpu_hours(window, qtbot):
    from .driving import show_tab

    window.results.build_charts()
    show_tab(qtbot, window.left_tabs, 2)
    chart = window.results.chart("cost")
    window.drawn()
    assert chart.title.startswith("GPU-hours per run against GPUs"), chart.title
