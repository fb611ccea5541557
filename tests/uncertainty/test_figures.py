"""The enabled plan under uncertainty: bounds and tornado by the point analysis, odds by closed forms."""

import math
from dataclasses import replace

import numpy as np
import pytest

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings
from amdahl_desk.model.uncertainty import analyse_uncertainty, histogram

from ..helpers import TRAINING, profile_of
from .oracle import pert_cdf, pert_expectation

MATMUL = "GPU matrix multiplications"


def training(*opts: Optimization, target: float | None = 550.0) -> Profile:
    return profile_of(TRAINING, opts, Settings(target_time=target))


def precision(**changes) -> Optimization:
    return replace(Optimization("Reduced precision", (MATMUL,), 4.0, speedup_low=3.0, speedup_high=6.0), **changes)


def with_k(profile: Profile, ks: dict[int, float]) -> Profile:
    """The same profile with some optimizations at another k (and no range), for the point analysis."""
    p = profile.copy()
    p.set_optimizations(
        [
            replace(o, speedup=ks.get(j, o.speedup), speedup_low=None, speedup_high=None)
            for j, o in enumerate(p.optimizations)
        ]
    )
    return p


def figures(profile: Profile, **kwargs):
    return analyse_uncertainty(profile, analyse(profile), **kwargs)


def standard_error(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


def test_the_issue_sentence_figures_on_the_training_example():
    # 400 ms untouched + 600 ms / k: 3× → 600 ms (1.67×), 6× → 500 ms (2×); 550 ms needs k ≥ 4.
    u = figures(training(precision()))
    assert (u.overall_speedup.low, u.overall_speedup.high) == pytest.approx((1000 / 600, 2.0))
    assert (u.new_total.low, u.new_total.high) == pytest.approx((500.0, 600.0))
    p = 1 - pert_cdf(3, 4, 6, 4.0)  # ≈ 0.583
    assert u.probability_target == pytest.approx(p, abs=3 * standard_error(p, u.draws))
    # The median new total is 400 + 600/median(k); the median k solves CDF(k) = 1/2.
    lo, hi = 3.0, 6.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if pert_cdf(3, 4, 6, mid) < 0.5 else (lo, mid)
    assert u.new_total.p50 == pytest.approx(400 + 600 / lo, rel=2e-3)
    assert u.overall_speedup.p50 == pytest.approx(1000 / (400 + 600 / lo), rel=2e-3)
    assert u.new_total.p5 < u.new_total.p50 < u.new_total.p95


def test_bounds_are_the_point_analysis_at_every_low_and_every_high_k():
    opts = [
        precision(),
        Optimization("Kernel fusion", ("Other GPU kernels", MATMUL), 2.0, speedup_low=1.5, speedup_high=2.5),
        Optimization("Faster input", ("Input pipeline and host preparation",), 2.0, enabled=False, speedup_low=1.1),
        Optimization("Overlap", ("Gradient synchronization",), 3.0),
    ]
    p = training(*opts)
    u = figures(p)
    lows = {j: o.speedup_range[0] for j, o in enumerate(opts)}
    highs = {j: o.speedup_range[1] for j, o in enumerate(opts)}
    at_low, at_high = analyse(with_k(p, lows)).combined, analyse(with_k(p, highs)).combined
    assert u.overall_speedup.low == pytest.approx(at_low.overall_speedup, rel=1e-12)
    assert u.overall_speedup.high == pytest.approx(at_high.overall_speedup, rel=1e-12)
    assert (u.new_total.low, u.new_total.high) == pytest.approx((at_high.new_total, at_low.new_total), rel=1e-12)


def test_the_tornado_is_the_point_analysis_one_optimization_at_a_time():
    opts = [
        Optimization("Small", ("Other GPU kernels",), 2.0, speedup_low=1.8, speedup_high=2.2),
        precision(),
        Optimization("Shared", (MATMUL, "Miscellaneous overhead"), 1.5, speedup_low=1.0, speedup_high=3.0),
        Optimization("Off", ("Gradient synchronization",), 3.0, enabled=False, speedup_low=1.0, speedup_high=9.0),
        Optimization("Point", ("Input pipeline and host preparation",), 2.0, confidence=0.5),
    ]
    p = training(*opts)
    u = figures(p)
    assert [s.name for s in u.sensitivity] == ["Shared", "Reduced precision", "Small"]  # enabled, ranged, by swing
    for s in u.sensitivity:
        low, high = opts[s.index].speedup_range
        assert s.speedup_at_low == pytest.approx(analyse(with_k(p, {s.index: low})).combined.overall_speedup, rel=1e-12)
        assert s.speedup_at_high == pytest.approx(
            analyse(with_k(p, {s.index: high})).combined.overall_speedup, rel=1e-12
        )
    swings = [s.swing for s in u.sensitivity]
    assert swings == sorted(swings, reverse=True)


@pytest.mark.parametrize("confidence", [1.0, 0.85, 0.4])
@pytest.mark.parametrize("target", [520.0, 550.0, 590.0])
def test_one_optimization_meets_the_target_when_it_works_and_its_k_is_enough(confidence, target):
    # P(meet) = c · P(k ≥ required k), required k = 600/(target − 400).
    u = figures(training(precision(confidence=confidence), target=target))
    p = confidence * (1 - pert_cdf(3, 4, 6, 600 / (target - 400)))
    assert u.probability_target == pytest.approx(p, abs=3 * standard_error(p, u.draws) + 2e-4)


def test_the_mean_new_total_is_the_closed_form_within_its_standard_error():
    # Times with a range too: E[new] = Σ untouched E[t] + E[t_matmul]·(c·E[1/k] + 1 − c), times and k independent.
    rows = [Component(n, t, s, time_low=t * 0.9, time_high=t * 1.3) for n, t, s in TRAINING]
    p = Profile(rows, [precision(confidence=0.8)], Settings(target_time=600.0))
    u = figures(p)
    mean_t = {c.name: pert_expectation(c.time_low, c.time, c.time_high, lambda x: x) for c in rows}
    reciprocal = pert_expectation(3, 4, 6, lambda x: 1 / x)
    expected = sum(v for k, v in mean_t.items() if k != MATMUL) + mean_t[MATMUL] * (0.8 * reciprocal + 0.2)
    spread = np.std(u.new_total_draws)
    assert u.new_total.mean == pytest.approx(expected, abs=4 * spread / math.sqrt(u.draws))
    assert u.times.ranged == 5 and u.times.exact == 5 and u.times.normal_error == 0.0


def test_a_target_below_the_floor_is_never_met_and_one_above_the_worst_case_always():
    p = training(precision(), target=390.0)  # 400 ms lie outside matmul
    u = figures(p)
    assert u.unreachable and u.never_meets and u.probability_target == 0.0
    u = figures(training(precision(), target=450.0))  # reachable in principle (k ≥ 12), never at k ≤ 6
    assert not u.unreachable and u.never_meets and u.best_case == pytest.approx(500.0)
    u = figures(training(precision(), target=600.0))
    assert u.always_meets and u.probability_target == 1.0 and u.worst_case == pytest.approx(600.0)
    u = figures(training(precision(confidence=0.9), target=600.0))  # a failure leaves 1,000 ms
    assert not u.always_meets and u.worst_case == pytest.approx(1000.0)


def test_the_ranking_is_expected_time_saved_per_engineer_day():
    opts = [
        precision(effort=10.0, confidence=0.5),
        Optimization("Fusion", ("Other GPU kernels",), 2.0, enabled=False, effort=1.0),
        Optimization("Input", ("Input pipeline and host preparation",), 2.0, speedup_low=1.5, speedup_high=4.0),
    ]
    u = figures(training(*opts))
    saved = {v.name: v for v in u.ranking}
    # Half the time it works and saves 600·(1 − 1/k); half the time it fails and saves nothing.
    expected = 0.5 * pert_expectation(3, 4, 6, lambda x: 600 - 600 / x)
    assert saved["Reduced precision"].expected_time_saved == pytest.approx(expected, rel=1e-4)
    assert saved["Reduced precision"].saved_per_day == pytest.approx(expected / 10, rel=1e-4)
    assert saved["Fusion"].saved_per_day == pytest.approx(75.0)
    assert saved["Input"].saved_per_day is None  # no effort
    assert [v.name for v in u.ranking] == ["Fusion", "Reduced precision", "Input"]
    # 150 ms at 2× saves 75 ms when it works: 60 ms expected at 80% odds.
    odds = figures(training(Optimization("Fusion", ("Other GPU kernels",), 2.0, effort=2.0, confidence=0.8)))
    assert odds.ranking[0].expected_time_saved == pytest.approx(60.0)
    assert odds.ranking[0].saved_per_day == pytest.approx(30.0)


def test_a_profile_without_ranges_has_no_uncertainty_and_a_point_distribution():
    p = training(Optimization("Reduced precision", (MATMUL,), 4.0, effort=3.0))
    assert not p.has_uncertainty()
    u = figures(p)
    assert (u.new_total.p5, u.new_total.p50, u.new_total.p95, u.new_total.mean) == (550.0,) * 4
    assert u.probability_target == 1.0
    assert training(precision()).has_uncertainty()
    assert training(Optimization("R", (MATMUL,), 4.0, confidence=0.9)).has_uncertainty()
    ranged = Profile([Component("a", 5.0, time_high=6.0)], [])
    assert ranged.has_uncertainty()


def test_the_histogram_holds_every_draw():
    u = figures(training(precision()))
    edges, shares = histogram(u, bins=40)
    assert edges.size == 41 and shares.sum() == pytest.approx(1.0)
    assert edges[0] == u.new_total_draws.min() and edges[-1] == u.new_total_draws.max()


def test_the_same_seed_gives_the_same_figures():
    p = training(precision(confidence=0.7))
    assert figures(p, seed=11) == figures(p, seed=11)
    assert figures(p, seed=11).new_total.p50 != figures(p, seed=12).new_total.p50
