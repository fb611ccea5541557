"""The comparison view: predicted against measured, the reviewer's sentence, the table, the chart, what to do next."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from ...model.adoption import Continued
from ...model.comparison import Comparison, Status
from ...model.errors import ProfileError
from ...present.colours import PANEL
from ...present.comparison import adopted_text, comparison_figures, names_list
from ...present.comparison_words import (
    adoption_notes,
    bottleneck_sentence,
    comparison_sentence,
    comparison_title,
    comparison_warnings,
)
from ...present.refusals import error_text, problem_text
from ...present.tones import TONE_COLOURS, Tone
from ..charts.base import Chart
from ..charts.registry import CHART_TITLES, COMPARISON_CHARTS
from ..charts.style import Style
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.redraw import RedrawScheduler
from ..core.style_sheets import ERROR_TEXT, MUTED_TEXT
from .comparison_chart import ComparisonChart
from .comparison_table import AFTER_NAME, UNPAIR, ComparisonTableModel
from .comparison_view import ComparisonTableView
from .dependencies import DependencyLine
from .loading import load_after
from .session import ComparisonSession

IMAGE_FILTERS = {"png": "PNG image (*.png)", "svg": "SVG drawing (*.svg)", "pdf": "PDF document (*.pdf)"}


class Host(Protocol):
    """What the panel needs of the window: its document, its dialogs and its open-document path."""

    doc: Document

    def choose_file(self, save: bool, suggested: str = ..., filters: str = ..., title: str = ...) -> str: ...
    def show_error(self, title: str, text: str) -> None: ...
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def continue_from(self, continued: Continued, source: Path) -> bool: ...
    def make_chart(self, key: str, style: Style) -> Chart[Any]: ...


class _Figure(QWidget):
    """One headline number over its caption."""

    def __init__(self, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setSpacing(0)
        self.value = QLabel("—", self)
        f = self.value.font()
        f.setPointSizeF(f.pointSizeF() * 1.8)
        f.setBold(True)
        self.value.setFont(f)
        self.caption = QLabel(self)
        self.caption.setStyleSheet(MUTED_TEXT)
        for w in (self.value, self.caption):
            w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            w.setMinimumWidth(40)
            layout.addWidget(w)
        layout.addStretch(1)  # a one-line caption stays under its number beside a two-line one
        self.setToolTip(tip)

    def set(self, value: str, caption: str, color: str = TONE_COLOURS[Tone.PLAIN]) -> None:
        self.value.setText(value)
        self.value.setStyleSheet(f"color: {color};")
        self._caption = caption
        self.caption.setToolTip(caption)
        self._elide()

    def _elide(self) -> None:
        # A caption longer than its column breaks at a word onto a second line, and only what still does not fit
        # ends in "…" (whole in the tooltip): "predicted by the p…" in a narrow column said too little.
        text = two_lines(getattr(self, "_caption", ""), self.caption.fontMetrics(), max(20, self.caption.width()))
        if self.caption.text() != text:
            self.caption.setText(text)

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        self._elide()


def two_lines(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` in at most two lines of ``width`` pixels, broken at a space, the second elided with "…"."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")
    first = words[0]
    rest = 1
    while rest < len(words) and metrics.horizontalAdvance(f"{first} {words[rest]}") <= width:
        first = f"{first} {words[rest]}"
        rest += 1
    elide = Qt.TextElideMode.ElideRight
    if rest == len(words) or metrics.horizontalAdvance(words[0]) > width:
        return metrics.elidedText(text, elide, width)  # one word wider than the column: one elided line
    return f"{first}\n{metrics.elidedText(' '.join(words[rest:]), elide, width)}"


class ComparisonPanel(QWidget):
    """One window's comparison view; shown as a tab beside the plan's results while a comparison is open."""

    def __init__(self, host: Host, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.session = ComparisonSession(host.doc, redraws, self)
        self.model = ComparisonTableModel(self.session)
        self.model.pairRequested.connect(self._pair_requested, Qt.ConnectionType.QueuedConnection)
        self.setObjectName("comparisonPanel")
        self._rows_shown = -1
        self._build()
        self.session.changed.connect(self._show)
        self.dependency_line = DependencyLine(self.session, host.doc, self)  # both sides traces: with dependencies
        self.dependency_line.changed.connect(lambda: self._show_dependencies())
        self._show()

    # -- layout --------------------------------------------------------------------
    def _build(self) -> None:
        head = QFrame(self)
        head.setObjectName("comparisonHead")
        head.setFrameShape(QFrame.Shape.StyledPanel)
        head.setStyleSheet(f"#comparisonHead {{ background: {PANEL}; }}")
        grid = QGridLayout(head)
        grid.setContentsMargins(10, 6, 10, 8)
        self.predicted = _Figure("Predicted S: the plan (the before profile's enabled optimizations), end to end")
        self.measured = _Figure("Measured S = before total ÷ after total")
        self.gap = _Figure("Measured after total − the after total the plan promised")
        self.largest = _Figure("The largest component after the change, and its share of the after total")
        for col, fig in enumerate((self.predicted, self.measured, self.gap, self.largest)):
            grid.addWidget(fig, 0, col)
            grid.setColumnStretch(col, 1)
        self.sentence = QLabel(head)
        self.dependencies = QLabel(head)
        self.bottleneck = QLabel(head)
        for label in (self.sentence, self.dependencies, self.bottleneck):
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.notes = QLabel(head)
        self.notes.setStyleSheet("color: #8a4b00;")
        self.notes.setTextFormat(Qt.TextFormat.PlainText)  # names are a person's text, never markup
        for row, label in enumerate((self.sentence, self.dependencies, self.bottleneck, self.notes), start=1):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            grid.addWidget(label, row, 0, 1, 4)
        bold = self.sentence.font()
        bold.setBold(True)
        self.sentence.setFont(bold)

        self.table = ComparisonTableView(self.model, self)
        self.chart = ComparisonChart()
        self.chart.setMinimumHeight(160)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.chart)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        self.splitter = split

        self.pair_button = QPushButton("Pai&r With…", self)
        self.pair_button.setToolTip("Pair the selected component with a renamed one in the after profile (F2)")
        self.pair_button.clicked.connect(self.table.edit_pair)
        self.unpair_button = QPushButton("&Unpair", self)
        self.unpair_button.setToolTip("Undo a pair made by hand: match the selected component by name again")
        self.unpair_button.clicked.connect(self.unpair_current)
        self.adopt_button = QPushButton("&Adopt Measured k", self)
        self.adopt_button.setToolTip(
            "Set each enabled optimization's k to the effective k measured on its targets, as one undoable step"
        )
        self.adopt_button.clicked.connect(self.adopt)
        self.continue_button = QPushButton("C&ontinue From After", self)
        self.continue_button.setToolTip(
            "Open the after profile as the new working document, with the plan's optimizations carried over unticked"
        )
        self.continue_button.clicked.connect(self.continue_from_after)
        # A push button with a menu: its size counts the menu arrow (a tool button's drew the arrow over the "t").
        self.export_button = QPushButton("Expor&t", self)
        menu = QMenu(self.export_button)
        self.export_action = menu.addAction("Export Chart or Slide…", self.export_dialog)
        menu.addAction("Copy Slide Image", lambda: self.copy_image("comparison-slide"))
        menu.addAction("Copy Chart Image", lambda: self.copy_image("comparison"))
        menu.addAction("Copy Command Line", self.copy_command_line)
        self.export_button.setMenu(menu)
        buttons = QHBoxLayout()
        for button in (self.pair_button, self.unpair_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        for action in (self.adopt_button, self.continue_button, self.export_button):
            buttons.addWidget(action)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(head)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._update_buttons())
        self.setTabOrder(self.table, self.pair_button)

    # -- opening -----------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Compare the document with the profile in ``path``; a message and nothing changed when it cannot."""
        path = Path(path)
        try:
            after, warnings = load_after(path, self.host.doc.path, self.host.doc.profile.settings)
            self.session.open(after, path, warnings)
        except ProfileError as exc:
            self.host.show_error(
                "Cannot compare",
                f"{path.name} cannot be compared with this profile:\n\n{error_text(exc, locale_numbers())}",
            )
            return False
        c = self.session.comparison
        if c is not None:
            self.host.statusBar().showMessage(
                f"Compared with {path.name}: {comparison_title(c, locale_numbers())}", 8000
            )
        self.table.fit_columns()
        return True

    @property
    def comparison(self) -> Comparison | None:
        return self.session.comparison

    # -- showing -------------------------------------------------------------------------
    def _show(self) -> None:
        c, s = self.session.comparison, self.session
        if c is None:
            for fig in (self.predicted, self.measured, self.gap, self.largest):
                fig.set("—", "")
            self.sentence.setText(s.error or "No comparison open: File → Compare With…")
            self.sentence.setStyleSheet(ERROR_TEXT if s.error else "")
            self.bottleneck.setText(
                "The plan or the times changed so that the two cannot be compared." if s.error else ""
            )
            self.notes.setText("")
            self.chart.setVisible(False)
            self._update_buttons()
            return
        self.sentence.setStyleSheet("")
        n = locale_numbers()
        for widget, shown in zip(
            (self.predicted, self.measured, self.gap, self.largest), comparison_figures(c, n), strict=True
        ):
            widget.set(shown.value, shown.caption, TONE_COLOURS[shown.tone])
            widget.setToolTip(shown.tip or shown.caption)
        self.sentence.setText(comparison_sentence(c, n=n))
        self.bottleneck.setText(bottleneck_sentence(c.bottleneck, n))
        self.notes.setText(" ".join(self._notes(c)))
        self.notes.setVisible(bool(self.notes.text()))
        self._show_dependencies()
        self.chart.setVisible(True)
        self.chart.show_comparison(c)
        self._update_buttons()
        if len(c.rows) != self._rows_shown:
            self.fit_layout()

    def _show_dependencies(self) -> None:
        text = self.dependency_line.text if self.session.comparison is not None else ""
        self.dependencies.setText(text)
        self.dependencies.setVisible(bool(text))

    def fit_layout(self) -> None:
        """Every row of the table in view without scrolling (up to a dozen); the chart takes the rest."""
        if not self.isVisible() or self.session.comparison is None:
            return
        self._rows_shown = len(self.session.comparison.rows)
        self.table.fit_columns()
        total = sum(self.splitter.sizes())
        table = self.table.rows_height()
        self.splitter.setSizes([table, max(total - table, self.chart.minimumHeight())])

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().showEvent(event)
        self.fit_layout()

    def _notes(self, c: Comparison) -> list[str]:
        added = [r.name for r in c.rows if r.status is Status.ADDED]
        removed = [r.name for r in c.rows if r.status is Status.REMOVED]
        notes = []
        if added:
            notes.append(f"Added (only after): {names_list(added, locale_numbers())}.")
        if removed:
            notes.append(
                f"Removed (only before): {names_list(removed, locale_numbers())}; pair a renamed one with Pair With… (F2)."
            )
        if c.pairs:
            notes.append("Paired by hand: " + "; ".join(f"{b} = {a}" for b, a in c.pairs) + ".")
        if self.session.after_path is not None and c.after_unit is not c.unit:
            notes.append(f"The after profile's times are converted from {c.after_unit.label} to {c.unit.label}.")
        notes += [w[0].upper() + w[1:] + "." for w in comparison_warnings(c)]
        notes += [
            f"{self.session.after_path.name if self.session.after_path else 'After'}: {problem_text(w, locale_numbers())}"
            for w in self.session.after_warnings
        ]
        notes += self.session.notes
        return notes

    def _current_row(self) -> int:
        return self.table.currentIndex().row()

    def _update_buttons(self) -> None:
        c = self.session.comparison
        row = self._current_row()
        rows = c.rows if c is not None else ()
        current = rows[row] if 0 <= row < len(rows) else None
        self.pair_button.setEnabled(current is not None and current.before is not None)
        self.unpair_button.setEnabled(current is not None and self.session.hand_paired(current.name))
        self.adopt_button.setEnabled(c is not None and any(o.enabled for o in self.host.doc.profile.optimizations))
        self.continue_button.setEnabled(self.session.active)
        self.export_button.setEnabled(c is not None)

    # -- pairing -------------------------------------------------------------------------
    def pair(self, before: str, after: str | None) -> bool:
        """Pair by hand (None: unpair); a refusal is shown, and nothing changes."""
        try:
            self.session.pair(before, after)
        except ProfileError as exc:
            self.host.show_error("Cannot pair", error_text(exc, locale_numbers()))
            return False
        row = next((i for i, r in enumerate(self.model.rows) if r.name == before), 0)
        self.table.setCurrentIndex(self.model.index(row, AFTER_NAME))
        self.host.statusBar().showMessage(
            f"Paired {before} with {after}" if after else f"{before} is matched by name again", 5000
        )
        return True

    def _pair_requested(self, before: str, after: str) -> None:
        self.pair(before, None if after == UNPAIR else after)

    def unpair_current(self) -> bool:
        row = self._current_row()
        if not 0 <= row < len(self.model.rows):
            return False
        return self.pair(self.model.rows[row].name, None)

    # -- acting on it ---------------------------------------------------------------------
    def adopt(self) -> bool:
        """Adopt the measured k as one undoable step of the document (Edit → Undo restores the plan)."""
        adoption = self.session.adopt()
        status = self.host.statusBar()
        if adoption is None:
            status.showMessage("Nothing to adopt: the plan's k already are the measured ones", 8000)
            return False
        done = [a for a in adoption.changes if a.measured is not None]
        status.showMessage(
            "Adopted measured k: "
            + adopted_text(done, locale_numbers())
            + " (Edit → Undo restores the plan)"
            + ("".join(f". {note}" for note in adoption_notes(adoption, locale_numbers()))),
            15000,
        )
        return True

    def continue_from_after(self) -> bool:
        """The after profile as the new working document, through the window's open path (asks to save first)."""
        continued = self.session.continued()
        path = self.session.after_path
        if continued is None or path is None:
            return False
        return self.host.continue_from(continued, path)

    def export_dialog(self, chart: str = "comparison-slide") -> None:
        from ..charts.export_dialog import ExportDialog, export_title

        dialog = ExportDialog(chart, self, COMPARISON_CHARTS, "Comparison")
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        name, fmt, size, transparent = dialog.choice()
        before = self.host.doc.path.stem if self.host.doc.path else "profile"
        after = self.session.after_path.stem if self.session.after_path else "after"
        path = self.host.choose_file(
            save=True,
            suggested=f"{before}-vs-{after}-{name}.{fmt}",
            filters=IMAGE_FILTERS[fmt],
            title=f"{export_title(name, 'Comparison')} as {fmt.upper()}",
        )
        if path:
            self.export_to(Path(path), name, fmt, size, transparent)

    def export_to(
        self, path: Path, name: str, fmt: str, size: tuple[int, int] = (1920, 1080), transparent: bool = False
    ) -> bool:
        from .export import export_comparison

        c = self.session.comparison
        if c is None:
            self.host.show_error("Cannot export", self.session.error or "No comparison is open.")
            return False
        if path.suffix.lower() != f".{fmt}":
            path = path.with_suffix(f".{fmt}")
        try:
            export_comparison(self.host.make_chart, c, name, fmt, path, size, transparent, before=self.host.doc.profile)
        except OSError as exc:
            self.host.show_error("Cannot export", f"{path}: {exc.strerror or exc}")
            return False
        self.host.statusBar().showMessage(f"Exported {path.name} ({size[0]}×{size[1]})", 8000)
        return True

    def copy_image(self, name: str, size: tuple[int, int] = (1920, 1080)) -> bool:
        from ..charts.export import render_image
        from .export import comparison_widget

        c = self.session.comparison
        if c is None:
            return False
        widget = comparison_widget(self.host.make_chart, name, c, size, before=self.host.doc.profile)
        QGuiApplication.clipboard().setImage(render_image(widget, size))
        widget.close()
        widget.deleteLater()
        self.host.statusBar().showMessage(f"Copied the {CHART_TITLES[name].lower()} to the clipboard", 8000)
        return True

    def copy_command_line(self) -> str:
        """The same comparison, hand-made pairs included, as an ``amdahl-desk compare`` line on the clipboard."""
        line = self.session.command_line(self.host.doc.path)
        QGuiApplication.clipboard().setText(line)
        self.host.statusBar().showMessage(f"Copied: {line}", 8000)
        return line
