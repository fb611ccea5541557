"""The window's first moments: it fits its screen, title bar included, and opens in its table, ready to type a time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from amdahl_desk.resources import example_path
from amdahl_desk.ui.profile.component_table import NAME, TIME

from .driving import press, show_tab, type_keys

pytestmark = pytest.mark.gui
TRACE = Path(__file__).resolve().parents[1] / "traces" / "fixtures" / "torch_cpu_steps.json.gz"


def started(qtbot, path: str | None = None):
    """The window as ``amdahl-desk [PATH]`` starts it (no remembered layout: a first start)."""
    from amdahl_desk.ui.app import show_window
    from amdahl_desk.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show_error = lambda title, text: pytest.fail(text)
    win.ask = lambda *args: QMessageBox.StandardButton.Discard  # never a modal box in a test
    win.files.start(path, str(example_path()))
    show_window(win)
    qtbot.waitExposed(win)
    return win


def test_the_first_window_fits_the_available_area_of_its_screen(qtbot):
    win = started(qtbot)
    area = win.screen().availableGeometry()
    assert area.width() < 1600  # the test screen is smaller than the window the app would like
    qtbot.waitUntil(lambda: area.contains(win.frameGeometry()))
    assert win.width() <= 1600 and win.height() <= 1000
    win.doc.undo_stack.setClean()
    win.close()
    # The next start takes the size and place that session left, as they were.
    again = started(qtbot)
    assert again.restored and again.size() == win.size()


def typed_time_lands(qtbot, win) -> None:
    """Focus on the components table, its first time cell current: Ctrl+Home, → and a number edit a time."""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.table)
    assert (win.table.currentIndex().row(), win.table.currentIndex().column()) == (0, TIME)
    press(qtbot, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Right)
    type_keys(qtbot, "123")
    press(qtbot, Qt.Key.Key_Return)
    assert win.doc.profile.components[0].time == 123


def test_a_first_start_opens_in_the_table(qtbot):
    typed_time_lands(qtbot, started(qtbot))


def menu_action(win, text: str):
    file_menu = win.menuBar().actions()[0].menu()
    found = next(a for a in file_menu.actions() if a.text().replace("&", "") == text)
    if found.menu() is not None:  # a submenu (Open Example): its first entry
        return found.menu().actions()[0]
    return found


@pytest.mark.parametrize("how", ["Open…", "Open Example", "Import Profile…"])
def test_opening_a_profile_puts_the_focus_in_its_table(qtbot, tmp_path, how):
    win = started(qtbot)
    copy = tmp_path / "opened.xlsx"
    shutil.copyfile(example_path(), copy)
    win.choose_file = lambda *args, **kwargs: str(copy)
    win.choose_trace = lambda folder=False: [str(TRACE)]
    show_tab(qtbot, win.left_tabs, 1)  # somewhere else first: the Measurements tab, its runs table focused
    win.fit_panel.view.setFocus()
    menu_action(win, how).trigger()
    dialog = win.trace_import.dialog
    if dialog is not None:
        qtbot.waitUntil(lambda: dialog.preview_result is not None and dialog.pending is None, timeout=20000)
        with qtbot.waitSignal(win.trace_import.finished):
            dialog.accept()
        win.activateWindow()  # the window manager's part once a dialog closes (the offscreen platform has none)
    assert win.left_tabs.currentIndex() == 0
    typed_time_lands(qtbot, win)


def test_a_new_profile_opens_in_its_first_name_cell(qtbot):
    win = started(qtbot)
    menu_action(win, "New").trigger()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.table)
    assert (win.table.currentIndex().row(), win.table.currentIndex().column()) == (0, NAME)
    type_keys(qtbot, "Loader")
    press(qtbot, Qt.Key.Key_Tab)
    type_keys(qtbot, "5")
    press(qtbot, Qt.Key.Key_Return)
    assert [(c.name, c.time) for c in win.doc.profile.components] == [("Loader", 5.0)]
