"""Scaling classes an import guessed, in the window: marked in the table with why, said in the summary, confirmed
by choosing a class, undone, saved and reopened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from amdahl_desk.model.profile import Scaling
from amdahl_desk.ui.import_.preview_models import ComponentPreviewModel
from amdahl_desk.ui.profile.component_table import SCALING

from ..traces import expect
from .test_import_dialog import start_import, wait_preview

pytestmark = pytest.mark.gui
GUESS_NOTE = "rests on scaling classes the import guessed"


def _import(window, qtbot, path):
    dialog = start_import(window, qtbot, path)
    wait_preview(qtbot, dialog)
    m = dialog.shown.preview_model
    cells = [m.index(r, ComponentPreviewModel.SCALING) for r in range(m.rowCount())]
    preview = {
        m.index(r, 0).data(): (cell.data(), cell.data(Qt.ItemDataRole.ToolTipRole)) for r, cell in enumerate(cells)
    }
    with qtbot.waitSignal(window.trace_import.finished, timeout=10000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    window.drawn()
    return preview


def _cell(window, row):
    return window.component_model.index(row, SCALING)


def _choose_class(window, qtbot, row, moves):
    """Select the row's Scaling cell, F2 opens the list, arrow keys move the choice, Return takes it."""
    window.table.setFocus()
    window.table.setCurrentIndex(_cell(window, row))
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    # the editor F2 opened (an earlier one, closed, may linger hidden until it is deleted)
    [combo] = [c for c in window.table.findChildren(QComboBox) if c.isVisible()]
    for key in moves:
        qtbot.keyClick(combo, key)
    before = window.doc.undo_stack.count()
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.doc.undo_stack.count() == before + 1)  # the choice is one undoable edit
    window.drawn()


# The scaling list opens its popup, which the offscreen platform cannot give the keyboard to.
@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")
def test_guessed_classes_are_marked_said_and_confirmed(window, qtbot, tmp_path):
    preview = _import(window, qtbot, expect.ONE_GPU)
    # the preview marked them already, saying where the class comes from
    forward = next(n for n in preview if "forward" in n)
    assert preview[forward][0] == "parallel?" and "guess" in preview[forward][1]
    comps = window.doc.profile.components
    assert all(c.scaling_guessed for c in comps)
    for row, c in enumerate(comps):
        cell = _cell(window, row)
        assert cell.data() == c.scaling.value + "?"  # the visible cue
        assert cell.data(Qt.ItemDataRole.EditRole) == c.scaling.value  # what an editor and a copy start from
        assert "the import's guess" in cell.data(Qt.ItemDataRole.ToolTipRole)
        assert cell.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert GUESS_NOTE in window.summary.notes.toolTip()
    assert window.summary.notes.text().startswith("Note: P = ")

    # a person changes the first class: it is theirs now, the others stay guesses
    first = comps[0]
    assert first.scaling is Scaling.PARALLEL
    _choose_class(window, qtbot, 0, [Qt.Key.Key_Up])  # parallel → serial
    now = window.doc.profile.components[0]
    assert now.scaling is Scaling.SERIAL and not now.scaling_guessed
    assert _cell(window, 0).data() == "serial" and _cell(window, 0).data(Qt.ItemDataRole.ForegroundRole) is None
    assert all(c.scaling_guessed for c in window.doc.profile.components[1:])

    # keeping the class the import guessed confirms it too
    _choose_class(window, qtbot, 1, [])
    second = window.doc.profile.components[1]
    assert second.scaling is comps[1].scaling and not second.scaling_guessed

    # undo brings the guess back, redo the confirmation
    window.undo_action.trigger()
    assert window.doc.profile.components[1].scaling_guessed and _cell(window, 1).data().endswith("?")
    window.redo_action.trigger()
    assert not window.doc.profile.components[1].scaling_guessed

    # saved and reopened, the guesses are still guesses
    target = tmp_path / "imported.xlsx"
    window.choose_file = lambda save, suggested="", filters="": str(target)
    assert window.files.save()
    kept = [c.scaling_guessed for c in window.doc.profile.components]
    assert window.files.open_path(target, ask=False)
    window.drawn()
    assert [c.scaling_guessed for c in window.doc.profile.components] == kept
    assert _cell(window, 2).data().endswith("?") and GUESS_NOTE in window.summary.notes.toolTip()

    # once every class is confirmed, the summary no longer says P rests on guesses
    for row in range(len(window.doc.profile.components)):
        if window.doc.profile.components[row].scaling_guessed:
            _choose_class(window, qtbot, row, [])
    assert not any(c.scaling_guessed for c in window.doc.profile.components)
    assert GUESS_NOTE not in window.summary.notes.toolTip()
