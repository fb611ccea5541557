"""How the components table shares its width: names stretch; numbers fit their header and widest value."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView

from ..core.wrapping_header import WrappingHeader, fitting_level
from .component_delegates import CELL_PADDING
from .component_table import (
    GROUP,
    NAME,
    NEW_TIME,
    NOTES,
    OBJECTIVES,
    PATH_COLUMNS,
    RANGE_COLUMNS,
    SCALING,
    SHARE,
    TIME,
    ComponentTableModel,
)

HEADER_PAD = 8  # room to spare beside a header's own margins (a bold or styled header is wider)
NUMBERS = (TIME, SHARE, NEW_TIME, *PATH_COLUMNS, *RANGE_COLUMNS)  # never elided: a cut number is a different number
# Widest a text column grows to fit its content before it elides (names stretch instead).
TEXT_CAP = {SCALING: 200, GROUP: 140, OBJECTIVES: 180, NOTES: 260}
NAME_CAP = 320
NAME_COMFORT = 180  # names this wide are read easily: Scaling and Group elide for names narrower than this


class ComponentColumns:
    """The column widths of one components view, fitted to its content and shared out as the view resizes."""

    def __init__(self, view: QTableView, model: ComponentTableModel, header: WrappingHeader) -> None:
        self.view, self.model, self.header = view, model, header
        self._wanted: dict[int, int] = {}
        self._number_widths: dict[int, tuple[int, int, int]] = {}  # one-line, two-line, short title

    def fit(self) -> None:
        """Every column but the names as wide as its header and content; names take the rest and elide."""
        fm = self.view.fontMetrics()
        model = self.model
        header = self.view.horizontalHeader()
        sample = min(model.rowCount() - 1, 200)  # tables can be huge: the first rows say enough for text
        self._wanted = {}
        rows = range(sample)
        for col, cap in [*TEXT_CAP.items(), (NAME, NAME_CAP)]:
            # Each text the rows show measured once (Scaling shows three words in 200 rows), read from the model's
            # components rather than cell by cell through Qt's index and data().
            widest = max(
                [header.sectionSizeFromContents(col).width()]
                + [min(fm.horizontalAdvance(text) + 2 * CELL_PADDING, cap) for text in model.texts(col, rows)]
            )
            self._wanted[col] = widest
            if col != NAME:
                self.view.setColumnWidth(col, widest)
        self.fit_numbers()
        self.share_room()

    def share_room(self) -> None:
        """Room for the names, given up in turn: Notes, then Objectives shrink (down to their header); then the
        number columns' headers go onto two lines ("New time" over "(ms)") and the columns narrow to their
        numbers; then Scaling and Group shrink to their header (their values elide, whole in a tooltip); then,
        where the names would still be narrower than their header, the numbers take their short titles ("Path"
        for "On path", the whole title in the tooltip): every column stays in view, none scrolls off."""
        wanted = self._wanted
        numbers = self._number_widths
        if not wanted or not numbers:
            return
        header = self.view.horizontalHeader()
        shown = [c for c in range(self.model.columnCount()) if not self.view.isColumnHidden(c)]
        texts = [c for c in (NOTES, OBJECTIVES, SCALING, GROUP) if c in shown]  # the order they give way in
        floors = {c: header.sectionSizeFromContents(c).width() for c in texts}
        rest = sum(self.view.columnWidth(c) for c in shown if c != NAME and c not in numbers and c not in texts)
        room = self.view.viewport().width() - rest - wanted[NAME]
        least = sum(floors[c] if c in (NOTES, OBJECTIVES) else wanted[c] for c in texts)
        # one line while the names keep their width beside Scaling and Group; two lines while the names keep
        # their header's width beside every text column at its header's
        names_floor = header.sectionSizeFromContents(NAME).width()
        rooms = (room - least, room + wanted[NAME] - names_floor - sum(floors.values()))
        level = fitting_level(numbers.values(), rooms)
        self.header.take_level(numbers, level, also_short={NAME})  # "Name" for "Component"
        room -= sum(self.view.columnWidth(c) for c in numbers)
        yielding = [c for c in texts if level or c in (NOTES, OBJECTIVES)]
        widths = {c: wanted[c] for c in texts}
        for c in yielding:  # each shrinks only as far as the names need
            # Scaling and Group (short words a person reads at a glance) give way only for names shorter
            # than NAME_COMFORT; Notes and Objectives for the whole name.
            spare = 0 if c in (NOTES, OBJECTIVES) else max(0, wanted[NAME] - NAME_COMFORT)
            excess = sum(widths.values()) - room - spare
            if excess > 0:
                widths[c] = max(floors[c], widths[c] - excess)
        for c, width in widths.items():
            if self.view.columnWidth(c) != width:
                self.view.setColumnWidth(c, width)

    def fit_numbers(self) -> None:
        """Number columns as wide as their header (units included) and their widest number: never cut a digit.

        Each also has a narrower width, its header on two lines ("New time" over "(ms)"), and a narrowest with its
        short title, which :meth:`share_room` takes in turn when the names would otherwise be cut.
        """
        fm = self.view.fontMetrics()
        model = self.model
        rows = self._widest_rows()
        widths: dict[int, tuple[int, int, int]] = {}
        for col in (c for c in NUMBERS if not self.view.isColumnHidden(c)):
            digits = max((fm.horizontalAdvance(t) for t in model.texts(col, rows) if t), default=0) + 2 * CELL_PADDING
            widths[col] = self.header.number_widths(col, digits, HEADER_PAD)
        if widths != self._number_widths:  # else the columns are as they should be
            self._number_widths = widths
            self.share_room()

    def _widest_rows(self) -> list[int]:
        """The rows with the longest numbers: the largest and smallest times before and after (the longest
        times and the smallest shares), and the first rows as a sample."""
        n = len(self.model.components)
        rows = set(range(min(n, 12)))
        analysis = self.model.doc.analysis
        if analysis is not None and n:
            for values in (analysis.times, analysis.new_times):
                rows.update((int(values.argmax()), int(values.argmin())))
        return sorted(r for r in rows if r < n)
