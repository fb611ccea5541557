"""Runs that follow Amdahl's law exactly: β is 0 (no peak), and the derived figures are exact."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.cli import main
from amdahl_desk.model.fit import UslFit, fit_usl

COUNTS = np.array([1, 2, 4, 8, 16, 32], dtype=float)


def amdahl_times(p, counts, t1=1000.0):
    return t1 * ((1 - p) + p / counts)


def half_efficiency_by_hand(p, n0=1.0):
    """Efficiency against N0 is ((1−P)N0 + P)/((1−P)N + P) = ½, solved for N on paper: N = 2N0 + P/(1−P)."""
    return 2 * n0 + p / (1 - p)


def root_by_bisection(alpha, beta, n0):
    """Where D(N) = 1 + α(N−1) + βN(N−1) reaches 2·D(N0), by bisection in exact rational arithmetic."""
    from fractions import Fraction

    a, b, n0 = Fraction(alpha), Fraction(beta), Fraction(n0)
    target = 2 * (1 + a * (n0 - 1) + b * n0 * (n0 - 1))
    lo, hi = n0, n0
    while 1 + a * (hi - 1) + b * hi * (hi - 1) < target:
        hi *= 2
    for _ in range(120):
        mid = (lo + hi) / 2
        if 1 + a * (mid - 1) + b * mid * (mid - 1) < target:
            lo = mid
        else:
            hi = mid
    return float((lo + hi) / 2)


@pytest.mark.parametrize("p", [0.5, 0.9, 0.95, 0.99, 0.999])
def test_exact_amdahl_runs_have_no_peak_and_an_exact_half_efficiency(p):
    fit = fit_usl(COUNTS, 1.0 / amdahl_times(p, COUNTS))
    assert fit is not None
    assert fit.beta == 0.0 and fit.peak_n is None and fit.peak_x is None
    assert math.isclose(fit.alpha, 1 - p, rel_tol=1e-9)
    assert math.isclose(fit.half_efficiency_n, half_efficiency_by_hand(p), rel_tol=1e-12)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(p=st.floats(0.05, 0.999), t1=st.floats(1e-3, 1e6), n0=st.sampled_from([1.0, 2.0, 4.0]))
def test_any_exact_amdahl_runs(p, t1, n0):
    counts = np.array([n0 * k for k in (1, 2, 3, 4, 6, 8, 12, 16)])
    fit = fit_usl(counts, 1.0 / amdahl_times(p, counts, t1), baseline_n=n0)
    assert fit is not None and fit.beta == 0.0 and fit.peak_n is None
    assert math.isclose(fit.half_efficiency_n, half_efficiency_by_hand(p, n0), rel_tol=1e-9)


@pytest.mark.parametrize(
    ("alpha", "beta"), [(0.1, 1e-3), (0.5, 1e-6), (0.2, 1e-12), (0.0, 1e-4), (0.3, 0.3), (0.01, 1e-15)]
)
@pytest.mark.parametrize("n0", [1.0, 4.0])
def test_the_half_efficiency_n_has_no_cancellation(alpha, beta, n0):
    """Against bisection in rational arithmetic, for β from large to 10⁻¹⁵ (where the textbook formula loses it all)."""
    fit = UslFit(alpha, beta, 1.0, 0.0, 0.0, 0.0, 1.0, n0, 1)
    assert math.isclose(fit.half_efficiency_n, root_by_bisection(alpha, beta, n0), rel_tol=1e-12)


def test_fit_json_says_null_for_the_peak_of_exact_amdahl_runs(tmp_path, capsys):
    path = tmp_path / "amdahl.csv"
    rows = "\n".join(f"{int(n)},{float(t)!r}" for n, t in zip(COUNTS, amdahl_times(0.9, COUNTS), strict=True))
    path.write_text("GPUs,Time (ms)\n" + rows + "\n", encoding="utf-8")
    assert main(["fit", str(path), "--json"]) == 0
    usl = json.loads(capsys.readouterr().out)["usl"]
    assert usl["beta"] == 0 and usl["peak_n"] is None
    assert math.isclose(usl["half_efficiency_n"], 11.0, rel_tol=1e-12)
