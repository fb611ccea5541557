"""The right half of the window: the summary over the charts, each redrawn when what it shows has changed."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QWidget

from .charts.base import Chart
from .charts.registry import ENTRIES, ChartEntry
from .core.document import Aspect, Document
from .core.redraw import RedrawScheduler
from .profile.summary_panel import SummaryPanel

SUMMARY_DEPENDS_ON = frozenset({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS})


class ResultsPane(QSplitter):
    """Owns the summary and the registry's on-screen charts; they subscribe to the window's redraws."""

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.doc, self.redraws = doc, redraws
        self.summary = SummaryPanel()
        entries = [e for e in ENTRIES if e.on_screen]
        self.charts: dict[str, Chart] = {e.key: e.load()() for e in entries}
        # The first two charts side by side under the summary, the others below them, full width.
        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.addWidget(self.summary)
        self.addWidget(self.top)
        for i, e in enumerate(entries):
            (self.top if i < 2 else self).addWidget(self.charts[e.key])
        self.setStretchFactor(0, 0)
        for i in range(1, self.count()):
            self.setStretchFactor(i, 3)
        for s in (self, self.top):
            s.setChildrenCollapsible(False)
        redraws.subscribe(SUMMARY_DEPENDS_ON, self._show_summary)
        for e in entries:
            redraws.subscribe(e.depends_on, partial(self._show_chart, e))

    def chart(self, key: str) -> Chart:
        return self.charts[key]

    def _show_chart(self, entry: ChartEntry) -> None:
        self.charts[entry.key].show_analysis(self.doc.profile, self.doc.analysis, self.redraws.selected_optimization)

    def _show_summary(self) -> None:
        doc = self.doc
        analysis = doc.analysis
        self.summary.update_analysis(doc.profile, analysis, doc.analysis_error)
        self.summary.set_notes(list(analysis.warnings if analysis else []) + list(doc.warnings))
