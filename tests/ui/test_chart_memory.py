"""Charts redrawn many times keep what they hold bounded (an hour of editing must not grow the window)."""

import pyqtgraph as pg
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.resources import example_path
from amdahl_desk.ui.charts.registry import CHARTS
from tests.ui.charting import new_chart

pytestmark = pytest.mark.gui


def scatters(chart):
    for widget in chart.findChildren(pg.PlotWidget):
        for item in widget.getPlotItem().items:
            if isinstance(item, pg.ScatterPlotItem):
                yield item
            elif isinstance(item, pg.PlotDataItem) and item.scatter is not None:
                yield item.scatter


@pytest.mark.parametrize("key", [k for k in CHARTS if k != "slide"])
def test_redrawing_does_not_grow_the_symbol_atlas(qtbot, key):
    # pyqtgraph keys its symbol atlas on the brush and pen objects: a new brush at every update (a colour
    # given instead of a brush, or mkBrush in the update) added an atlas entry per edit, for ever.
    from amdahl_desk.files import load_profile

    profile = load_profile(example_path().parent / "llm-request.xlsx").profile
    chart = new_chart(key)
    qtbot.addWidget(chart)
    chart.resize(900, 600)
    for i in range(40):
        comps = list(profile.components)
        comps[0] = comps[0]._replace(time=comps[0].time + i)
        edited = type(profile)(comps, profile.optimizations, profile.settings, profile.unit, profile.objectives)
        chart.show_inputs(ChartInputs(edited, analyse(edited), 0))
    for scatter in scatters(chart):
        assert len(scatter.fragmentAtlas._coords) <= 4, key
