"""Invariants of the laws and the analysis, over many generated profiles."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.model.analysis import analyse
from amdahl_desk.model.laws import amdahl_speedup, ceiling, gustafson, strong_scaling
from amdahl_desk.model.profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings

fractions = st.floats(0, 1, allow_nan=False)
speedups = st.floats(1e-3, 1e6, allow_nan=False)
# Measured times: 0, or from a nanosecond up (sub-normal floats make "new time" underflow to 0).
times = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))


@given(fractions, st.floats(1, 1e9))
def test_speedup_never_exceeds_ceiling(f, k):
    assert float(amdahl_speedup(f, k)) <= float(ceiling(f)) * (1 + 1e-9)


@given(fractions, speedups, speedups)
def test_speedup_grows_with_k(f, k1, k2):
    lo, hi = sorted((k1, k2))
    assert float(amdahl_speedup(f, lo)) <= float(amdahl_speedup(f, hi)) * (1 + 1e-12)


@given(fractions, st.integers(1, 10**6))
def test_amdahl_between_one_and_n_and_below_gustafson(p, n):
    s = float(strong_scaling(p, n))
    assert 1 - 1e-12 <= s <= n * (1 + 1e-12)
    assert s <= float(gustafson(p, n)) * (1 + 1e-9)


@st.composite
def profiles(draw):
    n = draw(st.integers(1, 12))
    comps = [Component(f"c{i}", draw(times), draw(st.sampled_from(list(Scaling)))) for i in range(n)]
    if sum(c.time for c in comps) <= 0:
        comps[0] = Component("c0", 1.0)
    opts = []
    for j in range(draw(st.integers(0, 5))):
        targets = tuple(sorted(set(draw(st.lists(st.sampled_from([c.name for c in comps]), min_size=1, max_size=3)))))
        opts.append(Optimization(f"o{j}", targets, draw(speedups), draw(st.booleans())))
    settings_ = Settings(
        baseline_gpus=draw(st.sampled_from([1, 2, 8])),
        overhead_model=draw(st.sampled_from(list(OverheadModel))),
        gpu_counts=(1, 2, 8, 64, 1024),
    )
    return Profile(comps, opts, settings_)


@settings(max_examples=150, deadline=None)
@given(profiles())
def test_combined_equals_component_by_component_arithmetic(p):
    a = analyse(p)
    total = sum(c.time for c in p.components)
    new = 0.0
    for c in p.components:
        k = 1.0
        for o in p.optimizations:
            if o.enabled and c.name in o.targets:
                k *= o.speedup
        new += c.time / k
    assert a.baseline_total == pytest.approx(total)
    assert a.combined.new_total == pytest.approx(new, rel=1e-9, abs=1e-9)
    assert a.combined.overall_speedup == pytest.approx(total / new, rel=1e-9)


@settings(max_examples=150, deadline=None)
@given(profiles())
def test_analysis_invariants(p):
    a = analyse(p)
    assert math.isclose(float(a.fractions.sum()), 1.0, rel_tol=1e-9)
    f = a.optimizations
    for i, o in enumerate(p.optimizations):
        if o.speedup >= 1:
            assert f.overall_speedup[i] <= f.ceiling[i] * (1 + 1e-9)
        assert 0 <= f.fraction[i] <= 1
    if all(o.speedup >= 1 for o in p.optimizations if o.enabled):
        # 1/(1−f) magnifies f's rounding (~1e-16) by 1/(1−f): near f = 1 the bound is that loose.
        slack = 1e-9 + 1e-15 / max(1 - a.combined.fraction, 1e-300)
        assert a.combined.overall_speedup <= a.combined.ceiling * (1 + slack)
    s = a.scaling
    assert np.all(np.isfinite(s.time)) and np.all(s.time >= 0)
    i0 = list(s.gpus).index(p.settings.baseline_gpus) if p.settings.baseline_gpus in s.gpus else None
    if i0 is not None:
        assert math.isclose(s.time[i0], a.baseline_total, rel_tol=1e-9)


_ODD_TIMES = st.sampled_from([0.0, 1.5, 2.0, -1.0, math.inf, math.nan, 3])
_ODD_NAMES = st.sampled_from(["a", "A", "b", "", "c\nd", "é", "É", "x y"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_ODD_NAMES, _ODD_TIMES), max_size=8), st.integers(65, 140), st.randoms())
def test_the_column_check_of_a_big_table_finds_what_the_row_check_finds(odd, size, rng):
    """Over 64 components the rules are checked column by column first; the problems, and the name
    index, are those of the row-by-row check (a duplicate, an empty or broken name, a bad time)."""
    from amdahl_desk.model import profile_rules

    rows = [(f"c{i}", float(i)) for i in range(size)]
    for name, time in odd:
        rows[rng.randrange(size)] = (name or "", time)
    comps = [tuple.__new__(Component, (n, t, Scaling.SERIAL, "", "", (), False, None, None)) for n, t in rows]
    fast_index: dict[str, int] = {}
    fast = profile_rules.component_problems(comps, fast_index)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(profile_rules, "_all_valid", lambda *args: False)
        slow_index: dict[str, int] = {}
        slow = profile_rules.component_problems(comps, slow_index)
    assert fast == slow
    assert fast_index == slow_index
    if not odd:
        assert profile_rules._all_valid(comps, {})  # the clean table does take the column check


@given(st.lists(st.floats(min_value=0, max_value=1e12, allow_nan=False), max_size=300))
def test_exact_sum_is_fsum_whatever_the_order(values):
    from amdahl_desk.model.analysis import exact_sum

    array = np.asarray(values, dtype=float)
    assert exact_sum(array) == math.fsum(values) == exact_sum(array[::-1])


def same_figures(a, b) -> bool:
    """Two analyses (or any of their parts) hold the same figures, arrays compared element by element."""
    from dataclasses import fields, is_dataclass

    if is_dataclass(a) and is_dataclass(b) and type(a) is type(b):
        return all(same_figures(getattr(a, f.name), getattr(b, f.name)) for f in fields(a) if f.compare)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


@settings(max_examples=150, deadline=None)
@given(profiles(), st.data())
def test_an_analysis_that_takes_the_last_ones_totals_is_the_one_computed_afresh(p, data):
    """After any change (k, ticks, a time, a scaling class, the settings) the analysis given the one before
    equals the analysis computed from nothing: what it takes from the last one must still hold."""
    from dataclasses import replace

    previous = analyse(p)
    for _ in range(4):
        change = data.draw(st.sampled_from(["k", "tick", "time", "kind", "settings"]))
        comps, opts = list(p.components), list(p.optimizations)
        if change in ("k", "tick") and opts:
            j = data.draw(st.integers(0, len(opts) - 1))
            opts[j] = (
                replace(opts[j], speedup=data.draw(speedups))
                if change == "k"
                else replace(opts[j], enabled=not opts[j].enabled)
            )
            p.set_optimizations(opts)
        elif change == "time":
            i = data.draw(st.integers(0, len(comps) - 1))
            p.set_component(i, comps[i]._replace(time=data.draw(st.floats(1e-3, 1e6))))
        elif change == "kind":
            i = data.draw(st.integers(0, len(comps) - 1))
            p.set_component(i, comps[i]._replace(scaling=data.draw(st.sampled_from(list(Scaling)))))
        else:
            p.set_settings(replace(p.settings, baseline_gpus=data.draw(st.sampled_from([1, 2, 8]))))
        fresh, taken = analyse(p), analyse(p, previous)
        assert same_figures(taken, fresh), change
        previous = taken
