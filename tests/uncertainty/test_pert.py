"""The PERT distribution: its shape, moments and CDF by numeric integration, and how close its draws come."""

import numpy as np
import pytest

from amdahl_desk.model.pert import Pert, draw_unit, pert_alpha

from .oracle import pert_cdf, pert_expectation, pert_shape

ESTIMATES = [(3.0, 4.0, 6.0), (1.0, 1.0, 2.0), (2.0, 5.0, 5.0), (0.5, 0.9, 1.2), (10.0, 10.5, 40.0), (1.0, 2.0, 3.0)]


@pytest.mark.parametrize("estimate", ESTIMATES)
def test_shape_and_moments(estimate):
    low, mode, high = estimate
    p = Pert(*estimate)
    assert (p.alpha, p.beta) == pytest.approx(pert_shape(*estimate))
    assert p.mean == pytest.approx(pert_expectation(low, mode, high, lambda x: x), rel=1e-6)
    mean = p.mean
    assert p.variance == pytest.approx(pert_expectation(low, mode, high, lambda x: (x - mean) ** 2), rel=1e-5)
    third = pert_expectation(low, mode, high, lambda x: np.abs(x - mean) ** 3)
    assert third <= p.third_moment_bound


@pytest.mark.parametrize("estimate", ESTIMATES)
def test_cdf_is_the_integral_of_the_density(estimate):
    low, mode, high = estimate
    p = Pert(*estimate)
    for x in np.linspace(low, high, 9):
        assert float(p.cdf(x)) == pytest.approx(pert_cdf(low, mode, high, x), abs=1e-7)


@pytest.mark.parametrize("alpha", [1.0, 1.03, 1.5, 7 / 3, 3.0, 3.17, 4.4, 4.97, 5.0])
def test_draws_follow_the_cdf_within_two_ten_thousandths(alpha):
    # Uniforms at the midpoints of 200,000 equal cells: the draws' empirical CDF is the quantile table's own.
    u = (np.arange(200_000) + 0.5) / 200_000
    draws = np.sort(draw_unit(alpha, u))
    assert np.all(np.diff(draws) >= 0) and draws[0] >= 0 and draws[-1] <= 1
    p = Pert(0.0, (alpha - 1) / 4, 1.0)  # mode where α = 1 + 4·mode
    assert p.alpha == pytest.approx(alpha)
    exact = p.cdf(draws)
    assert np.max(np.abs(exact - u)) < 2e-4


@pytest.mark.parametrize("estimate", ESTIMATES)
def test_mean_reciprocal_is_the_integral(estimate):
    low, mode, high = estimate
    expected = pert_expectation(low, mode, high, lambda x: 1 / np.where(x > 0, x, 1.0))
    assert Pert(*estimate).mean_reciprocal() == pytest.approx(expected, rel=1e-4)  # the table: within 2e-4


def test_a_point_draws_its_value():
    p = Pert(4.0, 4.0, 4.0)
    assert p.is_point and p.variance == 0 and p.mean == 4 and p.mean_reciprocal() == 0.25
    assert np.all(p.draw(np.linspace(0, 0.99, 5)) == 4.0)
    assert pert_alpha(4.0, 4.0, 4.0) == 3.0


def test_the_same_uniform_gives_the_same_draw():
    u = np.random.default_rng(7).random(1000)
    p = Pert(3.0, 4.0, 6.0)
    assert np.array_equal(p.draw(u), p.draw(u.copy()))
    assert np.all(np.diff(p.draw(np.sort(u))) >= 0)  # monotone in u: common random numbers keep their order
