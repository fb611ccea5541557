"""The views' one number formatter: the model's format by default, a locale's separators when given."""

from amdahl_desk.model.units import TimeUnit
from amdahl_desk.present.numbers import POINT, Numbers

GERMAN = Numbers(decimal=",", group=".")


def test_point_writes_as_files_do():
    assert POINT.time(1234.5, TimeUnit.MS) == "1,234 ms"
    assert POINT.time(0.125, TimeUnit.S) == "0.125 s"
    assert POINT.speedup(1.8234) == "1.82×"
    assert POINT.percent(0.036) == "3.6%"
    assert POINT.count(1024) == "1,024"
    assert POINT.speedup(None) == "∞"


def test_a_locale_swaps_both_separators_at_once():
    assert GERMAN.time(1234.5, TimeUnit.MS) == "1.234 ms"
    assert GERMAN.time(12.25, TimeUnit.MS) == "12,2 ms"
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
