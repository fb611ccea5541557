"""A chart resized between a change and its redraw (Reset Layout right after rows were deleted, in one pass of the
event loop) keeps the view it has: the view made again at the new size from the inputs it was drawn from read the
changed profile through the analysis before the change (an index past the rows left), and an error raised inside
Qt's resize crashed the process. The redraw that waits makes the view at the new size."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def test_a_chart_resized_before_the_redraw_of_a_change_keeps_its_view_until_then(window, qtbot):
    window.resize(1600, 1000)
    window.reset_layout()
    window.drawn()
    chart = window.results.charts["breakdown"]
    assert chart.isVisible() and chart.drawn is not None
    before = chart.drawn
    n = len(window.doc.profile.components)
    assert n >= 4
    window.doc.remove_components(range(1, n), "Delete rows")  # one row left, the redraw not yet made
    assert window.redraws.pending
    chart.resize(chart.width() - 40, chart.height() - 30)  # inside the same pass: no redraw between
    assert chart.drawn is before and not chart.inputs_current()  # not made again from the inputs left behind
    window.redraws.flush()
    assert chart.inputs_current() and chart.drawn is not before
    assert [s.name for s in chart.drawn.segments] == [window.doc.profile.components[0].name]
