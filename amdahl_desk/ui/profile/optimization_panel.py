"""The optimization checklist: a table of what-ifs, a target picker, and a k slider for live exploration."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import (
    QEvent,
    QObject,
    QSignalBlocker,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ...model.profile import Optimization
from ...present.cells import k_step_text, speedup_cell
from ...present.trace_plan import trace_based
from ..core.cell_message import CellMessage
from ..core.change import Change
from ..core.locale_text import locale_numbers
from ..core.wrapping_header import WrappingHeader, fitting_level
from .checklist_editors import OptimizationsView, SpeedupDelegate, TargetsDelegate
from .checklist_estimates import EstimateColumns
from .component_columns import HEADER_PAD
from .component_delegates import CELL_PADDING, ElidedTipDelegate
from .optimization_table import (
    CEILING,
    CONFIDENCE,
    EFFORT,
    K_HIGH,
    K_LOW,
    NAME,
    SAVES,
    SHARE,
    SPEEDUP,
    TARGETS,
    TRACE_CEILING,
    TRACE_FIGURES,
    TRACE_SPEEDUP,
    K,
    OptimizationTableModel,
)
from .optimization_table import ESTIMATES as ESTIMATE_COLUMNS

NUMBER_COLUMNS = (K, SHARE, SPEEDUP, CEILING, SAVES, *TRACE_FIGURES, *ESTIMATE_COLUMNS)


SLIDER_STEPS = 1000
K_MIN, K_MAX = 0.1, 1000.0


def k_to_slider(k: float) -> int:
    k = min(max(k, K_MIN), K_MAX)
    return round((math.log10(k) - math.log10(K_MIN)) / (math.log10(K_MAX) - math.log10(K_MIN)) * SLIDER_STEPS)


def slider_to_k(pos: int) -> float:
    exponent = math.log10(K_MIN) + pos / SLIDER_STEPS * (math.log10(K_MAX) - math.log10(K_MIN))
    k = 10**exponent
    # Snap to two significant digits so dragging lands on readable values (2, 2.5, 40, 150).
    digits = 1 - math.floor(math.log10(k))
    return float(round(k, digits))


class OptimizationPanel(QWidget):
    """The checklist, its buttons, and the live k control for the selected optimization."""

    selectedChanged = Signal(int)  # row, -1 for none
    columnsChanged = Signal()  # columns came or went (the estimates, a trace's figures): the window may widen

    def __init__(self, model: OptimizationTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.selected_components: Callable[[], list[str]] = list  # the window tells which are selected
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

        self.view = OptimizationsView(self)
        self.wrapping_header = WrappingHeader(self.view)
        self.view.setHorizontalHeader(self.wrapping_header)
        self.view.setModel(model)
        self.view.viewport().installEventFilter(self)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.view.verticalHeader().setVisible(False)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.view.setItemDelegate(
            ElidedTipDelegate(self.view, (K_LOW, K_HIGH, EFFORT, CONFIDENCE))
        )  # numbers typed as text
        self.view.setItemDelegateForColumn(TARGETS, TargetsDelegate(model.doc, self))
        self.view.setItemDelegateForColumn(K, SpeedupDelegate(self.view))
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        # Names and targets share the room there is (and elide, with the whole text on hover); numbers fit
        # their header, units included, and their widest value.
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(TARGETS, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        self.view.setMinimumWidth(300)
        # column → its width with a one-line header, a two-line one, a short title
        self._number_widths: dict[int, tuple[int, int, int]] = {}
        # A checklist too narrow for every column: the figures beside the answer fold away (which columns, and the
        # width they need at their short titles, to come back when there is room).
        self._folded: tuple[int, ...] = ()
        self._folded_width = 0
        # The figures with the trace's dependencies: a column each for a trace-based profile only.
        for col in TRACE_FIGURES:
            self.view.setColumnHidden(col, True)
        # For a trace-based profile the S and ceiling with the trace's dependencies are the answer: they come
        # first, the sum's beside them.
        header.moveSection(header.visualIndex(TRACE_SPEEDUP), header.visualIndex(SPEEDUP))
        header.moveSection(header.visualIndex(TRACE_CEILING), header.visualIndex(TRACE_SPEEDUP) + 1)
        model.doc.changed.connect(self._show_trace_columns)
        self.fit_columns()
        # Once per change, after the table has its new values: a k step emits dataChanged more than once.
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self.fit_columns)
        model.dataChanged.connect(lambda *_: self._refit.start())
        model.modelReset.connect(self.fit_columns)
        model.rowsInserted.connect(lambda *_: self.fit_columns())
        model.headerDataChanged.connect(lambda *_: self.fit_columns())
        layout.addWidget(self.view)
        self.message = CellMessage(self.view.viewport(), area=self.view)
        model.editRejected.connect(self._show_rejection)
        # A refusal stays beside its cell until the row changes or the next change is accepted.
        model.dataChanged.connect(self._taken)
        self.view.verticalScrollBar().valueChanged.connect(lambda _v: self.message.hide())
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._selection_changed(cur.row()))
        model.modelReset.connect(lambda: self._selection_changed(self.view.currentIndex().row()))
        model.dataChanged.connect(lambda *_: self._sync_slider())

        controls = QHBoxLayout()
        # Short labels, so the row fits a narrow window; the tooltips say the rest.
        self.add_button = QPushButton("Optimize selected…", self)
        self.add_button.setToolTip(
            "Add an optimization that targets the components selected in the table (Ctrl+Shift+N)"
        )
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Remove the selected optimization")
        controls.addWidget(self.add_button)
        controls.addWidget(self.remove_button)
        # k low, k high, effort and confidence beside k: shown with estimates, offered always by a button.
        self.estimates = EstimateColumns(self.view, model, self, self._columns_came_or_went)
        controls.addWidget(self.estimates.button)
        controls.addStretch(1)
        self.k_label = QLabel("k", self)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setToolTip(
            f"Drag to explore the local speedup k of the selected optimization "
            f"({speedup_cell(K_MIN, locale_numbers())} to {speedup_cell(K_MAX, locale_numbers())}, logarithmic)"
        )
        self.slider.setMinimumWidth(60)
        self.k_spin = QDoubleSpinBox(self)
        self.k_spin.setRange(0.001, 1e6)
        self.k_spin.setDecimals(2)
        self.k_spin.setSuffix("×")
        self.k_spin.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)
        self.k_spin.setKeyboardTracking(False)
        controls.addWidget(self.k_label)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.k_spin)
        layout.addLayout(controls)
        # A drag is one undo step: sealed when it starts and when it ends, so the next drag is a step of its own.
        self.slider.sliderPressed.connect(self._new_drag)
        self.slider.sliderReleased.connect(self._new_drag)
        model.checkToggled.connect(self.select_row)
        self.slider.valueChanged.connect(lambda pos: self._set_k(slider_to_k(pos)))
        self.k_spin.valueChanged.connect(lambda k: self._set_k(k, typed=True))
        self.add_button.clicked.connect(self.add_for_selection)
        self.remove_button.clicked.connect(self.remove_selected)

        self.add_action = QAction("&Optimize Selected Components…", self)
        self.add_action.setShortcut(QKeySequence("Ctrl+Shift+N"))
        self.add_action.triggered.connect(self.add_for_selection)
        self.remove_action = QAction("&Remove Optimization", self)
        self.remove_action.triggered.connect(self.remove_selected)
        self._selection_changed(-1)

    def fit_columns(self) -> None:
        """Number columns as wide as their header and their widest value: a cut number is a different number.

        Each also has a narrower width with its header on two lines ("Saves" over "(ms)"), and a narrowest with
        its short title ("S", "Conf."; the whole title in its tooltip), taken in turn while the names and targets
        would be narrower than their own headers: every column stays in view, none scrolls off to the right.
        """
        fm = self.view.fontMetrics()
        widths: dict[int, tuple[int, int, int]] = {}
        for col in (c for c in NUMBER_COLUMNS if not self.view.isColumnHidden(c)):
            texts = set(self.model.column_texts(col)[:500])
            digits = max((fm.horizontalAdvance(t) for t in texts if t), default=0) + 2 * CELL_PADDING
            widths[col] = self.wrapping_header.number_widths(col, digits, HEADER_PAD)
        if widths != self._number_widths:  # else the columns are as they should be
            self._number_widths = widths
            self._share_room()

    def _columns_came_or_went(self) -> None:
        self.fit_columns()
        self._share_room()
        self.columnsChanged.emit()

    def _share_room(self) -> None:
        numbers = self._number_widths
        if not numbers:
            return
        header = self.view.horizontalHeader()
        # The names and the targets at least as wide as their headers and as the first word of each with an
        # ellipsis ("Autoregressive…"): a name is read, not guessed from "Auto…".
        fm = self.view.fontMetrics()

        def least(col: int) -> int:
            # each resize of the view asks again: the texts read from the optimizations, not cell by cell through Qt
            shown = self.model.label_texts(col, 500)
            words = {t.split()[0] for t in shown if t.split()}
            first = max((fm.horizontalAdvance(w + "…") for w in words), default=0)
            return max(header.sectionSizeFromContents(col).width(), first) + 2 * CELL_PADDING

        texts = least(NAME) + least(TARGETS)
        others = sum(self.view.columnWidth(c) for c in range(self.model.columnCount()) if c not in numbers)
        others -= sum(self.view.columnWidth(c) for c in (NAME, TARGETS))
        room = self.view.viewport().width() - others - texts
        shown = {c: ws for c, ws in numbers.items() if not self.view.isColumnHidden(c)}
        if self._fold_beside(shown, room):
            return  # the columns changed: fitted and shared again
        level = fitting_level(shown.values(), (room, room))
        self.wrapping_header.take_level(numbers, level, also_short={NAME})  # "Name" for "Optimization"

    def _beside(self) -> tuple[int, ...]:
        """The columns beside the answer: a job's own rank's S and ceiling (the job's are the answer), a traced
        profile's sum's S and ceiling (the dependencies' are; each of their tooltips says the sum's too)."""
        doc = self.model.doc
        if doc.job.figures is not None:
            return TRACE_FIGURES
        return (SPEEDUP, CEILING) if trace_based(doc.trace.figures) else ()

    def _fold_beside(self, shown: dict[int, tuple[int, int, int]], room: int) -> bool:
        """A checklist with more columns than room for each name's first word, every number at its short title
        (k's range, effort and confidence shown at 1280×720, a trace's or a job's figures too): the columns beside
        the answer fold away (the summary states what they say). They come back when there is room, or when the
        profile no longer has them. Whether the columns changed."""
        short = sum(ws[2] for ws in shown.values())
        beside = self._beside()
        if not self._folded:
            if not beside or not all(c in shown for c in beside) or short <= room:
                return False
            self._folded, self._folded_width = beside, sum(shown[c][2] for c in beside)
            hidden = True
        elif self._folded == beside and short + self._folded_width > room:
            return False
        else:
            hidden = False
        for col in self._folded:
            self.view.setColumnHidden(col, hidden)
        if not hidden:
            self._folded, self._folded_width = (), 0
            self._show_trace_columns(None)  # a job's rank columns come back only where the profile has them
        self._columns_came_or_went()
        return True

    def _show_trace_columns(self, _change: Change | None) -> None:
        doc = self.model.doc
        if self._folded and self._folded != self._beside():  # another profile: what was folded is not beside now
            for col in self._folded:
                self.view.setColumnHidden(col, False)
            self._folded, self._folded_width = (), 0
        shown = trace_based(doc.trace.figures) or doc.job.figures is not None  # a job's: its own rank's figures
        shown = shown and self._folded != TRACE_FIGURES
        if self.view.isColumnHidden(TRACE_FIGURES[0]) == shown:
            for col in TRACE_FIGURES:
                self.view.setColumnHidden(col, not shown)
            # the sum's S and ceiling are then what the sum promises, and Saves is with the dependencies: say so
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, SPEEDUP, SAVES)
            self.fit_columns()
            self.columnsChanged.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._share_room()
        return super().eventFilter(watched, event)

    # -- selection and the k control ---------------------------------------
    def current_row(self) -> int:
        row = self.view.currentIndex().row()
        return row if 0 <= row < self.model.rowCount() else -1

    def _selection_changed(self, row: int) -> None:
        self.message.hide()
        has = 0 <= row < self.model.rowCount()
        for w in (self.slider, self.k_spin, self.remove_button, self.k_label):
            w.setEnabled(has)
        self._new_drag()
        self._sync_slider()
        self.selectedChanged.emit(row if has else -1)

    def _sync_slider(self) -> None:
        row = self.current_row()
        if row < 0:
            return
        k = self.model.optimizations[row].speedup
        with QSignalBlocker(self.slider), QSignalBlocker(self.k_spin):
            self.slider.setValue(k_to_slider(k))
            self.k_spin.setValue(k)
        self.k_label.setText("k:")
        self.k_label.setToolTip(f"Local speedup k of {self.model.optimizations[row].name}")

    def _new_drag(self) -> None:
        self.model.doc.seal()

    def _set_k(self, k: float, typed: bool = False) -> None:
        row = self.current_row()
        if row < 0 or k <= 0:
            return
        opt = self.model.optimizations[row]
        key = None if typed else ("k", row)
        self.model.replace_row(row, opt.with_speedup(k), k_step_text(opt.name, k, locale_numbers()), key)

    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(row, NAME))

    # -- adding and removing -----------------------------------------------
    def add_for_selection(self) -> None:
        targets = [t for t in self.selected_components() if t]
        doc = self.model.doc
        if not targets:
            comps = doc.profile.components
            if not comps:
                QToolTip.showText(
                    self.add_button.mapToGlobal(self.add_button.rect().bottomLeft()),
                    "Add components first: an optimization speeds up components",
                    self.add_button,
                )
                return
            # Nothing selected: propose the biggest component, the usual first candidate.
            targets = [max(comps, key=lambda c: c.time).name]
        names = {o.name.casefold() for o in doc.profile.optimizations}
        base = f"Faster {targets[0]}" if len(targets) == 1 else f"Faster {targets[0]} (+{len(targets) - 1})"
        name, n = base, 2
        while name.casefold() in names:
            name, n = f"{base} {n}", n + 1
        opts = list(doc.profile.optimizations) + [Optimization(name, tuple(targets), 2.0)]
        if self.model.set_all(opts, f"Add optimization {name}"):
            row = len(opts) - 1
            self.select_row(row)
            self.view.edit(self.model.index(row, NAME))

    def remove_selected(self) -> None:
        row = self.current_row()
        if row < 0:
            return
        opts = list(self.model.optimizations)
        removed = opts.pop(row)
        self.model.set_all(opts, f"Remove optimization {removed.name}")

    def _taken(self, *_: object) -> None:
        """A change of the checklist taken: a refusal's message, and its line on the status bar, are over."""
        self.message.hide()
        self.message.take_back_status()

    def _show_rejection(self, row: int, col: int, message: str) -> None:
        self.view.refused = True
        index = self.model.index(row, col)
        self.view.scrollTo(index)
        self.message.show_at(self.view.visualRect(index), message)
        self.last_rejection = message
        self.message.tell_status(f"Not accepted: {message}")
