"""Each component keeps its colour when the sizes change order. The summary, the objectives, load and cost, the
tabs, the checklist and every chart's labels are checked once per profile and size by test_small_screens, with the
helpers below."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel

from .painting import quiet


def _plain(text: str) -> str:
    return text.replace("\xa0", " ").replace("\u2060", "")


def chart_labels_outside_plots(window) -> list[tuple[str, str]]:
    """(chart, text) of each visible label outside its plot's scene, and of each cut chart title that keeps no
    whole title in its tooltip (a cut title ends in "…"; "reading the trace…" is whole)."""
    found = []
    for key, chart in window.results.charts.items():
        if not chart.isVisible():
            continue
        for view in chart.findChildren(pg.PlotWidget):
            scene = view.sceneRect()
            for item in view.getPlotItem().items:
                text = isinstance(item, pg.TextItem) and item.isVisible() and item.toPlainText()
                if text and not scene.adjusted(-1, -1, 1, 1).contains(item.sceneBoundingRect()):
                    found.append((key, item.toPlainText()))
        for label in chart.findChildren(QLabel):
            if label is getattr(chart, "title_label", None) and label.text():
                whole = _plain(label.text()) == _plain(chart.title)
                if not ("…" not in label.text() or label.toolTip() or whole):
                    found.append((key, label.text()))
    return found


def test_a_component_keeps_its_colour_when_the_sizes_change_order(window, qtbot):
    from amdahl_desk.ui.profile.component_table import TIME

    window.drawn()
    before = {s.name: s.colour for s in window.breakdown.drawn.segments}
    model = window.component_model
    first = window.doc.profile.components[0].name  # Input pipeline, 100 ms: the third largest
    assert model.setData(model.index(0, TIME), "2000")  # now by far the largest
    window.drawn()
    after = {s.name: s.colour for s in window.breakdown.drawn.segments}
    assert window.breakdown.drawn.segments[0].name == first
    assert after == before


def test_an_imported_profile_takes_the_colours_its_file_gives_when_opened(window, qtbot):
    """An import is another profile: its components take their colours afresh (the largest first), as they do
    when its saved workbook is opened again; they took what the last profile had left and changed on reopening."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.present.colours import ComponentColours

    from ..traces import expect

    window.drawn()  # the example's five components took five colours
    imported = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    window.files.adopt_import(imported, expect.FIXTURES / "gloo" / "rank1.json.gz", "Import")
    window.drawn()
    shown = {s.name: s.colour for s in window.breakdown.drawn.segments}
    names = [s.name for s in window.breakdown.drawn.segments]
    assert shown == dict(zip(names, ComponentColours().colours(names), strict=True))


# On screen, where a small plot leaves a label no clear place, latency against load and the cost curve may pass
# behind a label's white ground (the exported slide's charts keep every label off every line: test_chart_contract).
CURVES_UNDER_LABELS = ("load", "cost")


def each_chart(window, qtbot):
    """Each chart the window shows now, brought to the front of its tab in turn and drawn, by key."""
    results = window.results
    for key, chart in results.charts.items():
        slot = results.slots[key]
        for tabs in (results.tabs, results.more):
            i = tabs.indexOf(slot)
            if i >= 0 and tabs.isVisible() and tabs.isTabVisible(i):
                tabs.setCurrentIndex(i)
        window.drawn()
        quiet(qtbot, window)
        if chart.isVisible():
            yield key, chart


def labels_cut_or_covered(chart) -> list[str]:
    """Each label in a plot that its plot cuts (the view box clips what it holds) or that covers another label."""
    found = []
    for view in chart.findChildren(pg.PlotWidget):
        plot = view.getPlotItem()
        clip = plot.vb.sceneBoundingRect().adjusted(-1, -1, 1, 1)
        boxes = []
        for item in plot.items:
            texts = [item] if isinstance(item, pg.TextItem) else []
            label = getattr(item, "label", None)
            if isinstance(item, pg.InfiniteLine) and label is not None:
                texts.append(label)
            for text in texts:
                if item.isVisible() and text.isVisible() and text.toPlainText():
                    box = text.sceneBoundingRect()
                    if not clip.contains(box.adjusted(2, 2, -2, -2)):
                        found.append(f"{text.toPlainText()!r} cut by its plot")
                    boxes.append((text.toPlainText(), box.adjusted(4, 4, -4, -4)))
        found += [f"{a!r} over {b!r}" for i, (a, x) in enumerate(boxes) for b, y in boxes[i + 1 :] if x.intersects(y)]
    return found


def test_a_headline_caption_shrinks_from_its_own_size_once(qtbot):
    """A caption too long for its column shrinks to 85% of its size at most, however often it is fitted: each fit
    shrank from the last one's font, so long captions ("end-to-end speedup, with the trace's dependencies") ended
    at a few pixels."""
    from PySide6.QtWidgets import QWidget

    from amdahl_desk.ui.profile.summary_panel import FitLabel

    holder = QWidget()
    qtbot.addWidget(holder)
    label = FitLabel("end-to-end speedup, with the trace's dependencies", holder, smallest=0.85)
    size = label.font().pointSizeF()
    label.resize(60, 20)
    for width in (60, 61, 62, 60, 59, 60):
        label.resize(width, 20)
        label.refit()
    assert label.font().pointSizeF() >= size * 0.85 - 1e-9


def test_a_caption_too_long_drops_its_aside_whole_not_its_number(qtbot):
    """At 1280×720 "new time (baseline 1,000 ms)" read "new time (baseline …": the number cut, the bracket open.
    The aside goes whole; the full caption is the tooltip."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QWidget

    from amdahl_desk.ui.profile.summary_panel import FitLabel

    holder = QWidget()
    qtbot.addWidget(holder)
    caption = "new time (baseline 1,000 ms)"
    label = FitLabel(caption, holder, smallest=0.85)
    narrow = QFontMetrics(label.font()).horizontalAdvance("new time (baseline") + 4  # the aside cannot fit, even shrunk
    label.resize(narrow, 20)
    label.refit()
    assert label.text() == "new time"
    assert label.toolTip() == caption
    label.resize(400, 20)
    label.refit()
    assert label.text() == caption and label.toolTip() == ""


def test_undoing_an_import_gives_back_the_colours_the_profile_had(window, qtbot):
    """The example's colours are its own history (a component that grew keeps its colour); an import takes fresh
    ones, and undoing it brings back the example's as they were, not as a fresh start would give them."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.ui.profile.component_table import TIME

    from ..traces import expect

    window.drawn()
    assert window.component_model.setData(window.component_model.index(0, TIME), "2000")  # now the largest
    window.drawn()
    before = {s.name: s.colour for s in window.breakdown.drawn.segments}
    imported = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    window.files.adopt_import(imported, expect.FIXTURES / "gloo" / "rank1.json.gz", "Import")
    window.drawn()
    window.doc.undo_stack.undo()
    window.drawn()
    assert {s.name: s.colour for s in window.breakdown.drawn.segments} == before
