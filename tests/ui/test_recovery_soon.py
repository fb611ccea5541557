"""The recovery copy follows the person within seconds: every change on the undo stack schedules one, coalesced."""

from __future__ import annotations

import time

import pytest

from amdahl_desk.files import load_profile
from amdahl_desk.ui.files.recovery_keeper import RECOVERY_DELAY_MS
from amdahl_desk.ui.fit.measurement_table import COUNT
from amdahl_desk.ui.profile.component_table import TIME

from .driving import paste_at, show_tab, type_in_cell

pytestmark = pytest.mark.gui


def copy_of(window):
    """The profile in the recovery copy, or None while there is none (read as the next start reads it)."""
    workbook = window.files.keeper.store.workbook
    return load_profile(workbook).profile if workbook.exists() else None


def holds(window, times, runs) -> bool:
    keeper = window.files.keeper
    if not keeper.idle or keeper.kept != window.doc.revision:
        return False  # read once it is written (a reader opens the file twice: never while it is replaced)
    kept = copy_of(window)
    if kept is None:
        return False
    measured = kept.measurements.rows if kept.measurements is not None else ()
    return [c.time for c in kept.components[:3]] == times and [(r.n, r.value) for r in measured] == runs


def test_edits_and_a_paste_are_in_the_copy_within_seconds_not_a_minute(window, qtbot):
    assert RECOVERY_DELAY_MS <= 3000
    started = time.monotonic()
    type_in_cell(qtbot, window.table, 0, TIME, "111")
    type_in_cell(qtbot, window.table, 1, TIME, "222")
    type_in_cell(qtbot, window.table, 2, TIME, "333")
    show_tab(qtbot, window.left_tabs, 1)
    paste_at(qtbot, window.fit_panel.view, 0, COUNT, "1\t100\n2\t60\n4\t40\n")
    qtbot.waitUntil(lambda: holds(window, [111, 222, 333], [(1, 100), (2, 60), (4, 40)]), timeout=15_000)
    assert time.monotonic() - started < 15  # a few seconds (the write itself runs on its own thread)


def test_a_burst_of_changes_is_written_once_and_an_undo_follows(window, qtbot):
    keeper = window.files.keeper
    keeper.delay_ms = 200  # injectable: as short as a test wants
    written = []
    keeper.written.connect(written.append)
    for i in range(5):
        window.component_model.set_cells([(0, TIME, str(500 + i))], "Edit time")
        window.doc.seal()
    qtbot.waitUntil(lambda: holds(window, [504, 600, 150], []), timeout=10_000)
    assert len(written) == 1  # the burst was one copy
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: holds(window, [503, 600, 150], []), timeout=10_000)
    # Saved: no copy is left, and none is written later.
    window.doc.undo_stack.setClean()
    qtbot.waitUntil(lambda: not keeper.store.workbook.exists())
    window.component_model.set_cells([(1, TIME, "601")], "Edit time")
    window.doc.undo_stack.setClean()  # saved again before the copy was due
    qtbot.waitUntil(lambda: keeper.idle)
    assert not keeper.store.workbook.exists()
