"""Measured scaling: the runs' speedups with their spread, the Amdahl and USL fits, and the profile's model."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ...present.inputs import ChartInputs
from ...present.measured import MeasuredView, measured_scaling
from ...present.numbers import Numbers
from ..charts.style import BLUE, GREY, RED, SCREEN, Style
from .measured_chart import PURPLE, MeasuredChart


class MeasuredScalingChart(MeasuredChart):
    """Speedup against N on log axes, as the GPU-scaling chart draws the model: here the runs meet it."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        self.ideal = self.add_curve("ideal", style.pen(GREY, 1.5, Qt.PenStyle.DashLine))
        self.model = self.add_curve("model", style.pen(RED, 2.5, Qt.PenStyle.DashDotLine))
        self.model.setData([], [], connect="finite")
        self.amdahl = self.add_curve("amdahl", style.pen(BLUE, 2.5))
        self.usl = self.add_curve("usl", style.pen(PURPLE, 2.5))
        # Each fit's 95% band: its edges dotted in the fit's colour, shown and hidden with the fit.
        for key, colour in (("amdahl", BLUE), ("usl", PURPLE)):
            for edge in ("low", "high"):
                self.add_curve(f"{key}_{edge}", style.pen(colour, 1.2, Qt.PenStyle.DotLine))

    def view(self, inputs: ChartInputs, n: Numbers) -> MeasuredView:
        return measured_scaling(inputs, n, self.brief)
