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
