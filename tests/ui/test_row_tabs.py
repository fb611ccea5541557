"""The results' tabs in rows: each title measured as a tab bar measures it, again when the font or the title changes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QStyle, QStyleOptionTab, QTabBar

from amdahl_desk.ui.core.tab_rows import RowTabs

pytestmark = pytest.mark.gui


def bar_width(rows, text: str) -> int:
    """A title's width as the style sizes a tab, computed here from the style's metrics (not through TabRows)."""
    style, opt, fm = rows.style(), QStyleOptionTab(), rows.fontMetrics()
    opt.initFrom(rows)
    opt.text, opt.shape, opt.documentMode = text, QTabBar.Shape.RoundedNorth, True
    h_space = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, opt, rows)
    v_space = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabVSpace, opt, rows)
    text_size = fm.size(0, text)
    contents = QSize(text_size.width() + h_space, max(text_size.height(), fm.height()) + v_space)
    return style.sizeFromContents(QStyle.ContentsType.CT_TabBarTab, opt, contents, rows).width()


def test_titles_are_measured_again_when_the_font_or_a_title_changes(qtbot):
    tabs = RowTabs()
    qtbot.addWidget(tabs)
    titles = ("Speedup", "Time per component", "Odds", "What matters most")
    for title in titles:
        tabs.pages.addTab(QLabel(title), title)
    tabs.resize(2000, 300)
    rects = tabs.rows.tab_rects()
    assert [rects[i].width() for i in range(4)] == [bar_width(tabs.rows, t) for t in titles]

    small = rects[1].width()
    font = QFont(tabs.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    tabs.setFont(font)  # a FontChange reaches the rows
    rects = tabs.rows.tab_rects()
    assert rects[1].width() > small * 1.5
    assert [rects[i].width() for i in range(4)] == [bar_width(tabs.rows, t) for t in titles]

    tabs.pages.setTabText(2, "Odds of the plan")
    assert tabs.rows.tab_rects()[2].width() == bar_width(tabs.rows, "Odds of the plan")
