"""The profile's settings, editable in place: boundary, unit, target, GPU range, overhead model."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from ...model.errors import ProfileError
from ...model.numbers import Decimal
from ...model.profile import OverheadModel, default_gpu_counts
from ...model.units import TimeUnit, convert
from ...model.values import (
    ParseError,
    parse_bandwidth,
    parse_bytes,
    parse_gpu_counts,
    parse_target_time,
    parse_time_text,
)
from ...present.cells import settings_fields
from ...present.counted import counted
from ...present.refusals import refusal_text
from ...present.settings_words import overhead_description
from ..core.cell_message import CellMessage
from ..core.document import Document
from ..core.field_undo import commits_when_finished, committed
from ..core.locale_text import locale_numbers
from ..core.qt_util import locale_decimal
from ..core.state import Aspect
from ..core.style_sheets import MUTED_TEXT, REFUSED_FIELD


class SettingsPanel(QWidget):
    """Each field commits on Enter or leaving it, as one undoable step; a bad value is shown, not taken."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setContentsMargins(6, 6, 6, 6)

        self.boundary = QLineEdit(self)
        self.boundary.setPlaceholderText("what was measured, e.g. stable training iteration after warm-up")
        self.unit = QComboBox(self)
        for u in TimeUnit:
            self.unit.addItem(u.label, u)
        self.target = QLineEdit(self)
        self.target.setPlaceholderText("none — e.g. 600 or 600 ms")
        self.n0 = QSpinBox(self)
        self.n0.setRange(1, 10_000_000)
        self.n0.setToolTip("N0: the GPU count the times were measured on; speedups are relative to it")
        self.max_gpus = QSpinBox(self)
        self.max_gpus.setRange(1, 10_000_000)
        self.max_gpus.setToolTip("Evaluate powers of two from 1 up to this GPU count")
        self.counts = QLineEdit(self)
        self.counts.setToolTip("The GPU counts evaluated; type your own list like 1, 8, 64, 512")
        self.p_override = QCheckBox("override", self)
        self.p_value = QDoubleSpinBox(self)
        self.p_value.setRange(0, 100)
        self.p_value.setDecimals(1)
        self.p_value.setSuffix(" %")
        self.p_value.setToolTip("Parallel share P used for scaling instead of the share of 'parallel' components")
        self.model = QComboBox(self)
        for m in OverheadModel:
            self.model.addItem(m.value, m)
        self.model_help = QLabel(self)
        self.model_help.setWordWrap(True)
        self.model_help.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.model_help.setStyleSheet(MUTED_TEXT)
        self.latency = QLineEdit(self)
        self.latency.setToolTip("Ring all-reduce: latency α per step, e.g. 5 us")
        self.message = QLineEdit(self)
        self.message.setToolTip("Ring all-reduce: bytes reduced per step, e.g. 2 GB")
        self.bandwidth = QLineEdit(self)
        self.bandwidth.setToolTip("Ring all-reduce: link bandwidth, e.g. 100 GB/s or 400 Gbit/s")

        form.addRow("Boundary", self.boundary)
        row = QHBoxLayout()
        row.addWidget(self.unit)
        self.target_label = QLabel("Target time", self)
        self.target_label.setToolTip(
            "The end-to-end target time; other objectives' targets (time to first token…) are set per objective"
        )
        row.addWidget(self.target_label)
        row.addWidget(self.target, 1)
        form.addRow("Unit", row)
        gpus = QHBoxLayout()
        gpus.addWidget(self.n0)
        gpus.addWidget(QLabel("Max GPUs", self))
        gpus.addWidget(self.max_gpus)
        form.addRow("Baseline GPUs", gpus)
        # On a row of its own: beside the GPU counts it made the panel wider than the left side at 1280 px.
        share = QHBoxLayout()
        share.addWidget(self.p_override)
        share.addWidget(self.p_value)
        share.addStretch(1)
        form.addRow("Parallel fraction", share)
        form.addRow("GPU counts", self.counts)
        form.addRow("Overhead model", self.model)
        form.addRow("", self.model_help)
        ring = QHBoxLayout()
        for label, field in (("α", self.latency), ("message", self.message), ("bandwidth", self.bandwidth)):
            ring.addWidget(QLabel(label, self))
            ring.addWidget(field, 1)
        form.addRow("Ring all-reduce", ring)

        self.boundary.editingFinished.connect(self._boundary)
        self.unit.activated.connect(self._unit)
        self.target.editingFinished.connect(self._target)
        self.n0.editingFinished.connect(lambda: self._set("Set baseline GPUs", self.n0, baseline_gpus=self.n0.value()))
        self.max_gpus.editingFinished.connect(self._max_gpus)
        self.counts.editingFinished.connect(self._counts)
        self.p_override.toggled.connect(self._parallel)
        self.p_value.editingFinished.connect(self._parallel)
        self.model.activated.connect(
            lambda _i: self._set("Set overhead model", overhead_model=OverheadModel(self.model.currentData()))
        )
        self.latency.editingFinished.connect(
            lambda: self._physical(self.latency, "ring_latency", self._latency, "Set ring latency")
        )
        self.message.editingFinished.connect(
            lambda: self._physical(self.message, "ring_message_bytes", parse_bytes, "Set message size")
        )
        self.bandwidth.editingFinished.connect(
            lambda: self._physical(self.bandwidth, "ring_bandwidth", parse_bandwidth, "Set bandwidth")
        )
        self.notice = CellMessage(self)  # a refusal, beside the field it is about
        committing = (self.boundary, self.target, self.n0, self.max_gpus, self.counts, self.p_value)
        commits_when_finished(*committing, self.latency, self.message, self.bandwidth)
        for field in (self.target, self.counts, self.latency, self.message, self.bandwidth):
            field.textEdited.connect(lambda _t, f=field: self._edited(f))
        doc.subscribe({Aspect.SETTINGS}, self.refresh)  # another profile touches its settings too
        self.refresh()

    # -- showing -----------------------------------------------------------
    def refresh(self) -> None:
        s, unit = self.doc.profile.settings, self.doc.unit
        widgets = (
            self.boundary,
            self.unit,
            self.target,
            self.n0,
            self.max_gpus,
            self.counts,
            self.p_override,
            self.p_value,
            self.model,
            self.latency,
            self.message,
            self.bandwidth,
        )
        blockers = [QSignalBlocker(w) for w in widgets]
        self.boundary.setText(s.boundary)
        self.unit.setCurrentIndex(list(TimeUnit).index(unit))
        fields = settings_fields(s, unit, locale_numbers())
        self.target.setText(fields["target_time"])
        # With objectives beside end to end (TTFT…), this is end to end's target; theirs are on the Objectives sheet.
        self.target_label.setText("End-to-end target" if self.doc.profile.uses_objectives() else "Target time")
        self.n0.setValue(s.baseline_gpus)
        self.max_gpus.setValue(max(s.gpu_counts))
        self.counts.setText(", ".join(f"{n}" for n in s.gpu_counts))
        self.p_override.setChecked(s.parallel_fraction is not None)
        self.p_value.setEnabled(s.parallel_fraction is not None)
        if s.parallel_fraction is not None:
            self.p_value.setValue(s.parallel_fraction * 100)
        elif self.doc.analysis is not None:
            self.p_value.setValue(self.doc.analysis.scaling.parallel_fraction * 100)
        self.model.setCurrentIndex(list(OverheadModel).index(s.overhead_model))
        self.model_help.setText(
            overhead_description(s.overhead_model)
            + f"; C is the measured time of the 'communication' components at N0 {counted(s).many}."  # a CPU job: ranks
        )
        self.latency.setText(fields["ring_latency"])
        self.message.setText(fields["ring_message_bytes"])
        self.bandwidth.setText(fields["ring_bandwidth"])
        for w in (self.latency, self.message, self.bandwidth):
            w.setEnabled(s.overhead_model is OverheadModel.RING)
            w.setStyleSheet("")
        for w in (self.target, self.counts):
            w.setStyleSheet("")
        # A text longer than its field shows its beginning, not the end setText leaves the cursor at.
        for w in (self.boundary, self.target, self.counts):
            if not w.hasFocus():
                w.setCursorPosition(0)
        self.notice.hide()
        del blockers

    # -- committing --------------------------------------------------------
    def _set(self, text: str, field: QWidget | None = None, **changes: object) -> None:
        try:
            self.doc.change_settings(text, **changes)
        except ProfileError as exc:
            self._reject(field, refusal_text(exc.problems[0], locale_numbers()))
            return
        if isinstance(field, (QLineEdit, QAbstractSpinBox)):
            committed(field)
        self.notice.take_back_status()  # a value taken: an earlier refusal on the status line is over

    def _reject(self, field: QWidget | None, message: str) -> None:
        if isinstance(field, QLineEdit):
            field.setStyleSheet(REFUSED_FIELD)
            field.setToolTip(message)
            self.notice.show_beside(field, message)
        self.last_rejection = message
        self.notice.tell_status(f"Not accepted: {message}")

    def _edited(self, field: QLineEdit) -> None:
        """Typing again in a refused field: the red frame stays until it is accepted, the message steps aside."""
        if self.notice.isVisible() and self.notice.is_beside(field):
            self.notice.hide()

    def _boundary(self) -> None:
        self._set("Set boundary", self.boundary, boundary=self.boundary.text().strip())

    def _unit(self, _index: int) -> None:
        self.doc.change_unit(TimeUnit(self.unit.currentData()))

    def _target(self) -> None:
        text = self.target.text().strip()
        if not text:
            self._set("Clear target time", self.target, target_time=None)
            return
        try:
            value = parse_target_time(text, self.doc.unit, locale_decimal())
        except ParseError as exc:
            self._reject(self.target, str(exc))
            return
        self._set("Set target time", self.target, target_time=value)

    def _max_gpus(self) -> None:
        self._set("Set GPU range", self.max_gpus, gpu_counts=default_gpu_counts(self.max_gpus.value()))

    def _counts(self) -> None:
        try:
            counts = parse_gpu_counts(self.counts.text())
        except ParseError as exc:
            self._reject(self.counts, str(exc))
            return
        self._set("Set GPU counts", self.counts, gpu_counts=counts)

    def _parallel(self) -> None:
        on = self.p_override.isChecked()
        self.p_value.setEnabled(on)
        self._set("Set parallel fraction", self.p_value, parallel_fraction=self.p_value.value() / 100 if on else None)

    def _latency(self, text: str, decimal: Decimal) -> float:
        number, written = parse_time_text(text, decimal)
        return convert(number, written or self.doc.unit, TimeUnit.S)

    def _physical(self, field: QLineEdit, name: str, parse: Callable[[str, Decimal], float], text: str) -> None:
        try:
            value = parse(field.text(), locale_decimal())
        except ParseError as exc:
            self._reject(field, str(exc))
            return
        self._set(text, field, **{name: value})
