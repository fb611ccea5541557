"""Numbers as people and spreadsheets write them: decimal points and commas, thousands grouped five ways."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
        (0.9957, "99.6%"),  # the 1-GPU trace's parallel fraction: a tenth, as the workbook's 0.0% shows it
        (0.99996, "99.9%"),  # it caps scaling at 25,000×: never 100%, so cut where a tenth would round up to it
        (0.99949, "99.9%"),
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


# LibreOffice Calc's text "as shown" for these values in the formats 0.00, 0.0, #,##0, 0% and 0.0% (a workbook
# written with xlsxwriter, saved as CSV by soffice with its cells as shown): a half rounds away from zero, on the
# value's fifteen significant digits (1.005 and 2.675 are below the half in binary, at it in fifteen digits).
CALC_SHOWS = {
    2.625: ("2.63", "2.6", "3", "263%", "262.5%"),
    0.125: ("0.13", "0.1", "0", "13%", "12.5%"),
    1.125: ("1.13", "1.1", "1", "113%", "112.5%"),
    2.675: ("2.68", "2.7", "3", "268%", "267.5%"),
    1234.5: ("1234.50", "1234.5", "1,235", "123450%", "123450.0%"),
    0.5: ("0.50", "0.5", "1", "50%", "50.0%"),
    2.5: ("2.50", "2.5", "3", "250%", "250.0%"),
    1.005: ("1.01", "1.0", "1", None, "100.5%"),  # Calc shows 100% (its 100.49999999999999); 101% here
    12.25: ("12.25", "12.3", "12", "1225%", "1225.0%"),
    -1.125: ("-1.13", "-1.1", "-1", "-113%", "-112.5%"),
    -2.675: ("-2.68", "-2.7", "-3", "-268%", "-267.5%"),
    0.0125: ("0.01", "0.0", "0", "1%", "1.3%"),
    99.95: ("99.95", "100.0", "100", "9995%", "9995.0%"),
    1.0049999999: ("1.00", "1.0", "1", "100%", "100.5%"),
}


@pytest.mark.parametrize("value", list(CALC_SHOWS))
def test_a_figure_is_rounded_as_the_spreadsheet_beside_it_shows_it(value):
    """The window, the slide and the command line round a half as the workbook written beside them shows it:
    2.625 reads 2.63 (Python's own format, rounding the binary value half to even, wrote 2.62) and 12.5% 13%."""
    from amdahl_desk.model.units import fixed

    two, one, whole, pct, pct1 = CALC_SHOWS[value]
    assert (fixed(value, 2), fixed(value, 1), fixed(value, 0, grouped=True)) == (two, one, whole)
    if pct is not None:
        assert fixed(value * 100, 0) + "%" == pct
    assert fixed(value * 100, 1) + "%" == pct1


def test_the_formatters_round_a_half_away_from_zero():
    from amdahl_desk.model.units import TimeUnit, format_percent, format_speedup, format_time

    assert format_speedup(1050 / 400) == "2.63×"  # a measured 1,050 ms against 400 ms
    assert format_percent(1 / 8) == "13%"
    assert format_time(1234.5, TimeUnit.MS) == "1,235 ms"
    assert format_speedup(0.995) == "0.995×"  # still never 1× beside a change
    # a share decides its decimal as it rounds it: 0.95% is 1.0 at one decimal, so 1%; just below all is never 100%
    assert (format_percent(0.0095), format_percent(0.0195)) == ("1%", "2%")
    assert format_percent(0.9949999999999999) == "99.5%" and format_percent(0.99999) == "99.9%"


@given(
    st.one_of(
        st.floats(min_value=-1e11, max_value=1e11, allow_nan=False),
        st.integers(min_value=-(10**9), max_value=10**9).map(lambda i: i / 8),  # halves, quarters, eighths
        st.integers(min_value=-(10**13), max_value=10**13).map(lambda i: i / 1000 + 0.0005),  # halves at 3 decimals
    ),
    st.integers(min_value=0, max_value=4),
)
def test_fixed_finds_every_half_its_fifteen_digits_hold(value, decimals):
    """Whether a value is near a half is decided from its float (fast); the answer is the fifteen-digit decimal's,
    a half up, wherever the value sits (a half of the fourth decimal of 1,252,184.73375 included)."""
    import decimal

    from amdahl_desk.model.units import fixed

    digits = decimal.Decimal(f"{value:.15g}")
    shown = digits.quantize(decimal.Decimal(1).scaleb(-decimals), rounding=decimal.ROUND_HALF_UP)
    assert fixed(value, decimals) == f"{shown:.{decimals}f}"


@pytest.mark.parametrize(
    ("value", "decimals", "shown"),
    [
        (1252184.73375, 4, "1252184.7338"),
        (12345678901.499996, 0, "12345678902"),
        (0.9949999999999999, 2, "1.00"),
        (0.99499, 2, "0.99"),
    ],
)
def test_a_half_far_from_the_decimal_point_is_still_a_half(value, decimals, shown):
    """A half of the fourth decimal of a million, of the units of ten billion: the float's own error there is
    larger than a fixed window around the half (these read 1252184.7337 and 12345678901 when it was one)."""
    from amdahl_desk.model.units import fixed

    assert fixed(value, decimals) == shown
