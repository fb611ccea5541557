"""Above and under the answer: the objective picker, the compact objectives table, the load and cost sentences."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.objective_specs import objective_key
from ...present.details import details
from ...present.tones import TONE_COLOURS, Tone
from ..core.locale_text import locale_numbers
from ..core.state import Aspect
from ..core.style_sheets import MUTED_TEXT
from .choice import EXTRAS_DEPEND_ON, ObjectiveChoice

MET, MISSED = QColor(TONE_COLOURS[Tone.GOOD]), QColor(TONE_COLOURS[Tone.BAD])


class ObjectivePicker(QWidget):
    """ "Objective: [End to end ▾]" — hidden while the profile has End to end only."""

    def __init__(self, choice: ObjectiveChoice, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = choice
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 0)
        label = QLabel("&Objective:", self)
        self.combo = QComboBox(self)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.combo.setToolTip("The headline, the sentence and the charts follow the objective chosen here")
        label.setBuddy(self.combo)
        self.hint = QLabel(self)
        self.hint_text = ""  # the whole hint; the label shows it elided to its width
        self.hint.setStyleSheet(MUTED_TEXT)
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row.addWidget(label)
        row.addWidget(self.combo)
        row.addWidget(self.hint, 1)
        self.combo.activated.connect(lambda i: choice.choose(self.combo.itemText(i)))
        self.setVisible(False)
        choice.redraws.subscribe(EXTRAS_DEPEND_ON | {Aspect.OBJECTIVE}, self.refresh)

    def refresh(self) -> None:
        if self.choice.only_end_to_end():  # nothing to pick, and no objectives computed to say so
            self.setVisible(False)
            return
        outcomes = self.choice.outcomes
        names = [o.name for o in outcomes.objectives] if outcomes is not None else []
        shown = self.choice.objective()
        with QSignalBlocker(self.combo):
            if [self.combo.itemText(i) for i in range(self.combo.count())] != names:
                self.combo.clear()
                self.combo.addItems(names)
            if shown is not None:
                self.combo.setCurrentIndex(names.index(shown.name))
        self.setVisible(len(names) > 1)
        if shown is not None and len(names) > 1:  # hidden with End to end alone, which names every component
            comps = ", ".join(shown.components[:4]) + (" …" if len(shown.components) > 4 else "")
            self.hint_text = f"{len(shown.components)} of the components: {comps}"
            self.hint.setToolTip(", ".join(shown.components))
            self._elide_hint()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._elide_hint()

    def _elide_hint(self) -> None:
        """Cut the hint with "…" at the label's width, never mid-letter at the window's edge."""
        width = self.hint.width()
        metrics = self.hint.fontMetrics()
        self.hint.setText(metrics.elidedText(self.hint_text, Qt.TextElideMode.ElideRight, max(width, 0)))

    def select(self, name: str) -> None:
        """Choose ``name`` as a person would (keyboard or a test)."""
        keys = [objective_key(self.combo.itemText(i)) for i in range(self.combo.count())]
        index = keys.index(objective_key(name))
        self.combo.setCurrentIndex(index)
        self.combo.activated.emit(index)


class ObjectivesTable(QTableWidget):
    """One row per objective, one column per enabled optimization plus Combined; its verdict coloured."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(False)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().lineSpacing() + 6)

    def show_cells(self, cells: tuple[tuple[str, ...], ...], met: tuple[bool | None, ...]) -> None:
        head, body = cells[0], cells[1:]
        self.setColumnCount(len(head))
        self.setRowCount(len(body))
        self.setHorizontalHeaderLabels(head)
        for r, row in enumerate(body):
            for c, text in enumerate(row):
                item = self.item(r, c)
                if item is None:
                    item = QTableWidgetItem()
                    self.setItem(r, c, item)
                item.setText(text if c else text + ("  ✔" if met[r] else "  ✘" if met[r] is False else ""))
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                color = MET if met[r] else MISSED if met[r] is False else None
                item.setForeground(QBrush(color) if color is not None and c in (0, len(row) - 1) else QBrush())
                tip = {True: "target met by the plan", False: "target missed by the plan", None: "no target"}
                item.setToolTip(tip[met[r]])
        height = self.horizontalHeader().height() + sum(self.rowHeight(r) for r in range(len(body))) + 4
        self.setFixedHeight(height)


class OutcomesPanel(QWidget):
    """Under the summary: the objectives table (with more than one objective), the load and cost sentences."""

    def __init__(self, choice: ObjectiveChoice, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = choice
        # The table beside the sentences, not over them: the charts below keep their height.
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        row.setSpacing(10)
        layout = QVBoxLayout()
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.table = ObjectivesTable(self)
        row.addWidget(self.table, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(layout, 1)
        self.note = QLabel(self)  # a traced profile: which row is the step on the critical path, the sum beside
        self.load = QLabel(self)
        self.max_rate = QLabel(self)
        self.cost = QLabel(self)
        for label in (self.note, self.load, self.max_rate, self.cost):
            label.setWordWrap(True)  # the layout gives each the lines it needs at its width
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.cost.setStyleSheet("color: #444;")
        self.note.setStyleSheet("color: #444;")
        for w in (self.note, self.load, self.max_rate, self.cost):
            layout.addWidget(w)
            w.setVisible(False)
        self.table.setVisible(False)
        layout.addStretch(1)
        choice.redraws.subscribe(EXTRAS_DEPEND_ON, self.refresh)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # its minimum height follows its width: the layouts above must ask again

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As tall as its sentences are wrapped at its width now, not at the narrowest width a label allows (which
        made the answer scroll by a hundred pixels of nothing)."""
        hint = super().minimumSizeHint()
        if self.width() > 0 and self.hasHeightForWidth():
            hint.setHeight(min(hint.height(), self.heightForWidth(self.width())))
        return hint

    def refresh(self) -> None:
        if not self.choice.outcomes_shown():  # no other objective, no load, no price: nothing to show
            for w in (self.table, self.note, self.load, self.max_rate, self.cost):
                w.setVisible(False)
            return
        view = details(self.choice.doc.profile, self.choice.outcomes, locale_numbers(), self.choice.computing)
        self.table.setVisible(bool(view.cells))
        if view.cells:
            self.table.show_cells(view.cells, view.met)
        shown = ((self.note, view.note), (self.load, view.load), (self.max_rate, view.max_rate), (self.cost, view.cost))
        for label, text in shown:
            if label.text() != text:
                label.setText(text)
            label.setVisible(bool(text))
