"""The parsers for rates, replicas, prices and power: what people type, and what they get back."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amdahl_desk.model.quantities import (
    Price,
    format_money,
    parse_energy_price,
    parse_power,
    parse_price,
    parse_rate,
    parse_servers,
    price_text,
    rate_text,
    same_currency,
    watts_text,
)
from amdahl_desk.model.values import ParseError


@pytest.mark.parametrize(
    ("text", "per_second"),
    [
        ("120/s", 120),
        ("7200/min", 120),
        ("14 per second", 14),
        ("0.5/ms", 500),
        ("14", 14),
        ("14 requests/s", 14),
        ("14 req/s", 14),
        ("14 requests per second", 14),
        ("14 rps", 14),
        ("3600 per hour", 1),
        ("86 400/day", 1),
        ("86,400.0/day", 1),
        ("1,5/s", 1.5),
        ("2 / s", 2),
    ],
)
def test_rates(text, per_second):
    assert parse_rate(text) == pytest.approx(per_second, rel=1e-15)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-5/s", "negative"),
        ("0", "no load"),
        ("fast", "not an arrival rate"),
        ("5/fortnight", 'unknown time unit "fortnight"'),
        ("nan", "not an arrival rate"),
    ],
)
def test_bad_rates(text, message):
    with pytest.raises(ParseError, match=message):
        parse_rate(text)


@pytest.mark.parametrize(("text", "servers"), [("24", 24), ("24 replicas", 24), ("24.0", 24), ("1", 1)])
def test_servers(text, servers):
    assert parse_servers(text) == servers


@pytest.mark.parametrize("text", ["0", "1.5", "-1", "100001", "many"])
def test_bad_servers(text):
    with pytest.raises(ParseError, match="servers"):
        parse_servers(text)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("$2.50", Price(2.5, "$")),
        ("2.5 EUR", Price(2.5, "EUR")),
        ("2.5 eur", Price(2.5, "EUR")),
        ("€3", Price(3, "€")),
        ("2,50 €", Price(2.5, "€")),
        ("2.5", Price(2.5, "")),
        ("$2.50/h", Price(2.5, "$")),
        ("€3 per GPU-hour", Price(3, "€")),
        ("2.5 per hour", Price(2.5, "")),
        ("US$4", Price(4, "US$")),
        ("1,000.00 USD", Price(1000, "USD")),
        ("1 000 USD", Price(1000, "USD")),
    ],
)
def test_prices(text, price):
    assert parse_price(text) == price


def test_a_thousands_comma_is_refused_unless_the_decimal_separator_is_known():
    with pytest.raises(ParseError, match=r'"1,000" could be 1000 .* or 1 \(decimal comma\)'):
        parse_price("1,000 USD")
    assert parse_price("1,000 USD", ".") == Price(1000, "USD")
    assert parse_price("1,000 USD", ",") == Price(1, "USD")


@pytest.mark.parametrize("text", ["$2.5 EUR", "2.5 abc", "-1", "2.5/min", "cheap", "2.5 per"])
def test_bad_prices(text):
    with pytest.raises(ParseError, match="price"):
        parse_price(text)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("0.12", Price(0.12, "")),
        ("$0.12/kWh", Price(0.12, "$")),
        ("0.25 EUR per kWh", Price(0.25, "EUR")),
        ("120 EUR/MWh", Price(0.12, "EUR")),
    ],
)
def test_energy_prices(text, price):
    assert parse_energy_price(text) == price


def test_currencies_must_agree():
    assert same_currency("$", "") == "$"
    assert same_currency("", "EUR") == "EUR"
    with pytest.raises(ParseError, match=r"\$ and in EUR"):
        same_currency("$", "EUR")


@pytest.mark.parametrize(
    ("text", "watts"), [("700 W", 700), ("0.7 kW", 700), ("700", 700), ("700 watts", 700), ("0.001 MW", 1000)]
)
def test_power(text, watts):
    assert parse_power(text) == watts


@pytest.mark.parametrize("text", ["700 mW", "hot", "-1 W"])
def test_bad_power(text):
    with pytest.raises(ParseError, match="power"):
        parse_power(text)


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [
        (2.5, "$", "$2.50"),
        (2.5, "EUR", "2.50 EUR"),
        (0.00104, "$", "$0.00104"),
        (0.5, "€", "€0.50"),
        (1041.67, "$", "$1,042"),
        (0, "$", "$0"),
        (-3, "$", "−$3.00"),
        (2.5, "", "2.50"),
    ],
)
def test_money_for_people(amount, currency, shown):
    assert format_money(amount, currency) == shown


amounts = st.floats(0, 1e9, allow_nan=False, allow_infinity=False)


@given(amounts, st.sampled_from(["", "$", "€", "EUR", "US$", "CHF"]))
def test_price_text_round_trips(amount, currency):
    assert parse_price(price_text(amount, currency), ".") == Price(amount, currency)


@given(st.floats(1e-6, 1e9))
def test_rate_text_round_trips(rate):
    assert parse_rate(rate_text(rate), ".") == rate


@given(amounts)
def test_watts_text_round_trips(watts):
    assert parse_power(watts_text(watts), ".") == watts


def _examples(message: str) -> list[str]:
    """The examples a refusal's hint shows: each quoted text after "expected", and a bare one after "like"."""
    import re

    hint = message[message.index("expected") :]
    bare = re.findall(r"like (\d+(?:[.,]\d+)*)", hint)  # "like 0,8," is 0,8; "like 1884 or" is 1884
    return re.findall(r'"([^"]+)"', hint) + bare


@pytest.mark.parametrize("decimal", [".", ",", None])
@pytest.mark.parametrize(
    "parse",
    [parse_price, parse_energy_price, parse_power, "confidence", "throughput", "size"],
    ids=["price", "energy price", "power", "confidence", "throughput", "size"],
)
def test_every_example_a_hint_shows_is_read_by_its_own_field(parse, decimal):
    """A German desktop reads "2.5" as no number: a field reading decimal commas that refuses a value must not
    suggest "2.5". Every example in the hint is read back by the same parser with the same separator (None: a
    file's cell, where "1,884" would read two ways)."""
    from amdahl_desk.model.measurements import parse_throughput
    from amdahl_desk.model.units import parse_bytes
    from amdahl_desk.model.values import parse_confidence

    parse = {"confidence": parse_confidence, "throughput": parse_throughput, "size": parse_bytes}.get(parse, parse)
    with pytest.raises(ParseError) as refused:
        parse("nothing like it", decimal)
    examples = _examples(str(refused.value))
    assert examples, str(refused.value)
    if decimal == ",":  # each example with a decimal writes it as this field reads it
        assert all("." not in e for e in examples if any(c.isdigit() for c in e)), examples
    for text in examples:
        parse(text, decimal)  # raises if the hint suggests what its field refuses
