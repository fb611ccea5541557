"""A traced profile's objectives, load and cost: the step's figures are its answer on the trace's critical path
(a hand-made answer here), the sum's beside; an objective of some components keeps the sum of their times."""

import math

import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.load_settings import LoadCostSettings
from amdahl_desk.model.objectives import ObjectiveSpec
from amdahl_desk.model.outcomes import analyse_outcomes
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.traces.plan_answer import OptionAnswer, TraceAnswer
from amdahl_desk.present.details import COMPUTING_NOTE, details
from amdahl_desk.present.report import report_text

# a 100, b 300, c 600 ms (a step of 1,000 ms); 'two' makes a 2×, 'four' makes b and c 4× (both enabled).
# The sum: 50 + 75 + 150 = 275 ms (3.636×). Say the trace's critical path answers 400 ms for the plan (2.5×),
# 'two' alone 1.02× and 'four' alone 2.2×, ceilings 1.05× and 3×, the plan's 3.2×.
STEP_AFTER, STEP_SPEEDUP = 400.0, 2.5


def _profile() -> Profile:
    return Profile(
        [Component("a", 100), Component("b", 300), Component("c", 600)],
        [Optimization("two", ("a",), 2), Optimization("four", ("b", "c"), 4)],
        Settings(target_time=450),
    )


def _answer(profile: Profile) -> TraceAnswer:
    a = analyse(profile)
    c = a.combined
    return TraceAnswer(
        usable=True,
        problem="",
        speedup=STEP_SPEEDUP,
        new_total=STEP_AFTER,
        ceiling=3.2,
        sum_speedup=c.overall_speedup,
        sum_new_total=c.new_total,
        sum_ceiling=c.ceiling,
        step_before=1000.0,
        step_after=STEP_AFTER,
        by_kind_before=(),
        by_kind_after=(),
        options=(OptionAnswer(1.02, 1.05), OptionAnswer(2.2, 3.0)),
        baseline=1000.0,
        trace_total=1000.0,
    )


def _outcomes(profile, objectives, settings, answer):
    return analyse_outcomes(profile, analyse(profile), objectives, [ObjectiveSpec("X", 200)], settings, answer=answer)


def test_end_to_end_is_the_step_on_the_path_and_a_part_keeps_its_sum():
    p = _profile()
    # X holds a and b (a part of the step); "All" holds every component (the step, under another name)
    objectives = [("X", "All"), ("X", "All"), ("All",)]
    o = _outcomes(p, objectives, LoadCostSettings(), _answer(p))
    e2e, x, whole = o.objectives
    assert e2e.dependencies and whole.dependencies and not x.dependencies
    assert e2e.new_total == STEP_AFTER and e2e.overall_speedup == STEP_SPEEDUP and e2e.ceiling == 3.2
    assert e2e.combined.time_saved == pytest.approx(600.0)
    assert e2e.sum_new_total == pytest.approx(275.0) and e2e.sum_speedup == pytest.approx(1000 / 275)
    # each optimization alone: 1,000 / its S on the path
    assert list(e2e.optimizations.new_total) == pytest.approx([1000 / 1.02, 1000 / 2.2])
    assert list(e2e.optimizations.ceiling) == pytest.approx([1.05, 3.0])
    # the target of 450 ms: the sum's 275 ms meets it, and so does the path's 400 ms
    assert e2e.target is not None and e2e.target.met_by_plan
    # X = a + b = 400 ms → 50 + 75 = 125 ms by the sum, untouched by the step's answer
    assert x.new_total == pytest.approx(125.0) and x.sum_new_total is None
    row = {r.name: r for r in o.table.rows}
    assert row["End to end"].dependencies and row["End to end"].combined == STEP_SPEEDUP
    assert row["End to end"].speedups == pytest.approx((1.02, 2.2)) and not row["X"].dependencies
    cells = details(p, o).cells
    assert cells[1][0] == "End to end (with deps)" and cells[2][0] == "X"
    note = details(p, o).note
    assert "1,000 ms → 400 ms (2.5×)" in note and "promises 275 ms" in note, note


def test_a_target_the_sum_meets_and_the_path_does_not():
    p = _profile()
    p.set_settings(Settings(target_time=300))
    o = _outcomes(p, [(), (), ()], LoadCostSettings(), _answer(p))
    assert analyse(p).target.met_by_plan  # 275 ≤ 300 by the sum
    assert not o.objectives[0].target.met_by_plan  # 400 > 300 on the path


def test_load_on_the_step_serves_the_path_s_time():
    p = _profile()
    load = LoadCostSettings(arrival_rate=1.5)  # λ = 1.5/s, one replica; End to end is the service
    o = _outcomes(p, [(), (), ()], load, _answer(p))
    assert o.load is not None
    assert o.load.before.service_time == pytest.approx(1000.0) and o.load.after.service_time == pytest.approx(400.0)
    # M/M/1 after: ρ = 1.5 × 0.4 s = 0.6, mean response s/(1 − ρ) = 400/0.4 = 1,000 ms
    assert o.load.after.utilization == pytest.approx(0.6)
    assert o.load.after.mean_response == pytest.approx(1000.0)
    text = details(p, o).load
    assert "critical path (400 ms)" in text and "promises 275 ms" in text, text


def test_cost_saves_what_the_path_saves_the_sum_beside():
    p = _profile()
    price = LoadCostSettings(gpu_price_per_hour=3.6, currency="$")
    o = _outcomes(p, [(), (), ()], price, _answer(p))
    # 600 ms saved on 1 GPU: 0.6 s / 3,600 s × $3.60 = $0.0006; the sum's 725 ms: $0.000725
    assert o.cost.saved_per_run == pytest.approx(0.0006)
    assert o.cost.sum_saved_per_run == pytest.approx(0.000725)
    assert "a run on 1 GPU on the trace's critical path" in details(p, o).cost


def test_without_an_answer_every_figure_is_the_sum_s():
    p = _profile()
    price = LoadCostSettings(gpu_price_per_hour=3.6, currency="$")
    o = _outcomes(p, [(), (), ()], price, None)
    assert not o.objectives[0].dependencies and o.objectives[0].new_total == pytest.approx(275.0)
    assert o.cost.saved_per_run == pytest.approx(0.000725) and o.cost.sum_saved_per_run is None
    assert "critical path" not in details(p, o).cost
    # an unusable answer is no answer
    unusable = TraceAnswer(**{**_answer(p).__dict__, "usable": False})
    assert analyse_outcomes(p, analyse(p), [(), (), ()], [], price, answer=unusable).answer is None


def test_while_the_answer_is_computed_the_step_s_figures_are_not_shown():
    p = _profile()
    o = _outcomes(p, [("X",), (), ()], LoadCostSettings(arrival_rate=1.0), None)
    view = details(p, o, computing=True)
    assert view.note == COMPUTING_NOTE and not view.cells and not view.load and not view.cost


def test_report_words_the_step_s_load_on_the_path():
    p = _profile()
    p.set_settings(Settings(target_time=450, arrival_rate=1.5))
    text = report_text(p, analyse(p), trace=_answer(p))
    assert "The service time after the plan is the step on the trace's critical path (400 ms)" in text
    assert math.isclose(_answer(p).time_saved, 600.0)
