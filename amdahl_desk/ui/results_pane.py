"""The right half of the window: the summary over the charts, each redrawn when what it shows has changed.

The charts (and pyqtgraph with them) are built right after the window's first paint, in the
frames they will fill: the window is on screen before the plotting library has even loaded.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QSplitter, QWidget

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
        self.entries = [e for e in ENTRIES if e.on_screen]
        self.charts: dict[str, Chart] = {}
        # The first two charts side by side under the summary, the others below them, full width.
        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.addWidget(self.summary)
        self.addWidget(self.top)
        self._slots: dict[str, tuple[QSplitter, int]] = {}
        for i, e in enumerate(self.entries):
            holder = self.top if i < 2 else self
            frame = QFrame()
            frame.setMinimumSize(120, 120)
            holder.addWidget(frame)
            self._slots[e.key] = (holder, holder.indexOf(frame))
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
            old = holder.replaceWidget(index, chart)
            if old is not None:
                old.deleteLater()
            self.charts[e.key] = chart
            self.redraws.subscribe(e.depends_on, partial(self._show_chart, e))

    def chart(self, key: str) -> Chart:
        self.build_charts()
        return self.charts[key]

    def _show_chart(self, entry: ChartEntry) -> None:
        self.charts[entry.key].show_analysis(self.doc.profile, self.doc.analysis, self.redraws.selected_optimization)

    def _show_summary(self) -> None:
        doc = self.doc
        analysis = doc.analysis
        self.summary.update_analysis(doc.profile, analysis, doc.analysis_error)
        self.summary.set_notes(list(analysis.warnings if analysis else []) + list(doc.warnings))
