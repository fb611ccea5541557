"""The window as laptops and desktops show it: the profiles whose answer is widest (the training example with
ranges, the LLM example, a trace), the sizes the project supports, and what "shown whole" means for tabs and
the checklist."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QTabBar

from amdahl_desk.resources import example_path
from amdahl_desk.ui.core.tab_rows import TabRows

from .painting import quiet

SIZES = [(1280, 720), (1600, 1000), (1920, 1080), (2560, 1440)]
PROFILES = ["ranges", "llm", "trace", "llm-ranges"]
TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "real_traces" / "kineto_1gpu_ns_timestamps.json.gz"


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def open_profile(window, qtbot, which: str) -> None:
    """Open ``which`` in ``window``: "ranges" (the training example with k ranges, efforts and confidences on
    three optimizations), "llm" (the LLM example), "trace" (a PyTorch trace, imported) or "llm-ranges" (the LLM
    example with Ranges pressed, k ranges and efforts given and a target of 1,000 ms: the odds and the plan
    shown), and wait for its odds."""
    if which == "ranges":
        opts = list(window.doc.profile.optimizations)
        opts[0] = replace(opts[0], speedup_low=2.0, speedup_high=6.0, effort=5.0, confidence=0.8)
        opts[1] = replace(opts[1], speedup_low=1.5, speedup_high=3.0, effort=3.0, confidence=0.9)
        opts[2] = replace(opts[2], speedup_low=1.2, speedup_high=2.5, effort=8.0)
        window.doc.set_optimizations(opts, "Give the estimates ranges")
    elif which == "llm":
        assert window.files.open_path(example_path("llm-request.xlsx"), ask=False)
    elif which == "llm-ranges":
        assert window.files.open_path(example_path("llm-request.xlsx"), ask=False)
        window.optimizations.estimates.button.click()
        opts = list(window.doc.profile.optimizations)
        opts[0] = replace(opts[0], speedup_low=1.5, speedup_high=3.0, effort=10.0, confidence=0.8)
        opts[1] = replace(opts[1], speedup_low=1.2, speedup_high=2.0, effort=4.0, confidence=0.9)
        opts[2] = replace(opts[2], speedup_low=1.5, speedup_high=3.0, effort=3.0)
        window.doc.set_optimizations(opts, "Give the estimates ranges")
        window.doc.change_settings("Set the target", target_time=1000.0)
    else:
        assert window.trace_import.import_at_once(TRACE)
        qtbot.waitUntil(lambda: window.results._trace_tabs)
        # The trace is read again on a thread for its critical path: until then that chart's title says "reading
        # the trace…", an ellipsis that is no cut.
        qtbot.waitUntil(lambda: not window.doc.trace.busy, timeout=60_000)
    qtbot.waitUntil(lambda: not window.doc.decision.busy)
    window.drawn()


def show_at(window, qtbot, size: tuple[int, int]) -> None:
    window.resize(*size)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
    window.reset_layout()
    window.drawn()
    quiet(qtbot, window)


def cut_tabs(root) -> list[str]:
    """The titles of the visible tabs under ``root`` that are not shown whole: elided or cut by a tab bar, outside
    their row of tabs, or drawn over another tab."""
    cut = []
    for bar in root.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            if not bar.isTabVisible(i):
                continue
            rect = bar.tabRect(i)  # narrower than the bar would make it for its whole title: elided
            if rect.width() + 1 < bar.tabSizeHint(i).width() or not bar.rect().contains(rect):
                cut.append(bar.tabText(i))
    for rows in root.findChildren(TabRows):
        if not rows.isVisible():
            continue
        fm = QFontMetrics(rows.font())
        space = rows.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, rows)  # the text's margins
        rects = rows.tab_rects()
        shown = [i for i in range(rows.pages.count()) if rows.pages.isTabVisible(i)]
        assert sorted(rects) == shown  # every visible tab has its place
        for i, rect in rects.items():
            text = rows.pages.tabText(i)
            overlaps = any(j != i and rect.intersects(other) for j, other in rects.items())
            if fm.horizontalAdvance(text) + space > rect.width() or not rows.rect().contains(rect) or overlaps:
                cut.append(text)
        # the rows end above the pages: no tab hides a chart's title
        assert rows.geometry().bottom() < rows.pages.geometry().top()
    return cut


def checklist_out_of_view(window) -> list[str]:
    """The checklist's shown columns that are not whole in its viewport (off to the right, or their header's
    lines wider than the column), as their headers."""
    return columns_out_of_view(window.optimizations.view)


def components_out_of_view(window) -> list[str]:
    """The components table's shown columns that are not whole in its viewport (off to the right, their header's
    lines wider than the column, or a number wider than its column), as their headers."""
    from amdahl_desk.ui.profile.component_table import NUMBER_COLUMNS

    return columns_out_of_view(window.table, NUMBER_COLUMNS)


def columns_out_of_view(view, numbers=frozenset()) -> list[str]:
    """A table's shown columns that are not whole in its viewport, as their headers; the columns in ``numbers``
    also hold each of their values whole (a cut number is a different number)."""
    header = view.horizontalHeader()
    model, width = view.model(), view.viewport().width()
    fm = QFontMetrics(header.font())
    cells = view.fontMetrics()
    out = []
    for col in range(model.columnCount()):
        if view.isColumnHidden(col):
            continue
        title = str(model.headerData(col, Qt.Orientation.Horizontal))
        left = header.sectionViewportPosition(col)
        lines = header.shown_title(col)
        header_fits = max(fm.horizontalAdvance(t) for t in lines) <= view.columnWidth(col) - 4
        tall = header.height() >= fm.lineSpacing() * len(lines)
        texts = [str(model.data(model.index(r, col)) or "") for r in range(model.rowCount())] if col in numbers else []
        digits = all(cells.horizontalAdvance(t) <= view.columnWidth(col) for t in texts)
        if left < 0 or left + view.columnWidth(col) > width or not header_fits or not tall or not digits:
            out.append(title)
    if view.horizontalScrollBar().maximum() > 0:
        out.append("(scrolls sideways)")
    return out
