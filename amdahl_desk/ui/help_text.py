"""Help ▸ How Amdahl Desk Computes, and About."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from .. import __version__
from ..model.profile import OverheadModel
from ..present.settings_words import overhead_description


def show_help(parent: QWidget) -> None:
    models = "".join(f"<li><b>{m.value}</b>: {overhead_description(m)}</li>" for m in OverheadModel)
    QMessageBox.information(
        parent,
        "How Amdahl Desk computes",
        (
            "<p><b>One optimization</b>: f is its targets' share of the baseline time, k its local speedup. "
            "S = 1/((1−f)+f/k); new time T1·((1−f)+f/k); ceiling 1/(1−f).</p>"
            "<p><b>Several</b>: each component's new time is its time ÷ the product of the k of the enabled "
            "optimizations that target it; S = T1 ÷ Σ new times. Speedups are never added.</p>"
            "<p><b>Target</b>: the enabled optimizations' components need k = f·T1/(T − (1−f)·T1); no k is enough "
            "when T ≤ (1−f)·T1.</p>"
            f"<p><b>GPU scaling</b>, relative to N0: Amdahl 1/((1−P)+P·N0/N); with overhead T1/T(N), "
            f"T(N) = serial + parallel·N0/N + comm(N):</p><ul>{models}</ul>"
            "<p>Gustafson (1−P)+P·N/N0; efficiency = S ÷ (N/N0).</p>"
            "<p>Measure → estimate → optimize → measure again: use time fractions inside a stated boundary.</p>"
        ),
    )


def show_about(parent: QWidget) -> None:
    QMessageBox.about(
        parent,
        "About Amdahl Desk",
        f"<b>Amdahl Desk {__version__}</b><p>Decide which optimization is worth building.</p>",
    )
