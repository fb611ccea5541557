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
        chart = widget if key == "distribution" else widget.parts["distribution"][1]
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
