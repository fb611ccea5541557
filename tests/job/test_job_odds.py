"""A job's plan under uncertainty, every draw replayed through the job (model/job/odds.py), held to the
hand-worked job (tests/job/make_jobs.example): kernel A 12, 10, 20, 11 ms on ranks 0–3 and a 3 ms all-reduce
that ends when rank 2 arrives. Kernel A k× faster on every rank leaves rank 2 the last to arrive, so the job's
step is 20/k + 3 ms for any k up to 2,000 (beyond, the all-reduce's launch 10 µs into the step bounds it: 3.010 ms
with kernel A free); on rank 0 alone it stays 23 ms."""

from __future__ import annotations

import numpy as np
import pytest

from amdahl_desk.files.traces.job import load_job
from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.job.analysis import job_what_if
from amdahl_desk.model.job.join import match
from amdahl_desk.model.job.odds import job_uncertainty
from amdahl_desk.model.job.plan import job_plan
from amdahl_desk.model.profile import Component, Optimization, Profile, Scaling, Settings
from amdahl_desk.model.uncertainty import analyse_uncertainty

from .make_jobs import example

STEP = "ProfilerStep#"


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    folder = tmp_path_factory.mktemp("odds")
    for r in example():
        r.write(folder)
    profile = Profile(
        [Component("kernel_A", 20.0, Scaling.PARALLEL), Component("rest", 3.0, Scaling.SERIAL)],
        [Optimization("A faster", ("kernel_A",), 2.0, speedup_low=1.5, speedup_high=4.0, confidence=0.9)],
        Settings(target_time=13.0),
    )
    plan = job_plan(profile.optimizations, {})
    graph = match(load_job([str(folder)], STEP, plan.speedups))
    figures = analyse_uncertainty(profile, analyse(profile))
    return profile, plan, graph, figures


def k_of(figures) -> np.ndarray:
    """Each draw's k of the one optimization (1 where it failed)."""
    r = np.broadcast_to(np.asarray(figures.common.reciprocal[0], dtype=float), (figures.common.count,))
    return 1.0 / r


def test_every_draw_is_the_jobs_step_at_its_k(job):
    profile, plan, graph, figures = job
    odds = job_uncertainty(profile, figures, graph, plan)
    assert odds is not None and odds.job_ranks == 4 and odds.draws == figures.draws
    k = k_of(figures)
    assert np.any(k == 1.0) and np.any(k > 3.0)  # failures (confidence 0.9) and the high end drawn
    np.testing.assert_allclose(odds.new_total_draws, 20.0 / k + 3.0, rtol=1e-9)
    np.testing.assert_allclose(odds.speedup_draws, 23.0 / (20.0 / k + 3.0), rtol=1e-9)
    assert odds.probability_target == pytest.approx(np.mean(20.0 / k + 3.0 <= 13.0 * (1 + 1e-12)))
    assert (odds.new_total.low, odds.new_total.high) == pytest.approx((20 / 4 + 3, 20 / 1.5 + 3))
    assert (odds.overall_speedup.low, odds.overall_speedup.high) == pytest.approx((23 / (20 / 1.5 + 3), 23 / 8))
    assert odds.best_case == pytest.approx(8.0) and odds.worst_case == pytest.approx(23.0)  # may fail: k = 1
    assert odds.floor == pytest.approx(3.010, abs=1e-6)
    (swing,) = odds.sensitivity
    assert (swing.speedup_at_low, swing.speedup_at_high) == pytest.approx((23 / (20 / 1.5 + 3), 23 / 8))
    assert odds.ranking == ()


def test_the_likely_row_is_the_jobs_answer_and_other_ranks_gain_nothing(job):
    profile, plan, graph, figures = job
    answer = job_what_if(graph, [(s.pattern, s.k) for s in plan.speedups])
    odds = job_uncertainty(profile, figures, graph, plan)
    assert answer.predicted == pytest.approx(13.0)
    assert float(np.median(odds.new_total_draws)) == pytest.approx(odds.new_total.p50)
    alone = job_uncertainty(profile, figures, graph, plan, on_ranks=[0])
    np.testing.assert_allclose(alone.new_total_draws, 23.0, rtol=1e-9)  # rank 0 already waits 8 ms for rank 2
    assert alone.probability_target == 0.0


def test_a_ticked_target_the_job_cannot_read_gives_no_odds(job):
    profile, _plan, graph, figures = job
    idle = Profile(
        profile.components,
        [Optimization("idle", ("rest",), 2.0, speedup_low=1.5, speedup_high=3.0)],
        profile.settings,
    )
    plan = job_plan(idle.optimizations, {"rest": "idle"})  # defined against one rank's import: left out
    assert plan.left_out == ("rest",)
    assert job_uncertainty(idle, analyse_uncertainty(idle, analyse(idle)), graph, plan) is None


def test_an_exact_k_over_measured_times_gives_one_answer_drawn_as_one(tmp_path):
    """The rank's times have ranges (its steps differ) but the job's step is replayed as measured on every rank:
    with k exact, every draw is the same 13 ms. The Odds chart draws one bar, not a histogram whose one bin runs
    off its axis, and nothing says the measured times vary."""
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.uncertainty import likelier_sentence
    from amdahl_desk.present.uncertainty_charts import distribution

    for r in example():
        r.write(tmp_path)
    profile = Profile(
        [Component("kernel_A", 20.0, Scaling.PARALLEL, time_low=18.0, time_high=23.0), Component("rest", 3.0)],
        [Optimization("A faster", ("kernel_A",), 2.0)],
        Settings(target_time=14.0),
    )
    plan = job_plan(profile.optimizations, {})
    graph = match(load_job([str(tmp_path)], STEP, plan.speedups))
    odds = job_uncertainty(profile, analyse_uncertainty(profile, analyse(profile)), graph, plan)
    assert odds is not None and np.ptp(odds.new_total_draws) == pytest.approx(0.0, abs=1e-9)
    view = distribution(ChartInputs(profile, analyse(profile), uncertainty=odds))
    assert view.heights == (100.0,) and view.title.replace("\u00a0", " ").endswith("13 ms in every draw")
    assert "measured times vary" not in likelier_sentence(profile, odds)
