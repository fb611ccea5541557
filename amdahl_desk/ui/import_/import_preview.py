"""The import dialog's right half: the components table the import makes, its total, the GPU split and the notes."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGroupBox, QHBoxLayout, QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from ...model.traces import ImportResult
from ...present.import_notes import window_notes
from ..core.locale_text import locale_numbers
from ..core.style_sheets import NOTE_TEXT, REFUSED_TEXT
from .gpu_split_view import GpuSplitView
from .preview_models import ComponentPreviewModel, preview_table

EVENTS_ONLY = (
    "The preview leaves out each component's time on the critical path: a trace this large is read "
    "from its events alone, to keep the window's memory in bounds (amdahl-desk import --json gives it)"
)


def box(title: str, widget: QWidget, extra: QHBoxLayout | None = None) -> QGroupBox:
    """``widget`` (and a row under it) in a titled group."""
    group = QGroupBox(title)
    layout = QVBoxLayout(group)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(widget)
    if extra is not None:
        layout.addLayout(extra)
    return group


class ImportPreview(QSplitter):
    """What the import would make with the options chosen: shown, never asked (the dialog asks the session)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.preview_model = ComponentPreviewModel()
        self.preview = preview_table(self.preview_model, ComponentPreviewModel.SOURCE)
        self.total_label = QLabel()
        self.updating = QLabel("")
        self.updating.setStyleSheet("color: palette(mid)")
        total_line = QHBoxLayout()
        total_line.addWidget(self.total_label, 1)
        total_line.addWidget(self.updating)
        self.refusal = QLabel()
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet(REFUSED_TEXT)
        self.refusal.hide()
        preview_box = box("Preview — the components table the import makes", self.preview, total_line)
        preview_layout = preview_box.layout()
        assert preview_layout is not None
        preview_layout.addWidget(self.refusal)
        self.suggestion = QLabel()  # a grouping that explains almost nothing: which one would
        self.suggestion.setWordWrap(True)
        self.suggestion.setStyleSheet(NOTE_TEXT)
        self.suggestion.hide()
        preview_layout.addWidget(self.suggestion)
        self.gpu_view = GpuSplitView()
        self.gpu_box = box("GPU split", self.gpu_view)
        self.notes = QTextBrowser()  # scrolls when the warnings are many
        self.notes.setOpenLinks(False)
        self.notes.setFrameShape(QFrame.Shape.NoFrame)
        self.notes.setStyleSheet("QTextBrowser { background: transparent; }")
        self.notes.setMinimumHeight(7 * self.fontMetrics().height())
        self.notes_box = box("Boundary and warnings", self.notes)
        for w in (preview_box, self.gpu_box, self.notes_box):
            self.addWidget(w)
        self.setChildrenCollapsible(False)
        self.setStretchFactor(0, 2)
        self.setStretchFactor(1, 0)
        self.setStretchFactor(2, 1)

    def show_result(self, result: ImportResult, total: bool, events_only: bool) -> None:
        """The preview of ``result`` (a whole-trace total when ``total``); ``events_only``: read without its
        dependencies, so without critical-path times."""
        unit = result.unit
        self.preview_model.set_components(result.components, unit)
        self.total_label.setText(
            f"<b>Total {locale_numbers().time(result.total, unit)}</b>{_total_means(result, total)}"
            f" · {len(result.components)} component{'s' * (len(result.components) != 1)}"
        )
        self.gpu_box.setVisible(result.gpu is not None)
        self.gpu_view.set_split(result.gpu, unit, per_step=not total and result.steps is not None)
        notes = list(window_notes(result.notes, locale_numbers())) + ([EVENTS_ONLY] if events_only else [])
        items = "".join(f"<li>{html.escape(w, quote=False)}</li>" for w in notes)
        warnings = f"<ul style='margin-left: -20px'>{items}</ul>" if items else "<p>No warnings.</p>"
        self.notes.setHtml(f"<p><b>Boundary:</b> {html.escape(result.boundary, quote=False)}</p>{warnings}")


def _total_means(result: ImportResult, total: bool) -> str:
    """What the total stands for, so nobody reads a GPU stretch as the step time."""
    n, unit = locale_numbers(), result.unit
    if result.group_by == "gpu":
        span = "GPU span of the whole trace" if total or result.step_time is None else "mean GPU stretch of a step"
        step = f"; the mean step on the CPU is {n.time(result.step_time, unit)}" if result.step_time else ""
        return f" = the {span}{step}"
    if result.step_time is not None and not total:
        return f" = the mean step ({n.time(result.step_time, unit)})"
    return " = the whole recording" if result.format != "nsys" else " = the report's rows summed"
