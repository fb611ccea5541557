"""The components table driven as a person would: keys, typing, clipboard, undo, rows."""

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import GROUP, NAME, NOTES, SCALING, TIME

pytestmark = pytest.mark.gui


def cell(win, row, col):
    return win.component_model.index(row, col)


def go(win, row, col):
    """Make (row, col) the one current and selected cell, as a click does (whatever modifier a test left held)."""
    win.table.setFocus()
    win.table.selectionModel().setCurrentIndex(cell(win, row, col), QItemSelectionModel.SelectionFlag.ClearAndSelect)


def type_text(qtbot, widget, text):
    """Type like a person; characters outside ASCII go as key events (keyClicks would abort Qt)."""
    for ch in text:
        if ord(ch) < 128:
            qtbot.keyClicks(widget, ch)
        else:
            for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))


def focused_editor():
    w = QApplication.focusWidget()
    return w if isinstance(w, QLineEdit) else None


def type_in_cell(qtbot, win, text):
    """Start typing on the table (that opens the editor, as in a spreadsheet); the rest goes to the editor."""
    qtbot.keyClicks(win.table, text[0])
    qtbot.waitUntil(lambda: focused_editor() is not None)
    if text[1:]:
        type_text(qtbot, focused_editor(), text[1:])


def press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier):
    """A key on the focused widget, then deliver what it queued (the commit, a refused text given back)."""
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)
    settle_layout()


def test_type_a_time_and_enter_commits_and_moves_down(window, qtbot):
    go(window, 1, TIME)
    type_in_cell(qtbot, window, "300")
    press(qtbot, Qt.Key.Key_Return)
    assert window.doc.profile.components[1].time == 300
    assert window.table.currentIndex().row() == 2
    assert window.doc.analysis.baseline_total == 700
    # the charts follow: the breakdown's total label and the summary show the new numbers
    window.drawn()
    assert window.summary.new_time.caption.text() == "new time (baseline 700 ms)"
    assert "700 ms" in window.breakdown.totals[0].toPlainText()


def test_unit_typed_with_non_ascii_mu(window, qtbot):
    go(window, 0, TIME)
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    editor = focused_editor()
    editor.selectAll()
    type_text(qtbot, editor, "250000 µs")
    press(qtbot, Qt.Key.Key_Return)
    assert window.doc.profile.components[0].time == pytest.approx(250)


def test_word_in_a_time_cell_is_refused_and_kept_for_fixing(window, qtbot):
    go(window, 1, TIME)
    type_in_cell(qtbot, window, "fast")
    press(qtbot, Qt.Key.Key_Return)
    assert window.doc.profile.components[1].time == 600
    assert window.table.last_rejection == '"fast" is not a time; expected a number or a value like "120 ms"'
    assert "Not accepted" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: focused_editor() is not None and focused_editor().text() == "fast")
    assert window.doc.undo_stack.count() == 0


@pytest.mark.parametrize(
    ("col", "text", "reason"),
    [
        (TIME, "-5", "negative"),
        (NAME, "Other GPU kernels", "duplicate"),
        (SCALING, "sometimes", "not a scaling class"),
    ],
)
def test_invalid_entries_refused_with_reason(window, col, text, reason):
    before = list(window.doc.profile.components)
    assert not window.component_model.setData(cell(window, 0, col), text)
    assert reason in window.table.last_rejection
    assert window.doc.profile.components == before


def test_escape_cancels(window, qtbot):
    go(window, 1, TIME)
    type_in_cell(qtbot, window, "9")
    press(qtbot, Qt.Key.Key_Escape)
    assert window.doc.profile.components[1].time == 600


def test_tab_moves_right_and_ctrl_arrows_jump(window, qtbot):
    go(window, 0, NAME)
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    press(qtbot, Qt.Key.Key_Tab)
    assert window.table.currentIndex().column() == TIME
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert window.table.currentIndex().row() == 4
    qtbot.keyClick(window.table, Qt.Key.Key_Home)
    assert window.table.currentIndex().column() == NAME
    qtbot.keyClick(window.table, Qt.Key.Key_End)
    assert window.table.currentIndex().column() == NOTES
    qtbot.keyClick(window.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert (window.table.currentIndex().row(), window.table.currentIndex().column()) == (0, NAME)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    assert window.table.currentIndex().row() == 1


def test_typing_in_the_empty_last_row_adds_a_component(window, qtbot):
    go(window, 5, NAME)
    type_in_cell(qtbot, window, "Checkpoint write")
    press(qtbot, Qt.Key.Key_Tab)
    assert window.table.currentIndex().column() == TIME
    type_text(qtbot, focused_editor(), "0.2 s")
    press(qtbot, Qt.Key.Key_Return)
    comps = window.doc.profile.components
    assert comps[5].name == "Checkpoint write" and comps[5].time == pytest.approx(200)
    assert window.component_model.rowCount() == 7


def test_rename_keeps_the_optimization(window, qtbot):
    assert window.component_model.setData(cell(window, 1, NAME), "GEMMs")
    assert window.doc.profile.optimizations[0].targets == ("GEMMs",)
    assert window.doc.analysis.combined.overall_speedup == pytest.approx(1 / 0.55)
    window.doc.undo_stack.undo()
    assert window.doc.profile.optimizations[0].targets == ("GPU matrix multiplications",)


def select(win, top, left, bottom, right):
    sel = QItemSelection(cell(win, top, left), cell(win, bottom, right))
    win.table.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    win.table.selectionModel().setCurrentIndex(cell(win, top, left), QItemSelectionModel.SelectionFlag.NoUpdate)


def test_copy_range_as_tsv(window, qtbot):
    window.table.setFocus()
    select(window, 0, NAME, 1, TIME)
    qtbot.keyClick(window.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert (
        QGuiApplication.clipboard().text()
        == "Input pipeline and host preparation\t100\nGPU matrix multiplications\t600\n"
    )


def test_paste_from_spreadsheet_past_the_end_is_one_undo_step(window, qtbot):
    QGuiApplication.clipboard().setText("Optimizer step\t45\tserial\r\nCheckpoint\t1.2 s\tserial\r\n")
    window.table.setFocus()
    go(window, 4, NAME)
    qtbot.keyClick(window.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    comps = window.doc.profile.components
    assert [c.name for c in comps[4:]] == ["Optimizer step", "Checkpoint"]
    assert comps[5].time == pytest.approx(1200)
    assert window.doc.analysis.baseline_total == pytest.approx(1000 - 50 + 45 + 1200)
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [c.name for c in window.doc.profile.components][4] == "Miscellaneous overhead"
    assert len(window.doc.profile.components) == 5


def test_paste_with_header_row_maps_columns(window, qtbot):
    window.files.new_document()
    window.answer = None
    QGuiApplication.clipboard().setText("Stage\tTime (s)\nprefill\t0.3\ndecode\t0.9\n")
    go(window, 0, NAME)
    window.table.paste()
    comps = window.doc.profile.components
    assert [(c.name, c.time) for c in comps] == [("prefill", 300), ("decode", 900)]


def test_paste_fills_a_larger_selection(window, qtbot):
    QGuiApplication.clipboard().setText("gpu\n")
    window.table.setFocus()
    select(window, 0, GROUP, 3, GROUP)
    window.table.paste()
    assert [c.group for c in window.doc.profile.components[:4]] == ["gpu"] * 4
    assert window.doc.undo_stack.count() == 1


def test_bad_paste_changes_nothing(window):
    QGuiApplication.clipboard().setText("a\t1\nb\tlots\n")
    go(window, 0, NAME)
    window.table.paste()
    assert window.doc.profile.components[0].name == "Input pipeline and host preparation"
    assert "lots" in window.table.last_rejection


def test_delete_key_clears_cells(window, qtbot):
    window.table.setFocus()
    select(window, 0, GROUP, 1, NOTES)
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    assert window.doc.profile.components[0].group == "" and window.doc.profile.components[1].notes == ""
    assert window.doc.undo_stack.count() == 1


def test_undo_redo_shortcuts_and_menu_text(window, qtbot):
    window.component_model.setData(cell(window, 0, TIME), "200")
    assert window.undo_action.text() == "&Undo Edit time"
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.profile.components[0].time == 100
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.doc.profile.components[0].time == 200
    window.doc.undo_stack.undo()
    qtbot.keyClick(window.table, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.profile.components[0].time == 200


def test_consecutive_edits_of_one_cell_merge(window):
    for value in ("200", "250", "300"):
        window.component_model.setData(cell(window, 0, TIME), value)
    assert window.doc.undo_stack.count() == 1
    window.doc.undo_stack.undo()
    assert window.doc.profile.components[0].time == 100


def test_insert_and_delete_rows(window, qtbot):
    go(window, 1, NAME)
    window.table.insert_action.trigger()
    assert len(window.doc.profile.components) == 6
    assert window.doc.profile.components[1].name == "Component 6"
    press(qtbot, Qt.Key.Key_Escape)
    select(window, 1, NAME, 2, NAME)
    window.table.delete_rows_action.trigger()
    comps = window.doc.profile.components
    assert len(comps) == 4 and "GPU matrix multiplications" not in [c.name for c in comps]
    # the optimization that targeted the deleted matmul is gone with it; undo brings both back
    assert window.doc.profile.optimizations[0].name == "Faster input pipeline"
    window.doc.undo_stack.undo()
    assert len(window.doc.profile.components) == 6
    assert window.doc.profile.optimizations[0].targets == ("GPU matrix multiplications",)


def test_sort_by_header_and_move_rows(window, qtbot):
    window.table.horizontalHeader().sectionClicked.emit(TIME)
    times = [c.time for c in window.doc.profile.components]
    assert times == sorted(times, reverse=True)
    window.table.horizontalHeader().sectionClicked.emit(TIME)
    assert [c.time for c in window.doc.profile.components] == sorted(times)
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    assert window.doc.profile.components[0].name == "Input pipeline and host preparation"
    go(window, 0, NAME)
    qtbot.keyClick(window.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert window.doc.profile.components[1].name == "Input pipeline and host preparation"
    assert window.table.currentIndex().row() == 1
