"""The Measurements panel: what was measured, the runs table, the fit summary and the measured charts."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...model.fit import profile_p_at
from ...model.measurements import MeasureKind
from ...present.inputs import ChartInputs
from ..charts.registry import chart_entry
from ..core.document import Document
from ..core.field_undo import commits_when_finished, committed
from ..core.locale_text import locale_numbers
from ..core.redraw import RedrawScheduler
from ..core.state import Aspect
from .fit_summary import FitSummary
from .measurement_view import MeasurementTableView
from .runs_model import MeasurementTableModel

if TYPE_CHECKING:
    from .measured_chart import MeasuredChart

DEPENDS_ON = frozenset({Aspect.MEASUREMENTS, Aspect.COMPONENTS, Aspect.SETTINGS})  # the profile: its P and model
UNITS = {
    MeasureKind.TIME: ["ms", "s", "us", "ns"],
    MeasureKind.THROUGHPUT: ["req/s", "samples/s", "tokens/s", "jobs/h"],
}
COUNT_NAMES = ["GPUs", "N", "Workers", "Nodes", "Threads", "Users", "Concurrency"]


class FitPanel(QWidget):
    """Type or paste runs; the fit, its sentences and its charts follow every edit."""

    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.model = MeasurementTableModel(doc)
        self.view = MeasurementTableView(self.model)
        self.kind = QComboBox(self)
        # Short item texts keep the row narrow enough for an 800 px window; each item's tooltip says the rest.
        self.kind.addItem("Time", MeasureKind.TIME.value)
        self.kind.setItemData(0, "The runtime of a fixed job", Qt.ItemDataRole.ToolTipRole)
        self.kind.addItem("Throughput", MeasureKind.THROUGHPUT.value)
        self.kind.setItemData(1, "Work per unit of time", Qt.ItemDataRole.ToolTipRole)
        self.kind.setToolTip("What each run measured; speedups are T(N0)/T(N) for times, X(N)/X(N0) for throughputs")
        self.unit = QComboBox(self)
        self.unit.setEditable(True)
        self.unit.setToolTip(
            f"The values' unit. A time typed with its own unit ({locale_numbers().number(0.6)} s) converts to it"
        )
        self.count = QComboBox(self)
        self.count.setEditable(True)
        self.count.addItems(COUNT_NAMES)
        self.count.setToolTip("What N counts: the sentences say '97 users', '24 GPUs'")
        for box, width in ((self.unit, 9), (self.count, 11)):
            box.setMinimumContentsLength(width)
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for text, box in (("Measure", self.kind), ("Unit", self.unit), ("N is", self.count)):
            row.addWidget(QLabel(text, self))
            row.addWidget(box)
        row.addStretch(1)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(row)
        top_layout.addWidget(self.view, 1)

        self.summary = FitSummary()
        scroll = QScrollArea()
        scroll.setWidget(self.summary)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        # The measured charts (and pyqtgraph) are built when the tab is first shown, not with the window.
        self._charts: dict[str, MeasuredChart] = {}
        self._stale: set[MeasuredChart] = set()  # charts that missed a change while hidden
        self.tabs = QTabWidget(self)
        self.tabs.currentChanged.connect(lambda _i: self._draw_stale())
        self.redraws = redraws
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        for i, (widget, stretch) in enumerate(((top, 4), (scroll, 3), (self.tabs, 6))):
            self.splitter.addWidget(widget)
            self.splitter.setStretchFactor(i, stretch)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)

        self.kind.activated.connect(self._kind_chosen)
        unit_edit, count_edit = self.unit.lineEdit(), self.count.lineEdit()
        assert unit_edit is not None and count_edit is not None  # both combos are editable
        commits_when_finished(self.unit, self.count)  # any text is taken: each is committed when finished
        unit_edit.editingFinished.connect(lambda: self._set("unit", self.unit.currentText().strip(), self.unit))
        self.unit.activated.connect(lambda _i: self._set("unit", self.unit.currentText().strip()))
        count_edit.editingFinished.connect(
            lambda: self._set("count_name", self.count.currentText().strip(), self.count)
        )
        self.count.activated.connect(lambda _i: self._set("count_name", self.count.currentText().strip()))
        # The summary (its profile sentence) and each chart redraw when what they show changed, as the registry says.
        redraws.subscribe(DEPENDS_ON, self._show_summary)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.build_charts()

    def _draw_stale(self) -> None:
        """Draw the chart whose tab was chosen if it missed a change while another was in view."""
        for chart in list(self._stale):
            if chart is self.tabs.currentWidget():
                self._show_chart(chart)

    @property
    def charts(self) -> dict[str, MeasuredChart]:
        """The three charts, each drawn from the document as it is now (one passed over while hidden is drawn here)."""
        self.build_charts()
        for chart in list(self._stale):
            self._show_chart(chart, hidden_too=True)
        return self._charts

    def build_charts(self) -> None:
        """Make the three measured charts (once); each redraws when what the registry says it shows changed."""
        if self._charts:
            return
        from .karp_flatt_chart import KarpFlattChart  # pyqtgraph loads here, not with the window
        from .measured_scaling_chart import MeasuredScalingChart
        from .throughput_chart import ThroughputChart

        self._charts = {
            "measured_scaling": MeasuredScalingChart(),
            "throughput": ThroughputChart(),
            "karp_flatt": KarpFlattChart(),
        }
        for key, title in (
            ("measured_scaling", "Speedup: runs vs model"),
            ("throughput", "Throughput (USL)"),
            ("karp_flatt", "Karp–Flatt e"),
        ):
            chart = self._charts[key]
            self.tabs.addTab(chart, title)
            self.redraws.subscribe(chart_entry(key).depends_on, partial(self._show_chart, chart))

    def _kind_chosen(self, _index: int) -> None:
        kind = MeasureKind(self.kind.currentData())
        if kind is not self.doc.measurements.kind:
            self.model.set_format(f"Measure {kind.value}", kind=kind, unit=UNITS[kind][0])

    def _set(self, field: str, value: str, typed_in: QComboBox | None = None) -> None:
        if field == "count_name" and not value:
            value = "N"
        if getattr(self.doc.measurements, field) != value:
            self.model.set_format(f"Change {'unit' if field == 'unit' else 'what N counts'}", **{field: value})
        committed(typed_in)

    def _show_format(self) -> None:
        table = self.doc.measurements
        with QSignalBlocker(self.kind), QSignalBlocker(self.unit), QSignalBlocker(self.count):
            self.kind.setCurrentIndex(self.kind.findData(table.kind.value))
            units = UNITS[table.kind]
            if [self.unit.itemText(i) for i in range(self.unit.count())] != units:
                self.unit.clear()
                self.unit.addItems(units)
            if self.unit.currentText() != table.unit:
                self.unit.setCurrentText(table.unit)
            if self.count.currentText() != table.count_name:
                self.count.setCurrentText(table.count_name)

    def _show_summary(self) -> None:
        doc = self.doc
        analysis = doc.analysis
        self._show_format()
        fit = doc.fit
        self.summary.show_fit(fit, doc.measurements, profile_p_at(analysis, fit.baseline_n) if analysis else None)

    def _show_chart(self, chart: MeasuredChart, hidden_too: bool = False) -> None:
        if (
            chart is not self.tabs.currentWidget() and not hidden_too
        ):  # drawn when its tab is chosen: a paste of thousands of runs
            self._stale.add(chart)  # drew all three
            return
        self._stale.discard(chart)
        doc = self.doc
        chart.show_inputs(ChartInputs(doc.profile, doc.analysis, fit=doc.fit, colours=doc.colours))
