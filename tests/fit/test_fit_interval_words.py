"""The fit's figures carry their 95% intervals, as Student's t at n − p degrees of freedom gives them (computed
here by integrating the t density, not by the code's quantile)."""

from __future__ import annotations

import math
from pathlib import Path

from amdahl_desk.files import read_measurements
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.present.fit import fit_figures

RUNS = Path(__file__).parent / "fixtures" / "training-gpus.csv"


def t_975(dof: int) -> float:
    """The t with P(|T| ≤ t) = 95%, by Simpson's rule on the density and bisection."""
    c = math.gamma((dof + 1) / 2) / (math.sqrt(dof * math.pi) * math.gamma(dof / 2))

    def mass(t: float, steps: int = 2000) -> float:
        h = t / steps
        f = [c * (1 + (i * h) ** 2 / dof) ** (-(dof + 1) / 2) for i in range(steps + 1)]
        return h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))

    low, high = 0.0, 50.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if mass(mid) < 0.475 else (low, mid)
    return (low + high) / 2


def test_amdahl_p_and_usl_alpha_say_their_95_percent_intervals():
    result = fit_measurements(read_measurements(RUNS).measurements)
    n = result.points.n.size
    figures = {f.name: f for f in fit_figures(result)}
    a, u = result.amdahl, result.usl
    assert a is not None and u is not None
    t = t_975(n - 1)
    low, high = a.parallel_fraction - t * a.stderr, a.parallel_fraction + t * a.stderr
    assert figures["Amdahl P"].meaning.endswith(f"; 95%: {100 * low:.0f}%–{100 * high:.0f}%")
    t = t_975(n - 3)
    low, high = max(u.alpha - t * u.alpha_stderr, 0.0), u.alpha + t * u.alpha_stderr
    assert figures["USL α"].meaning == f"contention; 95%: {low:.3g}–{high:.3g}"


def test_the_measured_scaling_view_draws_amdahl_s_95_percent_band_around_its_curve():
    from amdahl_desk.model.profile import Profile
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.measured import measured_scaling

    result = fit_measurements(read_measurements(RUNS).measurements)
    a = result.amdahl
    assert a is not None
    curves = dict(measured_scaling(ChartInputs(Profile(), None, fit=result)).curves)
    t = t_975(result.points.n.size - 1)
    n0 = a.baseline_n
    for edge, p in (
        ("amdahl_low", a.parallel_fraction - t * a.stderr),
        ("amdahl_high", a.parallel_fraction + t * a.stderr),
    ):
        series = curves[edge]
        n = 2.0 ** series.x[-1]
        expected = 1 / ((1 - p) + p * n0 / n)
        assert math.isclose(10.0 ** series.y[-1], expected, rel_tol=1e-6), edge
    assert {"usl_low", "usl_high"} <= set(curves)
