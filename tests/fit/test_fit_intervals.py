"""The fits' intervals: the published standard errors times the table t, the peak and the bands by finite differences."""

import math
from pathlib import Path

import numpy as np
import pytest

from amdahl_desk.files.measurements import read_measurements
from amdahl_desk.model.fit import UslFit, fit_measurements, speedup_curves
from amdahl_desk.model.fit_intervals import Interval, _peak, fit_intervals, speedup_bands, usl_covariance

FIXTURES = Path(__file__).parent / "fixtures"
T_975 = {4: 2.776445, 5: 2.570582, 6: 2.446912}  # Student's t, two-sided 95%, from the table


@pytest.fixture(scope="module")
def specsdm91():
    return fit_measurements(read_measurements(FIXTURES / "specsdm91.csv").measurements)


def test_usl_intervals_are_the_published_standard_errors_times_t(specsdm91):
    # The R usl package's summary: α 0.0277285 ± 9.122e-03, β 1.044e-04 ± 1.988e-05, γ 89.99523 ± 14.21; 7 runs.
    found = fit_intervals(specsdm91)
    t = T_975[7 - 3]
    for interval, estimate, stderr in (
        (found.alpha, 0.0277285, 9.122e-03),
        (found.beta, 1.043655e-04, 1.988e-05),
        (found.gamma, 89.99523, 14.21),
    ):
        assert interval.low == pytest.approx(max(estimate - t * stderr, 0.0), rel=2e-3)
        assert interval.high == pytest.approx(estimate + t * stderr, rel=2e-3)
        assert interval.level == 0.95


def test_the_amdahl_interval_uses_n_minus_one_degrees_of_freedom():
    result = fit_measurements(read_measurements(FIXTURES / "training-gpus.csv").measurements)
    a = result.amdahl
    n = result.points.n.size
    p = fit_intervals(result).parallel_fraction
    assert p.low == pytest.approx(a.parallel_fraction - T_975[n - 1] * a.stderr, rel=1e-6)
    assert p.high == pytest.approx(a.parallel_fraction + T_975[n - 1] * a.stderr, rel=1e-6)
    narrower = fit_intervals(result, 0.9).parallel_fraction
    assert p.low < narrower.low < narrower.high < p.high


def throughput(theta, n):
    a, b, g = theta
    return g * n / (1 + a * (n - 1) + b * n * (n - 1))


def finite_difference_covariance(result):
    usl = result.usl
    n, x = result.points.n, result.measurements.throughput()
    theta = np.array([usl.alpha, usl.beta, usl.gamma])
    steps = np.maximum(np.abs(theta), 1e-12) * 1e-6
    jac = np.column_stack([(throughput(theta + e, n) - throughput(theta - e, n)) / (2 * e[i])
                           for i, e in enumerate(np.diag(steps))])  # fmt: skip
    residual = x - throughput(theta, n)
    return np.linalg.inv(jac.T @ jac) * (residual @ residual) / (n.size - 3), theta, steps


def test_the_peak_interval_by_the_delta_method_on_log_n(specsdm91):
    cov, theta, steps = finite_difference_covariance(specsdm91)
    assert usl_covariance(specsdm91) == pytest.approx(cov, rel=1e-5)

    def log_peak(t):
        return 0.5 * math.log((1 - t[0]) / t[1])

    grad = np.array([(log_peak(theta + e) - log_peak(theta - e)) / (2 * e[i]) for i, e in enumerate(np.diag(steps))])
    se = math.sqrt(grad @ cov @ grad)
    peak = fit_intervals(specsdm91).peak_n
    t = T_975[4]
    assert peak.estimate == pytest.approx(96.5, abs=0.05)
    assert (peak.low, peak.high) == pytest.approx(
        (peak.estimate * math.exp(-t * se), peak.estimate * math.exp(t * se)), rel=1e-5
    )


def test_a_beta_interval_that_reaches_zero_leaves_the_peak_unbounded():
    usl = UslFit(0.03, 0.001, 100.0, 0.01, 0.002, 5.0, 0.99, 1.0, 5)
    cov = np.diag([1e-4, 4e-6, 25.0])
    reaching = Interval(0.001, 0.0, 0.005, 0.95)
    peak = _peak(usl, cov, reaching, 2.776, 0.95)
    assert peak.high == math.inf and 0 < peak.low < peak.estimate == pytest.approx(math.sqrt(0.97 / 0.001))
    bounded = _peak(usl, cov, Interval(0.001, 0.0005, 0.0015, 0.95), 2.776, 0.95)
    assert math.isfinite(bounded.high)


def test_the_bands_hold_the_curves_and_follow_their_intervals(specsdm91):
    bands = speedup_bands(specsdm91)
    curves = speedup_curves(specsdm91)
    assert set(bands) == set(curves) == {"amdahl", "usl"}
    for name, (n, low, high) in bands.items():
        assert np.array_equal(n, curves[name][0])
        assert np.all(low <= curves[name][1] + 1e-12) and np.all(curves[name][1] <= high + 1e-12)
    # Amdahl: the curve at either end of P's interval.
    a, p = specsdm91.amdahl, fit_intervals(specsdm91).parallel_fraction
    n, low, high = bands["amdahl"]
    ends = [1 / ((1 - q) + q * a.baseline_n / n) for q in (min(p.low, 1.0), min(p.high, 1.0))]
    assert low == pytest.approx(np.minimum(*ends)) and high == pytest.approx(np.maximum(*ends))
    # USL: ± t times the delta-method standard error of the fitted throughput, on the curve's scale.
    cov, theta, steps = finite_difference_covariance(specsdm91)
    n, low, high = bands["usl"]
    for i in (0, 50, 120, 199):
        grad = np.array([(throughput(theta + e, n[i]) - throughput(theta - e, n[i])) / (2 * e[j])
                         for j, e in enumerate(np.diag(steps))])  # fmt: skip
        se = math.sqrt(grad @ cov @ grad)
        scale = curves["usl"][1][i] / throughput(theta, n[i])
        assert high[i] == pytest.approx(curves["usl"][1][i] + T_975[4] * se * scale, rel=1e-4)


def test_too_few_runs_give_no_intervals():
    from amdahl_desk.model.measurements import Measurements

    result = fit_measurements(Measurements.of([(1, 100.0), (2, 190.0), (4, 350.0)]))
    found = fit_intervals(result)
    assert found.alpha is None and found.peak_n is None  # 3 runs, 3 parameters: no degree of freedom left
    assert found.parallel_fraction is not None
