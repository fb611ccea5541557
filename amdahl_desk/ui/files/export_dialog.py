"""Choosing what to export: which chart, which format, which size, which background."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from ..charts.registry import CHART_TITLES, CHARTS, FORMATS, PRESETS

CUSTOM = "Custom…"


def export_title(chart: str) -> str:
    return "Export Slide" if chart == "slide" else f"Export Chart: {CHART_TITLES[chart]}"


class ExportDialog(QDialog):
    """Chart, format (PNG, SVG, PDF), size (presets or custom) and a transparent background for PNG."""

    def __init__(self, chart: str = "slide", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        self.chart = QComboBox(self)
        for name in CHARTS:
            self.chart.addItem(CHART_TITLES[name], name)
        self.chart.setCurrentIndex(CHARTS.index(chart))
        self.format = QComboBox(self)
        for fmt, text in zip(FORMATS, ("PNG image", "SVG vector drawing", "PDF document"), strict=True):
            self.format.addItem(text, fmt)
        self.size = QComboBox(self)
        self.size.addItems([*PRESETS, CUSTOM])
        self.width = QSpinBox(self)
        self.height = QSpinBox(self)
        for box, value in ((self.width, 1920), (self.height, 1080)):
            box.setRange(200, 10000)
            box.setValue(value)
            box.setSuffix(" px")
        custom = QHBoxLayout()
        custom.addWidget(self.width)
        custom.addWidget(QLabel("×", self))
        custom.addWidget(self.height)
        self.transparent = QCheckBox("Transparent background (PNG)", self)
        form.addRow("Chart", self.chart)
        form.addRow("Format", self.format)
        form.addRow("Size", self.size)
        form.addRow("", custom)
        form.addRow("", self.transparent)
        hint = QLabel("Text is sized for a projector: 24 px on a 1920-wide slide, scaled with the size.", self)
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555;")
        form.addRow(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.size.currentTextChanged.connect(self._size_changed)
        self.format.currentIndexChanged.connect(
            lambda _i: self.transparent.setEnabled(self.format.currentData() == "png")
        )
        self._size_changed(self.size.currentText())
        self.chart.currentIndexChanged.connect(lambda _i: self._name_it())
        self._name_it()

    def _name_it(self) -> None:
        """The title names what is exported: "Export Slide", "Export Chart: GPU scaling"."""
        self.setWindowTitle(export_title(self.chart.currentData()))

    def _size_changed(self, text: str) -> None:
        custom = text == CUSTOM
        self.width.setEnabled(custom)
        self.height.setEnabled(custom)
        if not custom:
            w, h = PRESETS[text]
            self.width.setValue(w)
            self.height.setValue(h)

    def choice(self) -> tuple[str, str, tuple[int, int], bool]:
        fmt = self.format.currentData()
        return (
            self.chart.currentData(),
            fmt,
            (self.width.value(), self.height.value()),
            fmt == "png" and self.transparent.isChecked(),
        )
