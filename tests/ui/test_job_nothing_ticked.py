"""A job with nothing ticked: no odds are the job's to state (its step is measured on every rank), so neither the
window's Odds line nor the slide states the profile's own rank's spread as if it were the job's. Another job opened
keeps none of the last one's ranks."""

from __future__ import annotations

import pytest

from ..traces import expect
from .test_job_window import open_job

pytestmark = pytest.mark.gui


def test_nothing_ticked_states_no_ranks_odds_as_the_jobs(qtbot, window):
    open_job(qtbot, window, expect.FIXTURES / "ddp4")
    doc = window.doc
    assert doc.profile.has_uncertainty()  # the rank's times have ranges (its steps differ)
    link = doc.decision
    qtbot.waitUntil(lambda: not link.odds_pending and link.profile_figures is not None, timeout=60_000)
    window.drawn()
    said = window.results.decision.odds.text()
    print(repr(said), doc.decision.figures, doc.decision.profile_figures is not None)
    assert "at the median" not in said and "median run" not in said


def test_the_odds_and_what_matters_charts_state_the_job_not_its_ranks_spread(qtbot, window):
    """The Odds chart drew the profile's own rank's draws of its times (median 113 ms, titled "1× median, 1×")
    under a headline of the job's 118.2 ms: with nothing ticked, every draw of the job is its measured step, one
    bar, and the note says what to do, clear of the bar's line. What matters most draws no legend and no axis
    values for bars it does not have (".90" and "1.10" were cut at the plot's ends)."""
    from .test_chart_contract import labels_on_lines
    from .test_nothing_cut import each_chart, labels_cut_or_covered

    open_job(qtbot, window, expect.FIXTURES / "ddp4")
    link = window.doc.decision
    qtbot.waitUntil(lambda: not link.busy, timeout=60_000)
    step = window.doc.job.figures.job.step_time
    seen = set()
    for key, chart in each_chart(window, qtbot):  # each checked while at the front of its tab
        if key == "distribution":
            view = chart._view
            assert view.centres == (pytest.approx(step),) and view.heights == (100.0,)
            title = view.title.replace("\u00a0", " ")
            assert f"the job's step {step:.1f} ms in every draw" in title, title
            assert view.note.startswith("Nothing is ticked")
            assert chart.note.isVisible()
            assert labels_on_lines(chart) == [] and labels_cut_or_covered(chart) == []
            # the share axis reaches past 100% to leave the labels their rows, and reads no share above 100%
            axis = chart.plot.getAxis("left")
            low, high = chart.plot.vb.viewRange()[1]
            ticks = [v for _spacing, values in axis.tickValues(low, high, axis.height()) for v in values]
            assert high > 100 and 50 <= max(ticks) <= 100, (high, ticks)
        seen.add(key)
    assert {"distribution", "tornado"} <= seen
    tornado = window.results.chart("tornado")
    assert tornado._legend_entries == () and not tornado.legend_label.text()
    assert not tornado.plot.getAxis("bottom").style["showValues"]
    # nor a tick beside the note for the rows it does not have (one at 0 drew a stray mark at the plot's left edge)
    from PySide6.QtGui import QImage, QPainter

    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, ticks, texts = tornado.plot.getAxis("left").generateDrawSpecs(painter)
    finally:
        painter.end()
    assert ticks == [] and texts == []


def test_the_job_slide_with_nothing_ticked_states_the_job_and_not_the_ranks_odds(qtbot):
    """Its title is the job as measured and whom it waits for, not "1× the job's speedup"; its sentences hold no
    "median run" of the profile's own rank; its legend names no GPU compute the CPU-only job does not have; its
    colour bar's numbers are drawn (pyqtgraph leaves them out of an axis too narrow for a slide's text)."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.ui.chart_factory import make_chart
    from amdahl_desk.ui.charts import export

    from .test_chart_contract import jobs

    job = jobs()["gloo"]
    profile = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    assert profile.has_uncertainty() and not any(o.enabled for o in profile.optimizations)
    inputs = ChartInputs(profile, analyse(profile), job=job)
    for size in ((1280, 720), (1920, 1080)):
        widget = export.chart_widget(make_chart, "slide", inputs, size)
        try:
            title = widget.title.text().replace("\u00a0", " ")
            straggler = job.job.straggler
            assert title.startswith("A job of 2 ranks: ") and f"rank {straggler} the straggler" in title, title
            said = [line.text() for line in widget.decision if line.isVisible()]
            assert said and not any("at the median" in s or "median run" in s for s in said), said
            assert widget.shown == ("job_ranks", "job_steps")
            assert "GPU compute" not in widget.parts["job_ranks"].legend_label.text()
        finally:
            widget.close()
            widget.deleteLater()
    steps = export.chart_widget(make_chart, "job_steps", inputs, (1920, 1080))
    try:
        from PySide6.QtGui import QFontMetrics

        axis = steps.bar.axis
        widest = max(QFontMetrics(steps.chart_style.font()).horizontalAdvance(t) for _, t in steps._view.scale_ticks)
        assert axis.width() > widest + QFontMetrics(steps.chart_style.font()).height()
    finally:
        steps.close()
        steps.deleteLater()


def test_another_job_opened_clears_the_ranks_typed_for_the_last(qtbot, window, tmp_path):
    """ "2" typed for a job of four ranks is no rank of a job of two: the field shows the new job's choice (every
    rank), not the old text beside a headline that answers on every rank."""
    open_job(qtbot, window, expect.FIXTURES / "ddp4")
    panel = window.results.job_panel
    panel.ranks.setText("2")
    panel.ranks.editingFinished.emit()
    qtbot.waitUntil(lambda: window.doc.job.figures.on_ranks == (2,))
    open_job(qtbot, window, expect.FIXTURES / "gloo")
    assert window.doc.job.figures.job.ranks == (0, 1) and window.doc.job.figures.on_ranks is None
    window.drawn()
    assert panel.ranks.text() == "" and panel.ranks_problem.text() == ""


def test_a_jobs_scaling_title_says_its_p_is_the_jobs():
    """The job's P (its ranks' communication and waiting at N0 as what grows) is not the P of the profile's own
    rank that the note and the Parallel fraction field state: the title says whose it is."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.scaling import scaling

    from .test_chart_contract import jobs

    profile = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    analysis = analyse(profile)
    for brief in (True, False):  # gloo is a CPU job (no GPU events): it scales over its ranks
        assert (
            scaling(ChartInputs(profile, analysis, job=jobs()["gloo"]), brief=brief)
            .title.replace("\u00a0", " ")
            .startswith("Rank scaling of the job: P = ")
        )
        assert (
            scaling(ChartInputs(profile, analysis), brief=brief)
            .title.replace("\u00a0", " ")
            .startswith("Rank scaling: P = ")
        )


def test_the_profiles_own_charts_under_a_jobs_headline_say_whose_they_are():
    """Where the time goes, Speedup against k and the critical path draw the profile's own rank, under the job's
    headline: their titles name the rank."""
    from dataclasses import replace

    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.present.breakdown import breakdown
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.speedup import speedup

    from .test_chart_contract import jobs

    profile = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    profile.set_optimizations([Optimization("Faster", (profile.components[0].name,), 2.0)])
    analysis = analyse(profile)
    job = replace(jobs()["gloo"], profile_rank=1)
    for brief in (True, False):
        for view in (breakdown, speedup):
            assert view(ChartInputs(profile, analysis, job=job), brief=brief).title.endswith("(rank\u00a01)")
            assert "rank" not in view(ChartInputs(profile, analysis), brief=brief).title
    # so do the cost and the latency against load, worked out from the rank's profile
    from amdahl_desk.present.cost_chart import cost_chart
    from amdahl_desk.present.load_chart import load_chart

    loaded = import_trace(expect.FIXTURES / "gloo" / "rank1.json.gz").to_profile()
    loaded.set_settings(replace(loaded.settings, arrival_rate=5.0))
    for view, p in ((cost_chart, profile), (load_chart, loaded)):
        a = analyse(p)
        assert view(ChartInputs(p, a, job=job)).title.endswith("(rank\u00a01)"), view(ChartInputs(p, a, job=job)).title
        assert "rank" not in view(ChartInputs(p, a)).title
    # the critical path is the rank's trace's: "Critical path of rank 1: … per step"
    from amdahl_desk.files.traces.linked import linked_figures
    from amdahl_desk.present.critical_path import critical_path

    trace = linked_figures(profile)
    for brief in (True, False):
        with_job = critical_path(ChartInputs(profile, analysis, job=job, trace=trace), brief=brief).title
        alone = critical_path(ChartInputs(profile, analysis, trace=trace), brief=brief).title
        with_job, alone = with_job.replace("\u00a0", " "), alone.replace("\u00a0", " ")
        assert with_job.startswith("Critical path of rank 1: ") and "ms per step" in with_job, with_job
        assert alone.startswith("Critical path: ") and "rank" not in alone, alone


def test_a_rank_mistyped_for_this_job_stays_beside_why(qtbot, window):
    open_job(qtbot, window, expect.FIXTURES / "ddp4")
    panel = window.results.job_panel
    panel.ranks.setText("0-3,9")
    panel.ranks.editingFinished.emit()
    assert "rank 9 is not in the job" in panel.ranks_problem.text()
    window.doc.change_settings("A target", target_time=100.0)  # a redraw of the panel with the field unfocused
    window.drawn()
    panel.show_job()
    assert panel.ranks.text() == "0-3,9" and "rank 9 is not in the job" in panel.ranks_problem.text()


def test_a_breakdown_whose_dependencies_change_nothing_says_nothing_of_them():
    """Where the trace's answer is the sum's (rank 2's data_loading: 46.3 ms either way), the After bar says its
    time once and the key carries no "+0 ms from the dependencies"."""
    from amdahl_desk.files.traces import import_trace
    from amdahl_desk.files.traces.linked import linked_figures
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.present.breakdown import breakdown
    from amdahl_desk.present.inputs import ChartInputs

    profile = import_trace(expect.FIXTURES / "ddp4" / "rank2.json.gz").to_profile()
    profile.set_optimizations([Optimization("Faster data_loading", ("data_loading",), 3.0)])
    inputs = ChartInputs(profile, analyse(profile), trace=linked_figures(profile))
    for brief in (True, False):
        view = breakdown(inputs, brief=brief)
        assert "the sum" not in view.after_text, view.after_text
        keys = [e.name for e in view.legend if e.name.startswith("outlined")]
        assert keys == ["outlined: sped up by the plan"], keys
