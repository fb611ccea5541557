"""Undo leaves the chart tabs where the person had them: tabs that an Undo takes away (the odds, once no k has a
range) give the front back to the tab in front before they came, not to a neighbour."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from amdahl_desk.ui.core.qt_util import settle_layout
from amdahl_desk.ui.profile.optimization_table import K_LOW

pytestmark = pytest.mark.gui


def chart_tabs(window):
    results = window.results
    return results.tabs if results.in_tabs else results.more


def front(window) -> str:
    tabs = chart_tabs(window)
    return tabs.tabText(tabs.currentIndex())


def shown(window) -> list[str]:
    tabs = chart_tabs(window)
    return [tabs.tabText(i) for i in range(tabs.count()) if tabs.isTabVisible(i)]


def choose(window, qtbot, title: str) -> None:
    tabs = chart_tabs(window)
    index = next(i for i in range(tabs.count()) if tabs.tabText(i) == title)
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: front(window) == title)


def test_undo_of_a_range_gives_the_front_back_to_the_tab_chosen_before(window, qtbot):
    assert "Odds" not in shown(window)
    last = shown(window)[-1]
    assert last not in ("GPU scaling", "Odds")
    choose(window, qtbot, last)
    checklist = window.optimizations.view.model()
    assert checklist.setData(checklist.index(0, K_LOW), "1.2")
    qtbot.waitUntil(lambda: "Odds" in shown(window))
    window.drawn()
    assert front(window) == "Odds"  # the odds come to the front when they appear
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: "Odds" not in shown(window))
    settle_layout()
    assert front(window) == last
    window.redo_action.trigger()
    qtbot.waitUntil(lambda: "Odds" in shown(window))
    assert front(window) == "Odds"
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: "Odds" not in shown(window))
    assert front(window) == last


def test_an_edit_and_its_undo_leave_the_tab_in_front(window, qtbot):
    from amdahl_desk.ui.profile.component_table import TIME

    last = shown(window)[-1]
    choose(window, qtbot, last)
    model = window.component_model
    assert model.setData(model.index(0, TIME), "123")
    window.drawn()
    window.undo_action.trigger()
    window.drawn()
    assert front(window) == last
