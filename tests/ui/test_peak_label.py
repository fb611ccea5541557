"""The measured-scaling chart's peak label at 1280×720: whole inside the plot, and off the lines drawn above the
peak (the ideal N/N0 and the profile's model), where it sat on the dashed model line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from .screens import show_at

pytestmark = pytest.mark.gui
RUNS = Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv"


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_peak_label_sits_on_no_line(window, qtbot, size):
    assert window.open_measurements(RUNS)
    window.left_tabs.setCurrentWidget(window.fit_page)
    show_at(window, qtbot, size)
    chart = window.fit_panel.charts["measured_scaling"]
    qtbot.waitUntil(lambda: chart.isVisible() and chart.peak_label.toPlainText() != "")
    label = chart.peak_label.sceneBoundingRect()
    view = chart.plot.getViewBox()
    assert view.sceneBoundingRect().contains(label), (label, view.sceneBoundingRect())
    for curve in (chart.model, chart.ideal, chart.amdahl, chart.usl):
        x, y = curve.getData()
        xs = np.linspace(float(np.nanmin(x)), float(np.nanmax(x)), 2000)
        ys = np.interp(xs, x, y)
        crossing = [(a, b) for a, b in zip(xs, ys, strict=True) if label.contains(view.mapViewToScene(QPointF(a, b)))]
        assert crossing == [], chart.peak_label.toPlainText()
