"""Karp–Flatt e against N: steady means a fixed serial part (Amdahl); rising means overhead that grows with N."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...present.inputs import ChartInputs
from ...present.measured import MeasuredView, karp_flatt
from ...present.numbers import Numbers
from ..charts.style import BLUE, ORANGE, SCREEN, Style
from .measured_chart import MeasuredChart


class KarpFlattChart(MeasuredChart):
    """e = (1/S − 1/p)/(1 − 1/p) per run (p = N/N0), their mean per N, and Amdahl's fitted 1 − P."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.mean = self.add_curve("mean", self.look.pen(ORANGE, 2.5))
        self.runs.setBrush(ORANGE)
        self.spread.setOpts(pen=style.pen(ORANGE, 1.5))
        self.amdahl = self.add_line("amdahl", BLUE, Qt.PenStyle.DashLine)

    def view(self, inputs: ChartInputs, n: Numbers) -> MeasuredView:
        return karp_flatt(inputs, n, self.brief)
