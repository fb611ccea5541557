"""A reference line's label shows the text it was last given, even when it was given while the line was hidden, and leaves
its line whole."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts.frame import set_line_text
from amdahl_desk.ui.charts.style import SCREEN
from amdahl_desk.ui.core.qt_util import settle_layout

pytestmark = pytest.mark.gui


def test_a_label_given_while_its_line_is_hidden_shows_once_the_line_does(qtbot):
    line = pg.InfiniteLine(angle=90, label="")
    set_line_text(line, "likely 1.244× with the trace's dependencies")
    line.setVisible(False)
    set_line_text(line, "likely 1.79×")
    line.setVisible(True)
    assert line.label.toPlainText() == "likely 1.79×"


def _profile(ranged: bool) -> Profile:
    comps = [Component("a", 600.0, Scaling.PARALLEL), Component("b", 400.0, Scaling.SERIAL)]
    low_high = {"speedup_low": 1.5, "speedup_high": 3.0} if ranged else {}
    return Profile(comps, [Optimization("faster a", ("a",), 2.0, **low_high)])


def test_what_matters_names_its_centre_after_a_profile_without_ranges(qtbot):
    """What matters most drawn for a profile with no k range (no bars, its centre line hidden), then for one with a
    range: the centre line's label is the new profile's, not the one before."""
    chart = make_chart("tornado", SCREEN)
    qtbot.addWidget(chart)
    chart.resize(600, 400)
    chart.show()
    first = _profile(True)
    chart.show_inputs(ChartInputs(first, analyse(first), 0))
    before = chart.centre.label.toPlainText()
    none = _profile(False)
    chart.show_inputs(ChartInputs(none, analyse(none), 0))
    assert not chart.centre.isVisible()
    again = Profile(first.components, [Optimization("faster a", ("a",), 2.5, speedup_low=2.0, speedup_high=3.0)])
    chart.show_inputs(ChartInputs(again, analyse(again), 0))
    settle_layout()
    assert chart.centre.isVisible()
    shown = chart.centre.label.toPlainText()
    assert shown != before and shown == chart.drawn.centre_text


@pytest.mark.parametrize("key", ["speedup", "scaling"])
def test_a_ceilings_label_leaves_its_line_whole(qtbot, key):
    """The label's white ground sits beside the ceiling's dashed line, not over half its width (a thinner line under
    "ceiling 1/(1−f) = 2.5×" on every slide)."""
    profile = _profile(ranged=False)
    chart = make_chart(key, SCREEN)
    qtbot.addWidget(chart)
    chart.resize(900, 600)
    chart.show()
    chart.show_inputs(ChartInputs(profile, analyse(profile), 0))
    settle_layout()
    line = chart.ceiling
    assert line.isVisible() and line.label.isVisible()
    vb = chart.plot.vb
    y = vb.mapViewToScene(line.pos()).y()
    half = line.pen.widthF() / 2
    box = line.label.sceneBoundingRect()
    assert box.bottom() <= y - half or box.top() >= y + half, (box, y, half)
