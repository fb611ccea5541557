"""The fit in words and figures: the regime, Amdahl's P, the USL coefficients, the peak, and what to trust."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...model.fit import FitResult
from ...model.measurement_table import MeasurementTable
from ...present.fit import fit_view, waiting_sentences
from ...present.tones import TONE_COLOURS, Tone
from ..core.locale_text import locale_numbers


class FitSummary(QFrame):
    """The regime sentence in bold over a grid of the fitted figures and the notes a reviewer reads."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        self.headline = QLabel(self)
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.headline.setFont(font)
        self.grid = QLabel(self)
        self.notes = QLabel(self)
        self.notes.setStyleSheet("color: #333;")
        for label in (self.headline, self.grid, self.notes):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            layout.addWidget(label)
        layout.addStretch(1)
        self._waiting: tuple[MeasurementTable, list[str]] | None = None  # the runs' sentences, made once per table

    def show_fit(self, fit: FitResult, table: MeasurementTable, profile_p: float | None) -> None:
        n = locale_numbers()
        if self._waiting is None or self._waiting[0] is not table:  # O(runs): only when the runs change
            self._waiting = (table, waiting_sentences(table))
        view = fit_view(fit, tuple(self._waiting[1]), profile_p, n, runs=len(table.rows))
        self._set(self.headline, html.escape(view.headline))
        cells = "".join(
            f"<tr><td style='padding-right:10px'>{html.escape(f.name)}</td>"
            f"<td align='right' style='padding-right:10px'><b>{html.escape(f.value)}</b></td>"
            f"<td style='color:#666'>{html.escape(f.meaning)}</td></tr>"
            for f in view.figures
        )
        self._set(self.grid, f"<table cellspacing='0'>{cells}</table>" if cells else "")
        shown = [
            f"<b style='color:{TONE_COLOURS[Tone.BAD]}'>{html.escape(t)}</b>" if weak else html.escape(t)
            for t, weak in zip(view.notes, view.weak, strict=True)
        ]
        self._set(self.notes, "<br>".join(shown))

    @staticmethod
    def _set(label: QLabel, text: str) -> None:
        if label.text() != text:
            label.setText(text)
            label.setVisible(bool(text))

    def plain_text(self) -> str:
        """Everything shown, as text (tests read this)."""
        from PySide6.QtGui import QTextDocument

        parts = []
        for label in (self.headline, self.grid, self.notes):
            doc = QTextDocument()
            doc.setHtml(label.text())
            parts.append(doc.toPlainText())
        return "\n".join(parts)
