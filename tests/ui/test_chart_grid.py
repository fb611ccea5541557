"""A chart's grid: every line drawn once, in the same ink across as down; the right edge is a line, not a second grid."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter

from amdahl_desk.files import load_profile
from amdahl_desk.model.analysis import analyse
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.resources import example_path
from amdahl_desk.ui.charts.frame import new_plot
from amdahl_desk.ui.core.qt_util import settle_layout

pytestmark = pytest.mark.gui


def _labels(axis) -> list[str]:
    """The tick labels an axis draws at its size now."""
    tiny = QImage(10, 10, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(tiny)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _, _, text in texts]


def _darkest(image: QImage, points: list[tuple[int, int]]) -> int:
    return min(
        QColor(image.pixel(x, y)).value() for x, y in points if 0 <= x < image.width() and 0 <= y < image.height()
    )


def test_a_horizontal_grid_line_is_as_light_as_a_vertical_one(qtbot):
    plot = new_plot()
    qtbot.addWidget(plot)
    plot.resize(420, 320)
    plot.show()
    qtbot.waitExposed(plot)
    item = plot.getPlotItem()
    item.showGrid(x=True, y=True, alpha=0.15)
    item.setXRange(0, 10, padding=0)
    item.setYRange(0, 10, padding=0)
    item.getAxis("bottom").setTicks([[(5, "5")]])  # one grid line each way, through the middle
    item.getAxis("left").setTicks([[(5, "5")]])
    settle_layout()
    image = plot.grab().toImage()
    vb = item.vb

    ratio = image.devicePixelRatio()  # the picture's pixels per logical pixel

    def at(x: float, y: float) -> tuple[int, int]:
        point = plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))
        return round(point.x() * ratio), round(point.y() * ratio)

    across_x, across_y = at(2.5, 5)  # on the horizontal line, clear of the vertical one
    down_x, down_y = at(5, 2.5)  # on the vertical line
    horizontal = _darkest(image, [(across_x, across_y + d) for d in range(-2, 3)])
    vertical = _darkest(image, [(down_x + d, down_y) for d in range(-2, 3)])
    background = _darkest(image, [at(2.5, 2.5)])
    assert background == 255
    assert vertical < 255  # the grid is there
    # Drawn twice (the right axis drew the left one's grid again), the horizontal line was darker.
    assert abs(horizontal - vertical) <= 2, (horizontal, vertical)


def test_the_right_edge_has_no_ticks_and_no_grid_but_the_scaling_chart_gives_it_its_own_ticks(qtbot):
    from amdahl_desk.ui.scaling.scaling_plot import ScalingPlot

    plot = new_plot()
    qtbot.addWidget(plot)
    right = plot.getPlotItem().getAxis("right")
    plot.getPlotItem().showGrid(x=True, y=True, alpha=0.5)
    assert right.isVisible() and right.grid is False
    assert plot.getPlotItem().getAxis("left").grid
    scaling = ScalingPlot()
    qtbot.addWidget(scaling)
    scaling.resize(800, 500)
    scaling.show()
    qtbot.waitExposed(scaling)
    profile = load_profile(example_path()).profile
    scaling.show_inputs(ChartInputs(profile, analyse(profile)))
    settle_layout()
    efficiency = scaling.plot.getAxis("right")
    assert efficiency.style["showValues"] and efficiency.grid is False
    assert "50%" in _labels(efficiency)  # ticks of its own view (0-105%), not the frame's none


@pytest.mark.parametrize("width", range(380, 470, 10))
def test_the_x_axis_keeps_its_end_labels_with_the_grid_on(qtbot, width):
    """pyqtgraph drops a label that passes its axis' end by a pixel when the grid is on: "1,000" at a breakdown's end."""
    plot = new_plot()
    qtbot.addWidget(plot)
    plot.resize(width, 300)
    plot.show()
    qtbot.waitExposed(plot)
    plot.getPlotItem().setXRange(0, 1050, padding=0)
    plot.getPlotItem().setYRange(0, 1, padding=0)
    settle_layout()
    shown = _labels(plot.getPlotItem().getAxis("bottom"))
    assert shown[0] == "0" and shown[-1] == "1,000", shown
