"""An axis title sits centred on its axis after the plot resizes: a title that comes back whole ("Speedup vs baseline
(log scale)" once the plot is tall enough for it) is placed for its own length, not for the shorter one it had."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export

pytestmark = pytest.mark.gui


def _titles_outside_their_axes(widget) -> list[str]:
    """Each axis title whose drawn text reaches past either end of its axis (there the picture cuts it)."""
    out = []
    for view in widget.findChildren(pg.PlotWidget):
        for name in ("left", "right", "bottom"):
            axis = view.getPlotItem().getAxis(name)
            label = axis.label
            if not axis.isVisible() or not label.isVisible() or not label.toPlainText().strip():
                continue
            drawn = label.mapRectToParent(label.boundingRect())  # in the axis' own coordinates
            along = (drawn.top(), drawn.bottom()) if name != "bottom" else (drawn.left(), drawn.right())
            length = axis.size().height() if name != "bottom" else axis.size().width()
            if along[0] < -1 or along[1] > length + 1:
                out.append(
                    f"{name} {label.toPlainText()!r}: drawn {along[0]:.0f}..{along[1]:.0f} on an axis 0..{length:.0f}"
                )
    return out


def _long_named() -> Profile:
    """Long names make the slide's decision three lines: the one chart is laid out short first, then taller."""
    comps = [
        Component(f"Stage {i}: a long component name of sixty characters and some more {i}", 10.0 + i, Scaling.PARALLEL)
        for i in range(16)
    ]
    name = "Mixed-precision tensor-core kernels for the forward and backward passes of every block"
    return Profile(comps, [Optimization(name, (comps[3].name, comps[4].name), 2.5)])


@pytest.mark.parametrize("size", [(1920, 1080), (1920, 900), (1280, 720)])
def test_a_slide_chart_axis_title_stays_on_its_axis(qtbot, size):
    profile = _long_named()
    inputs = ChartInputs(profile, analyse(profile), slide_charts=("scaling",))
    widget = export.chart_widget(make_chart, "slide", inputs, size)
    try:
        assert _titles_outside_their_axes(widget) == []
    finally:
        widget.close()
        widget.deleteLater()
