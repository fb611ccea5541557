"""The line under the components table: the baseline total, and the new total when optimizations are ticked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ...model.units import format_speedup, format_time
from ..core.document import Aspect, Document
from ..core.locale_text import localize_numbers
from ..core.redraw import RedrawScheduler


def held(phrase: str) -> str:
    """A phrase whose words stay on one line ("550 ms" is never split from its unit)."""
    return phrase.replace(" ", "&nbsp;")  # the tags here (<b>, </b>) hold no spaces


class TotalLine(QLabel):
    def __init__(self, doc: Document, redraws: RedrawScheduler, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        # A narrow window wraps the line (between phrases) rather than cut "saves 450 ms" off at the edge.
        self.setWordWrap(True)
        redraws.subscribe({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS}, self.refresh)

    def refresh(self) -> None:
        profile, analysis = self.doc.profile, self.doc.analysis
        unit = profile.unit
        n = len(profile.components)
        if analysis is None:
            text = f"{n:,} components · {self.doc.analysis_error or ''}"
        else:
            c = analysis.combined
            text = " ".join(
                held(p)
                for p in (f"<b>Total {format_time(analysis.baseline_total, unit)}</b>", f"over {n:,} components")
            )
            if c.enabled:
                text += " " + " ".join(
                    held(p)
                    for p in (
                        f"→ <b>{format_time(c.new_total, unit)}</b>",
                        f"after {c.enabled} optimization{'s' if c.enabled != 1 else ''}",
                        f"({format_speedup(c.overall_speedup)}, saves {format_time(c.time_saved, unit)})",
                    )
                )
        text = localize_numbers(text)
        if self.text() != text:
            self.setText(text)
