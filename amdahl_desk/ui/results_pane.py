"""The right half of the window: the summary over the charts, each redrawn when what it shows has changed.

The charts (and pyqtgraph with them) are built right after the window's first paint, in the
frames they will fill: the window is on screen before the plotting library has even loaded.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QScrollArea, QSplitter, QTabWidget, QVBoxLayout, QWidget

from .charts.base import Chart
from .charts.registry import ENTRIES, ChartEntry
from .core.document import Aspect, Document
from .core.redraw import RedrawScheduler
from .objectives.answer_panel import ExtrasPanel, ObjectivePicker, objective_caption
from .objectives.choice import ObjectiveChoice
from .profile.summary_panel import SummaryPanel, set_text

SUMMARY_DEPENDS_ON = frozenset(
    {Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.OBJECTIVES, Aspect.OBJECTIVE}
)


class ResultsPane(QSplitter):
    """Owns the summary and the registry's on-screen charts; they subscribe to the window's redraws."""

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.doc, self.redraws = doc, redraws
        self.summary = SummaryPanel()
        # The objective the answer is seen through: picked above the summary, the objectives table under it.
        self.choice = ObjectiveChoice(doc, redraws, self)
        self.picker = ObjectivePicker(self.choice)
        self.extras = ExtrasPanel(self.choice)
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        for w in (self.picker, self.summary, self.extras):
            column.addWidget(w)
        column.addStretch(1)
        # Scrolls rather than squeezing the charts when the window is small (1280×720).
        answer = QScrollArea()
        answer.setWidget(inner)
        answer.setWidgetResizable(True)
        answer.setFrameShape(QFrame.Shape.NoFrame)
        answer.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.answer = answer
        self.entries = [e for e in ENTRIES if e.on_screen]
        self.charts: dict[str, Chart] = {}
        # The first two charts side by side under the summary, the others below them in tabs (GPU scaling,
        # latency against load, cost per run): one at a time, each full width.
        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.more = QTabWidget()
        self.more.setDocumentMode(True)
        self.addWidget(answer)
        self.addWidget(self.top)
        self.addWidget(self.more)
        self._slots: dict[str, tuple[QSplitter | QTabWidget, int]] = {}
        for i, e in enumerate(self.entries):
            frame = QFrame()
            frame.setMinimumSize(120, 120)
            if i < 2:
                self.top.addWidget(frame)
                self._slots[e.key] = (self.top, self.top.indexOf(frame))
            else:
                self._slots[e.key] = (self.more, self.more.addTab(frame, e.title))
        self.setStretchFactor(0, 0)
        for i in range(1, self.count()):
            self.setStretchFactor(i, 3)
        for s in (self, self.top):
            s.setChildrenCollapsible(False)
        redraws.subscribe(SUMMARY_DEPENDS_ON, self._show_summary)
        self.summary.installEventFilter(self)  # its first paint is the cue to build the charts

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.summary and event.type() == QEvent.Type.Paint and not self.charts:
            self.summary.removeEventFilter(self)
            QTimer.singleShot(0, self, self.build_charts)  # once this frame is on screen
        return False

    def build_charts(self) -> None:
        """Put the real charts in their frames (once) and have them drawn at the next frame."""
        if self.charts:
            return
        for e in self.entries:
            chart = e.load()()
            holder, index = self._slots[e.key]
            if isinstance(holder, QTabWidget):
                old: QWidget | None = holder.widget(index)
                holder.removeTab(index)
                holder.insertTab(index, chart, e.title)
            else:
                old = holder.replaceWidget(index, chart)
            if old is not None:
                old.deleteLater()
            self.charts[e.key] = chart
            self.redraws.subscribe(e.depends_on, partial(self._show_chart, e))

    def chart(self, key: str) -> Chart:
        self.build_charts()
        return self.charts[key]

    def _show_chart(self, entry: ChartEntry) -> None:
        analysis = self.choice.view(self.doc.analysis)  # seen through the chosen objective
        self.charts[entry.key].show_analysis(self.doc.profile, analysis, self.redraws.selected_optimization)

    def _show_summary(self) -> None:
        doc = self.doc
        analysis = doc.analysis
        self.summary.update_analysis(doc.profile, self.choice.view(analysis), doc.analysis_error)
        objective = self.choice.objective()
        if objective is not None and not objective.is_end_to_end:
            caption, sentence = objective_caption(objective, doc.profile, self.choice)
            set_text(self.summary.speedup.caption, caption)
            set_text(self.summary.sentence, sentence)
        else:
            set_text(self.summary.speedup.caption, "end-to-end speedup")
        self.summary.set_notes(list(analysis.warnings if analysis else []) + list(doc.warnings))
