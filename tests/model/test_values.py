"""One parser per kind of value, and the reader, the command line and the model agreeing on each."""

import json

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amdahl_desk.cli import main
from amdahl_desk.files import load_profile
from amdahl_desk.model.units import TimeUnit
from amdahl_desk.model.values import (
    ParseError,
    Price,
    confidence_text,
    parse_confidence,
    parse_count,
    parse_energy_price,
    parse_fraction,
    parse_gpu_counts,
    parse_power,
    parse_price,
    parse_rate,
    parse_target_time,
)


@pytest.mark.parametrize(
    ("text", "value"), [("0.95", 0.95), ("95%", 0.95), ("95 %", 0.95), ("0,95", 0.95), ("1", 1), ("0", 0)]
)
def test_fractions(text, value):
    assert parse_fraction(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["1.5", "-0.1", "150%", "x", "", "nan"])
def test_bad_fractions(text):
    with pytest.raises(ParseError, match="parallel fraction|not a number"):
        parse_fraction(text)


def test_gpu_lists_accept_every_separator_the_app_ever_did():
    for text in ["1,8,64", "1, 8, 64", "1;8;64", "1 8 64", "64, 8, 1, 8"]:
        assert parse_gpu_counts(text) == (1, 8, 64)
    assert parse_count("1 024") == 1024 and parse_count("8.0") == 8 and parse_count("1,024") == 1024
    for bad in ["0,2", "1.5", "", "x"]:
        with pytest.raises(ParseError):
            parse_gpu_counts(bad)


def test_target_times():
    assert parse_target_time("600", TimeUnit.MS) == 600
    assert parse_target_time("0.6 s", TimeUnit.MS) == 600
    assert parse_target_time("0,6 s", TimeUnit.MS) == 600
    with pytest.raises(ParseError, match="greater than 0"):
        parse_target_time("0 ms", TimeUnit.MS)


@pytest.mark.parametrize(
    ("text", "per_second"),
    [("120/s", 120), ("7200/min", 120), ("7200 / minute", 120), ("3600 per hour", 1), ("120 rps", 120), ("1,5/s", 1.5)],
)
def test_rates(text, per_second):
    assert parse_rate(text) == pytest.approx(per_second)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("$2.50", Price(2.5, "$")),
        ("2.5 EUR", Price(2.5, "EUR")),
        ("2,50 €", Price(2.5, "€")),
        ("€3", Price(3, "€")),
        ("£1", Price(1, "£")),
    ],
)
def test_prices(text, price):
    assert parse_price(text) == price


@pytest.mark.parametrize(
    ("text", "watts"), [("300 W", 300), ("1.2 kW", 1200), ("0,7 kW", 700), ("250", 250), ("2 MW", 2e6)]
)
def test_power(text, watts):
    assert parse_power(text) == watts


@pytest.mark.parametrize(
    ("text", "price"),
    [("0.30 EUR/kWh", (0.3, "EUR")), ("$0.12 per kWh", (0.12, "$")), ("120 USD/MWh", (0.12, "USD"))],
)
def test_energy_prices(text, price):
    parsed = parse_energy_price(text)
    assert (pytest.approx(parsed.amount), parsed.currency) == price


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_rate, "1,500/min"),
        (parse_price, "$1,500"),
        (parse_power, "1,500 W"),
        (parse_energy_price, "1,500 EUR/MWh"),
    ],
)
def test_a_thousands_comma_alone_is_refused_with_both_readings(parse, text):
    with pytest.raises(ParseError, match=r"could be 1500 \(comma grouping thousands\) or 1\.5 \(decimal comma\)"):
        parse(text)


def test_a_known_decimal_separator_settles_the_comma():
    assert parse_price("$1,500", ".") == Price(1500, "$")
    assert parse_price("$1,500", ",") == Price(1.5, "$")
    assert parse_rate("1,500/s", ",") == 1.5
    assert parse_power("1.500 W", ",") == 1500


@pytest.mark.parametrize("parse", [parse_rate, parse_price, parse_power, parse_energy_price])
def test_junk_is_refused_with_an_example(parse):
    with pytest.raises(ParseError, match="expected"):
        parse("lots")


def settings_workbook(path, key, value):
    book = openpyxl.Workbook()
    book.active.title = "Components"
    book.active.append(["Component", "Time (ms)"])
    book.active.append(["a", 100])
    sheet = book.create_sheet("Settings")
    sheet.append(["Setting", "Value"])
    sheet.append([key, value])
    book.save(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 1000), st.booleans())
def test_fraction_reader_command_line_and_model_agree(tmp_path, capsys, per_mille, as_percent):
    text = f"{per_mille / 10:g}%" if as_percent else f"{per_mille / 1000:g}"
    value = parse_fraction(text)
    settings_workbook(tmp_path / "f.xlsx", "Parallel fraction", text)
    assert load_profile(tmp_path / "f.xlsx").profile.settings.parallel_fraction == value
    assert main(["scale", "-p", text, "--gpus", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["parallel_fraction"] == value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 100_000), min_size=1, max_size=6), st.sampled_from([",", ", ", ";", " "]))
def test_gpu_list_reader_command_line_and_model_agree(tmp_path, capsys, counts, sep):
    text = sep.join(str(n) for n in counts)
    value = parse_gpu_counts(text)
    assert value == tuple(sorted(set(counts)))
    settings_workbook(tmp_path / "g.xlsx", "GPU counts", text)
    assert load_profile(tmp_path / "g.xlsx").profile.settings.gpu_counts == value
    assert main(["scale", "-p", "0.9", "--gpus", text, "--json"]) == 0
    assert tuple(p["gpus"] for p in json.loads(capsys.readouterr().out)["points"]) == value


def test_targets_split_on_semicolons_and_line_breaks_not_commas():
    from amdahl_desk.model.values import parse_targets

    assert parse_targets("Gateway, validation; decode\nprefill ;") == ("Gateway, validation", "decode", "prefill")


@pytest.mark.parametrize("parse", [parse_fraction, parse_confidence])
@pytest.mark.parametrize(
    ("text", "value"), [("96.875%", 0.96875), ("12.345%", 0.12345), ("12,345%", 0.12345), ("1.500%", 0.015)]
)
def test_a_percentage_with_three_decimals_has_one_reading_that_is_a_share(parse, text, value):
    """12.345% could be read as 12,345% — no share is; the one reading from 0 to 1 is what was typed."""
    assert parse(text) == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("parse", [parse_fraction, parse_confidence])
def test_a_bare_thousands_comma_stays_refused_when_neither_reading_is_a_share(parse):
    with pytest.raises(ParseError, match="1500.*1.5"):
        parse("1,500")


@given(st.integers(0, 10**6))
def test_every_confidence_text_reads_back(millionths):
    """What the workbook writes for a confidence (``confidence_text``) is read back exactly, whatever its digits."""
    value = millionths / 10**6
    assert parse_confidence(confidence_text(value)) == value
