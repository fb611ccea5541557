"""Charts as the tests make and export them: the window's chart factory, inputs built from plain arguments."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QTextDocument, QTextOption
from PySide6.QtWidgets import QLabel

from amdahl_desk.model.analysis import Analysis
from amdahl_desk.model.comparison import Comparison
from amdahl_desk.model.fit import FitResult
from amdahl_desk.model.profile import Profile
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export
from amdahl_desk.ui.charts.legend_text import LEGEND_GAP
from amdahl_desk.ui.charts.style import SCREEN, Style
from amdahl_desk.ui.compare import export as compare_export


def new_chart(key: str, style: Style = SCREEN):
    return make_chart(key, style)


def inputs(profile, analysis=None, row=-1, fit=None, comparison=None) -> ChartInputs:
    return ChartInputs(profile, analysis, row, fit, comparison)


def chart_widget(
    name: str,
    profile: Profile,
    analysis: Analysis | None,
    size: tuple[int, int],
    transparent: bool = False,
    row: int = -1,
    fit: FitResult | None = None,
    comparison: Comparison | None = None,
):
    made = export.chart_widget(
        make_chart, name, ChartInputs(profile, analysis, row, fit, comparison), size, transparent
    )
    return _gone_when_closed(made)


def export_chart(
    profile: Profile,
    analysis: Analysis | None,
    name: str,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
    row: int = -1,
    fit: FitResult | None = None,
    comparison: Comparison | None = None,
) -> Path:
    made = ChartInputs(profile, analysis, row, fit, comparison)
    return export.export_chart(make_chart, name, made, fmt, path, size, transparent)


def comparison_widget(name, c, size, transparent=False, boundary="", before=None):
    made = compare_export.comparison_widget(make_chart, name, c, size, transparent, boundary, before)
    return _gone_when_closed(made)


def _gone_when_closed(widget):
    """A chart a test closes is deleted, as the window's exports delete theirs: one only closed outlives its test,
    held by its own connections, to the end of the process, where tearing it down after its scene crashed."""
    widget.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    return widget


def export_comparison(c, name, fmt, path, size=(1920, 1080), transparent=False, boundary="", before=None):
    return compare_export.export_comparison(make_chart, c, name, fmt, path, size, transparent, boundary, before)


SIZE = (1280, 720)


def not_blank(image: QImage) -> float:
    """Share of the pixels that are not white: a blank export is a bug. Every pixel counts: a grid of sampled points
    counted an axis line 1 px beside a sampled column as no ink at all (a sparse chart read 2.4% or 1.9% by it)."""
    import numpy as np

    argb = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(argb.constBits(), dtype=np.uint8).reshape(argb.height(), argb.bytesPerLine())
    bgra = pixels[:, : 4 * argb.width()].reshape(argb.height(), argb.width(), 4)
    ink = (bgra[..., 3] > 0) & (bgra[..., :3].min(axis=2) < 200)
    return float(ink.mean())


def export_of(inputs, chart, fmt, path, size=SIZE):
    return export.export_chart(make_chart, chart, inputs, fmt, path, size, False)


def text_document(label: QLabel, html: str, wrapped: bool = True) -> QTextDocument:
    """``html`` laid out in the label's font, wrapped at the label's width (or on one line)."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    option = doc.defaultTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)  # as a label wraps (a document's own default breaks words)
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    doc.setTextWidth(label.contentsRect().width() if wrapped else -1)
    return doc


def _lines(doc: QTextDocument) -> list[tuple[int, int]]:
    """Where each laid-out line of the document's (one) paragraph starts and ends in its plain text."""
    doc.size()  # laid out
    layout = doc.begin().layout()
    spans = [(layout.lineAt(i).textStart(), layout.lineAt(i).textLength()) for i in range(layout.lineCount())]
    return [(start, start + length) for start, length in spans]


def legend_problems(widget) -> list[str]:
    """Each legend entry that fits on a line of its legend yet is broken across two, one wider than a line that does
    not start a line of its own, each legend wider or taller than its label (an entry cut at its edge), and each
    legend whose names were shortened ("…", whole only on hover: no slide shows a hover)."""
    found = []
    for label in widget.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or "white-space: " not in text:
            continue
        if label.toolTip():
            found.append(f"names shortened at {label.width()}×{label.height()}: {label.toolTip()!r}")
        room = label.contentsRect()
        doc = text_document(label, text)
        if doc.idealWidth() > room.width() + 1 or doc.size().height() > room.height() + 1:
            found.append(f"{doc.toPlainText()!r} needs {doc.idealWidth():.0f}×{doc.size().height():.0f}, has {room}")
        lines, plain, start = _lines(doc), doc.toPlainText(), 0
        for part in re.split(f"{re.escape(LEGEND_GAP)}|<br>", text):
            alone = text_document(label, part, wrapped=False)
            entry = alone.toPlainText()
            start = plain.index(entry, start)
            end = start + len(entry)
            whole = any(a <= start and end <= b for a, b in lines)
            if alone.idealWidth() <= room.width() and not whole:
                found.append(f"{entry!r} broken across lines at {room.width()} px")
            elif alone.idealWidth() > room.width() and start not in (a for a, _ in lines):
                found.append(f"{entry!r}, wider than a line, wraps from the end of another's line")
            start = end
    return found


def widows(widget) -> list[tuple[str, str]]:
    """Each wrapped label under ``widget`` whose last line holds one word alone (its text's end, the word)."""
    found = []
    for label in widget.findChildren(QLabel):
        if not label.isVisible() or not label.wordWrap() or not label.text():
            continue
        doc = text_document(label, label.text())
        plain = doc.toPlainText()
        lines = _lines(doc)
        if len(lines) >= 2 and len(plain.split()) > 2:
            last = plain[slice(*lines[-1])].split()
            if len(last) == 1:
                found.append((plain[-60:], last[0]))
    return found
