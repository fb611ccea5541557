"""Charts show numbers in the machine's locale, as the tables and the summary do (files keep the model's format)."""

import pytest
from PySide6.QtCore import QLocale

from amdahl_desk.model.analysis import analyse
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.resources import example_path
from amdahl_desk.ui.charts.registry import ENTRIES
from tests.ui.charting import new_chart

pytestmark = pytest.mark.gui

GERMAN = QLocale(QLocale.Language.German, QLocale.Country.Germany)


@pytest.fixture
def german():
    before = QLocale()
    QLocale.setDefault(GERMAN)
    yield
    QLocale.setDefault(before)


@pytest.fixture
def inputs():
    """The LLM example with its measured-after profile compared, and measured runs fitted: every chart has data."""
    from pathlib import Path

    from amdahl_desk.files import load_profile, read_measurements
    from amdahl_desk.model.comparison import compare
    from amdahl_desk.model.fit import fit_measurements

    examples = example_path().parent
    profile = load_profile(examples / "llm-request.xlsx").profile
    after = load_profile(examples / "llm-request-after.xlsx").profile
    runs = read_measurements(Path(__file__).parents[1] / "fit" / "fixtures" / "training-gpus.csv").measurements
    return ChartInputs(profile, analyse(profile), 0, fit_measurements(runs), compare(profile, after))


def texts_of(chart):
    """Every text a person reads on a chart (or a slide of charts): titles, legends, figures, labels,
    reference lines and axis ticks."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QLabel

    out = [label.text() for label in chart.findChildren(QLabel) if label.isVisibleTo(chart)]
    for widget in chart.findChildren(pg.PlotWidget):
        plot = widget.getPlotItem()
        for item in plot.items:
            if isinstance(item, pg.TextItem):
                out.append(item.toPlainText())
            label = getattr(item, "label", None)  # a line without a label of its own has none
            if isinstance(item, pg.InfiniteLine) and label is not None:
                out.append(label.toPlainText())
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            out.append(axis.labelText)
            for level in axis._tickLevels or []:
                out += [text for _, text in level]
            lo, hi = axis.range
            values = [lo + (hi - lo) * i / 4 for i in range(5)]
            out += axis.tickStrings(values, 1.0, (hi - lo) / 4)
    return " | ".join(out)


def test_speedup_chart_numbers_in_a_german_locale(qtbot, german, inputs):
    chart = new_chart("speedup")
    qtbot.addWidget(chart)
    chart.resize(800, 500)
    chart.show_inputs(inputs)
    text = texts_of(chart)
    # ceiling 1/(1−f) = 2.5× in the model's format is 2,5× here; a decimal point before a digit never shows
    assert "2,5×" in text and "2.5×" not in text
    import re

    assert not re.search(r"\d\.\d", text), text


@pytest.mark.parametrize("key", [e.key for e in ENTRIES])
def test_no_chart_shows_a_decimal_point_in_a_german_locale(qtbot, german, inputs, key):
    import re

    chart = new_chart(key)
    qtbot.addWidget(chart)
    chart.resize(900, 600)
    chart.show_inputs(inputs)
    text = texts_of(chart)
    assert not re.search(r"\d\.\d{1,2}(?!\d)", text), f"{key}: {text}"


def test_axis_ticks_follow_the_locale(qtbot, german):
    from amdahl_desk.ui.charts.frame import new_plot

    widget = new_plot()
    qtbot.addWidget(widget)
    axis = widget.getPlotItem().getAxis("left")
    assert axis.tickStrings([0.5, 1.0, 1.5], 1.0, 0.5) == ["0,5", "1,0", "1,5"]
