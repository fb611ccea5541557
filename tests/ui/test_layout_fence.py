"""A page behind a LayoutFence lays itself out; its tab widget hears of it only when the page wants another size."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRect
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QApplication, QLabel, QTabWidget, QVBoxLayout, QWidget

from amdahl_desk.ui.core.layout_fence import LayoutFence

from .painting import PaintedRegion

pytestmark = pytest.mark.gui


def settled(qtbot):
    for _ in range(12):  # a layout request climbs one level per pass of the event loop
        QApplication.processEvents()


def page_with_label() -> tuple[QWidget, QLabel]:
    page = QWidget()
    column = QVBoxLayout(page)
    label = QLabel("Total 1,000 ms")
    column.addWidget(label)
    column.addStretch(1)
    return page, label


@pytest.mark.parametrize("fenced", [True, False])
def test_a_label_changed_in_a_fenced_page_repaints_the_label_not_the_tab_widget(qtbot, fenced):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    page, label = page_with_label()
    tabs.addTab(LayoutFence(page) if fenced else page, "Profile")
    tabs.resize(400, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    settled(qtbot)
    painted = PaintedRegion(tabs)
    label.setText("Total 1,001 ms")
    settled(qtbot)
    where = QRect(label.mapTo(tabs, QPoint(0, 0)), label.size())
    # Unfenced, the tab widget repaints all of itself (the test shows that it tells the two apart).
    if fenced:
        assert QRegion(where).united(painted.region) == QRegion(where)
    else:
        assert painted.region.boundingRect() == tabs.rect()
    assert label.text() == "Total 1,001 ms" and label.isVisible()


def test_a_fenced_page_that_wants_another_size_lays_out_its_tab_widget_again(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    page, label = page_with_label()
    fence = LayoutFence(page)
    tabs.addTab(fence, "Profile")
    tabs.resize(400, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    settled(qtbot)
    narrow = tabs.minimumSizeHint().width()
    label.setMinimumWidth(700)  # the page's least width grows: the tab widget's must follow
    settled(qtbot)
    assert fence.minimumSizeHint().width() >= 700
    assert tabs.minimumSizeHint().width() > narrow
    assert page.geometry() == fence.rect()


def test_a_held_label_of_fixed_height_lays_out_nothing_when_its_text_changes_and_fills_its_holder(qtbot):
    from PySide6.QtWidgets import QSizePolicy

    from amdahl_desk.ui.core.layout_fence import FixedHeightHolder

    class Requests(QObject):
        count = 0

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.LayoutRequest:
                self.count += 1
            return False

    page = QWidget()
    qtbot.addWidget(page)
    column = QVBoxLayout(page)
    label = QLabel("The 3 enabled optimizations together make the run 1.5× faster")
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    label.setFixedHeight(40)
    holder = FixedHeightHolder(label)
    column.addWidget(holder)
    column.addStretch(1)
    page.resize(300, 200)
    page.show()
    qtbot.waitExposed(page)
    settled(qtbot)
    requests = Requests()
    page.installEventFilter(requests)
    label.setText("The 4 enabled optimizations together make the run 1.7× faster, and much more besides")
    settled(qtbot)
    assert requests.count == 0
    page.resize(500, 200)
    settled(qtbot)
    assert label.geometry() == holder.rect() and holder.width() > 400 and holder.height() == 40
