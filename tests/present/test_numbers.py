"""The views' one number formatter: the model's format by default, a locale's separators when given."""

import pytest

from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.numbers import POINT, Numbers

GERMAN = Numbers(decimal=",", group=".")


def test_point_writes_as_files_do():
    assert POINT.time(1234.5, TimeUnit.MS) == "1,235 ms"  # a half rounded away from zero, as a spreadsheet shows it
    assert POINT.time(0.125, TimeUnit.S) == "0.125 s"
    assert POINT.speedup(1.8234) == "1.82×"
    assert POINT.percent(0.036) == "3.6%"
    assert POINT.count(1024) == "1,024"
    assert POINT.speedup(None) == "∞"


def test_a_locale_swaps_both_separators_at_once():
    assert GERMAN.time(1234.5, TimeUnit.MS) == "1.235 ms"
    assert GERMAN.time(12.25, TimeUnit.MS) == "12,3 ms"
    assert GERMAN.speedup(1.8234) == "1,82×"
    assert GERMAN.percent(0.036) == "3,6%"
    assert GERMAN.count(1_000_000) == "1.000.000"


def test_an_editor_starts_from_every_digit_of_k_its_range_and_effort():
    """A value opened in its editor and committed unchanged stays the value: no digit is rounded away."""
    from amdahl_desk.model.profile import Optimization
    from amdahl_desk.present.cells import estimate_edit_texts, exact_text, k_edit_text

    opt = Optimization("o", ("a",), 2.7182818, speedup_low=1.2345678, speedup_high=3.0, effort=2.123456789)
    assert k_edit_text(opt) == "2.7182818"
    assert estimate_edit_texts(opt) == ("1.2345678", "3", "2.123456789", "")
    assert [float(exact_text(v)) for v in (0.1 + 0.2, 1e-7, 123456789.125)] == [0.1 + 0.2, 1e-7, 123456789.125]
    assert exact_text(float("nan")) == ""


def test_speedups_that_differ_read_apart():
    """As the speedup format writes them where they read apart; else every one with the decimals that tell them
    apart (swings of a few thousandths: 1.03× four times said nothing)."""
    assert POINT.speedups_apart([1.82, 2.5, 4.0]) == ["1.82×", "2.5×", "4×"]
    assert POINT.speedups_apart([1.0284, 1.0267, 1.0308]) == ["1.028×", "1.027×", "1.031×"]
    assert POINT.speedups_apart([1.02842, 1.02838, 1.02847]) == ["1.02842×", "1.02838×", "1.02847×"]
    assert POINT.speedups_apart([1.5, 1.5]) == ["1.5×", "1.5×"]  # equal values stay as they are
    assert GERMAN.speedups_apart([1.0284, 1.0267]) == ["1,028×", "1,027×"]


def test_a_tornado_of_small_swings_tells_its_ends_apart():
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.profile import Component, Optimization, Profile
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.uncertainty_charts import tornado

    comps = [Component("small", 3.0), Component("rest", 997.0)]
    opts = [Optimization("Faster small", ("small",), 4.0, speedup_low=2.0, speedup_high=8.0)]
    profile = Profile(comps, opts)
    view = tornado(ChartInputs(profile, analyse(profile), 0))
    (bar,) = view.bars
    # 1000 / (997 + 3/k): 1.0015 at k = 2, 1.00226 at k = 4, 1.00263 at k = 8
    assert (bar.low_text, bar.high_text) == ("1.0015×", "1.0026×")
    assert view.centre_text == "likely 1.0023×"
    assert "(1.0015–1.0026×)" in view.title


def test_a_time_that_rounds_to_nothing_has_no_sign():
    """compare of a trace with itself said "measured 78.8 ms (saving -0 ms)": float noise below zero."""
    assert POINT.time(-0.0, TimeUnit.MS) == "0 ms"
    assert POINT.time(-1e-13, TimeUnit.MS) == "0 ms"
    assert POINT.time(-0.4, TimeUnit.MS) == "-0.4 ms"


def test_speedups_apart_stop_at_six_decimals():
    """Values that six decimals cannot tell apart keep the speedup format ("1×"), never seven zeros ("1.0000000×")."""
    assert POINT.speedups_apart([1.0, 1.00000001]) == ["1×", "1×"]
    assert POINT.speedups_apart([1.0, 1.000001]) == ["1.000000×", "1.000001×"]


def test_one_negligible_swing_leaves_the_others_in_the_plain_format():
    """A 1 ms component's range beside a 600 ms one's: its bar needs the decimals that tell its ends from the centre,
    the large bar and the title keep the speedup's own format."""
    from amdahl_desk.model.analysis import analyse
    from amdahl_desk.model.profile import Component, Optimization, Profile
    from amdahl_desk.present.inputs import ChartInputs
    from amdahl_desk.present.uncertainty_charts import tornado

    comps = [Component("big", 600.0), Component("tiny", 1.0), Component("rest", 399.0)]
    opts = [
        Optimization("Faster big", ("big",), 4.0, speedup_low=2.0, speedup_high=6.0),
        Optimization("Faster tiny", ("tiny",), 2.0, speedup_low=1.5, speedup_high=3.0),
    ]
    profile = Profile(comps, opts)
    view = tornado(ChartInputs(profile, analyse(profile), 0))
    big, tiny = view.bars
    assert (big.low_text, big.high_text) == (POINT.speedup(big.low), POINT.speedup(big.high))
    assert len({tiny.low_text, tiny.high_text, view.centre_text.split()[-1]}) == 3  # told apart
    assert f"({POINT.speedup_range(big.low, big.high)})" in view.title


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (1.67, 2.0, "1.67–2.00×"),
        (1.0182, 1.0196, "1.018–1.020×"),  # "1.02–1.02×" said a range and showed none
        (1.02012, 1.02048, "1.0201–1.0205×"),
        (1.020001, 1.020004, "1.02×"),  # apart by less than four decimals tell: one value
        (150.21, 150.24, "150.21–150.24×"),
        (3.0, 3.0, "3×"),
    ],
)
def test_a_range_of_speedups_never_reads_as_one_value_twice(low, high, expected):
    assert POINT.speedup_range(low, high) == expected


def test_a_range_rounds_its_ends_as_a_single_speedup_does():
    """1.125–1.375×: each end reads as the speedup alone reads (1.13×), a half up as a spreadsheet shows it."""
    assert POINT.speedup(1.125) == "1.13×" and POINT.speedup_range(1.125, 1.375) == "1.13–1.38×"
