"""The distribution chart's reference lines are labelled above the bars: no label covers a bar, another label
or runs under a line (the labels covered the histogram's bars and the dotted lines ran through them)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF

from amdahl_desk.files import load_profile
from amdahl_desk.resources import example_path
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export

from .test_chart_contract import _with_estimates, inputs_for

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def ranged():
    return inputs_for(_with_estimates(load_profile(example_path()).profile))


def _bars(chart) -> list[QRectF]:
    """Each bar's rectangle on the scene, from the view's numbers (not from what the chart placed)."""
    vb, view = chart.plot.vb, chart.drawn
    vb.mapViewToScene(QPointF(0, 0))
    half = view.width / 2
    return [
        QRectF(vb.mapViewToScene(QPointF(x - half, h)), vb.mapViewToScene(QPointF(x + half, 0))).normalized()
        for x, h in zip(view.centres, view.heights, strict=True)
    ]


CASES = [("distribution", size) for size in ((640, 420), (1280, 720), (1920, 1080))]
CASES += [("slide", size) for size in ((1280, 720), (1600, 1000), (1920, 1080), (2560, 1440))]


@pytest.mark.parametrize(("key", "size"), CASES)
def test_no_label_covers_a_bar_a_label_or_sits_under_a_line(ranged, key, size):
    widget = export.chart_widget(make_chart, key, ranged, size)
    try:
        chart = widget if key == "distribution" else widget.parts["distribution"]
        tags = [t for t in chart.tags if t.isVisible() and t.toPlainText()]
        assert [t.toPlainText().split()[0] for t in tags] == ["target", "p5", "median", "p95"]
        boxes = [t.sceneBoundingRect().adjusted(4, 4, -4, -4) for t in tags]  # the text, without its margin
        bars = _bars(chart)
        assert len(bars) > 10
        for tag, box in zip(tags, boxes, strict=True):
            assert chart.plot.vb.sceneBoundingRect().contains(box), tag.toPlainText()
            assert not any(box.intersects(bar) for bar in bars if bar.height() > 0.5), tag.toPlainText()
            assert not any(box.intersects(other) for other in boxes if other is not box), tag.toPlainText()
            lines = (chart.target, *chart.marks)
            assert all(tag.zValue() > line.zValue() for line in lines)  # a line passes behind a label
    finally:
        widget.close()
        widget.deleteLater()


@pytest.mark.parametrize("size", [(640, 150), (640, 170), (640, 200), (640, 215), (480, 190)])
def test_a_low_plot_keeps_the_labels_that_fit_above_the_bars(ranged, size):
    """A plot too low for four rows of labels shows those that fit (the target's first), never one on the bars;
    the lines stay, each labelled or not."""
    widget = export.chart_widget(make_chart, "distribution", ranged, size)
    try:
        chart = widget
        assert chart.plot.vb.height() < 180  # the four rows (up to 0.6 of the plot) fit in none of these
        tags = [t for t in chart.tags if t.isVisible() and t.toPlainText()]
        words = [t.toPlainText().split()[0] for t in tags]
        # The target's label always; the others in their order, each on the first row clear of those before it
        # (p95's far right shares the target's row), those whose row does not fit left out.
        assert words[0] == "target" and words == [w for w in ("target", "p5", "median", "p95") if w in words]
        rows = {round(t.sceneBoundingRect().top()) for t in tags}
        assert len(rows) < 4  # fewer rows than labels: four rows fit in none of these plots
        assert all(line.isVisible() for line in (chart.target, *chart.marks))
        bars = _bars(chart)
        for tag in tags:
            box = tag.sceneBoundingRect().adjusted(4, 4, -4, -4)
            assert chart.plot.vb.sceneBoundingRect().contains(box), tag.toPlainText()
            assert not any(box.intersects(bar) for bar in bars if bar.height() > 0.5), tag.toPlainText()
    finally:
        widget.close()
        widget.deleteLater()
