"""The checklist's estimate columns beside k (k low | k | k high | Effort | Confidence): shown when the profile
has an estimate, offered always by the Ranges button (and View → Ranges and Effort Columns), pasted into like a
spreadsheet's cells."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QTableView, QToolButton, QWidget

from ...model.profile import Optimization
from ...model.values import ParseError, parse_speedup
from ..core.change import Change
from ..core.clipboard import from_tsv, to_tsv
from ..core.qt_util import locale_decimal
from ..core.state import Aspect
from .estimate_cells import parse_estimate
from .optimization_table import ESTIMATES, K_LOW, K, OptimizationTableModel

BUTTON = "Ranges"  # short: the checklist's row of controls fits a window 800 px wide
MENU_TEXT = "&Ranges and Effort Columns"
BUTTON_TIP = (
    "Show k low, k high, Effort (days) and Confidence beside k (View → Ranges and Effort Columns): give an "
    "optimization a range and an effort, and the summary says how likely the target is and which plan gets there "
    "cheapest"
)
PASTED = (K, *ESTIMATES)  # the cells a paste fills: numbers typed in a spreadsheet


def has_estimates(opts: list[Optimization]) -> bool:
    """Whether some optimization has a k range, an effort or a confidence below 100%."""
    return any(
        o.speedup_low is not None or o.speedup_high is not None or o.effort is not None or o.confidence != 1.0
        for o in opts
    )


class EstimateColumns(QObject):
    """Which of the estimate columns show, their place beside k, and the checklist's paste and copy."""

    def __init__(
        self, view: QTableView, model: OptimizationTableModel, parent: QWidget, relayout: Callable[[], None]
    ) -> None:
        """``relayout``: the checklist shares its width out again (columns came or went)."""
        super().__init__(parent)
        self.view, self.model, self.relayout = view, model, relayout
        header = view.horizontalHeader()
        # Read as a three-point estimate: k low, k (the likely one), k high, then what it costs and its odds.
        header.moveSection(header.visualIndex(K_LOW), header.visualIndex(K))
        for before, col in zip((K, *ESTIMATES[1:]), ESTIMATES[1:], strict=False):
            header.moveSection(header.visualIndex(col), header.visualIndex(before) + 1)
        self.button = QToolButton(parent)
        self.button.setText(BUTTON)
        self.button.setCheckable(True)
        self.button.setToolTip(BUTTON_TIP)
        self.button.toggled.connect(self._shown)
        # The same choice in the View menu, kept in step with the button.
        self.toggle_action = QAction(MENU_TEXT, parent)
        self.toggle_action.setCheckable(True)
        self.toggle_action.setStatusTip(BUTTON_TIP)
        self.toggle_action.toggled.connect(self.button.setChecked)
        self.button.toggled.connect(self.toggle_action.setChecked)
        self.paste_action = self._action("&Paste", QKeySequence.StandardKey.Paste, self.paste)
        self.copy_action = self._action("&Copy", QKeySequence.StandardKey.Copy, self.copy)
        model.modelReset.connect(lambda: self.follow(reset=True))
        model.doc.changed.connect(self._changed)
        self.follow(reset=True)

    def _changed(self, change: Change) -> None:
        if change.reset:
            self.follow(reset=True)
        elif Aspect.OPTIMIZATIONS in change:
            self.follow()

    def _action(self, text: str, keys: QKeySequence.StandardKey, slot: object) -> QAction:
        act = QAction(text, self.view)
        act.setShortcut(keys)
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        act.triggered.connect(slot)
        self.view.addAction(act)
        return act

    @property
    def shown(self) -> bool:
        return self.button.isChecked()

    def follow(self, reset: bool = False) -> None:
        """A new profile shows the columns when it has estimates; an estimate that appears (typed elsewhere, an
        undo, a paste) shows them; the person's choice stands otherwise."""
        has = has_estimates(self.model.optimizations)
        if reset or (has and not self.shown):
            self.button.setChecked(has)
        self._shown(self.shown)

    def _shown(self, shown: bool) -> None:
        changed = False
        for col in ESTIMATES:
            if self.view.isColumnHidden(col) == shown:
                self.view.setColumnHidden(col, not shown)
                changed = True
        if changed:
            self.relayout()

    # -- clipboard -----------------------------------------------------------------------------------
    def _columns_from(self, col: int) -> list[int]:
        """The shown columns from ``col`` rightwards, in the order they are on screen."""
        header = self.view.horizontalHeader()
        start = header.visualIndex(col)
        found = [header.logicalIndex(v) for v in range(start, header.count())]
        return [c for c in found if not self.view.isColumnHidden(c)]

    def copy(self) -> None:
        """The current row's shown cells as tab-separated text (numbers as typed, for a spreadsheet)."""
        row = self.view.currentIndex().row()
        if row < 0:
            return
        model, header = self.model, self.view.horizontalHeader()
        cells = [
            str(model.data(model.index(row, c), Qt.ItemDataRole.EditRole) or "")
            for c in (header.logicalIndex(v) for v in range(header.count()))
            if not self.view.isColumnHidden(c)
        ]
        QGuiApplication.clipboard().setText(to_tsv([cells]))

    def paste(self) -> None:
        """Cells from a spreadsheet into k and the estimate columns, from the current cell rightwards and down, as
        one undo step; a value refused names its cell and changes nothing."""
        block = from_tsv(QGuiApplication.clipboard().text())
        current = self.view.currentIndex()
        if not block or not current.isValid():
            return
        opts = list(self.model.optimizations)
        columns = self._columns_from(current.column())
        decimal = locale_decimal()
        for r, cells in enumerate(block):
            row = current.row() + r
            if row >= len(opts):
                break
            given = [(columns[c], text) for c, text in enumerate(cells) if c < len(columns) and columns[c] in PASTED]
            given.sort(
                key=lambda cell: cell[0] != K
            )  # k first: a new k outside the old range drops it, not the new one
            for col, text in given:
                try:
                    if col == K:
                        opts[row] = opts[row].with_speedup(parse_speedup(text, decimal))
                    else:
                        opts[row] = parse_estimate(opts[row], col - K_LOW, text, decimal)[0]
                except ParseError as exc:
                    self.model.editRejected.emit(row, col, str(exc))
                    return
        if opts != self.model.optimizations:
            self.model.set_all(opts, "Paste into the checklist", row=current.row())
