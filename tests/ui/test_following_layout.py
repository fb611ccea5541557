"""The panes follow the window: resized by its window manager (a laptop's 1280×720 screen, a window dragged
smaller), with a job or a trace opened, the tables keep every column and every row of a small profile in view
without View → Reset Layout. A divider a person dragged is theirs, across sessions, until Reset Layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from amdahl_desk.resources import example_path
from amdahl_desk.ui.app import show_window
from amdahl_desk.ui.core.qt_util import settle_layout

from .screens import checklist_out_of_view, components_out_of_view, open_profile, show_at
from .test_job_window import open_job

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).parents[1] / "traces" / "fixtures"


def rows_in_view(window) -> bool:
    table = window.table
    last = len(window.doc.profile.components) - 1
    return table.rowViewportPosition(last) + table.rowHeight(last) <= table.viewport().height()


def resize_as_a_window_manager_does(window, qtbot, size: tuple[int, int]) -> None:
    """The window resized with no Reset Layout after it, and the layout given its turn of the event loop."""
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    qtbot.waitUntil(lambda: components_out_of_view(window) == [] and rows_in_view(window), timeout=3000)
    window.drawn()


@pytest.mark.parametrize("profile", ["ddp2_buckets", "ddp4", "trace"])
def test_a_job_opened_large_then_the_window_made_small_keeps_every_column_and_row(window, qtbot, profile):
    show_at(window, qtbot, (1600, 1000))
    if profile == "trace":
        open_profile(window, qtbot, "trace")  # imported, its critical path's columns shown
    else:
        open_job(qtbot, window, FIXTURES / profile)
    resize_as_a_window_manager_does(window, qtbot, (1280, 720))
    assert components_out_of_view(window) == [] and checklist_out_of_view(window) == []
    assert rows_in_view(window)
    assert window.table.horizontalScrollBar().maximum() == 0  # nothing to scroll sideways to
    # and back to the default size: the charts take back their room
    resize_as_a_window_manager_does(window, qtbot, (1600, 1000))
    assert window._splitters["main"].sizes()[1] >= 700


def drag(qtbot, splitter, index: int, by: int) -> None:
    """Drag divider ``index`` of ``splitter`` by ``by`` pixels with the mouse, as a person does."""
    handle = splitter.handle(index)
    middle = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=middle)
    step = QPoint(by, 0) if splitter.orientation() == Qt.Orientation.Horizontal else QPoint(0, by)
    qtbot.mouseMove(handle, middle + step)
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=middle + step)


def test_a_divider_a_person_dragged_stays_where_they_put_it_until_reset_layout(window, qtbot, tmp_path):
    from amdahl_desk.ui.main_window import MainWindow

    show_at(window, qtbot, (1600, 1000))
    main = window._splitters["main"]
    before = main.sizes()[0]
    drag(qtbot, main, 1, -120)
    dragged = main.sizes()[0]
    assert dragged < before - 60 and window.following.by_hand == {"main"}
    window.resize(1500, 700)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (1500, 700))
    QApplication.processEvents()  # the layout's turn of the event loop
    assert not window.following._timer.isActive()
    # the splitter shares the 100 px it lost by its stretch factors; no layout put the profile's side back
    assert main.sizes()[0] <= dragged
    # the tables' splitter, which the person left alone, still follows: every component's row in view
    assert rows_in_view(window)
    window.close()
    again = MainWindow()  # the next session remembers which dividers are the person's
    qtbot.addWidget(again)
    assert again.following.by_hand == {"main"}
    # and lays out the others for what it opens, at its size, before it shows (a start opens the bundled example)
    assert again.files.open_path(example_path(), ask=False)
    show_window(again)
    qtbot.waitExposed(again)
    settle_layout()
    assert again._splitters["main"].sizes()[0] <= dragged + 2  # the person's
    checklist = again.optimizations.view
    last = again.optimization_model.rowCount() - 1
    assert checklist.rowViewportPosition(last) + checklist.rowHeight(last) <= checklist.viewport().height()
    again.reset_layout()  # View → Reset Layout: the window's again
    assert not again.following.by_hand
