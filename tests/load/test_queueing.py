"""M/M/c against values worked by hand and exact rational arithmetic, never against the code's own formulas."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from amdahl_desk.model.queueing import (
    Criterion,
    erlang_c,
    fewest_servers,
    load_figures,
    max_arrival_rate,
    queue,
    saturation_rate,
)
from amdahl_desk.model.units import TimeUnit


def exact_erlang_c(c: int, a: Fraction) -> Fraction:
    """The textbook form: (aᶜ/c!)·c/(c−a) over Σ_{k<c} aᵏ/k! + (aᶜ/c!)·c/(c−a), in exact rationals."""
    term = Fraction(1)
    below = Fraction(0)
    for k in range(c):
        below += term
        term = term * a / (k + 1)  # after the loop: aᶜ/c!
    top = term * c / (c - a)
    return top / (below + top)


class TestTwoServers:
    """c = 2, λ = 1.5/s, μ = 1/s: a = 1.5, ρ = 0.75, P0 = 1/(1 + 1.5 + 2.25/(2·0.25)) = 1/7."""

    q = queue(1.5, 2, 1.0, TimeUnit.S)

    def test_wait_probability_is_9_14(self):
        # P_wait = aᶜ/(c!(1−ρ))·P0 = 2.25/(2·0.25)/7 = 4.5/7
        assert self.q.wait_probability == pytest.approx(9 / 14, rel=1e-12)

    def test_mean_wait_is_9_7_s(self):
        # Wq = P_wait/(cμ − λ) = (9/14)/0.5
        assert self.q.mean_wait == pytest.approx(9 / 7, rel=1e-12)

    def test_mean_response_and_littles_law(self):
        assert self.q.mean_response == pytest.approx(16 / 7, rel=1e-12)  # W = 9/7 + 1
        assert self.q.in_system == pytest.approx(1.5 * 16 / 7, rel=1e-12)  # L = λW = 24/7
        assert self.q.in_queue == pytest.approx(1.5 * 9 / 7, rel=1e-12)  # Lq = 27/14

    def test_utilization(self):
        assert self.q.utilization == pytest.approx(0.75)
        assert not self.q.saturated

    def test_p99_wait(self):
        # P(Wq > t) = (9/14)·e^{−0.5 t} = 0.01  →  t = 2·ln(900/14)
        assert self.q.p99_wait == pytest.approx(2 * math.log(900 / 14), rel=1e-12)

    def test_units_only_rescale(self):
        ms = queue(1.5, 2, 1000.0, TimeUnit.MS)
        assert ms.wait_probability == pytest.approx(9 / 14, rel=1e-12)
        assert ms.mean_wait == pytest.approx(9000 / 7, rel=1e-12)
        assert ms.p99_wait == pytest.approx(2000 * math.log(900 / 14), rel=1e-12)


@given(st.floats(0.01, 1000), st.floats(0.001, 0.999))
def test_mm1_wait_is_rho_over_mu_minus_lambda(mu, rho):
    lam = rho * mu
    q = queue(lam, 1, 1 / mu, TimeUnit.S)
    assert q.wait_probability == pytest.approx(rho, rel=1e-9)
    assert q.mean_wait == pytest.approx(rho / (mu - lam), rel=1e-9)
    assert q.mean_response == pytest.approx(1 / (mu - lam), rel=1e-9)


@pytest.mark.parametrize("a", [Fraction(250), Fraction(450), Fraction(480), Fraction(999, 2), Fraction(4999, 10)])
def test_500_servers_match_exact_rationals(a):
    expected = float(exact_erlang_c(500, a))
    assert float(erlang_c(500, float(a))[0]) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(("c", "a"), [(1, Fraction(1, 2)), (3, Fraction(5, 2)), (24, Fraction(21)), (60, Fraction(59))])
def test_small_c_match_exact_rationals(c, a):
    assert float(erlang_c(c, float(a))[0]) == pytest.approx(float(exact_erlang_c(c, a)), rel=1e-11)


def test_very_many_servers_agree_with_the_erlang_b_recursion():
    """20,000 replicas: the log-space sum against B(k) = a·B(k−1)/(k + a·B(k−1)), C = B/(1 − ρ(1 − B))."""
    c, a = 20_000, 19_900.0
    b = 1.0
    for k in range(1, c + 1):
        b = a * b / (k + a * b)
    expected = b / (1 - (a / c) * (1 - b))
    got = float(erlang_c(c, a)[0])
    assert got == pytest.approx(expected, rel=1e-8)
    assert 0 < got < 1


def test_erlang_c_is_vectorised_and_bounded():
    loads = np.array([0.0, 1.0, 10.0, 23.9, 24.0, 30.0])
    c = erlang_c(24, loads)
    assert c.shape == loads.shape
    assert c[0] == 0 and c[-2] == 1 and c[-1] == 1
    assert np.all(np.diff(c) >= 0)


@pytest.mark.parametrize("rate", [2.0, 2.5, 100.0])
def test_saturated_is_flagged_with_no_figures(rate):
    q = queue(rate, 2, 1.0)
    assert q.saturated
    assert q.utilization == pytest.approx(rate / 2)
    assert (q.wait_probability, q.mean_wait, q.mean_response, q.p99_wait, q.in_system) == (None,) * 5


def test_no_wait_tail_below_one_percent():
    q = queue(0.05, 1, 0.1)  # ρ = 0.005: P_wait < 1%
    assert q.wait_probability == pytest.approx(0.005)
    assert q.p99_wait == 0


def test_the_issues_example():
    """14/s on 24 replicas; decode 2× takes the request from 1,500 to 1,050 ms."""
    f = load_figures("End to end", 1500, 1050, 14, 24, TimeUnit.MS)
    for q, s in ((f.before, Fraction(3, 2)), (f.after, Fraction(21, 20))):
        a = 14 * s
        p = exact_erlang_c(24, a)
        wait = p / (24 / s - 14)  # seconds
        assert q.wait_probability == pytest.approx(float(p), rel=1e-10)
        assert q.mean_response == pytest.approx(float((wait + s) * 1000), rel=1e-10)
    assert round(f.before.mean_response) == 1712
    assert round(f.after.mean_response) == 1052
    assert f.before.utilization == pytest.approx(0.875)
    assert f.after.utilization == pytest.approx(0.6125)
    assert f.service_speedup == pytest.approx(1500 / 1050)
    assert f.response_speedup == pytest.approx(f.before.mean_response / f.after.mean_response)


def test_max_arrival_rate_meets_the_target_exactly():
    rate = max_arrival_rate(24, 1500, 1600, TimeUnit.MS)
    assert rate is not None and 0 < rate < saturation_rate(24, 1500, TimeUnit.MS)
    assert queue(rate, 24, 1500, TimeUnit.MS).mean_response == pytest.approx(1600, rel=1e-9)
    assert queue(rate * 1.001, 24, 1500, TimeUnit.MS).mean_response > 1600


def test_max_arrival_rate_mm1_closed_form():
    # M/M/1: W = 1/(μ − λ) ≤ T  →  λ = μ − 1/T; μ = 10/s, T = 0.25 s → 6/s
    assert max_arrival_rate(1, 0.1, 0.25) == pytest.approx(6, rel=1e-9)


def test_max_arrival_rate_p99_wait():
    # M/M/1 p99 wait: ρ·e^{−(μ−λ)t} = 0.01 at t = T. μ = 1, T = 10 s: solve for λ independently by bisection.
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= 0.01 or math.log(mid / 0.01) / (1 - mid) <= 10:
            lo = mid
        else:
            hi = mid
    got = max_arrival_rate(1, 1.0, 10.0, TimeUnit.S, Criterion.P99_WAIT)
    assert got == pytest.approx(lo, rel=1e-9)


def test_no_rate_meets_a_target_below_the_service_time():
    assert max_arrival_rate(24, 1500, 1500, TimeUnit.MS) is None
    assert max_arrival_rate(24, 1500, 600, TimeUnit.MS) is None
    f = load_figures("x", 1500, 1050, 14, 24, TimeUnit.MS, target=1200)
    assert f.max_rate_before is None and f.max_rate_after is not None


def test_fewest_servers():
    assert fewest_servers(14, 1.5) == 22  # a = 21 erlangs: 22 replicas keep ρ < 1
    assert fewest_servers(14, 1.0) == 15  # a = 14 exactly: 14 would be saturated
