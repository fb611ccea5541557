"""The slide a design review decides on: the decision in the summary's own sentences (the odds and the cheapest
plan with ranges, the plan on the trace's dependencies for a trace), the headline figures, and two charts — by
default the two that carry the profile's answer, else those chosen (the Export dialog, ``--slide-charts``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QFontMetrics

from amdahl_desk.cli.export import traced_odds
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.decision import decide
from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.traces.plan_answer import plan_answer
from amdahl_desk.present.decision import decision_view
from amdahl_desk.present.summary import summary
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export

from .test_chart_contract import inputs_for, llm_with_ranges, trace_with_plan
from .test_export import run_cli

pytestmark = pytest.mark.gui


def _slide(inputs, size=(1920, 1080)):
    return export.chart_widget(make_chart, "slide", inputs, size)


def _said(widget) -> list[str]:
    """The decision's sentences as said (a number kept with its unit, the last two words together: no-break
    spaces where the words have spaces)."""
    return [line.text().replace("\u00a0", " ") for line in widget.decision if line.isVisible()]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_with_ranges_the_slide_states_the_odds_and_the_cheapest_plan_beside_the_odds_chart(qtbot, size):
    profile = llm_with_ranges()
    analysis = analyse(profile)
    decided = decide(profile, analysis)
    said = decision_view(profile, analysis, decided.figures, decided.search)
    widget = _slide(inputs_for(profile), size)
    try:
        assert _said(widget) == [said.odds.text, said.plan.text]  # the summary's sentences, word for word
        assert "1,000 ms" in said.odds.text and "1,000 ms" in said.plan.text
        assert widget.shown == ("breakdown", "distribution")
        assert [k for k, chart in widget.parts.items() if chart.isVisible()] == ["breakdown", "distribution"]
        figures = summary(profile, analysis).figures
        assert [v.text() for v in widget.values] == [f.value for f in figures]
        assert widget.values[0].text() == "1.43×"  # 1,500 / (600 + 900 / 2) = 1.4286
    finally:
        widget.close()


def test_for_a_trace_the_slide_says_what_the_dependencies_make_of_the_plan(qtbot):
    profile = trace_with_plan()
    inputs = inputs_for(profile)
    widget = _slide(inputs)
    try:
        said = summary(profile, inputs.analysis, trace=inputs.trace)
        assert "with the trace's dependencies" in said.sentence and "promises" in said.dependencies.text
        # the answer, and what the sum promises beside it with why they differ
        assert _said(widget) == [said.sentence, said.dependencies.text]
        assert said.speedup.value in widget.title.text().replace("\u00a0", " ")
        assert widget.shown == ("breakdown", "critical_path")
    finally:
        widget.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_trace_with_ranges_says_the_odds_the_plan_and_why_the_sum_differs(qtbot, size):
    """k as ranges on a trace whose dependencies give less than the sum: the odds and the cheapest plan decide (the
    title states the answer), and the sum beside it with why the two differ is said too — each sentence whole."""
    profile = trace_with_plan()
    opts = list(profile.optimizations)
    opts[0] = replace(opts[0], speedup_low=1.5, speedup_high=3.0, effort=5.0)
    profile.set_optimizations(opts)
    total = sum(c.time for c in profile.components)
    profile.set_settings(replace(profile.settings, target_time=round(total * 0.8, 1)))
    inputs = inputs_for(profile)
    # the odds and the plan through the trace's dependencies, as the commands and the window work them out
    odds, plan = traced_odds(Path(profile.settings.trace_source), profile, inputs.analysis, inputs.trace, ("slide",))
    inputs = replace(inputs, uncertainty=odds, plan=plan)
    widget = _slide(inputs, size)
    try:
        said = summary(profile, inputs.analysis, trace=inputs.trace)
        answer = plan_answer(profile, inputs.analysis, inputs.trace.current(profile))
        assert abs(answer.speedup - answer.sum_speedup) > 0.01 * answer.sum_speedup  # they differ
        view = decision_view(profile, inputs.analysis, odds, plan)
        lines = _said(widget)
        assert lines == [view.odds.text, view.plan.text, said.dependencies.text]
        assert "probability" in lines[0] and "promises" in lines[2]
        assert said.speedup.value in widget.title.text().replace("\u00a0", " ")
        for line in widget.decision:
            if line.isVisible():  # whole: its wrapped text fits the height it was given, at the width it has
                flags = int(Qt.TextFlag.TextWordWrap)
                used = QFontMetrics(line.font()).boundingRect(QRect(0, 0, line.width(), 100_000), flags, line.text())
                assert used.height() <= line.height(), (line.text(), used, line.size())
    finally:
        widget.close()


def test_the_charts_chosen_are_the_charts_shown_in_their_order(qtbot):
    inputs = inputs_for(llm_with_ranges())
    widget = _slide(replace(inputs, slide_charts=("load", "speedup")))
    try:
        assert widget.shown == ("load", "speedup")
        row = widget.charts_row
        order = [row.itemAt(i).widget() for i in range(row.count()) if row.itemAt(i).widget().isVisible()]
        assert order == [widget.parts["load"], widget.parts["speedup"]]
    finally:
        widget.close()
    with pytest.raises(ProfileError, match="critical path"):
        _slide(replace(inputs, slide_charts=("breakdown", "critical_path")))
    with pytest.raises(ProfileError, match="one or two"):
        _slide(replace(inputs, slide_charts=("breakdown", "speedup", "load")))


def test_export_slide_charts_on_the_command_line(tmp_path, example):
    proc = run_cli(
        "export", str(example), "--out", "o", "--chart", "slide", "--slide-charts", "scaling,cost", tmp_path=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("training-iteration-slide.png")
    for given, said in (
        ("pie", '"pie" is not a chart for the slide'),
        ("breakdown,speedup,load", "a slide shows one or two"),
        ("speedup,speedup", "the same chart twice"),
        ("critical_path", "critical path of the trace"),
        ("load,breakdown", "--slide-charts load draws latency against load: the profile has no arrival rate"),
        ("distribution", "--slide-charts distribution draws the odds"),
    ):
        proc = run_cli(
            "export", str(example), "--out", "o", "--chart", "slide", "--slide-charts", given, tmp_path=tmp_path
        )
        assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr, (given, proc.stderr)
    proc = run_cli(
        "export", str(example), "--out", "o", "--chart", "speedup", "--slide-charts", "cost", tmp_path=tmp_path
    )
    assert proc.returncode == 2 and "--chart slide" in proc.stderr
    for chart in ("load", "tornado"):  # named, with nothing to draw: refused, no empty frame written
        proc = run_cli("export", str(example), "--out", "e", "--chart", chart, tmp_path=tmp_path)
        assert proc.returncode == 2 and f"--chart {chart} draws" in proc.stderr, proc.stderr
        assert not list((tmp_path / "e").glob("*.png"))


def test_the_export_dialog_offers_the_slides_charts_and_writes_the_chosen_two(window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    from amdahl_desk.ui.charts import export as chart_export
    from amdahl_desk.ui.charts.export_dialog import ExportDialog

    offered: dict[str, object] = {}

    def choose(dialog: ExportDialog) -> int:
        offered["default"] = (dialog.slide_left.currentData(), dialog.slide_right.currentData())
        offered["keys"] = [dialog.slide_left.itemData(i) for i in range(dialog.slide_left.count())]
        offered["shown"] = dialog.slide_left.isVisibleTo(dialog)
        dialog.slide_left.setCurrentIndex(dialog.slide_left.findData("scaling"))
        dialog.slide_right.setCurrentIndex(dialog.slide_right.findData("cost"))
        return ExportDialog.DialogCode.Accepted

    written: list[tuple[str, ...]] = []
    real = chart_export.export_chart

    def spy(make, name, inputs, *args, **kwargs):
        written.append(inputs.slide_charts)
        return real(make, name, inputs, *args, **kwargs)

    monkeypatch.setattr(ExportDialog, "exec", choose)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: (str(tmp_path / "s.png"), "")))
    monkeypatch.setattr(chart_export, "export_chart", spy)
    window.exports.export_dialog("slide")
    # The training example: no ranges, load or runs, no trace: where the time goes and the speedup against k.
    assert offered["default"] == ("breakdown", "speedup") and offered["shown"]
    assert "critical_path" not in offered["keys"] and "measured_scaling" not in offered["keys"]  # nothing to show
    assert written == [("scaling", "cost")] and (tmp_path / "s.png").stat().st_size > 1000
    dialog = ExportDialog("speedup", inputs=window.export_inputs())
    assert not dialog.slide_left.isVisibleTo(dialog) and dialog.slide_charts() == ()
    dialog.chart.setCurrentIndex(dialog.chart.findData("slide"))
    assert dialog.slide_left.isVisibleTo(dialog) and dialog.slide_charts() == ("breakdown", "speedup")
    dialog.deleteLater()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_no_chart_title_on_a_traced_slide_loses_words(qtbot, size):
    """A picture has no tooltip to give back what a title left out: the traced breakdown's brief title ends with
    the answer (the After bar names the sum), where it lost "the sum promises" to an ellipsis."""
    widget = _slide(inputs_for(trace_with_plan()), size)
    try:
        titles = {key: widget.parts[key].title_label.text() for key in widget.shown}
        assert not any(text.endswith("…") for text in titles.values()), titles
        words = titles["breakdown"].replace("\xa0", " ")  # phrases are held together by no-break spaces
        assert words == "Where the time goes: 78.8 ms → 53.5 ms with the trace's dependencies"
    finally:
        widget.close()


def test_the_outlined_bars_say_they_carry_the_dependencies_difference(qtbot):
    """The table's new times add up to the sum's 54.8 ms; the After bar to the answer's 53.5 ms: the outlined
    bars carry the 1.27 ms between them (backward 22.8 ms where the table says 24.1), and the key says so on
    the screen and the slide, whole; the After bar's total sits clear of the outline's edge."""
    from amdahl_desk.present.breakdown import breakdown

    inputs = inputs_for(trace_with_plan())
    for brief in (True, False):
        view = breakdown(inputs, brief=brief)
        keys = [e.name.replace("\u00a0", " ") for e in view.legend if e.name.startswith("outlined")]
        assert keys == (
            ["outlined: sped up (−1.27 ms from the dependencies)"]
            if brief
            else ["outlined: sped up by the plan, carrying the dependencies' −1.27 ms"]
        )
        backward = next(s for s in view.segments if "backward" in s.name)
        assert backward.after_text == "22.8 ms"  # 53.5 − the others' 30.7 ms
    widget = _slide(inputs, (1280, 720))
    try:
        chart = widget.parts["breakdown"]
        total = chart.totals[1]
        edge = chart._pens[1].widthF() / 2
        bottom = total.mapRectToScene(total.boundingRect()).bottom()
        bar_top = chart.plot.vb.mapViewToScene(QPointF(0, 0.31)).y()
        assert bottom <= bar_top - edge, (bottom, bar_top, edge)
    finally:
        widget.close()


def test_a_profile_with_no_optimization_shows_where_its_time_goes_alone(qtbot):
    """Nothing to answer for yet: the slide's second chart was an empty "Speedup against k" with a key of curves it
    did not draw; where the time goes takes the slide's width instead."""
    from amdahl_desk.files import load_profile
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.resources import example_path

    profile = load_profile(example_path()).profile
    profile.set_optimizations([])
    widget = _slide(ChartInputs(profile, analyse(profile)))  # no measured runs either
    try:
        assert widget.shown == ("breakdown",)
    finally:
        widget.close()
