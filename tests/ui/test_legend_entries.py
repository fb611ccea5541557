"""A legend entry is never broken across two lines where it fits on one, whatever its name holds (a hyphen, a dash,
a slash, "|", "?", CJK characters), at any width; one wider than a line wraps instead of being cut."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export
from amdahl_desk.ui.charts.frame import LEGEND_GAP, unbroken
from amdahl_desk.ui.charts.style import SCREEN
from amdahl_desk.ui.core.qt_util import settle_layout

from .charting import legend_problems, text_document

pytestmark = pytest.mark.gui

NAMES = {  # name: ms; the first five broke at their hyphen on the slide ("Gradient all-" over "reduce across …")
    "Vorwärts-Durchlauf für Übersetzung": 123_456.0,
    "Attention (flash, causal, 32k context window)": 88_000.0,
    "Gradient all-reduce across 1,024 ranks": 45_000.0,
    "Optimizer step (AdamW, fp32 master weights)": 15_000.0,
    "Checkpoint write to object store": 9_000.0,
    "Tokenizer + embedding lookup (fused, per request, cold cache)": 412.5,
    "数据加载和预处理流水线阶段": 300.0,
    "all-to-all|expert routing?yes": 250.0,
    "Pre-processing – resize/crop – normalise": 200.0,
    "Optimizer—step": 150.0,
    "x": 0.75,
}
# A kernel's name, wider than any legend's line, with no space in it.
KERNEL = (
    "void_at::native::vectorized_elementwise_kernel<4,_at::native::BinaryFunctor<float,_float,_float,_MulFunctor>>" * 2
)


def _profile(names: dict[str, float]) -> Profile:
    comps = [Component(n, t, Scaling.PARALLEL) for n, t in names.items()]
    return Profile(comps, [Optimization("Overlap all-reduce", ("Gradient all-reduce across 1,024 ranks",), 3)])


def _inputs(profile: Profile) -> ChartInputs:
    return ChartInputs(profile, analyse(profile), 0)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("key", ["slide", "breakdown"])
def test_an_entry_that_fits_on_a_line_is_never_broken(qtbot, key, size):
    widget = export.chart_widget(make_chart, key, _inputs(_profile(NAMES)), size)
    try:
        assert legend_problems(widget) == []
    finally:
        widget.close()
        widget.deleteLater()


def test_at_every_width_entries_stay_whole(qtbot):
    """The breakdown's legend from 420 to 980 px wide, every 14 px: each width fills its lines differently."""
    inputs = _inputs(_profile(NAMES))
    for width in range(420, 981, 14):
        widget = export.chart_widget(make_chart, "breakdown", inputs, (width, 720))
        try:
            assert legend_problems(widget) == [], width
        finally:
            widget.close()
            widget.deleteLater()


def test_an_entry_wider_than_a_line_wraps_and_is_not_cut(qtbot):
    names = {KERNEL: 10.0, "Gradient all-reduce across 1,024 ranks": 5.0}
    widget = export.chart_widget(make_chart, "breakdown", _inputs(_profile(names)), (640, 720))
    try:
        legend = widget.legend_label
        kernel = legend.text().split(LEGEND_GAP)[0]
        assert (
            text_document(legend, kernel, wrapped=False).idealWidth() > legend.contentsRect().width()
        )  # wider than a line
        assert legend_problems(widget) == []  # and wrapped, not cut
    finally:
        widget.close()
        widget.deleteLater()


def test_what_holds_an_entry_together_draws_nothing():
    """The word joiners that hold a name draw nothing: an entry measures as its name does."""
    doc, plain = QTextDocument(), QTextDocument()
    doc.setHtml(unbroken("Gradient all-reduce / 数据加载"))
    plain.setPlainText("Gradient\u00a0all-reduce\u00a0/\u00a0数据加载")
    assert doc.idealWidth() == pytest.approx(plain.idealWidth(), abs=0.5)
    assert doc.toPlainText().replace("\u2060", "") == plain.toPlainText()


def test_on_screen_at_every_width_an_entry_is_whole_or_wrapped(qtbot):
    """The window's breakdown from 300 to 620 px wide, every 16 px: each entry on one line where it fits on one; a
    longer one ("Tokenizer + embedding lookup (fused, per request, cold cache)" at 387 px) wraps, never cut."""
    chart = make_chart("breakdown", SCREEN)
    qtbot.addWidget(chart)
    chart.show_inputs(_inputs(_profile(NAMES)))
    chart.show()
    for width in range(300, 621, 16):
        chart.resize(width, 420)
        settle_layout()
        assert legend_problems(chart) == [], width
