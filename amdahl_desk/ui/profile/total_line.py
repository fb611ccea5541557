"""The line under the components table: the baseline total, and the new total when optimizations are ticked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from ...present.cells import total_line
from ..core.document import Document
from ..core.locale_text import locale_numbers
from ..core.redraw import RedrawScheduler
from ..core.state import Aspect


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
        redraws.subscribe({Aspect.COMPONENTS, Aspect.OPTIMIZATIONS, Aspect.SETTINGS, Aspect.TRACE}, self.refresh)

    def refresh(self) -> None:
        doc = self.doc
        link = getattr(doc, "trace", None)  # the new total with the trace's dependencies, when it has one
        phrases = total_line(
            doc.profile, doc.analysis, doc.analysis_error, locale_numbers(), link.figures if link is not None else None
        )
        text = phrases[0] if doc.analysis is None else " ".join(held(p) for p in phrases)
        if self.text() != text:
            self.setText(text)
