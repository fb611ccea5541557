"""At 1280×720 and every larger size the project supports, with the odds shown (k ranges, efforts and
confidences), for the LLM example and for a trace: every chart tab's title reads whole, every column of the
optimizations checklist is in view, none reached only by scrolling sideways, and no chart label is cut, covered
or outside its plot, and the summary, objectives, load and cost whole — one window per profile and size, checked
for all of it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTabBar

from amdahl_desk.ui.core.tab_rows import TabRows
from amdahl_desk.ui.profile.optimization_table import CONFIDENCE, EFFORT, ESTIMATES, K_HIGH, K_LOW, SPEEDUP

from .screens import PROFILES, SIZES, TRACE, checklist_out_of_view, cut_tabs, open_profile, show_at, size_id
from .test_chart_contract import _legends_cut as legends_cut
from .test_chart_contract import axis_titles_cut, labels_on_lines
from .test_nothing_cut import CURVES_UNDER_LABELS, chart_labels_outside_plots, each_chart, labels_cut_or_covered

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("which", PROFILES)
def test_the_window_shows_everything_whole(window, qtbot, which, size):
    """One window per profile and size: every chart tab's title whole (its whole title on hover), every column of
    the checklist in view with each value whole, every checklist row in view; every label inside its plot, each
    chart tab in turn with its labels whole and off the lines, every legend entry and axis title whole; the summary,
    and the LLM example's objectives, load and cost, whole (:func:`answer_shows_whole`)."""
    open_profile(window, qtbot, which)
    show_at(window, qtbot, size)
    results = window.results
    shown = [t for t in (results.tabs, results.more) if t.isVisible()]
    assert shown and all(t.count() for t in shown)
    if which == "ranges":  # the odds' tabs are there to be read
        assert any(t.isTabVisible(t.indexOf(results.slots["distribution"])) for t in shown)
    for bar in results.findChildren(QTabBar):
        if bar.isVisible():
            # each tab as wide as its name needs: Qt shortened none of them
            assert bar.sizeHint().width() <= bar.width() + 1, [bar.tabText(i) for i in range(bar.count())]
    assert cut_tabs(results) == []  # nor do the rows of tabs, where one row is too narrow for them
    for tabs in shown:
        for i in range(tabs.count()):
            assert tabs.tabToolTip(i)  # the chart's whole title on hover

    view = window.optimizations.view
    if which == "ranges":
        assert not any(view.isColumnHidden(c) for c in ESTIMATES)
    assert checklist_out_of_view(window) == []
    # numbers are never cut to fit: each value whole in its column
    fm = view.fontMetrics()
    model = view.model()
    for col in (c for c in range(model.columnCount()) if not view.isColumnHidden(c) and c >= 2):
        for row in range(model.rowCount()):
            text = str(model.data(model.index(row, col)) or "")
            assert fm.horizontalAdvance(text) <= view.columnWidth(col), (row, col, text)
    rows = max(window.optimization_model.rowCount(), 1)
    assert view.rowViewportPosition(rows - 1) + view.rowHeight(rows - 1) <= view.viewport().height()

    assert chart_labels_outside_plots(window) == []
    answer_shows_whole(window, objectives=which == "llm")
    # last, as it brings each chart tab to the front in turn
    seen = []
    for key, chart in each_chart(window, qtbot):
        seen.append(key)
        assert labels_cut_or_covered(chart) == [], (key, size)
        if key not in CURVES_UNDER_LABELS:
            assert labels_on_lines(chart) == [], (key, size)
        assert legends_cut(chart) == [], (key, size)
        assert axis_titles_cut(chart) == [], (key, size)
    assert "breakdown" in seen


def answer_shows_whole(window, objectives: bool) -> None:
    """The summary's sentence and target uncut; with ``objectives`` (the LLM example has them) the objectives table,
    the load and the cost in view, each sentence as high as its words, every objective's row (its verdict) in view,
    and the answer not scrolled."""
    summary = window.summary
    for label in (summary.sentence, summary.target):
        assert "…" not in label.text() and not label.toolTip(), label.text()
    decision = window.results.decision
    view = decision.view
    # the odds whole, or naming the plan by its count (the names in the tooltip); the rest word for word
    assert decision.odds.text() in (view.odds.text, view.odds_brief), decision.odds.text()
    assert decision.likelier.text() == view.likelier
    assert decision.plan.text() == view.plan.text
    outcomes = window.results.outcomes
    if objectives:
        assert outcomes.table.isVisible() and outcomes.load.isVisible() and outcomes.cost.isVisible()
    for label in (outcomes.load, outcomes.max_rate, outcomes.cost):
        if label.isVisible():
            assert label.heightForWidth(label.width()) <= label.height(), label.text()
    table = outcomes.table
    if table.isVisible():
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
        assert rows + table.horizontalHeader().height() <= table.height()
    if objectives:  # the LLM example's answer fits unscrolled; with the odds and the plan too it may scroll at 1280×720
        assert window.results.answer.verticalScrollBar().maximum() == 0


def test_the_widest_checklist_fits_at_1280(window, qtbot):
    """A trace's checklist with the estimates shown has every column there is: still all in view."""
    open_profile(window, qtbot, "trace")
    qtbot.mouseClick(window.optimizations.estimates.button, Qt.MouseButton.LeftButton)
    show_at(window, qtbot, (1280, 720))
    view = window.optimizations.view
    assert not any(view.isColumnHidden(c) for c in ESTIMATES)
    assert checklist_out_of_view(window) == []


def test_a_short_title_keeps_the_whole_one_in_its_tooltip(window, qtbot):
    open_profile(window, qtbot, "ranges")
    show_at(window, qtbot, (1280, 720))
    header = window.optimizations.wrapping_header
    assert {SPEEDUP, K_LOW, K_HIGH, EFFORT, CONFIDENCE} <= header.short  # narrow: the short titles
    assert header.shown_title(SPEEDUP) == ["S"] and header.title(SPEEDUP) == "Speedup S"
    assert header.shown_title(CONFIDENCE) == ["Conf."] and header.title(CONFIDENCE) == "Confidence"
    show_at(window, qtbot, (2560, 1440))
    assert not header.short and header.shown_title(CONFIDENCE) == ["Confidence"]  # room: the whole titles


def test_a_tab_in_the_second_row_is_clicked_like_any_tab(window, qtbot):
    open_profile(window, qtbot, "ranges")
    show_at(window, qtbot, (1280, 720))
    results = window.results
    rows = next(r for r in results.findChildren(TabRows) if r.isVisible())
    rects = rows.tab_rects()
    assert len({r.top() for r in rects.values()}) >= 2  # 7 tabs in a 680 px pane: two rows
    last = max(rects, key=lambda i: (rects[i].top(), rects[i].left()))
    qtbot.mouseClick(rows, Qt.MouseButton.LeftButton, pos=rects[last].center())
    qtbot.waitUntil(lambda: rows.pages.currentIndex() == last and rows.pages.currentWidget().isVisible())
    key = next(k for k, slot in results.slots.items() if slot is rows.pages.currentWidget())
    assert results.chart(key).isVisible()
    first = min(rects, key=lambda i: (rects[i].top(), rects[i].left()))
    rows.setFocus()
    qtbot.keyClick(rows, Qt.Key.Key_Left)
    assert rows.pages.currentIndex() != last
    assert QFontMetrics(rows.font()).horizontalAdvance(rows.pages.tabText(first)) <= rects[first].width()


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)], ids=size_id)
@pytest.mark.parametrize("which", ["trace", "llm-ranges"])
@pytest.mark.parametrize("order", ["laid out after", "opened in the window as it is"])
def test_what_a_person_types_is_in_view_with_a_trace_and_with_ranges(window, qtbot, which, size, order):
    """Every column of both tables in view, every component's and optimization's row, and each optimization's and
    target's name readable (at least its first word whole; the whole name in its tooltip): with the layout set for
    the profile, and with the trace imported (or Ranges pressed) in a window already on screen at that size."""
    from amdahl_desk.ui.profile.optimization_table import NAME, TARGETS

    from .screens import components_out_of_view

    if order == "laid out after":
        open_profile(window, qtbot, which)
        show_at(window, qtbot, size)
    else:
        show_at(window, qtbot, size)
        left = window._splitters["main"].sizes()[0]
        open_profile(window, qtbot, which)
        qtbot.waitUntil(lambda: window._splitters["main"].sizes()[0] > left)  # the columns took their room
        window.drawn()
    assert components_out_of_view(window) == [] and checklist_out_of_view(window) == []
    table = window.table
    rows = len(window.doc.profile.components)
    assert table.rowViewportPosition(rows - 1) + table.rowHeight(rows - 1) <= table.viewport().height(), rows
    view = window.optimizations.view
    model = view.model()
    fm = view.fontMetrics()
    for row in range(model.rowCount()):
        y = view.rowViewportPosition(row)
        assert y >= 0 and y + view.rowHeight(row) <= view.viewport().height(), row
        for col in (NAME, TARGETS):
            text = str(model.data(model.index(row, col)) or "")
            first = text.split()[0] if text.split() else ""
            # the first word and an ellipsis, within the cell's margins
            assert fm.horizontalAdvance(first + "…") + 8 <= view.columnWidth(col), (
                row,
                col,
                text,
                view.columnWidth(col),
            )


def test_a_jobs_checklist_with_ranges_keeps_its_names_readable_at_1280(window, qtbot):
    """A job's checklist has the job's S, ceiling and saves and its rank's own S and ceiling; with Ranges pressed,
    k low, k high, days and confidence too: at 1280×720 the names and targets were "F…" and "data…". There the
    rank's two columns fold away (the summary states what the rank alone makes of the plan), and each name's first
    word reads whole; with room again (2560×1440) they come back."""
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.ui.profile.optimization_table import NAME, TARGETS, TRACE_FIGURES

    from .test_job_window import open_job

    show_at(window, qtbot, (1280, 720))
    open_job(qtbot, window, TRACE.parents[2] / "traces" / "fixtures" / "ddp4")
    window.doc.set_optimizations([Optimization("Faster data loading", ("data_loading",), 2.0)], "Plan")
    window.optimizations.estimates.button.click()
    view, model = window.optimizations.view, window.optimizations.view.model()
    fm = view.fontMetrics()

    def names_readable() -> bool:
        return all(
            fm.horizontalAdvance(str(model.data(model.index(0, col))).split()[0] + "…") + 8 <= view.columnWidth(col)
            for col in (NAME, TARGETS)
        )

    qtbot.waitUntil(names_readable, timeout=5_000)
    assert all(view.isColumnHidden(c) for c in TRACE_FIGURES)
    assert checklist_out_of_view(window) == [] and not any(view.isColumnHidden(c) for c in ESTIMATES)
    show_at(window, qtbot, (2560, 1440))
    qtbot.waitUntil(lambda: not any(view.isColumnHidden(c) for c in TRACE_FIGURES), timeout=5_000)
    assert names_readable() and checklist_out_of_view(window) == []


def test_a_traced_checklist_with_ranges_keeps_its_names_readable_at_1280(window, qtbot):
    """A traced profile's checklist has S and ceiling with the dependencies and the sum's beside them; with Ranges
    pressed, k's range, days and confidence too: at 1280×720 a name read "F…". There the sum's two columns fold away
    (the answer is the dependencies'; each S with them says the sum's in its tooltip, the summary states it), and
    each name's first word reads whole; with room again (2560×1440) they come back."""
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.ui.profile.optimization_table import CEILING, NAME, SPEEDUP, TARGETS, TRACE_SPEEDUP

    show_at(window, qtbot, (1280, 720))
    open_profile(window, qtbot, "trace")
    targets = [c.name for c in window.doc.profile.components][:3]
    window.doc.set_optimizations(
        [
            Optimization(
                "Fused AdamW step", (targets[0],), 4.0, speedup_low=2.0, speedup_high=8.0, effort=5.0, confidence=0.8
            ),
            Optimization(
                "Backward with fused kernels",
                (targets[1],),
                1.5,
                speedup_low=1.2,
                speedup_high=2.0,
                effort=10.0,
                confidence=0.7,
            ),
            Optimization(
                "Faster forward", (targets[2],), 2.0, enabled=False, speedup_low=1.5, speedup_high=3.0, effort=3.0
            ),
        ],
        "Plan",
    )
    view, model = window.optimizations.view, window.optimizations.view.model()
    if any(view.isColumnHidden(c) for c in ESTIMATES):  # k given as ranges shows them; else Ranges is pressed
        window.optimizations.estimates.button.click()
    fm = view.fontMetrics()

    def names_readable() -> bool:
        return all(
            fm.horizontalAdvance(str(model.data(model.index(row, col))).split()[0] + "…") + 8 <= view.columnWidth(col)
            for row in range(model.rowCount())
            for col in (NAME, TARGETS)
        )

    qtbot.waitUntil(lambda: not window.doc.trace.busy, timeout=60_000)
    qtbot.waitUntil(names_readable, timeout=5_000)
    assert view.isColumnHidden(SPEEDUP) and view.isColumnHidden(CEILING) and not view.isColumnHidden(TRACE_SPEEDUP)
    tip = model.index(0, TRACE_SPEEDUP)
    qtbot.waitUntil(lambda: "the sum says" in str(model.data(tip, Qt.ItemDataRole.ToolTipRole)), timeout=30_000)
    assert checklist_out_of_view(window) == [] and not any(view.isColumnHidden(c) for c in ESTIMATES)
    show_at(window, qtbot, (2560, 1440))
    qtbot.waitUntil(lambda: not view.isColumnHidden(SPEEDUP) and not view.isColumnHidden(CEILING), timeout=5_000)
    assert names_readable() and checklist_out_of_view(window) == []
