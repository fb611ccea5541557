"""Chart labels that never collide or leave the plot, titles that read as sentences, dialogs that say what they export."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from amdahl_desk.ui.charts.export_dialog import ExportDialog

pytestmark = pytest.mark.gui


def test_export_dialogs_name_what_is_exported(window, monkeypatch, tmp_path):
    seen: dict[str, str] = {}

    def exec_dialog(dialog: ExportDialog) -> int:
        seen["dialog"] = dialog.windowTitle()
        return ExportDialog.DialogCode.Accepted

    def save_name(parent, title, start, filters):
        seen["chooser"] = title
        return "", filters

    monkeypatch.setattr(ExportDialog, "exec", exec_dialog)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    window.exports.export_dialog("slide")
    assert seen == {"dialog": "Export Slide", "chooser": "Export Slide as PNG"}
    window.exports.export_dialog("scaling")
    assert seen == {"dialog": "Export Chart: GPU scaling", "chooser": "Export Chart: GPU scaling as PNG"}
    window.files.export_csv()
    assert seen["chooser"] == "Export Components as CSV"


def test_export_dialog_title_follows_the_chosen_chart(qtbot):
    dialog = ExportDialog("slide")
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Export Slide"
    dialog.chart.setCurrentIndex(dialog.chart.findData("speedup"))
    assert dialog.windowTitle() == "Export Chart: Speedup against k"


# -- callouts ---------------------------------------------------------------------------------------------------------

import numpy as np  # noqa: E402
from PySide6.QtCore import QPointF, QRect, QRectF  # noqa: E402
from PySide6.QtGui import QFontMetrics, QTextLayout, QTextOption  # noqa: E402

from amdahl_desk.files import load_profile  # noqa: E402
from amdahl_desk.model.analysis import analyse  # noqa: E402
from amdahl_desk.model.profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings  # noqa: E402
from amdahl_desk.present.scaling import scaling_title  # noqa: E402
from amdahl_desk.present.text import NBSP  # noqa: E402
from amdahl_desk.resources import resources_dir  # noqa: E402
from amdahl_desk.ui.charts.style import slide_style  # noqa: E402
from amdahl_desk.ui.profile.speedup_plot import SpeedupPlot  # noqa: E402
from amdahl_desk.ui.scaling.scaling_plot import ScalingPlot  # noqa: E402
from tests.ui.charting import chart_widget  # noqa: E402
from tests.ui.painting import quiet  # noqa: E402


def _examples() -> list[Profile]:
    return [load_profile(p).profile for p in sorted((resources_dir() / "examples").glob("*.xlsx"))]


def _small_ceiling() -> Profile:
    """The case from the report: f ≈ 21% so the ceiling is 1.27×, and k = 5× gives 1.2× just under it."""
    comps = [Component("Input pipeline", 21.26), Component("Everything else", 78.74)]
    return Profile(comps, [Optimization("Faster input", ("Input pipeline",), 5.0)])


def _no_overhead_at_scale() -> Profile:
    comps = [Component("serial part", 20.0), Component("parallel part", 80.0, Scaling.PARALLEL)]
    return Profile(comps, [], Settings(overhead_model=OverheadModel.NONE))


def _curve_scene_points(vb, item, step: float = 2.0) -> np.ndarray:
    """A drawn curve in scene pixels, mapped point by point through the view box and filled in every ``step`` px."""
    x, y = item.getData()
    if x is None or not item.isVisible():
        return np.empty((0, 2))
    pts = np.array([[p.x(), p.y()] for p in (vb.mapViewToScene(QPointF(a, b)) for a, b in zip(x, y, strict=True))])
    out = [pts[:1]]
    for a, b in zip(pts[:-1], pts[1:], strict=True):
        n = max(2, int(np.hypot(*(b - a)) / step) + 2)
        out.append(np.linspace(a, b, n)[1:])
    return np.concatenate(out)


def _inside(rect: QRectF, pts: np.ndarray) -> int:
    if not len(pts):
        return 0
    return int(
        (
            (pts[:, 0] > rect.left())
            & (pts[:, 0] < rect.right())
            & (pts[:, 1] > rect.top())
            & (pts[:, 1] < rect.bottom())
        ).sum()
    )


def _check_callout(view_box, label, curves, ceiling, eff=None) -> None:
    rect = label.sceneBoundingRect()
    view = view_box.sceneBoundingRect()
    assert label.toPlainText(), "the callout has no text"
    assert view.contains(rect), f"{label.toPlainText()!r} at {rect} leaves the plot {view}"
    if ceiling is not None and ceiling.isVisible():
        assert not rect.intersects(ceiling.label.sceneBoundingRect()), "callout over the ceiling label"
        y = view_box.mapViewToScene(QPointF(0, ceiling.value())).y()
        assert not (rect.top() < y < rect.bottom()), "callout across the ceiling line"
    for item in curves:
        assert _inside(rect, _curve_scene_points(view_box, item)) == 0, f"callout over a curve: {label.toPlainText()}"
    if eff is not None:
        vb2, item = eff
        assert _inside(rect, _curve_scene_points(vb2, item)) == 0, "callout over the efficiency curve"


SIZES = [(1920, 1080), (1280, 720), (760, 460), (520, 340)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_speedup_callout_collides_with_nothing(qtbot, size):
    for profile in [*_examples(), _small_ceiling()]:
        analysis = analyse(profile)
        for row in range(len(profile.optimizations)):
            chart = chart_widget("speedup", profile, analysis, size, row=row)
            try:
                _check_callout(chart.plot.vb, chart.marker_label, [chart.curve, chart.combined], chart.ceiling)
            finally:
                chart.close()


def test_speedup_callout_on_the_screen_follows_a_resize(qtbot):
    profile = _small_ceiling()
    chart = SpeedupPlot()
    qtbot.addWidget(chart)
    chart.show_analysis(profile, analyse(profile), 0)
    chart.show()
    for w, h in ((900, 600), (420, 300), (640, 380)):
        chart.resize(w, h)
        qtbot.waitUntil(lambda w=w, h=h: chart.plot.vb.sceneBoundingRect().width() < w)
        quiet(qtbot, chart.widget.viewport())
        _check_callout(chart.plot.vb, chart.marker_label, [chart.curve, chart.combined], chart.ceiling)


def test_an_empty_speedup_plot_shows_no_axis_values_until_it_has_a_curve(qtbot):
    """Without an optimization the plot says what to do; numbers on its axes (0.2 … 0.8) would say nothing."""
    chart = SpeedupPlot()
    qtbot.addWidget(chart)
    values = lambda: [chart.plot.getAxis(a).style["showValues"] for a in ("left", "bottom")]  # noqa: E731
    bare = Profile([Component("a", 60.0), Component("b", 40.0)])
    chart.show_analysis(bare, analyse(bare), -1)
    assert chart.empty.isVisible() and values() == [False, False]
    profile = _small_ceiling()
    chart.show_analysis(profile, analyse(profile), 0)
    assert not chart.empty.isVisible() and values() == [True, True]
    chart.show_analysis(bare, analyse(bare), -1)
    assert values() == [False, False]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_scaling_best_label_stays_inside_and_clear(qtbot, size):
    for profile in [*_examples(), _no_overhead_at_scale()]:
        chart = chart_widget("scaling", profile, analyse(profile), size)
        try:
            curves = [chart.ideal, chart.gustafson, chart.amdahl, chart.overhead]
            _check_callout(chart.plot.vb, chart.best_label, curves, chart.ceiling, (chart.eff_view, chart.efficiency))
        finally:
            chart.close()


def test_coinciding_curves_stay_visible_and_are_named(qtbot):
    profile = _no_overhead_at_scale()
    chart = ScalingPlot()
    qtbot.addWidget(chart)
    chart.show_analysis(profile, analyse(profile))
    # Amdahl is drawn on top, narrower than the overhead curve under it: both show where they coincide.
    assert chart.amdahl.zValue() > chart.overhead.zValue()
    assert chart.amdahl.opts["pen"].widthF() < chart.overhead.opts["pen"].widthF()
    assert "same as with overhead" in chart.legend_label.text().replace("&nbsp;", " ")
    ring = load_profile(resources_dir() / "examples" / "training-iteration.xlsx").profile
    chart.show_analysis(ring, analyse(ring))
    assert "same as with overhead" not in chart.legend_label.text().replace("&nbsp;", " ")


def test_exported_scaling_title_is_a_sentence():
    s = analyse(_no_overhead_at_scale()).scaling
    title = scaling_title(s, OverheadModel.NONE).replace(NBSP, " ")
    assert "none overhead" not in title
    assert "without communication overhead the best is" in title
    ring = scaling_title(s, OverheadModel.RING).replace(NBSP, " ")
    assert "with ring all-reduce communication overhead the best is" in ring


def test_exported_scaling_title_counts_one_gpu_in_the_singular():
    """All serial, evaluated at 1 and 4 GPUs: nothing scales, so the best is at 1 GPU, and the efficiency at 4 is
    1/4, so 50% or more holds up to 1 GPU."""
    comps = [Component("setup", 60.0, Scaling.SERIAL), Component("io", 40.0, Scaling.SERIAL)]
    s = analyse(Profile(comps, settings=Settings(gpu_counts=(1, 4)))).scaling
    assert s.best_gpus == 1 and s.last_efficient_gpus == 1
    title = scaling_title(s, OverheadModel.NONE).replace(NBSP, " ")
    assert "the best is 1× at 1 GPU;" in title, title
    assert "up to 1 GPU" in title and "1 GPUs" not in title, title


def _lines(text: str, font, width: int) -> list[str]:
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        lines.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_slide_title_wraps_between_phrases_only(qtbot, size):
    for profile in _examples():
        analysis = analyse(profile)
        slide = chart_widget("slide", profile, analysis, size)
        try:
            title = slide.title
            margins = slide.layout().contentsMargins()
            width = slide.width() - margins.left() - margins.right()
            lines = [line.replace(NBSP, " ").strip() for line in _lines(title.text(), title.font(), width)]
            assert len(lines) <= 2, lines
            text = title.text().replace(NBSP, " ")
            if "(ceiling " in text:  # an example with optimizations ticked (llm-request-after has none)
                whole = [f"(ceiling {text.split('(ceiling ')[-1].rstrip(')')})", "end to end"]
            else:
                whole = ["where the time goes"]
            for phrase in whole:
                assert any(phrase in line for line in lines), (phrase, lines)
            # The title's text fits the label it is in.
            metrics = QFontMetrics(title.font())
            used = metrics.boundingRect(QRect(0, 0, width, 10_000), 0x1000, title.text())  # Qt.TextWordWrap
            assert used.height() <= title.height(), (used, title.geometry())
        finally:
            slide.close()


def test_slide_style_sizes_unchanged():
    assert slide_style(1920).font().pixelSize() == 24


def test_a_bar_wide_enough_shows_the_whole_name_and_a_narrow_one_the_name_shortened(qtbot):
    """The breakdown's segment labels: a name of 38 characters whole where its bar holds it; cut to 22 characters
    with "…" where only that fits; never wider than the bar."""
    from amdahl_desk.ui.profile.breakdown_chart import BreakdownChart

    name = "GPU matrix multiplications in backward"
    profile = Profile([Component(name, 600.0), Component("b", 250.0), Component("c", 150.0)])
    chart = BreakdownChart()
    qtbot.addWidget(chart)
    chart.show()
    shown: dict[int, list[str]] = {}
    for width in (1400, 420):
        chart.resize(width, 420)
        qtbot.waitUntil(lambda w=width: chart.plot.vb.sceneBoundingRect().width() < w)
        chart.show_analysis(profile, analyse(profile), -1)
        px = chart.plot.vb.viewPixelSize()[0]
        texts = [t.toPlainText() for t in chart.labels if t.toPlainText()]
        shown[width] = [t.split("\n")[0] for t in texts if "\n" in t]
        for label in chart.labels:
            if label.toPlainText().startswith("GPU"):
                assert label.boundingRect().width() - 8 <= 600 / px  # inside its 600 ms bar
    assert name in shown[1400]
    assert name not in shown[420] and "GPU matrix multiplica…" in shown[420]


def test_export_chart_offers_a_traces_and_a_jobs_charts_only_with_them(window, monkeypatch):
    """A workbook of no trace and no job: Export Chart… lists its profile's charts and the measured runs' (those say
    why they cannot be drawn yet), not the critical path or a job's ranks, which it has nothing to draw from."""
    from amdahl_desk.ui.charts.registry import JOB_CHARTS, MEASURED_CHARTS, TRACE_CHARTS

    listed: list[str] = []

    def exec_dialog(dialog: ExportDialog) -> int:
        listed.extend(dialog.chart.itemData(i) for i in range(dialog.chart.count()))
        return ExportDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportDialog, "exec", exec_dialog)
    window.exports.export_dialog("breakdown")
    assert "breakdown" in listed and set(MEASURED_CHARTS) <= set(listed)
    assert not set(listed) & (set(TRACE_CHARTS) | set(JOB_CHARTS)), listed


def test_export_chart_offers_first_the_chart_in_front(window, qtbot, monkeypatch):
    """Export Chart… preselected the time breakdown whatever the window showed: now the chart in front — a job's
    ranks when a job opens (its tab comes forward), then the tab a person clicks."""
    from pathlib import Path

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction

    from amdahl_desk.ui.core.tab_rows import TabRows

    from .screens import show_at
    from .test_job_window import open_job

    chosen: list[str] = []

    def exec_dialog(dialog: ExportDialog) -> int:
        chosen.append(dialog.chart.currentData())
        return ExportDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportDialog, "exec", exec_dialog)
    export = next(a for a in window.findChildren(QAction) if a.text().replace("&", "") == "Export Chart…")
    show_at(window, qtbot, (1600, 1000))
    export.trigger()
    assert chosen[-1] == "breakdown"  # nothing chosen yet: the first chart
    open_job(qtbot, window, Path(__file__).parents[1] / "traces" / "fixtures" / "ddp4")
    export.trigger()
    assert chosen[-1] == "job_ranks"
    results = window.results
    rows = next(r for r in results.findChildren(TabRows) if r.isVisible())
    rects = rows.tab_rects()
    odds = rows.pages.indexOf(results.slots["distribution"])
    qtbot.mouseClick(rows, Qt.MouseButton.LeftButton, pos=rects[odds].center())
    qtbot.waitUntil(lambda: rows.pages.currentIndex() == odds)
    export.trigger()
    assert chosen[-1] == "distribution"


@pytest.mark.parametrize("width", [420, 560, 900])
def test_a_narrow_tornado_keeps_its_labels_and_its_centre_whole(qtbot, width):
    """Long names leave a narrow plot (half a slide at 1280×720): each end's label stays inside the plot, clear of
    the names, and the centre line's label is whole — beside its line, or only "likely 1.47×" where even that is
    too wide for it centred."""
    from dataclasses import replace

    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.ui.chart_factory import make_chart
    from amdahl_desk.ui.charts.style import SCREEN
    from amdahl_desk.ui.core.qt_util import settle_layout

    from .test_chart_contract import inputs_for, trace_with_plan

    profile = trace_with_plan()
    backward = profile.optimizations[0].targets
    forward = next(c.name for c in profile.components if "forward" in c.name)
    profile.set_optimizations(
        [
            replace(
                profile.optimizations[0],
                name="Fused backward kernels with no Python overhead at all",
                speedup_low=1.5,
                speedup_high=4.0,
            ),
            Optimization(
                "Rückwärts und vorwärts beschleunigen – Ä/Ö/Ü 反向传播优化",
                (forward,),
                1.5,
                speedup_low=1.2,
                speedup_high=2.0,
            ),
        ]
    )
    assert backward
    chart = make_chart("tornado", SCREEN)
    qtbot.addWidget(chart)
    chart.resize(width, 420)
    chart.show()
    chart.show_inputs(inputs_for(profile))
    settle_layout()
    vb = chart.plot.vb
    inside = vb.sceneBoundingRect().adjusted(-1, -1, 1, 1)
    shown = [t for t in chart.labels if t.toPlainText()]
    assert len(shown) == 4
    for label in shown:
        assert inside.contains(label.sceneBoundingRect()), (label.toPlainText(), label.sceneBoundingRect(), inside)
    centre = chart.centre.label
    assert centre.toPlainText().startswith("likely ")
    assert inside.contains(centre.sceneBoundingRect()), (centre.toPlainText(), centre.sceneBoundingRect(), inside)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_ceiling_label_clears_thick_curves_or_is_left_to_the_title(qtbot, size):
    """The LLM example with ranges, GPU scaling at half a slide: the curves reach the ceiling along the plot, and
    "Amdahl ceiling 5×" sat on the overhead curve, whose pen is thicker than the gap between them. The label shows
    only where no curve, as thick as it is drawn, reaches its text; else the title's "ceiling 5×" says it."""
    from dataclasses import replace

    from amdahl_desk.ui.chart_factory import make_chart
    from amdahl_desk.ui.charts import export

    from .test_chart_contract import inputs_for, llm_with_ranges

    inputs = replace(inputs_for(llm_with_ranges()), slide_charts=("scaling", "breakdown"))
    half_a_slide = export.chart_widget(make_chart, "slide", inputs, size)
    whole = export.chart_widget(make_chart, "scaling", inputs, size)  # the chart alone: room for its label
    try:
        for chart in (half_a_slide.parts["scaling"], whole):
            vb, label = chart.plot.vb, chart.ceiling.label
            assert "ceiling 5×" in chart.title.replace(NBSP, " ")
            if label.isVisible():
                text = label.sceneBoundingRect().adjusted(3, 3, -3, -3)
                for curve in (chart.ideal, chart.gustafson, chart.amdahl, chart.overhead):
                    half = curve.opts["pen"].widthF() / 2
                    reach = text.adjusted(-half, -half, half, half)
                    assert _inside(reach, _curve_scene_points(vb, curve)) == 0, f"the ceiling's label on {curve.name()}"
        assert whole.ceiling.label.isVisible()  # left out only where no place is clear
    finally:
        for widget in (half_a_slide, whole):
            widget.close()
            widget.deleteLater()
