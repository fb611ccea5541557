"""The cheapest plan against brute force over every subset, on the same draws."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.draws import make_draws
from amdahl_desk.model.plan_search import cheapest_plan
from amdahl_desk.model.profile import Component, Optimization, Profile, Settings


def point_total(profile: Profile, plan: tuple[int, ...], side: int) -> float:
    """The new total of ``plan`` with every k at its low (side 0) or high (side 1) end, by the point analysis."""
    p = profile.copy()
    p.set_optimizations(
        [Optimization(o.name, o.targets, o.speedup_range[side], j in plan) for j, o in enumerate(profile.optimizations)]
    )
    return analyse(p).combined.new_total


@st.composite
def plans(draw, certain: bool):
    n = draw(st.integers(2, 6))
    comps = [Component(f"c{i}", draw(st.floats(10, 100))) for i in range(n)]
    opts = []
    for j in range(draw(st.integers(1, 6))):
        targets = tuple(f"c{i}" for i in draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2)))
        k = draw(st.floats(1.2, 5.0))
        if certain:
            spread = draw(st.floats(0.0, 0.02))
            low, high, confidence = k * (1 - spread), k * (1 + spread), 1.0
        else:
            low, high = k * draw(st.floats(0.5, 1.0)), k * draw(st.floats(1.0, 2.0))
            confidence = draw(st.sampled_from([1.0, 0.9, 0.6]))
        effort = draw(st.none() | st.integers(0, 8).map(float) | st.floats(0.1, 9.0))
        opts.append(Optimization(f"o{j}", targets, k, draw(st.booleans()), "", low, high, effort, confidence))
    return Profile(comps, opts)


def subsets(indices):
    return itertools.chain.from_iterable(itertools.combinations(indices, r) for r in range(len(indices) + 1))


def key(profile: Profile, plan: tuple[int, ...], met: int):
    effort = math.fsum(profile.optimizations[j].effort for j in plan)
    return (round(effort, 9), -met, len(plan), plan)


@settings(max_examples=60, deadline=None)
@given(plans(certain=True), st.data())
def test_certain_plans_the_brute_force_way(profile, data):
    candidates = [j for j, o in enumerate(profile.optimizations) if o.effort is not None]
    assume(candidates)
    # Each subset's new total lies in [at every high k, at every low k]; a target in no interval is met
    # by a subset with certainty or never.
    intervals = {s: (point_total(profile, s, 1), point_total(profile, s, 0)) for s in subsets(candidates)}
    ends = sorted({x for pair in intervals.values() for x in pair})
    gaps = [(a + b) / 2 for a, b in itertools.pairwise(ends) if b - a > 1e-6 * b]
    gaps = [g for g in gaps if not any(lo - 1e-9 * g <= g <= hi + 1e-9 * g for lo, hi in intervals.values())]
    assume(gaps)
    target = data.draw(st.sampled_from(gaps))
    level = data.draw(st.sampled_from([0.5, 0.8, 0.95, 1.0]))
    found = cheapest_plan(profile, make_draws(profile, count=200), target, level)
    feasible = [s for s, (_, worst) in intervals.items() if worst <= target]
    assert found.exact
    if not feasible:
        assert found.cheapest is None and found.effort_lower_bound is None
        return
    best = min(feasible, key=lambda s: key(profile, s, 200))
    assert found.cheapest is not None
    assert found.cheapest.optimizations == best
    assert found.cheapest.probability_target == 1.0
    assert found.cheapest.effort == pytest.approx(math.fsum(profile.optimizations[j].effort for j in best))


@settings(max_examples=60, deadline=None)
@given(plans(certain=False), st.floats(0.3, 1.0), st.sampled_from([0.5, 0.8, 0.9]))
def test_any_plan_on_the_same_draws_the_brute_force_way(profile, share, level):
    candidates = [j for j, o in enumerate(profile.optimizations) if o.effort is not None]
    assume(candidates)
    total = profile.total
    target = total * share
    draws = make_draws(profile, seed=3, count=300)
    threshold = target * (1 + 1e-12)
    met = {s: int(np.count_nonzero(draws.new_totals(s) <= threshold)) for s in subsets(candidates)}
    needed = math.ceil(level * 300 - 1e-9)
    feasible = [s for s in met if met[s] >= needed]
    found = cheapest_plan(profile, draws, target, level)
    assert found.probability_all == met[tuple(candidates)] / 300
    if not feasible:
        assert found.cheapest is None
        return
    best = min(feasible, key=lambda s: key(profile, s, met[s]))
    assert found.cheapest is not None and found.exact
    assert found.cheapest.optimizations == best
    assert found.cheapest.probability_target == met[best] / 300
    assert found.cheapest.new_total_p50 == pytest.approx(float(np.percentile(draws.new_totals(best), 50)))


def test_a_budget_cut_short_says_so_and_bounds_the_optimum():
    rng = np.random.default_rng(4)
    comps = [Component(f"c{i}", float(rng.uniform(10, 100))) for i in range(14)]
    opts = [
        Optimization(f"o{j}", (f"c{j}",), float(k), False, "", float(k) * 0.7, float(k) * 1.4, float(e), 0.9)
        for j, (k, e) in enumerate(zip(rng.uniform(1.5, 4, 14), rng.integers(1, 9, 14), strict=True))
    ]
    p = Profile(comps, opts)
    draws = make_draws(p, count=400)
    target = p.total * 0.7
    exact = cheapest_plan(p, draws, target, 0.8)
    assert exact.exact and exact.cheapest is not None
    short = cheapest_plan(p, draws, target, 0.8, budget=5)
    assert not short.exact and short.effort_lower_bound is not None
    assert short.effort_lower_bound <= exact.cheapest.effort + 1e-9
    if short.cheapest is not None:
        assert short.cheapest.effort >= exact.cheapest.effort - 1e-9


def test_no_effort_no_candidates():
    p = Profile([Component("a", 10.0)], [Optimization("o", ("a",), 2.0)], Settings(target_time=6.0))
    found = cheapest_plan(p, make_draws(p), 6.0, 0.8)
    assert found.candidates == () and found.cheapest is None and found.probability_all == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_twelve_candidates_with_overlaps_the_brute_force_way(seed):
    rng = np.random.default_rng(seed)
    comps = [Component(f"c{i}", float(rng.uniform(10, 100))) for i in range(16)]
    opts = []
    for j in range(12):
        targets = tuple(f"c{i}" for i in rng.choice(16, size=int(rng.integers(1, 4)), replace=False))
        k = float(rng.uniform(1.3, 4))
        opts.append(Optimization(f"o{j}", targets, k, False, "", k * 0.8, k * 1.3, float(rng.integers(1, 9)), 0.9))
    p = Profile(comps, opts)
    draws = make_draws(p, seed=seed, count=300)
    target = p.total * 0.6
    found = cheapest_plan(p, draws, target, 0.8)
    met = {s: int(np.count_nonzero(draws.new_totals(s) <= target * (1 + 1e-12))) for s in subsets(range(12))}
    feasible = [s for s in met if met[s] >= 240]
    best = min(feasible, key=lambda s: key(p, s, met[s]))
    assert found.exact and found.cheapest is not None and found.cheapest.optimizations == best
    assert found.nodes < 2**12  # the bounds cut most of the tree


def test_beyond_twenty_candidates_a_heuristic_with_its_bound():
    rng = np.random.default_rng(9)
    comps = [Component(f"c{i}", float(rng.uniform(10, 100))) for i in range(30)]
    opts = [
        Optimization(f"o{j}", (f"c{j}",), float(k), False, "", float(k) * 0.8, float(k) * 1.2, float(e))
        for j, (k, e) in enumerate(zip(rng.uniform(1.5, 4, 24), rng.integers(1, 9, 24), strict=True))
    ]
    p = Profile(comps, opts)
    found = cheapest_plan(p, make_draws(p, count=300), p.total * 0.7, 0.8)
    assert len(found.candidates) == 24 and found.cheapest is not None
    assert found.cheapest.probability_target >= 0.8
    assert found.effort_lower_bound is not None and found.effort_lower_bound <= found.cheapest.effort + 1e-9
