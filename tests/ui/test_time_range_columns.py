"""A component's time range in the components table: Time low and Time high, shown with ranges or by the Ranges
switch, typed and pasted like every cell (undo, refusals at the cell), saved with the workbook, and felt by the odds."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.files import load_profile
from amdahl_desk.ui.profile.component_table import NAME, RANGE_COLUMNS, TIME, TIME_HIGH, TIME_LOW

from .driving import paste_at, press, type_in_cell

pytestmark = pytest.mark.gui


def hidden(window) -> list[bool]:
    return [window.table.isColumnHidden(c) for c in RANGE_COLUMNS]


def test_the_ranges_switch_shows_them_and_a_typed_range_is_one_undo_step(window, qtbot):
    comps = window.doc.profile.components
    first = comps[0]
    assert first.time_low is None and hidden(window) == [True, True]  # the training example has no ranges
    window.optimizations.estimates.button.click()
    assert hidden(window) == [False, False]
    assert window.component_model.headerData(TIME_LOW, Qt.Orientation.Horizontal) == "Time low (ms)"
    type_in_cell(qtbot, window.table, 0, TIME_LOW, "90")
    type_in_cell(qtbot, window.table, 0, TIME_HIGH, "0.13 s")  # a unit converts, as for the time
    comp = window.doc.profile.components[0]
    assert (comp.time_low, comp.time, comp.time_high) == (90.0, first.time, 130.0)
    assert window.doc.profile.has_uncertainty()
    assert window.component_model.data(window.component_model.index(0, TIME_HIGH)) == "130"
    window.undo_action.trigger()
    assert window.doc.profile.components[0].time_high is None and window.doc.profile.components[0].time_low == 90.0
    window.undo_action.trigger()
    assert window.doc.profile.components[0].time_low is None


def test_a_range_that_does_not_hold_the_time_is_refused_at_its_cell(components, qtbot):
    components.table.show_ranges(True)  # what the Ranges switch asks of the table
    time = components.doc.profile.components[0].time  # 100 ms
    type_in_cell(qtbot, components.table, 0, TIME_LOW, str(time + 20))
    assert components.doc.profile.components[0].time_low is None
    assert "above its measured time" in components.table.last_rejection
    press(qtbot, Qt.Key.Key_Escape)
    type_in_cell(qtbot, components.table, 0, TIME_HIGH, "fast")
    assert components.doc.profile.components[0].time_high is None and "not a time" in components.table.last_rejection


def test_an_emptied_cell_takes_the_range_away(window, qtbot):
    window.optimizations.estimates.button.click()
    type_in_cell(qtbot, window.table, 1, TIME_LOW, "500")
    assert window.doc.profile.components[1].time_low == 500.0
    model = window.component_model
    assert model.set_cells([(1, TIME_LOW, "")], "Clear")
    assert window.doc.profile.components[1].time_low is None
    # the switch off with no range left: the columns go
    window.optimizations.estimates.button.click()
    assert hidden(window) == [True, True]


def test_a_pasted_block_with_a_header_lands_in_the_range_columns_and_the_workbook_keeps_them(window, qtbot):
    names = [c.name for c in window.doc.profile.components[:2]]
    times = [c.time for c in window.doc.profile.components[:2]]
    block = "Component\tTime (ms)\tTime low (ms)\tTime high (ms)\n" + "".join(  # as a spreadsheet holds them
        f"{n}\t{t:g}\t{t * 0.9:g}\t{t * 1.2:g}\n" for n, t in zip(names, times, strict=True)
    )
    paste_at(qtbot, window.table, 0, NAME, block)
    comps = window.doc.profile.components
    assert [(c.time_low, c.time_high) for c in comps[:2]] == [
        (pytest.approx(t * 0.9), pytest.approx(t * 1.2)) for t in times
    ]
    assert [c.time for c in comps[:2]] == times
    assert hidden(window) == [False, False]  # shown once the profile has ranges
    assert window.files.save()  # over the copy the window opened
    read = load_profile(window.doc.path).profile.components
    assert [(c.time_low, c.time_high) for c in read[:2]] == [(c.time_low, c.time_high) for c in comps[:2]]


def test_a_profile_with_ranges_opens_with_its_columns_shown(window, qtbot, tmp_path):
    from amdahl_desk.files import write_workbook

    profile = window.doc.profile
    comps = list(profile.components)
    comps[0] = comps[0]._replace(time_low=comps[0].time * 0.5)
    path = tmp_path / "with-range.xlsx"
    write_workbook(type(profile)(comps, profile.optimizations, profile.settings, profile.unit), path)
    assert window.files.open_path(path, ask=False)
    assert hidden(window) == [False, False]
    assert window.component_model.data(window.component_model.index(0, TIME_LOW)) == f"{comps[0].time * 0.5:g}"
    assert window.component_model.data(window.component_model.index(0, TIME)) == f"{comps[0].time:g}"
    assert TIME not in RANGE_COLUMNS


def test_a_pasted_header_with_a_column_the_table_has_not_is_pasted_without_it(window, qtbot):
    # a block copied from a saved workbook's Components sheet carries "Scaling guessed"
    paste_at(qtbot, window.table, 0, NAME, "Component\tTime (ms)\tScaling guessed\nLoader\t5\tyes\n")
    assert window.doc.profile.components[0][:2] == ("Loader", 5.0) and window.errors == []
