"""A table header whose sections can show their title on two lines ("New time" over "(ms)"), or a short title
("S" for "Speedup S") with the whole one in its tooltip."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QEvent, QItemSelection, QRect, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent, QPainter
from PySide6.QtWidgets import QHeaderView, QStyle, QStyleOptionHeader, QToolTip, QWidget

SHORT_TITLE_ROLE = Qt.ItemDataRole.UserRole + 20  # a section's short title ("S"), asked of the model's headerData


def header_lines(title: str) -> list[str]:
    """A title's two lines, its unit on the second: "New time (ms)" → "New time", "(ms)"; one line without a unit."""
    name, paren, unit = title.partition(" (")
    return [name, paren.strip() + unit] if paren else [title]


def fitting_level(widths: Iterable[tuple[int, int, int]], rooms: Sequence[int]) -> int:
    """How number columns share a table's width, in turn: 0, their titles on one line; 1, their units on a second
    line; 2, their short titles. The first level whose columns' widths add up to no more than its room in
    ``rooms`` (the room at one line, at two lines); short titles where neither does."""
    shown = list(widths)
    return next((lv for lv in (0, 1) if sum(ws[lv] for ws in shown) <= rooms[lv]), 2)


class WrappingHeader(QHeaderView):
    """A horizontal header; the sections in ``two_lines`` draw their title with the unit on a second line, so
    a column can be as narrow as its numbers without cutting its header ("ew time (ms)" said nothing)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.two_lines: set[int] = set()
        self.short: set[int] = set()  # sections drawn with their short title (on two lines when it has a unit)
        self._widths: dict[tuple[str, str], tuple[int, int, int]] = {}
        self._painted: dict[int, tuple[bool, bool]] = {}  # section → its highlight when last painted
        # As a table view's own header: clickable, the current cell's column in bold.
        self.setSectionsClickable(True)
        self.setHighlightSections(True)

    def set_two_lines(self, sections: set[int]) -> None:
        if sections != self.two_lines:
            self.two_lines = set(sections)
            lines = 2 if sections else 1
            self.setFixedHeight(QFontMetrics(self.font()).lineSpacing() * lines + 10) if sections else None
            if not sections:
                self.setMinimumHeight(0)
                self.setMaximumHeight(16777215)
            self.viewport().update()

    def set_short(self, sections: set[int]) -> None:
        """Draw ``sections`` with their short title (the model's :data:`SHORT_TITLE_ROLE`), the whole one as tooltip."""
        if sections != self.short:
            self.short = set(sections)
            self.viewport().update()

    def title(self, section: int, short: bool = False) -> str:
        """The section's title as the model gives it; ``short``: its short title (the title when it has none)."""
        model = self.model()
        if model is None:
            return ""
        whole = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
        return str(model.headerData(section, Qt.Orientation.Horizontal, SHORT_TITLE_ROLE) or whole) if short else whole

    def number_widths(self, section: int, content: int, pad: int) -> tuple[int, int, int]:
        """A number column's widths with its title on one line, on two lines and short: each at least as wide as its
        widest value (``content``) and the least section size; ``pad`` is room beside the title's own margins."""
        one, two, short = (w + pad for w in self.widths(section))
        least = self.minimumSectionSize()
        return max(one, content, least), max(two, content, least), max(min(short, two), content, least)

    def take_level(self, widths: dict[int, tuple[int, int, int]], level: int, also_short: Iterable[int] = ()) -> None:
        """Give the number columns in ``widths`` their width and title at ``level`` (:func:`fitting_level`); with
        short titles, the sections in ``also_short`` take theirs too ("Name" for a names column's longer title)."""
        for section, ws in widths.items():
            if self.sectionSize(section) != ws[level]:
                self.resizeSection(section, ws[level])
        self.set_two_lines(set(widths) if level else set())
        self.set_short({*also_short, *widths} if level == 2 else set())

    def shown_title(self, section: int) -> list[str]:
        """The lines the section shows now."""
        if section in self.short:
            return header_lines(self.title(section, short=True))
        title = self.title(section)
        return header_lines(title) if section in self.two_lines else [title]

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """A short title's tooltip starts with the whole title."""
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            section = self.logicalIndexAt(event.pos())
            model = self.model()
            if section in self.short and model is not None:
                tip = str(model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) or "")
                QToolTip.showText(event.globalPos(), f"{self.title(section)}: {tip}" if tip else self.title(section))
                return True
        return super().viewportEvent(event)

    def widths(self, section: int) -> tuple[int, int, int]:
        """The widths the section's title needs on one line, on two, and short (on two lines when it has a unit),
        margins included (remembered per title: the tables fit their columns after every edit)."""
        title, short = self.title(section), self.title(section, short=True)
        cached = self._widths.get((title, short))
        if cached is None:
            fm = QFontMetrics(self.font())
            whole = self.sectionSizeFromContents(section).width()
            margins = whole - fm.horizontalAdvance(title)
            lines, shortest = (margins + max(map(fm.horizontalAdvance, header_lines(t))) for t in (title, short))
            cached = self._widths[(title, short)] = (whole, lines, shortest)
        return cached

    def _highlight(self, section: int) -> tuple[bool, bool]:
        """What of the selection a section shows: whether it crosses the column, whether it holds all of it."""
        selection, root = self.selectionModel(), self.rootIndex()
        if selection is None or not self.highlightSections():
            return False, False
        return selection.columnIntersectsSelection(section, root), selection.isColumnSelected(section, root)

    def selectionChanged(self, selected: QItemSelection, deselected: QItemSelection) -> None:  # noqa: N802 - Qt's name
        """Repaint the sections whose highlight changes. Qt repaints every section a changed range crosses: in a
        table that selects whole rows every click (and every tick, which selects its row) repainted the whole
        header, every section as highlighted as before."""
        for section in range(self.count()):
            if self._painted.get(section) != self._highlight(section):
                self.updateSection(section)

    def paintSection(self, painter: QPainter, rect: QRect, section: int) -> None:
        self._painted[section] = self._highlight(section)  # what the section shows, for the next selection change
        if section not in self.two_lines and section not in self.short:
            super().paintSection(painter, rect, section)
            return
        option = QStyleOptionHeader()
        self.initStyleOptionForIndex(option, section)
        option.rect = rect
        option.text = "\n".join(self.shown_title(section))
        option.textAlignment = Qt.AlignmentFlag.AlignCenter
        painter.save()
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)
        painter.restore()
