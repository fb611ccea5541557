"""Throughput against N: the runs and their spread, the USL fit, the ideal γN, the peak and the limit γ/α."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from ...present.inputs import ChartInputs
from ...present.measured import MeasuredView, throughput
from ...present.numbers import Numbers
from ..charts.style import GREY, SCREEN, Style
from .measured_chart import PURPLE, MeasuredChart


class ThroughputChart(MeasuredChart):
    """X(N) with the Universal Scalability Law fitted through it; linear or log axes."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.log = False
        self.inputs: ChartInputs | None = None
        self.ideal = self.add_curve("ideal", style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.curve = self.add_curve("usl", style.pen(PURPLE, 2.5))
        self.limit = self.add_line("limit", GREY, Qt.PenStyle.DotLine)
        if self.interactive:
            self.log_box = QCheckBox("Log axes", self)
            self.log_box.setToolTip("Both axes on a log scale: linear scaling becomes a line of slope 1")
            self.log_box.toggled.connect(self.set_log)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.addWidget(self.log_box, 0, Qt.AlignmentFlag.AlignRight)

    def view(self, inputs: ChartInputs, n: Numbers) -> MeasuredView:
        self.inputs = inputs
        return throughput(inputs, n, self.brief, self.log)

    def set_log(self, on: bool) -> None:
        self.log = on
        if self.inputs is not None:
            self.show_inputs(self.inputs)
