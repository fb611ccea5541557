"""Numbers as people and spreadsheets write them: decimal points and commas, thousands grouped five ways."""

import pytest

from amdahl_desk.model.numbers import (
    AmbiguousNumberError,
    ParseError,
    decide_decimal,
    number_evidence,
    parse_number,
)
from amdahl_desk.model.units import TimeUnit, parse_speedup, parse_time, parse_time_text


@pytest.mark.parametrize(
    ("text", "decimal", "value"),
    [
        ("1500", None, 1500),
        ("12,5", None, 12.5),  # one comma that cannot group thousands: a decimal comma
        ("0,750", None, 0.75),  # 0,750 is never a grouping: groups never start with 0
        ("00,100", None, 0.1),
        ("1.500,25", None, 1500.25),
        ("1,500.25", None, 1500.25),
        ("1 500,25", None, 1500.25),
        ("1\u00a0500,25", None, 1500.25),  # no-break space
        ("1\u202f500,25", None, 1500.25),  # narrow no-break space (French)
        ("1\u2009500,25", None, 1500.25),  # thin space
        ("1'500.25", None, 1500.25),  # Swiss
        ("1\u2019500.25", None, 1500.25),
        ("1,500,000", None, 1_500_000),
        ("1.500.000", None, 1_500_000),
        ("1,500", ",", 1.5),
        ("1,500", ".", 1500),
        ("1.500", ",", 1500),
        ("0.750", None, 0.75),
        (".5", None, 0.5),
        ("1,5e3", None, 1500),
        ("\u22122,5", None, -2.5),  # a typographic minus
    ],
)
def test_numbers(text, decimal, value):
    assert parse_number(text, decimal) == value


@pytest.mark.parametrize("text", ["1,500", "1.500"])
def test_1500_with_one_separator_is_ambiguous_and_names_both_readings(text):
    with pytest.raises(AmbiguousNumberError) as info:
        parse_number(text)
    assert info.value.readings == (1500, 1.5)
    assert "1500" in str(info.value) and "1.5" in str(info.value)


@pytest.mark.parametrize(
    ("text", "decimal"),
    [
        ("0,750", "."),  # with decimal points, a comma groups thousands: 0,750 is no grouping
        ("12,345,67", None),
        ("12.5", ","),  # with decimal commas, a point groups thousands
        ("1,500.5", ","),
        ("1,500,000", ","),
        ("1,500 000", None),  # two different group separators
        ("abc", None),
        ("", None),
    ],
)
def test_bad_numbers(text, decimal):
    with pytest.raises(ParseError):
        parse_number(text, decimal)


@pytest.mark.parametrize(
    ("text", "evidence"),
    [
        ("12,5", ","),
        ("0,750", ","),
        ("1.500,25", ","),
        ("1.500.000", ","),
        ("12.5", "."),
        ("1,500.25", "."),
        ("1,500,000", "."),
        ("1,500", None),
        ("1.500", None),
        ("100", None),
        ("12,5 ms", ","),
    ],
)
def test_evidence(text, evidence):
    assert number_evidence(text) == evidence


def test_a_column_decides_once():
    assert decide_decimal(["1,500", "2,250", "0,750"]) == ","
    assert decide_decimal(["1,500", "2,250", "12.5"]) == "."
    assert decide_decimal(["1,500", "2,250"]) is None
    assert decide_decimal(["1,500", "2,250"], hint=",") == ","  # a ;-separated file with commas in numbers
    assert decide_decimal(["1500", "2250"], hint=",") is None
    assert decide_decimal(["1.500"], hint=".") == "."  # a ,-separated file: points are decimal
    assert decide_decimal(["1,500"], hint=".") is None  # … but a quoted 1,500 there says nothing
    assert decide_decimal(["12,5", "12.5"]) is None  # the column contradicts itself


def test_times_and_speedups_take_the_separator():
    assert parse_time_text("1,5 s") == (1.5, TimeUnit.S)
    assert parse_time_text("1,500 ms", ",") == (1.5, TimeUnit.MS)
    assert parse_time_text("1,500 ms", ".") == (1500, TimeUnit.MS)
    assert parse_time("1.500,5", TimeUnit.MS) == 1500.5
    assert parse_speedup("2,5x") == 2.5
    with pytest.raises(AmbiguousNumberError):
        parse_time_text("1,500 ms")


@pytest.mark.parametrize(
    ("fraction", "text"),
    [
        (0.6, "60%"),
        (0.036, "3.6%"),
        (1.0, "100%"),
        (0.9957, "99.5%"),  # the 1-GPU trace's parallel fraction: it caps scaling at 233×, so it cannot read 100%
        (0.99996, "99.9%"),
        (0.995, "99.5%"),
        (0.9949, "99%"),
        (2.991 / 3, "99.7%"),  # 0.99699999…: the float's noise is not a tenth less
    ],
)
def test_a_share_below_all_of_it_never_reads_as_all_of_it(fraction, text):
    from amdahl_desk.model.units import format_percent

    assert format_percent(fraction) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1×"),
        (1 / 0.995025, "1.005×"),  # 303 ms → 301.5 ms: "1×" beside "saves 1.5 ms" read as no gain
        (0.9996, "0.9996×"),
        (1.00001, "1×"),  # within a hundredth of a percent: 1× as good as any
        (1.006, "1.01×"),
        (0.994, "0.99×"),
        (1.82, "1.82×"),
        (12.34, "12.3×"),
    ],
)
def test_a_speedup_that_is_not_one_never_reads_as_one(value, text):
    from amdahl_desk.model.units import format_speedup

    assert format_speedup(value) == text
