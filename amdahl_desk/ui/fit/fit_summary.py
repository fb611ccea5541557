"""The fit in words and figures: the regime, Amdahl's P, the USL coefficients, the peak, and what to trust."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...model.fit import FitResult
from ...model.fit_text import profile_comparison, regime_sentence
from ...present.fit import fit_figures
from ..core.locale_text import localize_numbers
from ..core.measurement_table import MeasurementTable


def figures(fit: FitResult) -> list[tuple[str, str, str]]:
    """(name, value, what it means) for the figures grid, in reading order: the presentation's fit figures."""
    return [(f.label, f.text, f.note) for f in fit_figures(fit)]


def waiting_sentences(table: MeasurementTable) -> list[str]:
    what = {"n": "its N", "value": f"its {table.kind.value}"}
    return [f"Row {row + 1} needs {what[f]}; the fit leaves it out until then." for row, f in table.waiting()]


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

    def show_fit(self, fit: FitResult, table: MeasurementTable, profile_p: float | None) -> None:
        regime = regime_sentence(fit)
        if regime is None and fit.amdahl is not None:
            regime = next((n for n in fit.notes if n.startswith("Amdahl fit")), None)
        empty = "Type or paste runs: N and a time or throughput for each, 3 or more at different N."
        self._set(self.headline, html.escape(regime or (empty if not len(table.rows) else "No fit yet.")))
        cells = "".join(
            f"<tr><td style='padding-right:10px'>{html.escape(name)}</td>"
            f"<td align='right' style='padding-right:10px'><b>{html.escape(value)}</b></td>"
            f"<td style='color:#666'>{html.escape(meaning)}</td></tr>"
            for name, value, meaning in figures(fit)
        )
        self._set(self.grid, f"<table cellspacing='0'>{cells}</table>" if cells else "")
        notes = [n for n in fit.notes if n != regime] + waiting_sentences(table)
        if profile_p is not None:
            said = profile_comparison(profile_p, fit)
            if said:
                notes.append(said)
        weak = [n for n in notes if "weakly" in n or "standard error" in n or "extrapolation" in n]
        shown = [f"<b style='color:#a33'>{html.escape(n)}</b>" if n in weak else html.escape(n) for n in notes]
        self._set(self.notes, "<br>".join(shown))

    @staticmethod
    def _set(label: QLabel, text: str) -> None:
        text = localize_numbers(text)
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
