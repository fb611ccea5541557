"""Choosing how to export the comparison: the chart or the slide, the format, the size, the background."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QWidget

from ..charts.registry import CHART_TITLES, COMPARISON_CHARTS, FORMATS, PRESETS


class ComparisonExportDialog(QDialog):
    """Chart or slide, PNG/SVG/PDF, a slide size, and a transparent background for PNG."""

    def __init__(self, chart: str = "comparison-slide", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export Comparison")
        form = QFormLayout(self)
        self.chart = QComboBox(self)
        for key in COMPARISON_CHARTS:
            self.chart.addItem(CHART_TITLES[key], key)
        self.chart.setCurrentIndex(max(0, self.chart.findData(chart)))
        self.format = QComboBox(self)
        for fmt, text in zip(FORMATS, ("PNG image", "SVG vector drawing", "PDF document"), strict=True):
            self.format.addItem(text, fmt)
        self.size_box = QComboBox(self)
        for text, size in PRESETS.items():
            self.size_box.addItem(text, size)
        self.transparent = QCheckBox("Transparent background (PNG)", self)
        form.addRow("&Chart", self.chart)
        form.addRow("&Format", self.format)
        form.addRow("&Size", self.size_box)
        form.addRow("", self.transparent)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.format.currentIndexChanged.connect(
            lambda _i: self.transparent.setEnabled(self.format.currentData() == "png")
        )

    def choice(self) -> tuple[str, str, tuple[int, int], bool]:
        fmt = str(self.format.currentData())
        width, height = self.size_box.currentData()
        return (
            str(self.chart.currentData()),
            fmt,
            (int(width), int(height)),
            fmt == "png" and self.transparent.isChecked(),
        )
