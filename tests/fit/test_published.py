"""The USL fit against published fits: the R usl package's specsdm91, Gunther's synthetic case, usl4j's Cisco."""

from pathlib import Path

import pytest

from amdahl_desk.files.measurements import read_measurements
from amdahl_desk.model.fit import fit_measurements
from amdahl_desk.model.measurements import Measurements
from amdahl_desk.present.fit_text import notes_for

FIXTURES = Path(__file__).parent / "fixtures"


def signif(x: float, digits: int) -> float:
    return float(f"{x:.{digits}g}")


@pytest.fixture(scope="module")
def specsdm91():
    return fit_measurements(read_measurements(FIXTURES / "specsdm91.csv").measurements)


def test_specsdm91_coefficients_match_the_usl_package(specsdm91):
    usl = specsdm91.usl
    # usl's documentation: alpha = 0.0277285, beta = 0.0001044, gamma = 89.9952330
    assert signif(usl.alpha, 6) == 0.0277285
    assert signif(usl.beta, 4) == 0.0001044
    assert usl.gamma == pytest.approx(89.9952330, abs=5e-7)


def test_specsdm91_standard_errors_and_r_squared_match_summary(specsdm91):
    usl = specsdm91.usl
    # summary(u): Std. Error 9.122e-03, 1.988e-05, 1.421e+01; Multiple R-squared 0.9896
    assert signif(usl.alpha_stderr, 4) == 9.122e-03
    assert signif(usl.beta_stderr, 4) == 1.988e-05
    assert signif(usl.gamma_stderr, 4) == 1.421e01
    assert round(usl.r_squared, 4) == 0.9896


def test_specsdm91_peak_and_limit(specsdm91):
    usl = specsdm91.usl
    assert signif(usl.peak_n, 2) == 97  # peak.scalability(u), signif 2
    assert usl.peak_n == pytest.approx(96.5, abs=0.05)
    assert usl.limit_x == pytest.approx(3245.589, rel=1e-4)  # limit.scalability(u)
    assert round(usl.peak_x) == 1884  # the "1,884"


def test_specsdm91_regime_sentence(specsdm91):
    assert notes_for(specsdm91)[0] == (
        "Contention-limited (α = 2.8%, β = 0.01%): throughput peaks at 97 users (1,884 scripts/h); "
        "past it, adding users lowers throughput."
    )


def test_gunther_synthetic_alpha_beta_two_percent():
    # usl tests/coef.R: this data gives alpha = beta = 0.02, gamma = 1 to 3 significant digits
    m = Measurements.of(zip([1, 2, 4, 6, 8, 10], [1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557], strict=True))
    usl = fit_measurements(m).usl
    assert (signif(usl.alpha, 3), signif(usl.beta, 3), signif(usl.gamma, 3)) == (0.02, 0.02, 1.0)
    # The exact model's peak: sqrt((1 - 0.02) / 0.02) = 7
    assert usl.peak_n == pytest.approx(7.0, abs=0.01)


def test_cisco_benchmark_within_usl4j_tolerance():
    usl = fit_measurements(read_measurements(FIXTURES / "cisco.csv").measurements).usl
    close = {"rel": 2e-4}  # usl4j: within 0.02% of the book
    assert usl.alpha == pytest.approx(0.02671591, **close)
    assert usl.beta == pytest.approx(7.690945e-4, **close)
    assert usl.gamma == pytest.approx(995.6486, **close)
    assert int(usl.peak_n) == 35
    assert usl.peak_x == pytest.approx(12341, **close)
    assert float(usl.throughput(20)) == pytest.approx(11063.633137626028, rel=1e-5)
