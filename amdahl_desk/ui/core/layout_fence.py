"""Holders that keep a widget's layout requests from laying out everything above it.

Qt passes every ``updateGeometry`` up to the window: a label whose text changes (the total under the
table, a chart's title) makes each layout above it run again, and a ``QTabWidget`` on the way repaints
all of itself when its layout runs, whether or not anything moved. At every edit that repainted the
whole of the window's left half. A page held by a ``LayoutFence`` still lays itself out; its tab
widget hears of it only when the page wants another size. A label of fixed height held by a
``FixedHeightHolder`` lays out nothing when its text changes.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

Hints = tuple[QSize, QSize, QSize, QSize, QSizePolicy, bool]


class LayoutFence(QWidget):
    """Holds ``content`` (filling it) and takes its size hints, policy and limits as its own."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content = content
        content.setParent(self)
        self._hints = self._follow()

    def _follow(self) -> Hints:
        """Take the content's limits and policy as this holder's; return what its parents lay out by."""
        content = self.content
        self.setMinimumSize(content.minimumSize())
        self.setMaximumSize(content.maximumSize())
        self.setSizePolicy(content.sizePolicy())
        return (
            content.sizeHint(),
            content.minimumSizeHint(),
            content.minimumSize(),
            content.maximumSize(),
            content.sizePolicy(),
            content.hasHeightForWidth(),
        )

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.content.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.content.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return self.content.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.content.heightForWidth(width)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.content.setGeometry(self.rect())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            hints = self._follow()
            if hints != self._hints:
                self._hints = hints
                self.updateGeometry()  # it wants another size: the layouts above run again
            if self.content.geometry() != self.rect():
                self.content.setGeometry(self.rect())
            return True
        return super().event(event)


class LazyFence(LayoutFence):
    """A page whose content is made the first time the page is shown or the content asked for, so that a tab's
    panel, and the modules it imports, load when the tab is first chosen rather than with the window.

    ``made(content)`` is called once, after the content has taken the page's place.
    """

    def __init__(
        self, make: Callable[[], QWidget], made: Callable[[QWidget], None] | None = None, parent: QWidget | None = None
    ) -> None:
        self._make: Callable[[], QWidget] | None = make
        self._made = made
        super().__init__(QWidget(), parent)

    def built(self) -> QWidget:
        """The content, made now if it was not yet."""
        if self._make is not None:
            make, self._make = self._make, None
            placeholder, self.content = self.content, make()
            self.content.setParent(self)
            self.content.setGeometry(self.rect())
            if self.isVisible():  # else it shows with the page (hiding it here would keep it hidden then)
                self.content.show()
            placeholder.deleteLater()
            self._hints = self._follow()
            self.updateGeometry()
            if self._made is not None:
                self._made(self.content)
        return self.content

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        self.built()
        super().showEvent(event)


class FixedHeightHolder(QWidget):
    """Holds a label of fixed height, filling it, outside any layout: a new text repaints the label and lays
    out nothing. In a layout, each new text laid out the layouts above it, and a wrapping label's height
    for its width was measured again though its height is fixed (a chart's title, the summary's
    sentence: about 1.5 ms of every change). Takes the label's height and size policy."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self.setFixedHeight(label.minimumHeight())
        self.setSizePolicy(label.sizePolicy())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.label.setGeometry(self.rect())
