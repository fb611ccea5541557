"""Amdahl fit, Karp–Flatt, the USL's special cases and what a fit that cannot be made leaves behind."""

import math

import numpy as np
import pytest

from amdahl_desk.model.errors import ProfileError
from amdahl_desk.model.fit import fit_measurements, speedup_curves
from amdahl_desk.model.measurements import Measurement, Measurements
from amdahl_desk.present.fit_text import fit_problems, notes_for, percent, profile_comparison


def amdahl_times(p, counts, n0=1.0, t0=100.0):
    return [t0 * ((1 - p) + p * n0 / n) for n in counts]


def test_amdahl_fit_on_exact_amdahl_data_returns_p():
    counts = [2, 4, 8, 16, 32, 64]
    m = Measurements.of(zip(counts, amdahl_times(0.9, counts, n0=2), strict=True), "time", "ms", "GPUs")
    r = fit_measurements(m)
    assert r.baseline_n == 2
    assert r.amdahl.parallel_fraction == pytest.approx(0.9, abs=1e-12)
    assert r.amdahl.stderr == pytest.approx(0, abs=1e-12)
    assert r.amdahl.ceiling == pytest.approx(10.0)
    # 1/((1-P)p + P) = 1/2 at p = (2-P)/(1-P) = 11: N = 22 with N0 = 2
    assert r.amdahl.half_efficiency_n == pytest.approx(22.0)


def test_amdahl_from_throughput_uses_t_proportional_to_one_over_x():
    counts = [1, 2, 4, 8]
    x = [1 / t for t in amdahl_times(0.75, counts)]
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True), "throughput"))
    assert r.amdahl.parallel_fraction == pytest.approx(0.75, abs=1e-12)


def test_karp_flatt_against_hand_computed_values():
    # T = 100, 60, 35 at N = 1, 2, 4.  S = 1, 5/3, 20/7.
    # e(2) = (0.6 - 0.5) / (1 - 0.5) = 0.2;  e(4) = (0.35 - 0.25) / (1 - 0.25) = 0.1333...
    r = fit_measurements(Measurements.of([(1, 100), (2, 60), (4, 35)], "time"))
    assert math.isnan(r.points.karp_flatt[0])
    assert r.points.karp_flatt[1] == pytest.approx(0.2)
    assert r.points.karp_flatt[2] == pytest.approx(0.1 / 0.75)
    assert r.points.speedup[2] == pytest.approx(100 / 35)
    assert r.points.efficiency[2] == pytest.approx(100 / 35 / 4)


def test_rising_karp_flatt_is_called_overhead_that_grows():
    # Amdahl plus a communication term that grows with N: e rises.
    counts = [1, 2, 4, 8, 16, 32]
    times = [100 * (0.05 + 0.95 / n) + 0.3 * n for n in counts]
    r = fit_measurements(Measurements.of(zip(counts, times, strict=True), "time", "ms", "GPUs"))
    assert r.karp_flatt_trend == "rising"
    assert any("overhead grows with N" in s for s in notes_for(r))


def test_steady_karp_flatt_on_pure_amdahl():
    counts = [1, 2, 4, 8, 16, 32]
    r = fit_measurements(Measurements.of(zip(counts, amdahl_times(0.9, counts), strict=True), "time"))
    assert r.karp_flatt_trend == "steady"
    np.testing.assert_allclose(r.points.karp_flatt[1:], 0.1)


def test_beta_zero_means_no_peak():
    counts = [1, 2, 4, 8, 16, 32]
    x = [10 * n / (1 + 0.05 * (n - 1)) for n in counts]  # USL with beta = 0
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True), "throughput", "/s", "Workers"))
    assert r.usl.beta == 0.0
    assert r.usl.peak_n is None and r.usl.peak_x is None
    assert r.usl.alpha == pytest.approx(0.05, rel=1e-9)
    assert r.usl.limit_x == pytest.approx(200.0)
    assert "never turns down" in notes_for(r)[0]


def test_linear_data_is_linear_scaling():
    r = fit_measurements(Measurements.of([(n, 5.0 * n) for n in (1, 2, 4, 8, 16, 32)]))
    assert r.usl.alpha == 0.0 and r.usl.beta == 0.0
    assert math.isinf(r.usl.limit_x)
    assert notes_for(r)[0].startswith("Linear scaling")


def test_negative_trend_data_never_gives_negative_coefficients():
    # Superlinear data: the unconstrained fit wants alpha < 0; the bound holds it at 0.
    counts = [1, 2, 4, 8, 16]
    x = [n**1.1 for n in counts]
    usl = fit_measurements(Measurements.of(zip(counts, x, strict=True))).usl
    assert usl.alpha >= 0 and usl.beta >= 0


def test_fewer_than_six_points_is_weakly_determined():
    counts = [1, 2, 4, 8]
    x = [n / (1 + 0.03 * (n - 1) + 0.002 * n * (n - 1)) for n in counts]
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True)))
    assert r.weakly_determined and r.usl is not None
    assert any("weakly determined" in s for s in notes_for(r))


def test_standard_error_larger_than_estimate_is_said():
    rng = np.random.default_rng(3)
    counts = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=float)
    x = 100 * counts / (1 + 0.01 * (counts - 1)) * (1 + 0.05 * rng.standard_normal(counts.size))
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True)))
    loose = [
        name
        for name, est, err in (("α", r.usl.alpha, r.usl.alpha_stderr), ("β", r.usl.beta, r.usl.beta_stderr))
        if 0 < est < err
    ]
    assert loose, "this noisy data should leave a coefficient indistinguishable from 0"
    assert any("larger than the estimate" in s for s in notes_for(r))


def test_three_points_fit_without_standard_errors():
    r = fit_measurements(Measurements.of([(1, 10), (2, 18), (4, 30)]))
    assert r.usl is not None
    assert math.isinf(r.usl.alpha_stderr)


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([], "no runs yet"),
        ([(1, 10.0), (2, 18.0)], "only 2 runs; a fit needs at least 3"),
        ([(4, 10.0), (4, 11.0), (4, 9.5)], "every run is at N = 4"),
        ([(1, 10.0), (2, 18.0), (2, 17.0)], "needs runs at 3 or more different N"),
    ],
)
def test_a_fit_that_cannot_be_made_keeps_the_points(pairs, expected):
    r = fit_measurements(Measurements.of(pairs))
    assert r.usl is None
    assert any(expected in p.what for p in fit_problems(r))
    assert all(p.table == "measurements" for p in fit_problems(r))
    assert len(r.points.n) == len(pairs)
    assert "usl" not in speedup_curves(r)


def test_non_converging_fit_is_a_problem_not_a_crash():
    counts = [1, 2, 4, 8, 16, 32]
    wobble = [1.0, 0.97, 1.04, 0.98, 1.03, 0.99]  # exact data would start at the optimum and finish at once
    x = [w * n / (1 + 0.03 * (n - 1) + 0.002 * n * (n - 1)) for n, w in zip(counts, wobble, strict=True)]
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True)), max_iterations=1)
    assert r.usl is None
    assert any("did not converge" in p.what for p in fit_problems(r))
    assert r.amdahl is not None and len(r.points.n) == 6


@pytest.mark.parametrize(
    ("row", "field"),
    [
        (Measurement(0, 1.0), "n"),
        (Measurement(-2, 1.0), "n"),
        (Measurement(math.nan, 1.0), "n"),
        (Measurement(2, 0.0), "value"),
        (Measurement(2, -1.0), "value"),
        (Measurement(2, math.nan), "value"),
        (Measurement(2, math.inf), "value"),
    ],
)
def test_bad_values_are_located_by_row_and_field(row, field):
    with pytest.raises(ProfileError) as err:
        Measurements((Measurement(1, 1.0), row), "time")
    (problem,) = err.value.problems
    assert (problem.table, problem.row, problem.field) == ("measurements", 1, field)


def test_spread_of_repeated_runs():
    r = fit_measurements(Measurements.of([(1, 100), (2, 56), (2, 58), (2, 57), (4, 33)], "time"))
    i = list(r.spread.n).index(2)
    assert (r.spread.low[i], r.spread.mean[i], r.spread.high[i], r.spread.count[i]) == (56, 57, 58, 3)


def test_profile_comparison_sentence():
    counts = [1, 2, 4, 8, 16, 32]
    r = fit_measurements(Measurements.of(zip(counts, amdahl_times(0.68, counts), strict=True), "time"))
    assert profile_comparison(0.75, r) == (
        "The profile says 75% parallel, the runs say 68%: 7 points of the time don't scale as the profile assumes."
    )
    assert profile_comparison(0.68, r).endswith("they agree.")


def test_curves_for_charts():
    counts = [1, 18, 36, 72]
    x = [90 * n / (1 + 0.028 * (n - 1) + 0.0001 * n * (n - 1)) for n in counts]
    r = fit_measurements(Measurements.of(zip(counts, x, strict=True)))
    curves = speedup_curves(r, count=50)
    n = curves["usl"][0]
    assert n[0] == 1 and n[-1] >= r.usl.peak_n  # the turn is on the chart
    assert set(curves) == {"amdahl", "usl"}
    assert curves["usl"][1][0] == pytest.approx(1.0)


@pytest.mark.parametrize(("fraction", "text"), [(0.0277285, "2.8%"), (0.0001044, "0.01%"), (0.0, "0"), (0.68, "68%")])
def test_percent(fraction, text):
    assert percent(fraction) == text


def test_lenient_keeps_the_good_rows_and_locates_the_bad():
    rows = [
        Measurement(1, 10.0),
        Measurement(0, 5.0),
        Measurement(2, 19.0),
        Measurement(4, math.nan),
        Measurement(8, 60.0),
    ]
    m, problems = Measurements.lenient(rows, "throughput")
    assert [r.n for r in m.rows] == [1, 2, 8]
    assert [(p.row, p.field) for p in problems] == [(1, "n"), (3, "value")]
    assert fit_measurements(m).usl is not None


def test_a_parallel_fraction_moves_with_the_baseline_gpu_count():
    from amdahl_desk.model.laws import parallel_fraction_at

    # 250 ms serial + 750 ms parallel on 8 GPUs: on 1 GPU the parallel part takes 6,000 ms of 6,250
    assert parallel_fraction_at(0.75, 8, 1) == pytest.approx(6000 / 6250)
    assert parallel_fraction_at(6000 / 6250, 1, 8) == pytest.approx(0.75)
    assert parallel_fraction_at(0.75, 8, 8) == 0.75
    assert parallel_fraction_at(0.0, 8, 1) == 0.0 and parallel_fraction_at(1.0, 8, 1) == 1.0


def test_profile_comparison_at_the_runs_baseline():
    r = fit_measurements(Measurements.of([(1, 1.0), (2, 0.52), (4, 0.28), (8, 0.16)], "time", "s"))
    assert r.amdahl is not None and r.baseline_n == 1
    # the profile's 75% on 8 GPUs is 96% on the runs' single GPU
    assert profile_comparison(0.75, r, 8).startswith("The profile says 96% parallel")
    assert profile_comparison(0.75, r).startswith("The profile says 75% parallel")


def test_profile_p_at_reads_the_profile_n0():
    from amdahl_desk.files import load_profile
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.fit import profile_p_at
    from amdahl_desk.resources import example_path

    analysis = analyse(load_profile(example_path("training-iteration.xlsx")).profile)
    assert analysis.scaling.baseline_gpus == 8 and analysis.scaling.parallel_fraction == pytest.approx(0.75)
    assert profile_p_at(analysis, 1) == pytest.approx(0.96)
    assert profile_p_at(analysis, None) == profile_p_at(analysis, 8) == pytest.approx(0.75)


def test_a_comparisons_points_round_as_its_shares_do():
    """62.5% against runs that say 50%: the shares read 63% and 50%, so the gap reads 13 points, not 12 (a half
    rounded to even where the shares round a half up)."""
    counts = [1, 2, 4, 8, 16, 32]
    r = fit_measurements(Measurements.of(zip(counts, amdahl_times(0.5, counts), strict=True), "time"))
    said = profile_comparison(0.5 + r.amdahl.parallel_fraction - 0.5 + 0.125, r)
    assert said.startswith("The profile says 63% parallel, the runs say 50%: 13 points"), said


def test_a_coefficient_just_below_all_never_reads_all():
    assert percent(0.995) == "99.5%" and percent(0.9949) == "99%"
