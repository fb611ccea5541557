"""The fit in words and figures: the regime, Amdahl's P, the USL coefficients, the peak, and what to trust."""

from __future__ import annotations

import html
import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...model.fit import FitResult
from ...model.fit_text import count, percent, profile_comparison, regime_sentence
from ...model.units import format_number, format_speedup
from ..core.locale_text import localize_numbers
from ..core.measurement_table import MeasurementTable
from .measured_values import throughput_scale


def _pm(value: float, err: float, digits: int = 3) -> str:
    """An estimate with its standard error: "0.0277 ± 0.0091"; no error from exactly 3 runs."""
    shown = f"{value:.{digits}g}"
    return f"{shown} ± {err:.2g}" if math.isfinite(err) else f"{shown} (± needs 4+ runs)"


def _rate(value: float | None, unit: str) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    return f"{format_number(value)} {unit}".strip()


def figures(fit: FitResult) -> list[tuple[str, str, str]]:
    """(name, value, what it means) for the figures grid, in reading order."""
    scale, unit = throughput_scale(fit.measurements)  # runtimes: X = 1/T, shown in runs per second
    rows: list[tuple[str, str, str]] = []
    a, u = fit.amdahl, fit.usl
    if a is not None:
        rows.append(
            ("Amdahl P", f"{percent(a.parallel_fraction)} ± {percent(a.stderr)}", "parallel share, least squares")
        )
        rows.append(("ceiling", format_speedup(a.ceiling), "1/(1−P): no number of workers beats it"))
    if u is not None:
        rows += [
            ("USL α", _pm(u.alpha, u.alpha_stderr), "contention"),
            ("USL β", _pm(u.beta, u.beta_stderr), "coherency, crosstalk"),
            ("USL γ", _pm(u.gamma * scale, u.gamma_stderr * scale, 4), f"throughput at N = 1 ({unit})"),
            ("R²", f"{u.r_squared:.4f}" if math.isfinite(u.r_squared) else "—", "share of the variation explained"),
        ]
        if u.peak_n is not None:
            rows.append(("peak N*", format_number(u.peak_n), f"X(N*) = {_rate((u.peak_x or 0) * scale, unit)}"))
        else:
            rows.append(("peak N*", "none", "β = 0: the curve never turns down"))
        rows.append(("limit γ/α", _rate(u.limit_x * scale, unit), "what contention alone caps throughput at"))
    half = u.half_efficiency_n if u is not None else a.half_efficiency_n if a is not None else None
    if u is not None or a is not None:
        measured = fit.measured_half_efficiency_n
        seen = f"; runs: N = {count(measured)}" if measured is not None else ""
        rows.append(("50% efficiency", f"N ≈ {count(half)}" if half is not None else "never", f"fitted{seen}"))
    if fit.karp_flatt_trend is not None:
        meaning = {
            "rising": "overhead grows with N, not a fixed serial part",
            "falling": "a start-up cost that larger runs amortise",
            "steady": "a fixed serial part, as Amdahl assumes",
        }[fit.karp_flatt_trend]
        rows.append(("Karp–Flatt e", fit.karp_flatt_trend, meaning))
    return rows


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
        self._waiting: tuple[MeasurementTable, list[str]] | None = None  # the runs' sentences, made once per table

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
        if self._waiting is None or self._waiting[0] is not table:  # O(runs): only when the runs change
            self._waiting = (table, waiting_sentences(table))
        notes = [n for n in fit.notes if n != regime] + self._waiting[1]
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
