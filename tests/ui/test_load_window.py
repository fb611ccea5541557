"""Load and cost in the window: typed settings through the model's parsers, the load chart, the cost chart.

On the LLM example (24 replicas, service 1,500 ms before and 1,050 ms after faster decode), the saturation
walls are at 24/1.5 = 16 requests/s before and 24/1.05 = 22.86 requests/s after.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage

from .driving import type_into
from .test_objectives_window import llm  # noqa: F401 - the fixture

pytestmark = pytest.mark.gui


def settings_of(win):
    return win.objectives_panel.settings


@pytest.mark.parametrize(("text", "rate"), [("14/s", 14.0), ("7200/min", 120.0)])
def test_arrival_rates_are_read_by_the_model_parser(llm, text, rate):  # noqa: F811
    form = settings_of(llm)
    assert type_into(form, "arrival_rate", text)
    assert llm.doc.profile.settings.arrival_rate == pytest.approx(rate)
    assert form.message("arrival_rate") == ""


@pytest.mark.parametrize("text", ["abc", "-1"])
def test_bad_arrival_rates_are_explained_at_the_field_and_change_nothing(llm, text):  # noqa: F811
    form = settings_of(llm)
    before = llm.doc.profile.settings
    count = llm.doc.undo_stack.count()
    assert not type_into(form, "arrival_rate", text)
    assert llm.doc.profile.settings == before and llm.doc.undo_stack.count() == count
    message = form.message("arrival_rate")
    assert message and "rate" in message.lower()
    assert type_into(form, "arrival_rate", "14")  # a good value clears the message
    assert form.message("arrival_rate") == ""


def test_a_price_with_a_decimal_comma_in_a_german_locale(llm):  # noqa: F811
    from PySide6.QtCore import QLocale

    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        assert type_into(settings_of(llm), "gpu_price_per_hour", "3,25 €")
    finally:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    s = llm.doc.profile.settings
    assert s.gpu_price_per_hour == pytest.approx(3.25) and s.currency == "€"
    llm.doc.undo_stack.undo()
    assert llm.doc.profile.settings.gpu_price_per_hour == pytest.approx(2.5)


def test_the_load_sentence_and_the_saturation_wall(llm):  # noqa: F811
    outcomes = llm.results.outcomes
    assert "1,712 ms → 1,052 ms; utilization 88% → 61%" in outcomes.load.text()
    type_into(settings_of(llm), "arrival_rate", "20/s")  # past the wall before (16/s), below the one after
    llm.drawn()
    chart = llm.results.chart("load")
    tabs = llm.results.tabs if llm.results.in_tabs else llm.results.more
    tabs.setCurrentWidget(llm.results.slots["load"])
    llm.drawn()
    assert chart.wall_before.isVisible() and chart.wall_before.value() == pytest.approx(16)
    assert chart.wall_after.value() == pytest.approx(24 / 1.05)
    for curve in (chart.before, chart.after, chart.before_p99, chart.after_p99):
        _, y = curve.getData()
        assert not np.isinf(y).any() and not (y[np.isfinite(y)] < 0).any()
    _, before = chart.before.getData()
    x, _ = chart.before.getData()
    assert np.isnan(before[x >= 16]).all()  # no curve beyond the wall
    assert chart.point_labels[0].textItem.toPlainText() == "before: saturated"
    texts = [outcomes.load.text(), outcomes.max_rate.text(), llm.summary.sentence.text()]
    assert all("inf" not in t and "nan" not in t.lower() for t in texts)
    assert "saturated" in outcomes.load.text().lower()


def not_blank(image: QImage) -> float:
    small = image.scaled(160, 90)
    white = sum(small.pixelColor(x, y).lightness() > 245 for x in range(160) for y in range(90))
    return 1 - white / (160 * 90)


@pytest.mark.parametrize("name", ["load", "cost"])
def test_the_load_and_cost_charts_export(llm, tmp_path, name):  # noqa: F811
    path = tmp_path / f"{name}.png"
    assert llm.exports.export_chart_to(path, name, "png", (1280, 720)), llm.errors
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1280, 720) and 0.01 < not_blank(image) < 0.6
    assert path.stat().st_size > 5000


def test_the_cost_chart_marks_the_cheapest_and_the_cheapest_on_target(llm):  # noqa: F811
    chart = llm.results.chart("cost")
    llm.drawn()
    # $2.50 per GPU-hour: one run on N GPUs costs N·T(N)/3600 s × 2.5; cheapest at 1 GPU, on target (600 ms) at 4.
    x, y = chart.cheapest.getData()
    assert list(x) == [0.0] and 10 ** y[0] == pytest.approx(1.5 / 3600 * 2.5)
    x, _ = chart.on_target.getData()
    assert 2 ** x[0] == pytest.approx(4)
    assert "$2.50" in chart.title
    # the legend says both figures, for a plot too small to label its markers beside them
    legend = chart.legend_label.text().replace("&nbsp;", " ").replace("\u00a0", " ")
    each = f"${1.5 / 3600 * 2.5:.5f}"  # $0.00104: 1,500 ms on one GPU
    # Faster decode is ticked: the curve is the times as measured, and the legend says so as the sentence does
    assert f"Cheapest N: 1 ({each})" in legend and "Cheapest N that meets the target as measured: 4 ($" in legend


def test_the_slide_carries_the_load_chart_only_with_an_arrival_rate(llm):  # noqa: F811
    from tests.ui.charting import chart_widget

    doc = llm.doc
    slide = chart_widget("slide", doc.profile, doc.analysis, (1920, 1080))
    assert slide.shown == ("breakdown", "load") and slide.parts["load"].isVisible()
    slide.close()
    type_into(settings_of(llm), "arrival_rate", "")
    assert doc.profile.settings.arrival_rate is None
    slide = chart_widget("slide", doc.profile, doc.analysis, (1920, 1080))
    assert "load" not in slide.shown and slide.shown == ("breakdown", "speedup")
    slide.close()
    assert math.isfinite(doc.analysis.baseline_total)


def test_without_an_arrival_rate_the_load_chart_has_plain_axes(llm):  # noqa: F811
    llm.results.chart("load")
    llm.drawn()
    type_into(settings_of(llm), "arrival_rate", "")
    llm.drawn()
    chart = llm.results.chart("load")  # in a tab that is not shown: drawn when asked for
    assert "set an arrival rate" in chart.title
    (x0, x1), (y0, y1) = chart.plot.viewRange()
    assert (x0, x1) == pytest.approx((0, 1)) and (y0, y1) == pytest.approx((0, 1))  # not the last rate's axes


@pytest.mark.parametrize("size", [(1600, 900), (900, 560), (1920, 1080)])
def test_the_line_labels_of_the_load_chart_sit_clear_of_each_other_and_inside(qtbot, size):
    """Walls, the current rate and the target: each label inside the plot, over no other label and across no
    other line (it used to sit where a curve or the current-rate line crossed it)."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.resources import example_path
    from amdahl_desk.ui.objectives.load_chart import LoadChart

    profile = load_profile(example_path().parent / "llm-request.xlsx").profile
    chart = LoadChart()
    qtbot.addWidget(chart)
    chart.resize(*size)
    chart.show()
    qtbot.waitExposed(chart)
    chart.show_analysis(profile, analyse(profile))
    vb = chart.plot.vb
    view = vb.sceneBoundingRect()
    lines = [chart.current, chart.wall_before, chart.wall_after, chart.target]
    assert all(line.isVisible() for line in lines)
    rects = [line.label.sceneBoundingRect() for line in lines]
    rects += [label.sceneBoundingRect() for label in chart.point_labels]
    for i, rect in enumerate(rects):
        assert view.contains(rect), (i, rect, view)
        for other in rects[i + 1 :]:
            assert not rect.intersects(other), (i, rect, other)
    for line in lines[:3]:
        others = [o for o in lines[:3] if o is not line]
        for other in others:
            x = vb.mapViewToScene(pg.Point(other.value(), 0)).x()
            r = line.label.sceneBoundingRect()
            assert not (r.left() < x < r.right()), (line.label.toPlainText(), other.label.toPlainText())
