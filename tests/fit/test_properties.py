"""Synthetic runs from known USL parameters, with noise, come back within a few standard errors."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.model.fit import fit_usl

COUNTS = np.array([1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128], dtype=float)


def usl(alpha, beta, gamma, n):
    return gamma * n / (1 + alpha * (n - 1) + beta * n * (n - 1))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    alpha=st.floats(0.001, 0.2),
    beta=st.one_of(st.just(0.0), st.floats(1e-6, 1e-3)),
    gamma=st.floats(0.5, 5000),
    noise=st.floats(0.001, 0.03),
    seed=st.integers(0, 2**32 - 1),
)
def test_noisy_synthetic_runs_come_back_within_their_standard_errors(alpha, beta, gamma, noise, seed):
    rng = np.random.default_rng(seed)
    exact = usl(alpha, beta, gamma, COUNTS)
    # Homoscedastic noise, as least squares and its standard errors assume (relative noise would
    # make the errors at large X dominate and the Jacobian's standard errors too small).
    x = exact + noise * exact.mean() * rng.standard_normal(COUNTS.size)
    fit = fit_usl(COUNTS, x)
    assert fit is not None
    assert fit.alpha >= 0 and fit.beta >= 0
    for true, est, err in (
        (alpha, fit.alpha, fit.alpha_stderr),
        (beta, fit.beta, fit.beta_stderr),
        (gamma, fit.gamma, fit.gamma_stderr),
    ):
        assert abs(est - true) <= 5 * err + 1e-9 * max(true, 1.0), (true, est, err)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(alpha=st.floats(0.0, 0.3), beta=st.floats(0.0, 1e-2), gamma=st.floats(1e-6, 1e6))
def test_exact_synthetic_runs_come_back_exactly(alpha, beta, gamma):
    fit = fit_usl(COUNTS, usl(alpha, beta, gamma, COUNTS))
    assert fit is not None
    assert abs(fit.alpha - alpha) <= 1e-6 * max(alpha, 1e-3)
    assert abs(fit.beta - beta) <= 1e-6 * max(beta, 1e-5)
    assert abs(fit.gamma - gamma) <= 1e-6 * gamma
