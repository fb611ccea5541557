"""Parsers for values a person types besides times: sizes, shares, GPU counts, target times, rates, prices, power.

Each kind has one parser here, used by the file readers, the window and the command line alike.
"""

from __future__ import annotations

import math
import re

from .numbers import AmbiguousNumberError, NumberFormatError, ParseError, parse_number
from .numbers import Decimal as DecimalSeparator
from .units import TimeUnit, parse_time, scaled


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` (or ×) → (1920, 1080); 200 to 10,000 pixels a side; raises ValueError."""
    try:
        w, h = (int(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f'"{text}" is not a size; expected WIDTHxHEIGHT, like 1920x1080') from None
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise ValueError(f'"{text}": width and height must be between 200 and 10,000 pixels')
    return w, h


# -- one parser per kind of value a person types: the readers, the window and the command line share them --

_PERCENT = re.compile(r"^\s*(?P<num>[^%]*?)\s*%\s*$")


def parse_fraction(text: str, decimal: DecimalSeparator | None = None) -> float:
    """A share: ``0.95``, ``95%``, ``95 %`` or ``0,95`` → 0.95; from 0 to 1."""
    stripped = text.strip()
    percent = _PERCENT.match(stripped)
    try:
        number = parse_number(percent.group("num") if percent else stripped, decimal)
    except NumberFormatError as exc:
        raise ParseError(f"{exc}; {FRACTION_EXPECTED}") from None
    except ParseError:
        number = math.nan
    if percent:
        number /= 100
    return check_fraction(number, stripped)


FRACTION_EXPECTED = 'expected a number from 0 to 1, or a share like "95%"'


def check_fraction(value: float, shown: str | None = None) -> float:
    """Accept a finite share from 0 to 1, or raise :class:`ParseError`."""
    if math.isfinite(value) and 0 <= value <= 1:
        return float(value)
    shown = shown if shown is not None else repr(value)
    raise ParseError(f'"{shown}" is not a parallel fraction; {FRACTION_EXPECTED}')


def parse_count(text: str, what: str = "GPU count") -> int:
    """A whole number of 1 or more: ``8``, ``1024``, ``1 024``, ``8.0``; a count has no decimals to read."""
    stripped = text.strip()
    try:
        number = parse_number(stripped)
    except AmbiguousNumberError as exc:
        number = exc.readings[0]  # 1,024 GPUs: a count is never 1.024
    except ParseError:
        number = math.nan
    if not (math.isfinite(number) and number == int(number) and number >= 1):
        raise ParseError(f'"{stripped}" is not a valid {what}; expected a whole number of 1 or more')
    return int(number)


def parse_gpu_counts(text: str) -> tuple[int, ...]:
    """``"1, 8, 64"``, ``"1;8;64"`` or ``"1 8 64"`` → (1, 8, 64), sorted, each once.

    Commas, semicolons and blanks separate the counts, so a count is written without grouping.
    """
    parts = [p for p in re.split(r"[;,\s]+", text.strip()) if p]
    if not parts:
        raise ParseError('expected a list of GPU counts like "1, 2, 4, 8"')
    return tuple(sorted({parse_count(p) for p in parts}))


def parse_targets(text: str) -> tuple[str, ...]:
    """An optimization's targets: component names separated by ``;`` or line breaks (commas belong to names)."""
    return tuple(t.strip() for t in re.split(r"[;\n\r]", text) if t.strip())


def parse_target_time(text: str, unit: TimeUnit, decimal: DecimalSeparator | None = None) -> float:
    """A target (SLO) time in ``unit``: ``600``, ``600 ms``, ``0.6 s``; greater than 0."""
    value = parse_time(text, unit, decimal)
    if value <= 0:
        raise ParseError(f'"{text.strip()}": the target time must be greater than 0')
    return value


_RATE_UNITS = {
    "s": 1.0,
    "sec": 1.0,
    "second": 1.0,
    "min": 60.0,
    "minute": 60.0,
    "h": 3600.0,
    "hr": 3600.0,
    "hour": 3600.0,
    "day": 86400.0,
    "d": 86400.0,
}
_RATE = re.compile(r"^\s*(?P<num>.+?)\s*(?:/|\bper\b)\s*(?P<unit>[a-zA-Z]+)\s*$")


def parse_rate(text: str, decimal: DecimalSeparator | None = None) -> float:
    """Events per second: ``120/s``, ``7200/min``, ``5 per hour``, ``120 rps`` → 120, 120, 0.00139, 120."""
    stripped = text.strip()
    match = _RATE.match(stripped)
    if match is None and stripped.lower().endswith(("rps", "qps")):
        match = re.match(r"^\s*(?P<num>.+?)\s*(?P<unit>)[rq]ps\s*$", stripped, re.IGNORECASE)
    per = math.nan
    number = math.nan
    if match is not None:
        unit = match.group("unit").lower()
        per = 1.0 if not unit else _RATE_UNITS.get(unit.rstrip("s") if unit not in _RATE_UNITS else unit, math.nan)
        number = _physical_number(match.group("num"), decimal)
    if not (math.isfinite(number) and number >= 0 and math.isfinite(per)):
        raise ParseError(f'"{stripped}" is not a rate; expected a value like "120/s" or "7200/min"')
    return number / per


_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "CHF": "CHF"}
_PRICE = re.compile(
    r"^\s*(?P<pre>[$€£¥₹]|[A-Za-z]{3}(?=\s|\d))?\s*(?P<num>[-+\d.,'\u2019 \u00a0\u2009\u202f]*\d[\d.]*)\s*"
    r"(?P<post>[$€£¥₹]|[A-Za-z]{3})?\s*$"
)


def parse_price(text: str, decimal: DecimalSeparator | None = None) -> tuple[float, str]:
    """An amount of money and its currency: ``$2.50`` → (2.5, "USD"), ``2,5 EUR``/``2,5 €`` → (2.5, "EUR")."""
    stripped = text.strip()
    match = _PRICE.match(stripped)
    currency = ""
    number = math.nan
    if match is not None and not (match.group("pre") and match.group("post")):
        sign = match.group("pre") or match.group("post") or ""
        currency = _CURRENCY_SIGNS.get(sign, sign.upper())
        number = _physical_number(match.group("num"), decimal)
    if not (currency and math.isfinite(number) and number >= 0):
        raise ParseError(
            f'"{stripped}" is not a price; expected an amount with its currency, like "$2.50" or "2.5 EUR"'
        )
    return number, currency


_POWER_UNITS = {"w": 1.0, "kw": 1e3, "mw": 1e6, "gw": 1e9}
_POWER = re.compile(r"^\s*(?P<num>.+?)\s*(?P<unit>[kKmMgG]?[wW])?\s*$")


def parse_power(text: str, decimal: DecimalSeparator | None = None) -> float:
    """Power in watts: ``300 W``, ``1.2 kW``, ``0,7 kW``; a bare number is watts."""
    stripped = text.strip()
    match = _POWER.match(stripped)
    number = _physical_number(match.group("num"), decimal) if match else math.nan
    if match is not None and match.group("unit") == "mW":
        number = math.nan  # milliwatts are no machine's power: a typo for MW
    if not (math.isfinite(number) and number >= 0):
        raise ParseError(f'"{stripped}" is not a power; expected watts, or a value like "300 W" or "1.2 kW"')
    return scaled(number, _POWER_UNITS[(match.group("unit") or "W").lower()]) if match else number


_ENERGY = re.compile(r"^\s*(?P<price>.+?)\s*(?:/|\bper\b)\s*(?P<unit>[kKmM]?Wh)\s*$")


def parse_energy_price(text: str, decimal: DecimalSeparator | None = None) -> tuple[float, str]:
    """A price per kWh: ``0.30 EUR/kWh``, ``$0.12 per kWh``, ``120 USD/MWh`` → (0.12, "USD")."""
    stripped = text.strip()
    match = _ENERGY.match(stripped)
    if match is None:
        raise ParseError(f'"{stripped}" is not an energy price; expected a value like "0.30 EUR/kWh" or "$0.12/kWh"')
    amount, currency = parse_price(match.group("price"), decimal)
    per_kwh = {"wh": 1e-3, "kwh": 1.0, "mwh": 1e3}[match.group("unit").lower()]
    return amount / per_kwh, currency


def _physical_number(text: str, decimal: DecimalSeparator | None) -> float:
    try:
        return parse_number(text, decimal)
    except NumberFormatError:
        raise
    except ParseError:
        return math.nan
