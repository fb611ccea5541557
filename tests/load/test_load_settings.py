"""The new settings: defaults, rules located by field, and the Settings-sheet text that reads back exactly."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amdahl_desk.model.load_settings import (
    SETTING_PARSERS,
    LoadCostSettings,
    hourly_rate,
    load_cost_problems,
    setting_texts,
)
from amdahl_desk.present.setting_rows import SETTING_ROWS


def test_defaults_are_off():
    s = LoadCostSettings()
    assert (s.arrival_rate, s.servers, s.load_objective) == (None, 1, "End to end")
    assert (s.gpu_price_per_hour, s.currency, s.watts_per_gpu, s.energy_price_per_kwh) == (None, "", None, None)
    assert s.problems() == []
    assert hourly_rate(s) is None


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"arrival_rate": -1.0}, "arrival_rate"),
        ({"arrival_rate": 0.0}, "arrival_rate"),
        ({"arrival_rate": math.inf}, "arrival_rate"),
        ({"servers": 0}, "servers"),
        ({"servers": True}, "servers"),
        ({"servers": 2.5}, "servers"),
        ({"load_objective": "  "}, "load_objective"),
        ({"gpu_price_per_hour": math.nan}, "gpu_price_per_hour"),
        ({"gpu_price_per_hour": -2.5}, "gpu_price_per_hour"),
        ({"watts_per_gpu": -700.0}, "watts_per_gpu"),
        ({"energy_price_per_kwh": math.inf}, "energy_price_per_kwh"),
        ({"plan_confidence": 0.0}, "plan_confidence"),
        ({"plan_confidence": 1.2}, "plan_confidence"),
        ({"plan_confidence": math.nan}, "plan_confidence"),
    ],
)
def test_each_bad_value_is_located(changes, field):
    (problem,) = LoadCostSettings(**changes).problems()
    assert (problem.table, problem.row, problem.field) == ("settings", None, field)


def test_watts_without_energy_price_is_not_refused_and_not_counted():
    s = LoadCostSettings(gpu_price_per_hour=2.0, watts_per_gpu=700)
    assert load_cost_problems(s) == []
    assert hourly_rate(s) == 2.0


def test_every_field_but_currency_has_a_row():
    assert [r.field for r in SETTING_ROWS] == [
        "arrival_rate",
        "servers",
        "load_objective",
        "gpu_price_per_hour",
        "watts_per_gpu",
        "energy_price_per_kwh",
        "plan_confidence",
    ]
    assert set(SETTING_PARSERS) == {r.field for r in SETTING_ROWS}


def read_back(texts: dict[str, str], decimal: str = ".") -> LoadCostSettings:
    """What the files layer (``"."``) and the window's fields (the desktop's ``decimal``) do: parse each non-empty
    text, the prices' currency into ``currency``."""
    values: dict[str, object] = {}
    for fld, text in texts.items():
        if not text:
            continue
        value = SETTING_PARSERS[fld](text, decimal)
        if fld in ("gpu_price_per_hour", "energy_price_per_kwh"):
            amount, currency = value
            values[fld] = amount
            if currency:
                values["currency"] = currency
        else:
            values[fld] = value
    return LoadCostSettings(**values)


positive = st.floats(1e-6, 1e9)


@given(
    st.none() | positive,
    st.integers(1, 100_000),
    st.sampled_from(["End to end", "TTFT", "Time to first token"]),
    st.none() | st.floats(0, 1e6),
    st.sampled_from(["", "$", "EUR", "€"]),
    st.none() | st.floats(0, 1e5),
    st.none() | st.floats(0, 10),
    st.floats(1e-9, 1.0) | st.sampled_from([0.8, 0.95, 1.0, 0.5, 1 / 3]),
)
def test_settings_round_trip_through_sheet_text(rate, servers, objective, price, currency, watts, energy, level):
    if price is None and energy is None:
        currency = ""  # with no price written, there is nowhere to keep a currency
    s = LoadCostSettings(rate, servers, objective, price, currency, watts, energy, level)
    assert read_back(setting_texts(s)) == s
    # a German desktop's fields: written and read with a decimal comma
    assert read_back(setting_texts(s, ","), ",") == s


def test_a_german_desktops_settings_fields_read_back_with_its_own_parsers():
    """The window's Settings fields on a desktop with a decimal comma show each value as text the field's parser
    reads back with that comma: "1,5e-05/s", not "1.5e-05/s", which it refused."""
    from amdahl_desk.model.profile import Settings
    from amdahl_desk.model.units import TimeUnit, convert, parse_bandwidth, parse_bytes, parse_time_text
    from amdahl_desk.present.cells import settings_fields
    from amdahl_desk.present.numbers import Numbers

    settings = Settings(
        ring_latency=1.5e-6,
        ring_message_bytes=2.5e8,
        ring_bandwidth=1.25e10,
        arrival_rate=1.5e-05,
        gpu_price_per_hour=2.5,
        currency="$",
        watts_per_gpu=0.125,
        plan_confidence=0.875,
    )
    fields = settings_fields(settings, TimeUnit.MS, Numbers(",", "."))
    assert fields["arrival_rate"] == "1,5e-05/s"
    assert read_back({f: fields[f] for f in SETTING_PARSERS}, ",") == LoadCostSettings(
        1.5e-05, 1, "End to end", 2.5, "$", 0.125, None, 0.875
    )
    number, unit = parse_time_text(fields["ring_latency"], ",")
    assert convert(number, unit or TimeUnit.MS, TimeUnit.S) == pytest.approx(1.5e-6, rel=1e-12)
    assert parse_bytes(fields["ring_message_bytes"], ",") == 2.5e8
    assert parse_bandwidth(fields["ring_bandwidth"], ",") == 1.25e10
    # a desktop whose decimal separator is neither (Arabic "٫") types and reads a point, as its fields parse
    arabic = settings_fields(settings, TimeUnit.MS, Numbers("٫", "٬"))
    assert arabic["arrival_rate"] == "1.5e-05/s"
    assert read_back({f: arabic[f] for f in SETTING_PARSERS}, ".") == LoadCostSettings(
        1.5e-05, 1, "End to end", 2.5, "$", 0.125, None, 0.875
    )
