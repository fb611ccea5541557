"""What to build for a traced profile (model/traces/plan_choice.py): the cheapest plan and the ranking by time
saved come from the trace's dependency model. Expected figures are ``what_if``'s on the same events (one pass of
the scheduler per plan, not the vectorised draws the search uses)."""

from __future__ import annotations

import pytest

from amdahl_desk.files.traces.graph_source import load_rank_graph
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.plan_search import cheapest_plan
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.traces.patterns import Speedup
from amdahl_desk.model.traces.plan_answer import trace_uncertainty
from amdahl_desk.model.traces.plan_choice import trace_cheapest_plan, trace_ranking
from amdahl_desk.model.traces.plan_path import TracePlanner
from amdahl_desk.model.traces.whatif import prepare, what_if
from amdahl_desk.model.uncertainty import analyse_uncertainty

from . import expect

PATTERNS = (("gemm kernels", "pattern:gemm"), ("cudnn kernels", "pattern:cudnn"), ("aten ops", "pattern:aten::"))


@pytest.fixture(scope="module")
def one_gpu():
    pt = prepare(load_rank_graph(expect.ONE_GPU).trace)
    return pt, TracePlanner(pt, PATTERNS)


def _profile(target: float, *optimizations: Optimization) -> Profile:
    comps = [Component("gemm kernels", 10.0), Component("cudnn kernels", 20.0), Component("aten ops", 30.0)]
    return Profile(comps, list(optimizations), Settings(target_time=target))


def _total(pt, base: float, *speedups: Speedup) -> float:
    """The table's baseline times the step's length with the plan over its length as measured (``what_if``)."""
    w = what_if(pt, list(speedups))
    return base * w.predicted / w.baseline


def test_the_cheapest_plan_picks_what_the_dependencies_say_not_the_sum(one_gpu):
    pt, planner = one_gpu
    # The sum: the ops' 30 of 60 at 3× saves 20 (40 ≤ 50: met for one day); the cudnn kernels' 20 at 3× saves 13.3
    # (46.7 ≤ 50). On the trace's path the aten ops are CPU work the queue hides: 3× faster they save almost
    # nothing, while the cudnn kernels are most of the path.
    profile = _profile(
        50.0,
        Optimization("ops", ("aten ops",), 3.0, effort=1.0),
        Optimization("cudnn", ("cudnn kernels",), 3.0, enabled=False, effort=2.0),
        Optimization("gemm", ("gemm kernels",), 2.0, enabled=False, effort=3.0),
    )
    analysis = analyse(profile)
    draws = make_draws(profile)
    by_sum = cheapest_plan(profile, draws, 50.0, 0.8)
    assert by_sum.cheapest is not None and by_sum.cheapest.names == ("ops",)
    ops = _total(pt, 60.0, Speedup("aten::", 3.0))
    cudnn = _total(pt, 60.0, Speedup("cudnn", 3.0))
    assert ops > 50.0 > cudnn  # the premise: on the path the ops miss the target and the cudnn kernels meet it
    found = trace_cheapest_plan(profile, analysis, planner, draws, 50.0, 0.8)
    assert found is not None and found.exact
    assert found.cheapest is not None and found.cheapest.names == ("cudnn",) and found.cheapest.effort == 2.0
    assert found.cheapest.probability_target == 1.0  # no ranges: every draw is the plan as estimated
    assert found.cheapest.new_total_p50 == pytest.approx(cudnn, rel=1e-9)
    everything = _total(pt, 60.0, Speedup("aten::", 3.0), Speedup("cudnn", 3.0), Speedup("gemm", 2.0))
    assert found.probability_all == (1.0 if everything <= 50.0 else 0.0)


def test_no_plan_when_every_candidate_together_misses_on_the_path(one_gpu):
    pt, planner = one_gpu
    profile = _profile(
        30.0,
        Optimization("ops", ("aten ops",), 3.0, effort=1.0),
        Optimization("cudnn", ("cudnn kernels",), 3.0, effort=2.0),
        Optimization("gemm", ("gemm kernels",), 2.0, effort=3.0),
    )
    # The sum: 60 − 20 − 13.3 − 5 = 21.7 ≤ 30, met; on the path all three together leave more than 30.
    assert cheapest_plan(profile, make_draws(profile), 30.0, 0.8).cheapest is not None
    assert _total(pt, 60.0, Speedup("aten::", 3.0), Speedup("cudnn", 3.0), Speedup("gemm", 2.0)) > 30.0
    found = trace_cheapest_plan(profile, analyse(profile), planner, make_draws(profile), 30.0, 0.8)
    assert found is not None and found.cheapest is None and found.exact and found.probability_all == 0.0


def test_the_plans_odds_are_the_odds_of_the_same_ticked_plan(one_gpu):
    _, planner = one_gpu
    profile = _profile(
        45.0,
        Optimization("cudnn", ("cudnn kernels",), 3.0, speedup_low=1.5, speedup_high=5.0, effort=2.0),
        Optimization("ops", ("aten ops",), 3.0, enabled=False, effort=1.0),
    )
    analysis = analyse(profile)
    draws = make_draws(profile, count=400)
    odds = trace_uncertainty(profile, analysis, analyse_uncertainty(profile, analysis, draws=draws), planner)
    found = trace_cheapest_plan(profile, analysis, planner, draws, 45.0, 0.5)
    assert found is not None and found.cheapest is not None and found.cheapest.names == ("cudnn",)
    assert found.cheapest.probability_target == odds.probability_target
    assert 0.5 <= found.cheapest.probability_target < 1.0


def test_a_candidate_the_trace_does_not_know_leaves_the_search_to_the_sum(one_gpu):
    _, planner = one_gpu
    profile = Profile(
        [Component("gemm kernels", 10.0), Component("added later", 50.0)],
        [Optimization("new", ("added later",), 2.0, effort=1.0)],
        Settings(target_time=40.0),
    )
    assert trace_cheapest_plan(profile, analyse(profile), planner, make_draws(profile), 40.0, 0.8) is None


def test_the_ranking_is_each_optimizations_saving_alone_on_the_path(one_gpu):
    pt, planner = one_gpu
    profile = _profile(
        50.0,
        Optimization("ops", ("aten ops",), 3.0, effort=1.0),
        Optimization("cudnn", ("cudnn kernels",), 3.0, enabled=False, effort=2.0, confidence=0.5),
        Optimization("gemm", ("gemm kernels",), 2.0, enabled=False),
    )
    analysis = analyse(profile)
    sums = analyse_uncertainty(profile, analysis, draws=make_draws(profile, count=100)).ranking
    assert [v.name for v in sums] == ["ops", "cudnn", "gemm"]  # the sum: 20 a day against 6.7 · 0.5 / 2
    ranked = trace_ranking(profile, analysis, planner, sums)
    saved = {v.name: v.expected_time_saved for v in ranked}
    assert saved["ops"] == pytest.approx(60.0 - _total(pt, 60.0, Speedup("aten::", 3.0)), rel=1e-9)
    assert saved["cudnn"] == pytest.approx(0.5 * (60.0 - _total(pt, 60.0, Speedup("cudnn", 3.0))), rel=1e-9)
    assert saved["gemm"] == pytest.approx(60.0 - _total(pt, 60.0, Speedup("gemm", 2.0)), rel=1e-9)
    # per engineer-day: cudnn's half of ~18 ms over 2 days beats the ops' fraction of a ms over 1; gemm has no effort
    assert [v.name for v in ranked] == ["cudnn", "ops", "gemm"]
    assert ranked[0].saved_per_day == pytest.approx(saved["cudnn"] / 2.0)
