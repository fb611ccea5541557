"""Choosing what to export: which chart (and the slide's two), which format, which size, which background."""

from __future__ import annotations

from collections.abc import Sequence

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

from ...model.profile import Profile
from ...present.inputs import ChartInputs
from ..core.style_sheets import MUTED_TEXT
from .registry import CHARTS, FORMATS, PRESETS, SLIDE_CHOICES, chart_entry, chart_title, default_slide_charts

CUSTOM = "Custom…"
NO_SECOND = "(none: one chart, the slide's whole width)"


def export_title(chart: str, kind: str = "Chart", profile: Profile | None = None) -> str:
    """What the dialog and its file chooser say: "Export Slide", "Export Chart: GPU scaling" (of ``profile``: a CPU
    job's "Rank scaling")."""
    if chart == "slide":
        return "Export Slide"
    if chart.endswith("-slide"):
        return f"Export {kind} Slide"
    return f"Export {kind}: {chart_title(chart, profile)}"


class ExportDialog(QDialog):
    """Chart, format (PNG, SVG, PDF), size (presets or custom) and a transparent background for PNG."""

    def __init__(
        self,
        chart: str = "slide",
        parent: QWidget | None = None,
        keys: Sequence[str] = CHARTS,
        kind: str = "Chart",
        inputs: ChartInputs | None = None,
    ) -> None:
        """``inputs``: what the charts are drawn from now, for the slide's choice of charts (offered only those
        with something to show; by default the two that carry the answer). None: no choice offered."""
        super().__init__(parent)
        self.kind = kind  # "Chart", or "Comparison" from the comparison tab
        self.profile = inputs.profile if inputs is not None else None  # whose charts: their titles follow it
        form = QFormLayout(self)
        self.chart = QComboBox(self)
        for name in keys:  # the registry's keys of the sources the caller offers
            self.chart.addItem(chart_title(name, self.profile), name)
        self.chart.setCurrentIndex(max(self.chart.findData(chart), 0))
        self.format = QComboBox(self)
        for fmt, text in zip(FORMATS, ("PNG image", "SVG vector drawing", "PDF document"), strict=True):
            self.format.addItem(text, fmt)
        self.size_choice = QComboBox(self)
        self.size_choice.addItems([*PRESETS, CUSTOM])
        self.width_box = QSpinBox(self)
        self.height_box = QSpinBox(self)
        for box, value in ((self.width_box, 1920), (self.height_box, 1080)):
            box.setRange(200, 10000)
            box.setValue(value)
            box.setSuffix(" px")
        custom = QHBoxLayout()
        custom.addWidget(self.width_box)
        custom.addWidget(QLabel("×", self))
        custom.addWidget(self.height_box)
        self.transparent = QCheckBox("Transparent background (PNG)", self)
        # The slide's two charts, left and right: those with something to show, the answer's two preselected.
        self.slide_left, self.slide_right = QComboBox(self), QComboBox(self)
        self.slide_right.addItem(NO_SECOND, "")
        offered = [k for k in SLIDE_CHOICES if inputs is not None and chart_entry(k).source.missing(inputs) is None]
        for key in offered:
            for combo in (self.slide_left, self.slide_right):
                combo.addItem(chart_title(key, self.profile), key)
        if inputs is not None and inputs.analysis is not None:
            left, *right = default_slide_charts(inputs)  # one chart alone: the second is "none"
            self.slide_left.setCurrentIndex(max(self.slide_left.findData(left), 0))
            self.slide_right.setCurrentIndex(max(self.slide_right.findData(right[0] if right else ""), 0))
        slide_row = QHBoxLayout()
        slide_row.addWidget(self.slide_left, 1)
        slide_row.addWidget(self.slide_right, 1)
        self.slide_label = QLabel("Slide charts", self)
        self.slide_label.setToolTip("The slide's two charts, left and right (by default the two that carry the answer)")
        form.addRow("Chart", self.chart)
        form.addRow(self.slide_label, slide_row)
        form.addRow("Format", self.format)
        form.addRow("Size", self.size_choice)
        form.addRow("", custom)
        form.addRow("", self.transparent)
        hint = QLabel("Text is sized for a projector: 24 px on a 1920-wide slide, scaled with the size.", self)
        hint.setWordWrap(True)
        hint.setStyleSheet(MUTED_TEXT)
        form.addRow(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.size_choice.currentTextChanged.connect(self._size_changed)
        self.format.currentIndexChanged.connect(
            lambda _i: self.transparent.setEnabled(self.format.currentData() == "png")
        )
        self._size_changed(self.size_choice.currentText())
        self.chart.currentIndexChanged.connect(lambda _i: self._name_it())
        self._name_it()

    def _name_it(self) -> None:
        """The title names what is exported: "Export Slide", "Export Chart: GPU scaling"; the slide's charts are
        offered while the slide is chosen."""
        self.setWindowTitle(export_title(self.chart.currentData(), self.kind, self.profile))
        slide = self.chart.currentData() == "slide" and self.slide_left.count() > 0
        for widget in (self.slide_label, self.slide_left, self.slide_right):
            widget.setVisible(slide)

    def slide_charts(self) -> tuple[str, ...]:
        """The slide's charts as chosen, left to right (one when the right is "none" or the same as the left)."""
        if self.chart.currentData() != "slide" or self.slide_left.count() == 0:
            return ()
        left, right = self.slide_left.currentData(), self.slide_right.currentData()
        return (left,) if not right or right == left else (left, right)

    def _size_changed(self, text: str) -> None:
        custom = text == CUSTOM
        self.width_box.setEnabled(custom)
        self.height_box.setEnabled(custom)
        if not custom:
            w, h = PRESETS[text]
            self.width_box.setValue(w)
            self.height_box.setValue(h)

    def choice(self) -> tuple[str, str, tuple[int, int], bool]:
        fmt = self.format.currentData()
        return (
            self.chart.currentData(),
            fmt,
            (self.width_box.value(), self.height_box.value()),
            fmt == "png" and self.transparent.isChecked(),
        )
