"""Under the summary: the odds of the ticked plan, what would make the target likelier, and the cheapest plan
with its Apply plan button (one undo step that ticks exactly that set)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSizePolicy, QWidget

from ...model.errors import ProfileError
from ...model.profile import Settings
from ...model.values import ParseError, parse_confidence
from ...present.colours import PANEL
from ...present.decision import DecisionView, decision_view
from ...present.numbers import Numbers
from ...present.refusals import refusal_text
from ...present.setting_rows import confidence_examples
from ...present.summary import Tone
from ...present.tones import TONE_COLOURS
from ..core.document import Document
from ..core.field_undo import commits_when_finished, committed
from ..core.layout_fence import FixedHeightHolder
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.style_sheets import MUTED_TEXT, REFUSED_FIELD
from .summary_panel import fit_sentences, line_height, lines_needed, set_style

MOST_LINES = 4
# The plan is the decision: whole, in up to six lines beside its controls (the odds and what would make the target
# likelier take the panel's whole width, so together the three are no higher than before).
PLAN_LINES = 6
APPLY = "Apply plan"
APPLIED = "Plan ticked"


def confidence_tip(n: Numbers) -> str:
    return (
        "The plan confidence: the probability a plan must reach to count as meeting the target "
        f"({confidence_examples(n)}). The cheapest plan is the least effort that meets the target this often"
    )


class DecisionPanel(QFrame):
    """Draws a :class:`~amdahl_desk.present.decision.DecisionView` of the document; hidden when it says nothing."""

    applied = Signal()  # Apply plan ticked the cheapest plan

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setObjectName("decision")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#decision {{ background: {PANEL}; border-top: none; }}")
        grid = QGridLayout(self)
        grid.setContentsMargins(10, 2, 10, 6)
        grid.setVerticalSpacing(2)
        self.odds, self.likelier, self.plan = QLabel(self), QLabel(self), QLabel(self)
        self._labels = (self.odds, self.likelier, self.plan)
        self._lines = dict.fromkeys(self._labels, 1)
        self._texts = ("", "", "")
        self.holders: dict[QLabel, FixedHeightHolder] = {}
        self.captions: dict[QLabel, QLabel] = {}
        for row, (label, caption) in enumerate(zip(self._labels, ("Odds", "", "Plan"), strict=True)):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            label.setFixedHeight(line_height(self, 1))
            # Fixed heights outside any layout: a new sentence at every edit lays nothing out (see layout_fence).
            self.holders[label] = FixedHeightHolder(label, self)
            grid.addWidget(self.holders[label], row, 1, 1, 1 if label is self.plan else 2)  # controls beside the plan
            head = QLabel(caption, self)
            self.captions[label] = head  # shown with its sentence: a caption beside nothing said nothing
            head.setStyleSheet(f"{MUTED_TEXT} font-weight: bold;")
            head.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            grid.addWidget(head, row, 0)
        grid.setColumnStretch(1, 1)
        self.apply_button = QPushButton(APPLY, self)
        self.apply_button.clicked.connect(self.apply_plan)
        # The plan confidence beside the plan it decides (saved with the profile's settings).
        self.confidence = QLineEdit(self)
        self.confidence.setObjectName("plan_confidence")
        self.confidence.setPlaceholderText("80%")
        self.confidence.setToolTip(confidence_tip(locale_numbers()))
        self.confidence.setFixedWidth(self.fontMetrics().horizontalAdvance("100.0%") + 16)
        self.confidence.editingFinished.connect(self.set_confidence)
        commits_when_finished(self.confidence)
        self.confidence_label = QLabel("at", self)
        self.confidence_label.setToolTip(confidence_tip(locale_numbers()))
        self.plan_controls = QWidget(self)
        controls = QHBoxLayout(self.plan_controls)
        controls.setContentsMargins(0, 0, 0, 0)
        for w in (self.confidence_label, self.confidence, self.apply_button):
            controls.addWidget(w)
        grid.addWidget(self.plan_controls, 2, 2, Qt.AlignmentFlag.AlignTop)
        self.view = DecisionView()
        self.setVisible(False)

    def show_decision(self) -> None:
        """Draw the document's odds and plan as they are now (the window calls this at most once a frame)."""
        doc, link = self.doc, self.doc.decision
        self.draw(
            decision_view(
                doc.profile,
                doc.analysis,
                link.figures,
                link.search,
                locale_numbers(),
                odds_pending=link.odds_pending,
                plan_pending=link.plan_pending,
                errors=link.errors,
                job=doc.job.figures is not None,
            )
        )

    def draw(self, view: DecisionView) -> None:
        self.view = view
        if self.isHidden() == view.shown:
            self.setVisible(view.shown)
        for label, sentence in ((self.odds, view.odds), (self.plan, view.plan)):
            bold = "" if sentence.tone in (Tone.MUTED, Tone.PLAIN) else " font-weight: bold;"
            set_style(label, f"color: {TONE_COLOURS[sentence.tone]};{bold}")
        for label, text in ((self.odds, view.odds.text), (self.likelier, view.likelier), (self.plan, view.plan.text)):
            for row in (self.holders[label], self.captions[label]):
                if row.isHidden() == bool(text):
                    row.setVisible(bool(text))
        self.plan_controls.setVisible(bool(view.plan.text))
        field = self.confidence
        if not (field.hasFocus() and field.isModified()):  # a text being typed stays; a committed one follows undo
            if field.text() != view.confidence:
                field.setText(view.confidence)
            if not field.hasFocus():
                set_style(field, "")  # a new style sheet, even an empty one, re-polishes the field
        button = self.apply_button
        button.setVisible(view.apply is not None)
        button.setEnabled(view.apply is not None and not view.applied)
        text = APPLIED if view.applied else APPLY
        if button.text() != text:
            button.setText(text)
        button.setToolTip(view.apply_tip)
        self._texts = (view.odds.text, view.likelier, view.plan.text)
        self._fit_texts()

    def apply_plan(self) -> None:
        """Tick exactly the cheapest plan's optimizations, as one undo step."""
        chosen = self.view.apply
        if chosen is None:
            return
        opts = [replace(o, enabled=j in chosen) for j, o in enumerate(self.doc.profile.optimizations)]
        try:
            if self.doc.set_optimizations(opts, "Apply the cheapest plan"):
                self.applied.emit()
        except ProfileError:  # the checklist changed under the button: the next redraw offers the new plan
            return

    def set_confidence(self) -> None:
        """The typed plan confidence, as one undo step; a refused one is outlined, its reason in the tooltip."""
        text = self.confidence.text().strip()
        try:
            level = parse_confidence(text, locale_decimal()) if text else Settings().plan_confidence
            if level != self.doc.profile.settings.plan_confidence:
                self.doc.change_settings("Set plan confidence", plan_confidence=level)
        except (ParseError, ProfileError) as exc:
            self.confidence.setStyleSheet(REFUSED_FIELD)
            self.confidence.setToolTip(
                refusal_text(exc.problems[0], locale_numbers()) if isinstance(exc, ProfileError) else str(exc)
            )
            return
        self.confidence.setStyleSheet("")
        self.confidence.setToolTip(confidence_tip(locale_numbers()))
        committed(self.confidence)

    def _fit_texts(self) -> None:
        """Each sentence in the lines it needs, up to four (the plan's up to six); odds whose plan's names would push
        the probability past the fourth line name the plan by its count instead, the names in the tooltip."""
        odds, likelier, plan = self._texts
        brief = self.view.odds_brief
        if odds == self.view.odds.text and brief and lines_needed(self.odds, odds) > MOST_LINES:
            odds = brief
        fit_sentences(self, (self.odds, self.likelier), (odds, likelier), self._lines, self.holders, MOST_LINES)
        fit_sentences(self, (self.plan,), (plan,), self._lines, self.holders, PLAN_LINES)
        if odds != self._texts[0]:
            self.odds.setToolTip(self._texts[0])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_texts()
