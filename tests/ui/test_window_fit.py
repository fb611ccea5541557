"""The window fits the screen it is on and says what it refuses where it happened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.component_table import NAME, TIME

pytestmark = pytest.mark.gui


def _type_into(qtbot, view, row: int, col: int, text: str) -> None:
    view.setCurrentIndex(view.model().index(row, col))
    view.setFocus()
    qtbot.keyClicks(view, text[0])  # the first key opens the editor, as in a spreadsheet
    editor = view.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, text[1:])
    qtbot.keyClick(editor, Qt.Key.Key_Return)


class TestRefusalAtTheCell:
    def test_refused_time_is_explained_beside_the_open_editor(self, window, qtbot):
        view = window.table
        before = window.doc.profile.components[1].time
        _type_into(qtbot, view, 1, TIME, "fast")
        message = view.message
        qtbot.waitUntil(lambda: message.isVisible() and view.state() == QAbstractItemView.State.EditingState)
        assert message.isVisible()
        assert "fast" in message.text() or "number" in message.text().lower(), message.text()
        cell = view.visualRect(window.component_model.index(1, TIME))
        # Right beside the cell: touching its bottom (or top) edge and overlapping it sideways.
        assert message.geometry().top() in (cell.bottom() + 2, cell.top() - message.height() - 2)
        assert message.geometry().left() < cell.right() and message.geometry().right() > cell.left()
        assert view.viewport().rect().contains(message.geometry())
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit) and editor.text() == "fast"
        # It stays while the editor is open (no timer of its own takes it away) ...
        settle_layout()
        assert message.isVisible() and not [t for t in message.findChildren(QTimer) if t.isActive()]
        # ... and goes with the editor.
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not message.isVisible())
        assert window.doc.profile.components[1].time == before

    def test_refused_duplicate_name_is_explained_and_a_fix_clears_it(self, window, qtbot):
        view = window.table
        other = window.doc.profile.components[0].name
        _type_into(qtbot, view, 2, NAME, other)
        qtbot.waitUntil(lambda: view.message.isVisible() and view.state() == QAbstractItemView.State.EditingState)
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit)
        editor.setText("A new unique name")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: not view.message.isVisible())
        assert window.doc.profile.components[2].name == "A new unique name"

    def test_refused_paste_points_at_its_cell(self, window, qtbot):
        from PySide6.QtGui import QGuiApplication

        view = window.table
        QGuiApplication.clipboard().setText("10\nslow\n30")
        view.setCurrentIndex(window.component_model.index(0, TIME))
        view.paste()
        cell = view.visualRect(window.component_model.index(1, TIME))
        assert view.message.isVisible()
        assert view.message.geometry().top() in (cell.bottom() + 2, cell.top() - view.message.height() - 2)

    def test_refused_optimization_value_is_shown_at_its_cell(self, window):
        from amdahl_desk.ui.profile.optimization_table import NAME as OPT_NAME

        panel = window.optimizations
        model = window.optimization_model
        assert not model.setData(model.index(1, OPT_NAME), "  ", Qt.ItemDataRole.EditRole)  # a name is needed
        cell = panel.view.visualRect(model.index(1, OPT_NAME))
        assert panel.message.isVisible() and panel.message.text() == panel.last_rejection
        assert panel.message.geometry().top() in (cell.bottom() + 2, cell.top() - panel.message.height() - 2)
        panel.select_row(2)
        assert not panel.message.isVisible()

    def test_refused_run_is_explained_beside_its_cell_in_the_measurements_table(self, window, qtbot):
        from amdahl_desk.ui.fit.runs_model import VALUE

        window.left_tabs.setCurrentIndex(1)
        view = window.fit_panel.view
        _type_into(qtbot, view, 0, VALUE, "fast")
        message = view.message
        qtbot.waitUntil(lambda: message.isVisible() and view.state() == QAbstractItemView.State.EditingState)
        assert message.text() == view.last_rejection and message.text()
        cell = view.visualRect(view.model().index(0, VALUE))
        assert message.geometry().top() in (cell.bottom() + 2, cell.top() - message.height() - 2)
        settle_layout()
        assert message.isVisible()  # no timer takes it away while the editor is open
        assert not [t for t in message.findChildren(QTimer) if t.isActive()]
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit) and editor.text() == "fast"
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not message.isVisible())
        assert not window.doc.measurements.rows

    def test_refused_setting_is_shown_under_its_field_until_fixed(self, window, qtbot):
        panel = window.settings_panel
        panel.counts.setText("1, 8, lots")
        panel.counts.editingFinished.emit()
        notice = panel.notice
        assert notice.isVisible() and "is not a valid GPU count" in notice.text()

        def beside() -> bool:
            field = QRect(panel.counts.mapTo(panel, QPoint(0, 0)), panel.counts.size())
            return notice.geometry().top() in (field.bottom() + 2, field.top() - notice.height() - 2)

        qtbot.waitUntil(beside)  # it follows the field when the red frame changes the field's height
        panel.counts.setText("1, 8, 64")
        panel.counts.editingFinished.emit()
        assert not notice.isVisible()
        assert window.doc.profile.settings.gpu_counts == (1, 8, 64)


# -- the layout at the sizes people have --------------------------------------------------------------------------

from PySide6.QtGui import QFontMetrics  # noqa: E402

from amdahl_desk.ui.profile.component_table import GROUP, NEW_TIME, NOTES, SCALING, SHARE  # noqa: E402
from amdahl_desk.ui.profile.optimization_table import CEILING, SAVES, SPEEDUP, K  # noqa: E402
from amdahl_desk.ui.profile.optimization_table import NAME as OPT_NAME  # noqa: E402
from amdahl_desk.ui.profile.optimization_table import SHARE as OPT_SHARE  # noqa: E402
from amdahl_desk.ui.profile.optimization_table import TARGETS as OPT_TARGETS  # noqa: E402

SIZES = [(1280, 720), (1600, 1000), (1920, 1080), (2560, 1440), (800, 500)]
# Room Qt's header takes beside a section's text: margins on both sides and a sort arrow.
HEADER_EXTRA = 12
CELL_EXTRA = 6


def _at(qtbot, window, size):
    window.resize(*size)
    window.reset_layout()
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    window.reset_layout()
    quiet(qtbot, window)  # pyqtgraph lays its views out on posted events


def _text_fits(view, row: int, col: int) -> bool:
    text = str(view.model().data(view.model().index(row, col)) or "")
    return view.fontMetrics().horizontalAdvance(text) + CELL_EXTRA <= view.columnWidth(col)


def _header_fits(view, col: int) -> bool:
    """The header's title fits its column: whole on one line, or each of its two lines when the header
    draws it on two ("New time" over "(ms)"), with the header tall enough for them."""
    from amdahl_desk.ui.core.wrapping_header import header_lines

    header = view.horizontalHeader()
    text = str(view.model().headerData(col, Qt.Orientation.Horizontal))
    fm = QFontMetrics(header.font())
    if col in getattr(header, "two_lines", ()):
        lines = header_lines(text)
        tall = header.height() >= fm.lineSpacing() * len(lines)
        return tall and max(fm.horizontalAdvance(t) for t in lines) + HEADER_EXTRA <= view.columnWidth(col)
    return fm.horizontalAdvance(text) + HEADER_EXTRA <= view.columnWidth(col)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_layout_fits(window, qtbot, size):
    _at(qtbot, window, size)
    assert (window.width(), window.height()) == size  # the window can be this small
    table = window.table
    rows = len(window.doc.profile.components)
    # Numbers and their headers (units included) are never cut, at any size.
    for col in (TIME, SHARE, NEW_TIME):
        assert _header_fits(table, col), (col, table.columnWidth(col))
        for row in range(rows):
            assert _text_fits(table, row, col), (row, col)
    opts = window.optimizations.view
    for col in (K, OPT_SHARE, SPEEDUP, CEILING, SAVES):
        assert _header_fits(opts, col), (col, opts.columnWidth(col))
        for row in range(opts.model().rowCount()):
            assert _text_fits(opts, row, col), (row, col)
    # The headline figures are never cut: each value's text fits the label it is in.
    for fig in (window.summary.speedup, window.summary.new_time, window.summary.saved, window.summary.ceiling):
        label = fig.value
        assert QFontMetrics(label.font()).horizontalAdvance(label.text()) <= label.contentsRect().width(), (
            label.text(),
            label.contentsRect(),
        )
        assert label.text() == fig.value.full  # the whole number, not a shortened one
    # Every chart has room to be read: side by side when there is room, else one at a time in tabs.
    results = window.results
    for key in ("breakdown", "speedup", "scaling"):
        chart = results.chart(key)
        if results.in_tabs and results.tabs.currentWidget() is not results.slots[key]:
            continue
        assert chart.widget.width() >= 200 and chart.widget.height() >= 120, (key, chart.widget.size())
    if size[0] >= 1600:
        # Full size: every column of the table in view (New time was off to the right), names whole,
        # the checklist's targets readable, and the charts side by side.
        viewport = table.viewport().width()
        assert table.columnViewportPosition(NOTES) + table.columnWidth(NOTES) <= viewport
        assert table.horizontalScrollBar().maximum() == 0
        for col in (NAME, SCALING, GROUP):
            assert _header_fits(table, col)
        for row in range(rows):
            assert _text_fits(table, row, NAME), window.doc.profile.components[row].name
        assert _header_fits(opts, OPT_TARGETS) and _header_fits(opts, OPT_NAME)
        assert opts.columnWidth(OPT_TARGETS) >= 120
        assert not window.results.in_tabs
    if size == (1600, 1000) or size[1] >= 1000:
        # The settings (the ring parameters last) without scrolling.
        scroll = window._settings_scroll
        assert scroll.verticalScrollBar().maximum() == 0
        bandwidth = window.settings_panel.bandwidth
        bottom = bandwidth.mapTo(scroll.viewport(), bandwidth.rect().bottomLeft()).y()
        assert bottom <= scroll.viewport().height()
    if size[0] <= 1280:
        assert window.results.in_tabs
    if size == (1280, 720):
        # The names are read: number headers go onto two lines and Scaling and Group give way before a
        # name is cut below a comfortable width ("Input pipelin…" beside a wide "New time (ms)" column).
        from amdahl_desk.ui.profile.component_columns import NAME_COMFORT

        assert table.wrapping_header.two_lines >= {TIME, NEW_TIME}
        floors = {c: table.horizontalHeader().sectionSizeFromContents(c).width() for c in (SCALING, GROUP)}
        gave_all = all(table.columnWidth(c) == floors[c] for c in floors)
        assert table.columnWidth(NAME) >= NAME_COMFORT - 8 or gave_all, (table.columnWidth(NAME), floors)
    if size[0] >= 1600:
        assert not table.wrapping_header.two_lines  # room enough: one line each


def test_long_names_elide_with_the_whole_name_on_hover(window, qtbot):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QStyleOptionViewItem, QToolTip

    long_name = "A very long component name that no column at this size can show whole, from a profiler"
    window.table.table.set_cells([(0, NAME, long_name)], "Rename")
    _at(qtbot, window, (1280, 720))
    table = window.table
    index = table.model().index(0, NAME)
    rect = table.visualRect(index)
    assert table.fontMetrics().horizontalAdvance(long_name) > rect.width()  # it is elided
    option = QStyleOptionViewItem()
    option.rect = rect
    option.fontMetrics = table.fontMetrics()
    event = QHelpEvent(QEvent.Type.ToolTip, rect.center(), table.viewport().mapToGlobal(rect.center()))
    assert table.itemDelegateForIndex(index).helpEvent(event, table, option, index)
    qtbot.waitUntil(QToolTip.isVisible)
    assert long_name in QToolTip.text()
    QToolTip.hideText()
    del QPoint


def test_headline_shrinks_rather_than_cut_digits(window, qtbot):
    _at(qtbot, window, (800, 500))
    window.summary.setFixedWidth(300)  # narrower than any real layout: still the whole number
    qtbot.waitUntil(lambda: window.summary.width() == 300)
    for fig in (window.summary.speedup, window.summary.new_time):
        label = fig.value
        assert label.text() == label.full
        assert QFontMetrics(label.font()).horizontalAdvance(label.text()) <= label.contentsRect().width()


# -- numbers in the machine's locale ------------------------------------------------------------------------------

from PySide6.QtCore import QLocale  # noqa: E402

from tests.ui.painting import quiet  # noqa: E402

GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)


def test_window_shows_numbers_in_the_locale(window, qtbot):
    from amdahl_desk.ui.profile.component_table import NEW_TIME
    from amdahl_desk.ui.profile.component_table import TIME as COMPONENT_TIME
    from amdahl_desk.ui.profile.optimization_table import SAVES as OPT_SAVES

    opts = window.optimizations.view
    index = opts.model().index(3, OPT_SAVES)
    assert index.data() == "66.7"
    before = QLocale()
    QLocale.setDefault(GERMAN)
    try:
        assert index.data() == "66,7"  # the checklist's cell, worded by present/ in the desktop's separators
        assert index.data(Qt.ItemDataRole.EditRole) == "66.7"  # an editor's or a copy's text: the files' format
        window.results.show_summary()
        assert window.summary.new_time.caption.full == "new time (baseline 1.000 ms)"
        assert "1.000 ms → 550 ms" in window.summary.sentence.text() + window.summary.sentence.toolTip()
        model = window.component_model
        assert model.setData(model.index(0, COMPONENT_TIME), "1234,5")  # typed as the desktop writes it
        assert model.index(0, COMPONENT_TIME).data() == "1.235"  # 1,234.5 rounded as a spreadsheet shows it, grouped
        assert model.index(0, COMPONENT_TIME).data(Qt.ItemDataRole.EditRole) == "1234.5"
        new_time = model.index(1, NEW_TIME)  # 600 ms at 4×: 150 ms
        assert model.setData(model.index(1, COMPONENT_TIME), "10,5")
        assert new_time.data() == "2,63" and new_time.data(Qt.ItemDataRole.EditRole) == "2.63"  # 2.625, a half up
        model.doc.undo_stack.undo()
        model.doc.undo_stack.undo()
    finally:
        QLocale.setDefault(before)
        window.results.show_summary()
    assert window.summary.new_time.caption.full == "new time (baseline 1,000 ms)"


def test_numbers_that_grow_with_an_edit_widen_their_columns_and_shrink_back_on_undo(window, qtbot):
    """The columns' fit is skipped when no width would change: it must not miss a number that grew."""
    _at(qtbot, window, (1600, 1000))
    table, opts = window.table, window.optimizations.view
    model, checklist = window.component_model, window.optimization_model
    before = (table.columnWidth(TIME), opts.columnWidth(K), opts.columnWidth(SAVES))
    assert model.setData(model.index(0, TIME), "123456789012")
    assert checklist.setData(checklist.index(0, K), "98765.4321")
    window.drawn()
    qtbot.waitUntil(lambda: not (table._refit.isActive() or window.optimizations._refit.isActive()))  # once per change
    assert _text_fits(table, 0, TIME) and _text_fits(opts, 0, K)
    assert all(_text_fits(opts, row, SAVES) for row in range(checklist.rowCount()))
    assert (table.columnWidth(TIME), opts.columnWidth(K)) > before[:2]
    window.doc.undo_stack.undo()
    window.doc.undo_stack.undo()
    window.drawn()
    qtbot.waitUntil(lambda: not (table._refit.isActive() or window.optimizations._refit.isActive()))
    assert (table.columnWidth(TIME), opts.columnWidth(K), opts.columnWidth(SAVES)) == before
