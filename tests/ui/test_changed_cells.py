"""The tables repaint the cells a change touched, and what is on screen is what a full repaint would show."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage

from amdahl_desk.model.profile import Component, Profile
from amdahl_desk.ui.profile.component_table import NAME, NEW_TIME, SHARE, TIME

from .painting import PaintedRegion, quiet

pytestmark = pytest.mark.gui


def on_screen(window, widget) -> QImage:
    """What the top-level ``window`` shows of ``widget`` now (its backing store, not a fresh rendering)."""
    at = widget.mapTo(window, QPoint(0, 0))
    return window.screen().grabWindow(window.winId(), at.x(), at.y(), widget.width(), widget.height()).toImage()


def settle(qtbot, shown):
    """Until ``shown`` (the window, or a table on its own) paints nothing more, the window's charts drawn first."""
    drawn = getattr(shown, "drawn", None)
    if drawn is not None:
        drawn()
    quiet(qtbot, shown)


def repainted_whole(qtbot, window, widget) -> QImage:
    widget.repaint()
    quiet(qtbot, window)
    return on_screen(window, widget)


def test_an_edit_in_a_long_table_repaints_its_row_not_every_visible_cell(components, qtbot):
    comps = [Component(f"component {i}", 10.0 + i % 7) for i in range(2000)]
    components.doc.reset(Profile(comps, components.doc.profile.optimizations[:0]), None)
    settle(qtbot, components.table)
    view, model = components.table, components.model
    painted = PaintedRegion(view.viewport())
    assert model.setData(model.index(3, TIME), "12")
    settle(qtbot, components.table)
    # The edited cell is painted again; rows whose share and new time look the same are not.
    assert painted.region.intersects(view.visualRect(model.index(3, TIME)))
    for row in (0, 5, 8):
        for col in (NAME, TIME, SHARE, NEW_TIME):
            assert not painted.region.intersects(view.visualRect(model.index(row, col))), (row, col)


def test_a_change_of_every_share_repaints_every_share_shown(components, qtbot):
    view, model = components.table, components.model
    painted = PaintedRegion(view.viewport())
    assert model.setData(model.index(4, TIME), "60")
    settle(qtbot, components.table)
    painted.clear()
    assert model.setData(model.index(0, TIME), "400")  # of a 1,010 ms total: every share changes
    settle(qtbot, components.table)
    for row in range(len(components.doc.profile.components)):
        assert painted.region.intersects(view.visualRect(model.index(row, SHARE))), row
        assert not painted.region.intersects(view.visualRect(model.index(row, NAME))) or row == 0


def test_the_tables_on_screen_are_what_a_full_repaint_shows(window, qtbot):
    """Edits, ticks, k, undo, a sort and a unit change: after each, the pixels on screen of both tables
    are those of a fresh repaint (no cell left showing an old share, new time or figure)."""
    model, opts = window.component_model, window.optimization_model
    views = [window.table.viewport(), window.optimizations.view.viewport()]
    steps = [
        lambda: model.setData(model.index(1, TIME), "900"),
        lambda: model.setData(model.index(2, TIME), "0"),
        lambda: opts.setData(opts.index(1, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole),
        lambda: window.optimizations.k_spin.setValue(9),
        lambda: window.doc.undo_stack.undo(),
        lambda: window.table.sort_by_column(TIME),
        lambda: model.setData(model.index(4, TIME), "5"),
        lambda: window.settings_panel.unit.setCurrentIndex((window.settings_panel.unit.currentIndex() + 1) % 3),
        lambda: window.doc.undo_stack.undo(),
        lambda: window.doc.undo_stack.undo(),
    ]
    each_step_shows_a_full_repaint(qtbot, window, steps, views)


def test_rows_scrolled_into_view_repaint_only_what_an_edit_changes(components, qtbot):
    """The shares just scrolled into view were painted, not scheduled: an edit repaints its own row and the
    shares whose text it moved, not every share shown (and an edit that moves them all repaints them all)."""
    comps = [Component(f"component {i}", 10.0 + i % 7) for i in range(200)]
    components.doc.reset(Profile(comps, components.doc.profile.optimizations[:0]), None)
    settle(qtbot, components.table)
    view, model = components.table, components.model
    view.scrollTo(model.index(150, TIME), view.ScrollHint.PositionAtTop)
    settle(qtbot, components.table)
    rows = range(150, 158)
    shares = [model.data(model.index(r, SHARE)) for r in rows]
    painted = PaintedRegion(view.viewport())
    assert model.setData(model.index(152, TIME), "12")
    settle(qtbot, components.table)
    assert painted.region.intersects(view.visualRect(model.index(152, TIME)))
    for row, before in zip(rows, shares, strict=True):
        if row != 152:
            moved = model.data(model.index(row, SHARE)) != before
            assert painted.region.intersects(view.visualRect(model.index(row, SHARE))) == moved, row
            assert not painted.region.intersects(view.visualRect(model.index(row, NEW_TIME))), row
    painted.clear()
    assert model.setData(model.index(0, TIME), "2600")  # the total doubles: every share shown halves
    settle(qtbot, components.table)
    for row in rows:
        assert painted.region.intersects(view.visualRect(model.index(row, SHARE))), row
    shown = on_screen(components.table, view.viewport())
    assert shown == repainted_whole(qtbot, components.table, view.viewport())


def test_a_tick_announces_the_new_times_of_its_targets_and_no_share(window, qtbot):
    model, opts = window.component_model, window.optimization_model
    announced: list[tuple[int, int, int, int]] = []
    model.dataChanged.connect(lambda a, b, _roles=(): announced.append((a.row(), b.row(), a.column(), b.column())))
    row = next(i for i, o in enumerate(window.doc.profile.optimizations) if not o.enabled)
    targets = {window.doc.profile.index_of(t) for t in window.doc.profile.optimizations[row].targets}
    assert opts.setData(opts.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert announced and all(
        first == last and first in targets and col == NEW_TIME for first, last, col, _ in announced
    )
    assert {first for first, *_ in announced} == targets
    announced.clear()
    assert model.setData(model.index(1, TIME), "900")  # every share moves with the total
    shares = [(first, last) for first, last, col, end in announced if col == SHARE and end == SHARE]
    assert shares == [(0, len(window.doc.profile.components) - 1)]


def test_the_checklist_announces_the_figures_whose_text_moved_and_shows_the_new_ones(checklist, qtbot):
    from amdahl_desk.ui.profile.optimization_table import SPEEDUP, K

    opts = checklist.model
    announced: list[tuple[int, int]] = []
    opts.dataChanged.connect(lambda a, b, _roles=(): announced.append((a.row(), b.row())))
    before = [opts.data(opts.index(r, SPEEDUP)) for r in range(opts.rowCount())]
    assert opts.setData(opts.index(0, K), "7")
    after = [opts.data(opts.index(r, SPEEDUP)) for r in range(opts.rowCount())]
    assert after[0] != before[0] and after[1:] == before[1:]  # the texts follow the analysis, not a stale copy
    assert announced == [(0, 0), (0, 0)]  # the row's optimization, then its figures; no other row


def test_a_selection_repaints_the_header_sections_whose_highlight_changes_and_the_headers_show_it(window, qtbot):
    """A row chosen in the checklist leaves every section as highlighted as before: the header is not repainted;
    a cell chosen in the components table highlights its column. After each, the headers on screen are
    what a full repaint shows (a reset of the checklist clears its selection without telling the header)."""
    opts_view, table = window.optimizations.view, window.table
    headers = [opts_view.horizontalHeader().viewport(), table.horizontalHeader().viewport()]
    painted = PaintedRegion(headers[0])
    window.optimizations.select_row(0)
    settle(qtbot, window)
    painted.clear()
    window.optimizations.select_row(1)
    settle(qtbot, window)
    assert painted.region.isEmpty()
    model = window.component_model
    steps = [
        lambda: table.setCurrentIndex(model.index(1, NAME)),
        lambda: table.setCurrentIndex(model.index(2, TIME)),
        lambda: table.selectAll(),
        lambda: table.clearSelection(),
        lambda: window.optimizations.select_row(2),
        lambda: window.doc.set_optimizations(window.doc.profile.optimizations[:-1], "Remove one"),
        lambda: window.optimizations.select_row(0),
        lambda: opts_view.clearSelection(),
    ]
    each_step_shows_a_full_repaint(qtbot, window, steps, headers)


def each_step_shows_a_full_repaint(qtbot, window, steps, widgets):
    """After each step, every widget shows what a repaint of the whole of it would show."""
    for i, step in enumerate(steps):
        step()
        settle(qtbot, window)
        for widget in widgets:
            shown = on_screen(window, widget)
            assert shown == repainted_whole(qtbot, window, widget), (i, widget.parent())
