"""The common random numbers: the same seed gives the same draws, and a plan's totals follow the overlap rule."""

import math
from dataclasses import replace

import numpy as np
import pytest

from amdahl_desk.model.draws import EXACT_TIMES, make_draws
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings

from .oracle import pert_cdf, pert_expectation


def overlapping(seed: int = 3) -> Profile:
    rng = np.random.default_rng(seed)
    comps = [Component(f"c{i}", float(rng.uniform(1, 50))) for i in range(30)]
    opts = []
    for j in range(8):
        targets = tuple(f"c{t}" for t in rng.choice(30, size=int(rng.integers(1, 5)), replace=False))
        k = float(rng.uniform(1.2, 4))
        opts.append(Optimization(f"o{j}", targets, k, bool(j % 2), speedup_low=k * 0.6, speedup_high=k * 1.5,
                                 confidence=float(rng.choice([1.0, 0.9, 0.5]))))  # fmt: skip
    opts.append(Optimization("point", ("c0", "c1"), 2.0))  # overlaps the others, no range
    return Profile(comps, opts)


def test_the_same_seed_gives_the_same_draws_and_another_seed_others():
    p = overlapping()
    a, b, c = make_draws(p, seed=5), make_draws(p, seed=5), make_draws(p, seed=6)
    plan = [0, 2, 3, 8]
    assert np.array_equal(a.new_totals(plan), b.new_totals(plan))
    assert not np.array_equal(a.new_totals(plan), c.new_totals(plan))


def test_an_optimization_keeps_its_draws_when_another_changes():
    p = overlapping()
    before = make_draws(p).reciprocal[2]
    opts = list(p.optimizations)
    opts[5] = replace(opts[5], speedup_high=opts[5].speedup * 3)
    opts.append(Optimization("new", ("c3",), 2.0, speedup_low=1.5, speedup_high=3.0))
    p.set_optimizations(opts)
    assert np.array_equal(make_draws(p).reciprocal[2], before)


def test_new_totals_follow_the_overlap_rule_component_by_component():
    p = overlapping()
    d = make_draws(p, count=400)
    index = p.name_index()
    for plan in ([], [0], [1, 3, 5], list(range(len(p.optimizations)))):
        got = d.new_totals(plan)
        for draw in (0, 17, 399):
            expected = 0.0
            for row, comp in enumerate(p.components):
                factor = 1.0
                for j in plan:
                    if any(index[t.casefold()] == row for t in p.optimizations[j].targets):
                        factor *= float(np.broadcast_to(d.reciprocal[j], (400,))[draw])
                expected += comp.time * factor
            assert got[draw] == pytest.approx(expected, rel=1e-12)


def test_k_is_drawn_from_its_pert_and_fails_with_one_minus_its_confidence():
    opt = Optimization("o", ("a",), 4.0, speedup_low=3.0, speedup_high=6.0, confidence=0.7)
    p = Profile([Component("a", 600.0), Component("b", 400.0)], [opt])
    d = make_draws(p)
    k = 1.0 / np.asarray(d.reciprocal[0])
    failed = k == 1.0
    # Stratified draws: each share within about one draw in 10,000 (plus the table's 2e-4).
    assert failed.mean() == pytest.approx(0.3, abs=2e-3)
    works = np.sort(k[~failed])
    for x in (3.2, 3.9, 4.5, 5.5):
        assert np.mean(works <= x) == pytest.approx(pert_cdf(3.0, 4.0, 6.0, x), abs=0.02)
    assert d.times.ranged == 0


def test_time_ranges_one_by_one_and_as_a_normal_beyond():
    rng = np.random.default_rng(1)
    comps = []
    for i in range(EXACT_TIMES + 40):
        t = float(rng.uniform(5, 20))
        comps.append(Component(f"c{i}", t, time_low=t * 0.8, time_high=t * float(rng.uniform(1.05, 1.6))))
    p = Profile(comps, [Optimization("o", ("c0", "c1", "c40"), 2.0)])
    d = make_draws(p)
    assert (d.times.ranged, d.times.exact) == (EXACT_TIMES + 40, EXACT_TIMES)
    assert 0 < d.times.normal_error < 1
    base = d.baseline_totals()
    lows = sum(c.time_low for c in comps)
    highs = sum(c.time_high for c in comps)
    assert lows <= base.min() and base.max() <= highs
    means = [pert_expectation(c.time_low, c.time, c.time_high, lambda x: x) for c in comps]
    variance = sum(
        pert_expectation(c.time_low, c.time, c.time_high, lambda x, m=m: (x - m) ** 2)
        for c, m in zip(comps, means, strict=True)
    )
    assert base.mean() == pytest.approx(math.fsum(means), abs=4 * math.sqrt(variance / d.count))
    assert base.std() == pytest.approx(math.sqrt(variance), rel=0.05)


def test_no_range_anywhere_gives_one_value_per_plan():
    p = Profile([Component("a", 600.0), Component("b", 400.0)], [Optimization("o", ("a",), 4.0)], Settings())
    d = make_draws(p)
    assert np.all(d.new_totals([0]) == 550.0) and np.all(d.baseline_totals() == 1000.0)
