"""Tabs whose titles wrap onto more rows when one row is too narrow: never cut ("Time per co…") nor scrolled away.

:class:`RowTabs` is a box of two: :class:`TabRows`, the titles drawn as the style draws tabs, flowed left to right
and onto the next row, and ``pages``, a :class:`QTabWidget` whose own one-row bar is hidden. Code and tests use
``pages`` as any tab widget (``addTab``, ``setTabVisible``, ``setCurrentIndex``, ``currentWidget``); each change
of a tab is told to the rows, which lay out again.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QSizePolicy,
    QStyle,
    QStyleOptionTab,
    QStyleOptionTabBarBase,
    QTabBar,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

MOST_ROWS = 2  # rows of titles at most; a narrower pane gets the one-row bar back


class TabPages(QTabWidget):
    """The pages of :class:`RowTabs`: a tab widget without its bar, telling the rows of every tab that changes."""

    def __init__(self, rows: TabRows, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = rows
        self.tabBar().hide()
        self.setElideMode(Qt.TextElideMode.ElideRight)  # for when the rows fold back into the bar
        self.currentChanged.connect(lambda _index: rows.changed())

    def tabInserted(self, index: int) -> None:  # noqa: N802 - Qt's name
        super().tabInserted(index)
        self.rows.changed()

    def tabRemoved(self, index: int) -> None:  # noqa: N802 - Qt's name
        super().tabRemoved(index)
        self.rows.changed()

    def setTabVisible(self, index: int, visible: bool) -> None:  # noqa: N802 - Qt's name
        super().setTabVisible(index, visible)
        self.rows.changed()

    def setTabText(self, index: int, text: str) -> None:  # noqa: N802 - Qt's name
        super().setTabText(index, text)
        self.rows.changed()


class TabRows(QWidget):
    """The tabs' titles, each whole, in as many rows as the width needs; a click or an arrow key picks a page."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pages: QTabWidget | None = None
        self._sizes: dict[int, QSize] = {}  # visible tab → its size, as a tab bar sizes it
        # A title's size, measured once for the font and style it has: the results' 29 tabs come one by one, and each
        # came measuring them all again (88 passes, 10 to 18 ms of the window's first frame).
        self._measured: dict[str, QSize] = {}
        self._rects: dict[int, QRect] = {}  # laid out at the current width
        self._height = 0  # of the rows at the current width
        # Its height follows its width through resizeEvent, not height-for-width: a height-for-width child makes
        # every layout above it one, up to the window, whose smallest size then follows the pages' preferred
        # height (the window could not be made 800×500 any more).
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    # -- what is shown ----------------------------------------------------------------------------
    def changed(self) -> None:
        """A tab came, went, was hidden, renamed or chosen: measure again, lay out at the next paint."""
        pages = self.pages
        self._sizes = {}
        if pages is not None:
            measured: dict[str, QSize] = {}  # the titles there are now (a renamed tab's old title goes)
            for i in range(pages.count()):
                text = pages.tabText(i)
                size = measured.get(text) or self._measured.get(text)
                if size is None and pages.isTabVisible(i):
                    size = self._tab_size(text)
                if size is not None:
                    measured[text] = size
                    if pages.isTabVisible(i):
                        self._sizes[i] = size
            self._measured = measured
        self._relayout()
        self.update()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):  # the titles measure otherwise now
            self._measured = {}
            self.changed()

    def _option(self, index: int, text: str) -> QStyleOptionTab:
        opt = QStyleOptionTab()
        opt.initFrom(self)
        opt.text = text
        opt.shape = QTabBar.Shape.RoundedNorth
        opt.documentMode = True
        if self.pages is not None and index == self.pages.currentIndex():
            opt.state |= QStyle.StateFlag.State_Selected
        return opt

    def _tab_size(self, text: str) -> QSize:
        """As QTabBar sizes a tab: its text's width and height, the style's spacing round it."""
        style, opt = self.style(), self._option(-1, text)
        h_space = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, opt, self)
        v_space = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabVSpace, opt, self)
        fm = self.fontMetrics()
        text_size = fm.size(Qt.TextFlag.TextShowMnemonic, text)
        size = QSize(text_size.width() + h_space, max(text_size.height(), fm.height()) + v_space)
        return style.sizeFromContents(QStyle.ContentsType.CT_TabBarTab, opt, size, self)

    def _flow(self, width: int) -> dict[int, QRect]:
        """Each visible tab's place at ``width``: left to right, a new row when the next would not fit whole."""
        rects: dict[int, QRect] = {}
        x = y = row_height = 0
        for index, size in self._sizes.items():
            if x > 0 and x + size.width() > width:
                x, y, row_height = 0, y + row_height, 0
            rects[index] = QRect(QPoint(x, y), size)
            x += size.width()
            row_height = max(row_height, size.height())
        return rects

    def tab_rects(self) -> dict[int, QRect]:
        """Where each visible tab is drawn (its index in ``pages`` → its rectangle)."""
        return dict(self._rects)

    # -- size -------------------------------------------------------------------------------------
    def _rows_height(self) -> int:
        return max((r.bottom() + 1 for r in self._rects.values()), default=0)

    def _relayout(self) -> None:
        """The tabs flowed at the current width; the height of their rows asked of the layout when it changed.

        Beyond ``MOST_ROWS`` rows (a pane narrower than any supported window gives it) the rows would take the
        chart's height: the pages' own one-row bar comes back instead, its titles shortened ("…", the whole
        title in the tooltip)."""
        rects = self._flow(self.width())
        folded = len({r.top() for r in rects.values()}) > MOST_ROWS
        self._rects = {} if folded else rects
        if self.pages is not None and self.pages.tabBar().isHidden() == folded:
            self.pages.tabBar().setVisible(folded)
        if self._rows_height() != self._height:
            self._height = self._rows_height()
            self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(sum(s.width() for s in self._sizes.values()), self._height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(max((s.width() for s in self._sizes.values()), default=0), self._height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._relayout()

    # -- drawing and picking ----------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        if self.pages is None:
            return
        painter = QPainter(self)
        style = self.style()
        base = QStyleOptionTabBarBase()
        base.initFrom(self)
        base.shape = QTabBar.Shape.RoundedNorth
        base.documentMode = True
        for rect in self._rects.values():
            if rect.left() == 0:  # each row's base line, under its tabs
                base.rect = QRect(0, rect.top(), self.width(), rect.height())
                style.drawPrimitive(QStyle.PrimitiveElement.PE_FrameTabBarBase, base, painter, self)
        for index, rect in self._rects.items():
            opt = self._option(index, self.pages.tabText(index))
            opt.rect = rect
            style.drawControl(QStyle.ControlElement.CE_TabBarTab, opt, painter, self)
        painter.end()

    def tab_at(self, pos: QPoint) -> int:
        return next((i for i, r in self._rects.items() if r.contains(pos)), -1)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        index = self.tab_at(event.position().toPoint())
        if index >= 0 and self.pages is not None and event.button() == Qt.MouseButton.LeftButton:
            self.pages.setCurrentIndex(index)
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(event.key()), 0)
        shown = list(self._sizes)
        if step and self.pages is not None and self.pages.currentIndex() in shown:
            at = shown.index(self.pages.currentIndex()) + step
            if 0 <= at < len(shown):
                self.pages.setCurrentIndex(shown[at])
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip and self.pages is not None:
            index = self.tab_at(event.pos())
            tip = self.pages.tabToolTip(index) if index >= 0 else ""
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)


class RowTabs(QWidget):
    """Tabs in rows over their pages: put this in a layout, use ``pages`` as the tab widget."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = TabRows()
        self.pages = TabPages(self.rows)
        self.rows.pages = self.pages
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.rows)
        box.addWidget(self.pages, 1)
