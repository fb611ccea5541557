"""The components table driven as a person would: keys, typing, clipboard, undo, rows — on its own, or in the
window where the window's part is tested too (the charts following, the status bar, the Edit menu's undo)."""

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from amdahl_desk.model.profile import Profile
from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import GROUP, NAME, NOTES, SCALING, TIME

pytestmark = pytest.mark.gui


def cell(win, row, col):
    """The index of a cell of the components table of ``win`` (the window, or the table on its own)."""
    return win.table.model().index(row, col)


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


def test_unit_typed_with_non_ascii_mu(components, qtbot):
    go(components, 0, TIME)
    qtbot.keyClick(components.table, Qt.Key.Key_F2)
    editor = focused_editor()
    editor.selectAll()
    type_text(qtbot, editor, "250000 µs")
    press(qtbot, Qt.Key.Key_Return)
    assert components.doc.profile.components[0].time == pytest.approx(250)


def test_word_in_a_time_cell_is_refused_and_kept_for_fixing(window, qtbot):
    go(window, 1, TIME)
    type_in_cell(qtbot, window, "fast")
    press(qtbot, Qt.Key.Key_Return)
    assert window.doc.profile.components[1].time == 600
    assert window.table.last_rejection == '"fast" is not a time; expected a number or a value like "120 ms"'
    assert "Not accepted" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: focused_editor() is not None and focused_editor().text() == "fast")
    assert window.doc.undo_stack.count() == 0


@pytest.mark.parametrize("then", ["escape", "fixed"])
def test_a_refusals_status_line_goes_with_it(window, qtbot, then):
    """Dismissed with Escape, or the cell typed again and taken, the refusal leaves the status line too: it stayed
    there ten seconds and read as a refusal of what was just accepted."""
    go(window, 1, TIME)
    type_in_cell(qtbot, window, "fast")
    press(qtbot, Qt.Key.Key_Return)
    assert "Not accepted" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: focused_editor() is not None and focused_editor().text() == "fast")
    if then == "escape":
        press(qtbot, Qt.Key.Key_Escape)
    else:
        focused_editor().selectAll()
        type_text(qtbot, focused_editor(), "450")
        press(qtbot, Qt.Key.Key_Return)
        assert window.doc.profile.components[1].time == 450
    qtbot.waitUntil(lambda: "Not accepted" not in window.statusBar().currentMessage(), timeout=1000)


@pytest.mark.parametrize(
    ("col", "text", "reason"),
    [
        (TIME, "-5", "negative"),
        (NAME, "Other GPU kernels", "duplicate"),
        (SCALING, "sometimes", "not a scaling class"),
    ],
)
def test_invalid_entries_refused_with_reason(components, col, text, reason):
    before = list(components.doc.profile.components)
    assert not components.model.setData(cell(components, 0, col), text)
    assert reason in components.table.last_rejection
    assert components.doc.profile.components == before


def test_escape_cancels(components, qtbot):
    go(components, 1, TIME)
    type_in_cell(qtbot, components, "9")
    press(qtbot, Qt.Key.Key_Escape)
    assert components.doc.profile.components[1].time == 600


def test_tab_moves_right_and_ctrl_arrows_jump(components, qtbot):
    go(components, 0, NAME)
    qtbot.keyClick(components.table, Qt.Key.Key_F2)
    press(qtbot, Qt.Key.Key_Tab)
    assert components.table.currentIndex().column() == TIME
    components.table.setFocus()
    qtbot.keyClick(components.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert components.table.currentIndex().row() == 4
    qtbot.keyClick(components.table, Qt.Key.Key_Home)
    assert components.table.currentIndex().column() == NAME
    qtbot.keyClick(components.table, Qt.Key.Key_End)
    assert components.table.currentIndex().column() == NOTES
    qtbot.keyClick(components.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert (components.table.currentIndex().row(), components.table.currentIndex().column()) == (0, NAME)
    qtbot.keyClick(components.table, Qt.Key.Key_Return)
    assert components.table.currentIndex().row() == 1


def test_typing_in_the_empty_last_row_adds_a_component(components, qtbot):
    go(components, 5, NAME)
    type_in_cell(qtbot, components, "Checkpoint write")
    press(qtbot, Qt.Key.Key_Tab)
    assert components.table.currentIndex().column() == TIME
    type_text(qtbot, focused_editor(), "0.2 s")
    press(qtbot, Qt.Key.Key_Return)
    comps = components.doc.profile.components
    assert comps[5].name == "Checkpoint write" and comps[5].time == pytest.approx(200)
    assert components.model.rowCount() == 7


def test_rename_keeps_the_optimization(components, qtbot):
    assert components.model.setData(cell(components, 1, NAME), "GEMMs")
    assert components.doc.profile.optimizations[0].targets == ("GEMMs",)
    assert components.doc.analysis.combined.overall_speedup == pytest.approx(1 / 0.55)
    components.doc.undo_stack.undo()
    assert components.doc.profile.optimizations[0].targets == ("GPU matrix multiplications",)


def select(win, top, left, bottom, right):
    sel = QItemSelection(cell(win, top, left), cell(win, bottom, right))
    win.table.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    win.table.selectionModel().setCurrentIndex(cell(win, top, left), QItemSelectionModel.SelectionFlag.NoUpdate)


def test_copy_range_as_tsv(components, qtbot):
    components.table.setFocus()
    select(components, 0, NAME, 1, TIME)
    qtbot.keyClick(components.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
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


def test_paste_with_header_row_maps_columns(components, qtbot):
    components.doc.reset(Profile(), None)  # the empty document File → New leaves
    QGuiApplication.clipboard().setText("Stage\tTime (s)\nprefill\t0.3\ndecode\t0.9\n")
    go(components, 0, NAME)
    components.table.paste()
    comps = components.doc.profile.components
    assert [(c.name, c.time) for c in comps] == [("prefill", 300), ("decode", 900)]


def test_paste_fills_a_larger_selection(components, qtbot):
    QGuiApplication.clipboard().setText("gpu\n")
    components.table.setFocus()
    select(components, 0, GROUP, 3, GROUP)
    components.table.paste()
    assert [c.group for c in components.doc.profile.components[:4]] == ["gpu"] * 4
    assert components.doc.undo_stack.count() == 1


def test_bad_paste_changes_nothing(components):
    QGuiApplication.clipboard().setText("a\t1\nb\tlots\n")
    go(components, 0, NAME)
    components.table.paste()
    assert components.doc.profile.components[0].name == "Input pipeline and host preparation"
    assert "lots" in components.table.last_rejection


def test_delete_key_clears_cells(components, qtbot):
    components.table.setFocus()
    select(components, 0, GROUP, 1, NOTES)
    qtbot.keyClick(components.table, Qt.Key.Key_Delete)
    assert components.doc.profile.components[0].group == "" and components.doc.profile.components[1].notes == ""
    assert components.doc.undo_stack.count() == 1


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


def test_consecutive_edits_of_one_cell_merge(components):
    for value in ("200", "250", "300"):
        components.model.setData(cell(components, 0, TIME), value)
    assert components.doc.undo_stack.count() == 1
    components.doc.undo_stack.undo()
    assert components.doc.profile.components[0].time == 100


def test_insert_and_delete_rows(components, qtbot):
    go(components, 1, NAME)
    components.table.insert_action.trigger()
    assert len(components.doc.profile.components) == 6
    assert components.doc.profile.components[1].name == "Component 6"
    press(qtbot, Qt.Key.Key_Escape)
    select(components, 1, NAME, 2, NAME)
    components.table.delete_rows_action.trigger()
    comps = components.doc.profile.components
    assert len(comps) == 4 and "GPU matrix multiplications" not in [c.name for c in comps]
    # the optimization that targeted the deleted matmul is gone with it; undo brings both back
    assert components.doc.profile.optimizations[0].name == "Faster input pipeline"
    components.doc.undo_stack.undo()
    assert len(components.doc.profile.components) == 6
    assert components.doc.profile.optimizations[0].targets == ("GPU matrix multiplications",)


def test_sort_by_header_and_move_rows(components, qtbot):
    components.table.horizontalHeader().sectionClicked.emit(TIME)
    times = [c.time for c in components.doc.profile.components]
    assert times == sorted(times, reverse=True)
    components.table.horizontalHeader().sectionClicked.emit(TIME)
    assert [c.time for c in components.doc.profile.components] == sorted(times)
    components.doc.undo_stack.undo()
    components.doc.undo_stack.undo()
    assert components.doc.profile.components[0].name == "Input pipeline and host preparation"
    go(components, 0, NAME)
    qtbot.keyClick(components.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert components.doc.profile.components[1].name == "Input pipeline and host preparation"
    assert components.table.currentIndex().row() == 1


def test_a_refused_paste_stays_on_the_status_line_when_the_focus_moves_on(window, qtbot):
    """A paste refused in place is given back to no editor: once the person clicks elsewhere its message goes, and
    the status line is what still says what was refused."""
    go(window, 1, TIME)
    QGuiApplication.clipboard().setText("fast\nslow")
    window.table.paste()
    said = window.statusBar().currentMessage()
    assert said.startswith("Not accepted:") and '"fast"' in said
    window.settings_panel.target.setFocus()
    qtbot.waitUntil(lambda: not window.table.message.isVisible(), timeout=1000)
    assert window.statusBar().currentMessage() == said
