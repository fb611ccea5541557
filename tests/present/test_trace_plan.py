"""The plan with the trace's dependencies in words (present/trace_plan.py, present/critical_path.py), without Qt:
every text says the current plan's figures or that they are being computed, never another plan's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amdahl_desk.files.traces import import_trace
from amdahl_desk.files.traces.linked import linked_figures
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Optimization
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.critical_path import critical_path
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.present.numbers import Numbers
from amdahl_desk.present.summary import summary
from amdahl_desk.present.tones import Tone
from amdahl_desk.present.trace_plan import (
    COMPUTING,
    DASH,
    NO_TRACE,
    TraceFigures,
    component_cells,
    dependency_line,
    option_cells,
    trace_notes,
)

from ..traces import expect

GERMAN = Numbers(",", ".")
BACKWARD = "## backward ##"


@pytest.fixture(scope="module")
def traced():
    """The 1-GPU trace imported, backward 2× ticked and forward 3× not, with its figures computed at once."""
    profile = import_trace(expect.ONE_GPU).to_profile()
    profile.set_optimizations(
        [
            Optimization("Faster backward", (BACKWARD,), 2.0),
            Optimization("Faster forward", ("## forward ##",), 3.0, enabled=False),
        ]
    )
    return profile, linked_figures(profile)


def test_the_summary_s_answer_is_the_plan_with_dependencies_and_the_sum_beside_it(traced):
    profile, figures = traced
    analysis = analyse(profile)
    view = summary(profile, analysis, trace=figures)
    path = figures.answers.path
    base = analysis.baseline_total
    assert view.speedup.value == f"{path.speedup:.3f}×" and view.speedup.tone is Tone.GOOD
    assert view.new_time.value == f"{base / path.speedup:.3g} ms"
    assert float(view.ceiling.value.rstrip("×")) == pytest.approx(path.ceiling, rel=2e-3)
    assert f"{path.speedup:.3f}× faster with the trace's dependencies" in view.sentence
    line = view.dependencies
    c = analysis.combined
    assert line.text.startswith(f"The sum of the components' times promises {c.overall_speedup:.3g}×")
    # backward's kernels (the ones launched while it runs) hold more of the GPU-bound path than its share
    assert path.speedup > c.overall_speedup and "the dependencies give more" in line.text
    german = summary(profile, analysis, GERMAN, trace=figures)
    assert german.speedup.value == f"{path.speedup:.3f}×".replace(".", ",") and "78,8 ms" in german.sentence


def test_while_the_plan_is_computed_the_summary_shows_no_figure(traced):
    _profile, figures = traced
    other = import_trace(expect.ONE_GPU).to_profile()
    other.set_optimizations([Optimization("Faster backward", (BACKWARD,), 2.5)])
    view = summary(other, analyse(other), trace=figures)
    assert {f.value for f in view.figures} == {COMPUTING} and "computing" in view.sentence


def test_a_figure_of_another_plan_is_never_said(traced):
    """The answers say which plan they are of: after a tick or a k step, until the new answer comes, every text
    says it is being computed."""
    _profile, figures = traced
    other = import_trace(expect.ONE_GPU).to_profile()
    other.set_optimizations([Optimization("Faster backward", (BACKWARD,), 2.5)])  # k moved: not the answer's plan
    analysis = analyse(other)
    line = dependency_line(figures, other, analysis)
    assert line.tone is Tone.MUTED and "computing" in line.text
    assert f"{figures.answers.path.speedup:.3f}" not in line.text
    assert option_cells(figures, other.optimizations) == ([COMPUTING], [COMPUTING])
    view = critical_path(ChartInputs(other, analysis, trace=figures))
    assert "computing" in view.title and not view.kinds


def test_reading_unknown_targets_and_no_plan(traced):
    profile, figures = traced
    analysis = analyse(profile)
    reading = TraceFigures(figures.source)
    assert "reading the trace" in dependency_line(reading, profile, analysis).text
    assert component_cells(reading, profile.components, profile.unit)[0] == (COMPUTING,) * 3
    assert dependency_line(NO_TRACE, profile, analysis).text == ""
    unknown = replace(figures, answers=replace(figures.answers, path=None, unknown=("typed by hand",)))
    said = dependency_line(unknown, profile, analysis)
    assert said.tone is Tone.WARN and "“typed by hand”" in said.text


def test_a_trace_that_cannot_be_used_is_a_note_and_nothing_else(traced):
    profile, figures = traced
    gone = TraceFigures("/runs/moved.json.gz", problem="no such file or folder")
    analysis = analyse(profile)
    view = summary(profile, analysis, trace=gone)
    assert view.dependencies.text == ""
    assert any("/runs/moved.json.gz" in n and "no such file" in n for n in view.notes)
    assert trace_notes(gone) and not trace_notes(figures)
    assert option_cells(gone, profile.optimizations) == ([DASH, DASH], [DASH, DASH])


def test_each_row_has_its_own_figures(traced):
    profile, figures = traced
    speedups, ceilings = option_cells(figures, profile.optimizations)
    alone = figures.answers.alone
    assert speedups == [f"{alone[(o.targets, o.speedup)].speedup:.3f}×" for o in profile.optimizations]
    assert float(ceilings[0].rstrip("×")) == pytest.approx(alone[((BACKWARD,), 2.0)].ceiling, rel=2e-3)
    cells = component_cells(figures, profile.components, profile.unit)
    paths = figures.components
    row = [c.name for c in profile.components].index(BACKWARD)
    assert cells[row][0] == f"{paths[BACKWARD].on_path:.3g}"
    in_seconds = component_cells(figures, profile.components, TimeUnit.S)
    assert float(in_seconds[row][0]) == pytest.approx(paths[BACKWARD].on_path / 1000, rel=1e-2)


def test_the_chart_s_bars_add_up_to_the_path(traced):
    profile, figures = traced
    view = critical_path(ChartInputs(profile, analyse(profile), trace=figures))
    path = figures.answers.path
    assert sum(s.before for s in view.kinds) == pytest.approx(path.baseline.length, rel=1e-9)
    assert sum(s.after for s in view.kinds) == pytest.approx(path.predicted.length, rel=1e-9)
    assert sum(s.before for s in view.components) == pytest.approx(path.baseline.length, rel=1e-9)
    assert sum(s.after for s in view.components) == pytest.approx(path.predicted.length, rel=1e-9)
    assert BACKWARD in [s.name for s in view.components]
    assert f"{path.speedup:.3f}×" in view.title.replace("\xa0", " ")


def test_the_on_path_column_and_the_chart_give_each_component_one_time(traced):
    """The column and the chart's strip read one figure; on the real trace's tied paths the slope just below
    k = 1 (what came off first) is less than what the drawn path holds for backward — the figure is the path's."""
    profile, figures = traced
    view = critical_path(ChartInputs(profile, analyse(profile), trace=figures))
    strip = {s.name: s.before_text for s in view.components}
    cells = component_cells(figures, profile.components, profile.unit)
    for c, cell in zip(profile.components, cells, strict=True):
        if c.name in strip:
            assert cell[0] == strip[c.name].removesuffix(" ms"), c.name
    row = [c.name for c in profile.components].index(BACKWARD)
    assert float(cells[row][0]) == pytest.approx(dict(figures.baseline.components)[BACKWARD], rel=5e-3)


def test_times_edited_away_from_the_trace_leave_no_stale_path_figure(traced):
    profile, figures = traced
    zeros = profile.copy()
    zeros.set_components([c._replace(time=0.0, time_low=None, time_high=None) for c in profile.components])
    view = critical_path(ChartInputs(zeros, None, trace=figures))
    title = view.title.replace("\xa0", " ")
    assert not view.kinds and "cannot be analysed" in title and "→" not in title
    edited = profile.copy()
    edited.set_components([c._replace(time=c.time * 2, time_low=None, time_high=None) for c in profile.components])
    analysis = analyse(edited)
    from amdahl_desk.present.trace_plan import edited_since_import

    assert edited_since_import(figures, analysis.baseline_total, edited.unit)
    assert not edited_since_import(figures, analyse(profile).baseline_total, profile.unit)
    assert component_cells(figures, edited.components, edited.unit, edited=True)[0] == (DASH, DASH, DASH)
    chart = critical_path(ChartInputs(edited, analysis, trace=figures))
    assert "as measured (the table's times were edited since)" in chart.title.replace("\xa0", " ")
    said = summary(edited, analysis, trace=figures)
    assert any("no longer add up to the step the trace measured" in n for n in said.notes)
