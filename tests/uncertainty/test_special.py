"""The special functions against published tables and exact sums: Student's t quantiles, the incomplete beta."""

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from amdahl_desk.model.special import betainc, normal_quantile, t_cdf, t_quantile

from .oracle import binomial_betainc

# Student's t, from the standard one-sided table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), to 3 decimals.
T_TABLE = {
    0.975: {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
            15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 100: 1.984},
    0.95: {1: 6.314, 2: 2.920, 5: 2.015, 10: 1.812, 30: 1.697, 100: 1.660},
    0.995: {1: 63.657, 2: 9.925, 5: 4.032, 10: 3.169, 30: 2.750, 100: 2.626},
    0.9: {1: 3.078, 3: 1.638, 10: 1.372, 100: 1.290},
}  # fmt: skip


@pytest.mark.parametrize(("p", "dof", "value"), [(p, n, v) for p, row in T_TABLE.items() for n, v in row.items()])
def test_t_quantile_matches_the_table(p, dof, value):
    assert round(t_quantile(p, dof), 3) == value
    assert t_quantile(1 - p, dof) == -t_quantile(p, dof)


def test_t_quantile_tends_to_the_normal():
    assert t_quantile(0.975, 1e7) == pytest.approx(1.959963984540054, abs=1e-6)
    assert normal_quantile(0.975) == pytest.approx(1.959963984540054, abs=1e-12)
    assert normal_quantile(0.001) == pytest.approx(-3.090232306167813, abs=1e-12)


@given(st.floats(1e-6, 1 - 1e-6), st.sampled_from([1, 2, 3, 4, 7, 12, 40, 500]))
@example(p=0.498046875, dof=500)  # near 0, ν/(ν + t²) rounds to 1: the CDF must not lose its last digits there
def test_t_cdf_inverts_the_quantile(p, dof):
    assert t_cdf(t_quantile(p, dof), dof) == pytest.approx(p, abs=1e-12)


def test_t_cdf_of_one_degree_is_the_cauchy():
    for t in (-5.0, -0.3, 0.0, 1.0, 12.7):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-13)


@pytest.mark.parametrize(("a", "b"), [(1, 1), (1, 5), (2, 4), (3, 3), (5, 1), (4, 2), (7, 9)])
def test_betainc_matches_the_binomial_sum_for_whole_parameters(a, b):
    xs = np.array([0.0, 1e-4, 0.05, 0.2, 0.5, 0.61, 0.9, 0.9999, 1.0])
    got = betainc(a, b, xs)
    expected = [binomial_betainc(a, b, x) for x in xs]
    assert got == pytest.approx(expected, abs=1e-13)


def test_betainc_refuses_parameters_outside_its_domain():
    with pytest.raises(ValueError):
        betainc(0.0, 2.0, [0.5])
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
