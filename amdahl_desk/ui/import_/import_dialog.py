"""The import dialog: a progress bar while the file is read, then the options beside a live preview of the profile.

Reading and summarising run on the session's thread; the dialog only shows. An option change
restarts a short timer, so a burst of changes (typing a top N, ticking steps) asks for one
preview; a preview that arrives after a newer request was made is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...files.traces import NSYS, PYTORCH, SPEEDSCOPE, LoadedTrace
from ...model.traces import ImportOptions, ImportResult
from ...model.traces.gpu import devices
from ..core.locale_text import locale_numbers
from .import_preview import ImportPreview, box
from .loader import TraceSession
from .preview_models import RankTableModel, StepTableModel, preview_table

PREVIEW_DELAY_MS = 150  # a pause this long after the last change asks for a preview
GROUPING_LABELS = {
    "annotation": "record_function annotations",
    "op": "operators by self time",
    "gpu": "GPU timeline",
    "function": "functions by self time",
}
NSYS_LABEL = "the report's rows"
FORMAT_NAMES = {PYTORCH: "PyTorch / Kineto trace", SPEEDSCOPE: "speedscope profile", NSYS: "Nsight Systems summary"}
MB = 1e6


class ImportDialog(QDialog):
    """Read ``paths``, let the person shape the import, and keep the chosen :class:`ImportResult` in ``result``."""

    failed = Signal(str)  # the file cannot be imported: the message names the file and the place
    previewed = Signal()  # a new preview is shown (tests wait for it)
    suggested = Signal()  # a grouping that would explain the trace better is shown (tests wait for it)

    def __init__(self, paths: Sequence[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = [Path(p) for p in paths]
        self.trace: LoadedTrace | None = None
        self.preview_result: ImportResult | None = None
        self.options = ImportOptions()
        self.pending: int | None = None  # the preview request being waited for
        self._import_when_ready = False
        self._started = time.monotonic()
        names = ", ".join(p.name for p in self.paths)
        self.setWindowTitle(f"Import Profile — {names}")
        self.setSizeGripEnabled(True)

        self.session = TraceSession(self)
        self._finished = False
        session = self.session
        self.destroyed.connect(lambda *_: session.close())  # a thread must never outlive its dialog
        worker = self.session.worker
        worker.progressed.connect(self._progressed)
        worker.loaded.connect(self._loaded)
        worker.failed.connect(self._failed)
        worker.cancelled.connect(self.reject)
        worker.summarised.connect(self._summarised)
        worker.enriched.connect(self._enriched)  # a method runs on this thread; a lambda would run on the worker
        worker.refused.connect(self._refused)
        worker.suggested.connect(self._suggested)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(PREVIEW_DELAY_MS)
        self.debounce.timeout.connect(self._request_preview)

        self.pages = QStackedWidget()
        self.pages.addWidget(self._loading_page(names))
        self.pages.addWidget(self._options_page())
        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton("&Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.import_button.setEnabled(False)
        self.import_button.setToolTip("Replace the window's profile with this one (Undo brings the old one back)")
        self.buttons.accepted.connect(self._import_clicked)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.buttons)
        self.resize(1060, 640)
        self.session.load(self.paths)

    # -- pages -----------------------------------------------------------------
    def _loading_page(self, names: str) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        self.reading = QLabel(f"Reading {names}…")
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setFormat("%p%")
        self.progress_text = QLabel("Opening the file…")
        self.progress_text.setAlignment(Qt.AlignmentFlag.AlignRight)
        for w in (self.reading, self.progress, self.progress_text):
            layout.addWidget(w)
        hint = QLabel("Large traces stream in a few megabytes at a time; Cancel stops the reading at once.")
        hint.setStyleSheet("color: palette(mid)")
        layout.addWidget(hint)
        layout.addStretch(2)
        return page

    def _options_page(self) -> QWidget:
        self.source_label = QLabel()
        self.source_label.setWordWrap(True)
        # -- options
        self.grouping = QComboBox()
        self.grouping.setToolTip("What the components are: annotations, operators, the GPU timeline or functions")
        self.grouping.currentIndexChanged.connect(lambda _i: self._set(group_by=self.grouping.currentData()))
        self.per_step = QRadioButton("Mean per step")
        self.whole = QRadioButton("Whole trace")
        self.per_step.setToolTip("The mean over the kept ProfilerSteps")
        self.whole.setToolTip("Everything in the trace, from its first event to its last")
        self.span_group = QButtonGroup(self)
        for b in (self.per_step, self.whole):
            self.span_group.addButton(b)
        self.per_step.setChecked(True)
        self.per_step.toggled.connect(lambda on: self._set(total=not on))
        span = QHBoxLayout()
        span.addWidget(self.per_step)
        span.addWidget(self.whole)
        span.addStretch(1)
        self.top = QSpinBox()
        self.top.setRange(0, 500)
        self.top.setSpecialValueText("all")
        self.top.setValue(15)
        self.top.setToolTip("Keep the N largest rows and sum the rest into Other (all: keep every row)")
        self.top.valueChanged.connect(lambda n: self._set(top=n or None))
        self.device = QComboBox()
        self.device.setToolTip("The GPU whose timeline is split (automatic: the rank's own GPU, else the busiest)")
        self.device.currentIndexChanged.connect(lambda _i: self._set(device=self.device.currentData()))
        form = QFormLayout()
        form.addRow("Group by", self.grouping)
        form.addRow("Time", span)
        form.addRow("Top rows", self.top)
        form.addRow("GPU", self.device)
        self.form = form
        options = QGroupBox("Import as")
        options.setLayout(form)

        self.rank_model = RankTableModel()
        self.rank_view = preview_table(self.rank_model, RankTableModel.FILE)
        self.rank_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rank_view.selectionModel().selectionChanged.connect(self._rank_picked)
        self.ranks_box = box("Ranks — the straggler is what everyone waits for", self.rank_view)

        self.step_model = StepTableModel()
        self.step_model.toggled.connect(self._step_toggled)
        self.step_view = preview_table(self.step_model, StepTableModel.NOTE)
        self.leave_out = QPushButton("Leave out flagged steps")
        self.leave_out.setToolTip(
            "Untick every step (⚑) whose CPU time or GPU stretch is more than 20% away from the median "
            "(a warm-up, a checkpoint, the GPU still finishing when profiling stopped)"
        )
        self.leave_out.clicked.connect(self._leave_out_flagged)
        self.keep_all = QPushButton("Keep all")
        self.keep_all.clicked.connect(lambda: self._set(exclude_steps=frozenset()))
        step_buttons = QHBoxLayout()
        step_buttons.addWidget(self.leave_out)
        step_buttons.addWidget(self.keep_all)
        step_buttons.addStretch(1)
        self.steps_box = box("Steps — untick to leave out", self.step_view, step_buttons)

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(options)
        left.addWidget(self.ranks_box)
        left.addWidget(self.steps_box)
        left.setChildrenCollapsible(False)
        left.setStretchFactor(0, 0)
        left.setStretchFactor(1, 1)
        left.setStretchFactor(2, 2)

        # -- preview
        self.shown = ImportPreview()

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.shown)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([380, 640])
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.source_label)
        layout.addWidget(split, 1)
        return page

    # -- loading -----------------------------------------------------------------
    def _progressed(self, done: float, total: float) -> None:
        self.progress.setValue(int(1000 * done / total) if total > 0 else 0)
        elapsed = time.monotonic() - self._started
        n = locale_numbers()
        self.progress_text.setText(f"{n.number(done / MB)} of {n.number(total / MB)} MB read · {n.number(elapsed)} s")

    def _failed(self, message: str) -> None:
        self.reject()  # closed first: the message box stands alone over the window
        self.failed.emit(message)

    def _loaded(self, trace: LoadedTrace) -> None:
        self.trace = trace
        self.progress.setValue(1000)
        kinds = FORMAT_NAMES.get(trace.format, trace.format)
        ranks = f", {len(trace.ranks)} ranks" if len(trace.ranks) > 1 else ""
        self.source_label.setText(f"<b>{kinds}</b>: {', '.join(trace.sources)}{ranks}")
        self.grouping.blockSignals(True)  # filled here; only the person's choices are changes
        self.grouping.clear()
        if trace.format == PYTORCH:
            groupings = ["annotation", "op"] + (["gpu"] if any(r.events.has_gpu for r in trace.ranks) else [])
            for key in groupings:
                self.grouping.addItem(GROUPING_LABELS[key], key)
        elif trace.format == SPEEDSCOPE:
            self.grouping.addItem(GROUPING_LABELS["function"], "function")
        else:
            self.grouping.addItem(NSYS_LABEL, "op")
        self.grouping.blockSignals(False)
        self.grouping.setEnabled(self.grouping.count() > 1)
        self._show_row(self.device, False)
        self.ranks_box.setVisible(len(trace.ranks) > 1)
        self.pages.setCurrentIndex(1)
        self._request_preview()

    def _show_row(self, field: QWidget, visible: bool) -> None:
        self.form.setRowVisible(field, visible)

    # -- options -------------------------------------------------------------------
    def _set(self, **changes: object) -> None:
        new = replace(self.options, **changes)  # type: ignore[arg-type]
        if new != self.options:
            self.options = new
            self.shown.updating.setText("updating…")
            self.debounce.start()

    def _step_toggled(self, name: str, keep: bool) -> None:
        excluded = set(self.options.exclude_steps)
        excluded.discard(name) if keep else excluded.add(name)
        self._set(exclude_steps=frozenset(excluded))

    def _leave_out_flagged(self) -> None:
        flagged = {s.name for s in self.step_model.steps if s.off}
        self._set(exclude_steps=frozenset(self.options.exclude_steps | flagged))

    def _rank_picked(self) -> None:
        rows = self.rank_view.selectionModel().selectedRows()
        if rows and self.rank_model.ranks:
            self._set(rank=self.rank_model.ranks[rows[0].row()].rank)

    def _request_preview(self) -> None:
        self.debounce.stop()
        self.pending = self.session.summarise(self.options)
        self.shown.updating.setText("updating…")

    # -- preview -------------------------------------------------------------------
    def _summarised(self, request: int, result: ImportResult) -> None:
        if request != self.pending:
            return
        self.pending = None
        self.shown.updating.setText("")
        self.shown.refusal.hide()
        self.shown.suggestion.hide()
        first = self.preview_result is None
        self.preview_result = result
        if first or self.options.group_by is None:
            self.options = replace(self.options, group_by=result.group_by)
        self._show(result)
        self.import_button.setEnabled(True)
        if first:  # while reading, Cancel was the only button and held the focus: Enter would have cancelled
            self.import_button.setDefault(True)
            self.import_button.setFocus()
        self.previewed.emit()
        if self._import_when_ready and not self.debounce.isActive():
            self._import_clicked()

    def _enriched(self, request: int, result: ImportResult) -> None:
        """The critical-path times of the preview shown, when it is still the newest asked for."""
        if request == self.session.latest:
            self.shown.preview_model.enrich(result.components)

    def _suggested(self, request: int, hint: str) -> None:
        if request == self.session.latest and self.pending is None:
            self.shown.suggestion.setText(hint)
            self.shown.suggestion.show()
            self.suggested.emit()

    def _refused(self, request: int, why: str) -> None:
        if request != self.pending:
            return
        self.pending = None
        self.shown.updating.setText("")
        self.shown.refusal.setText(f"No profile with these options: {why}")
        self.shown.refusal.show()
        self.import_button.setEnabled(False)
        self._import_when_ready = False
        self.previewed.emit()

    def _show(self, result: ImportResult) -> None:
        unit = result.unit
        index = self.grouping.findData(result.group_by)
        if index >= 0:
            self.grouping.blockSignals(True)
            self.grouping.setCurrentIndex(index)
            self.grouping.blockSignals(False)
        has_steps = result.steps is not None
        self.per_step.setEnabled(has_steps)
        self.whole.blockSignals(True)
        self.per_step.blockSignals(True)
        (self.whole if self.options.total or not has_steps else self.per_step).setChecked(True)
        self.whole.blockSignals(False)
        self.per_step.blockSignals(False)
        self.top.setEnabled(result.group_by != "gpu")
        self.steps_box.setVisible(has_steps)
        self.step_model.set_steps(result.steps or (), unit)
        self.step_view.setColumnHidden(StepTableModel.GPU, not self.step_model.has_gpu)
        self.leave_out.setEnabled(any(s.off and not s.excluded for s in result.steps or ()))
        self._show_ranks(result)
        self._show_devices(result)
        events_only = self.trace is not None and self.trace.format == PYTORCH
        self.shown.show_result(result, self.options.total, events_only and not self.session.worker.has_dependencies)

    def _show_ranks(self, result: ImportResult) -> None:
        self.rank_model.set_ranks(result.ranks, result.unit)
        rows = [i for i, r in enumerate(result.ranks) if r.rank == result.rank]
        if rows:
            selection = self.rank_view.selectionModel()
            selection.blockSignals(True)
            selection.select(
                self.rank_model.index(rows[0], 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            selection.blockSignals(False)
            self.rank_view.viewport().update()

    def _show_devices(self, result: ImportResult) -> None:
        if self.trace is None or not self.trace.ranks:
            return
        chosen = next((r for r in self.trace.ranks if r.source == result.source), self.trace.ranks[0])
        found = devices(chosen.events)
        self._show_row(self.device, len(found) > 1 and result.group_by == "gpu")
        wanted = [None, *found]
        self.device.blockSignals(True)
        if [self.device.itemData(i) for i in range(self.device.count())] != wanted:
            self.device.clear()
            auto = f"automatic (GPU {result.gpu.device})" if result.gpu else "automatic"
            self.device.addItem(auto, None)
            for d in found:
                self.device.addItem(f"GPU {d}", d)
        index = 0 if self.options.device is None else max(self.device.findData(self.options.device), 0)
        self.device.setCurrentIndex(index)
        self.device.blockSignals(False)

    # -- finishing ---------------------------------------------------------------------
    def _import_clicked(self) -> None:
        if self.debounce.isActive() or self.pending is not None:
            if self.debounce.isActive():
                self._request_preview()
            self._import_when_ready = True  # the preview the person sees is about to change: import that one
            return
        if self.preview_result is not None:
            self.accept()

    def done(self, code: int) -> None:
        if self._finished:
            return  # finished already (a cancelled read reports back after Cancel closed the dialog)
        self._finished = True
        self.debounce.stop()
        trace, self.trace = self.trace, None  # the trace goes with the dialog; the chosen result stays for the import
        del trace
        self.session.close()  # and the worker's, its memory given back
        super().done(code)
