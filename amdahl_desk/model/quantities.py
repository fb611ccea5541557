"""The one home of the load and cost values as people type them: arrival rates, replica counts, prices, power.

Their numbers go through :func:`~amdahl_desk.model.numbers.parse_number`, so ``1,500`` is refused with
both readings unless the caller knows the decimal separator (``decimal=``), as for every other value.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal

from .numbers import AmbiguousNumberError, ParseError, example, parse_number
from .numbers import Decimal as DecimalSeparator

MAX_SERVERS = 100_000
"""More replicas than any one service runs; keeps the Erlang C sum (one term per replica) quick."""

# The number part of a value: digits with the separators parse_number knows (points, commas, spaces,
# apostrophes), an exponent; parse_number decides what the separators mean.
_NUMBER = r"[-+\u2212]?(?:\d|[.,]\d)(?:\d|[.,'\u2019 \u00a0\u2009\u202f](?=\d))*(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)


def _to_float(text: str, decimal: DecimalSeparator | None, expected: str) -> float:
    """A matched number through the one number parser; an ambiguous one is refused with both readings."""
    try:
        return parse_number(text, decimal)
    except AmbiguousNumberError as exc:  # an ambiguous 1,500 keeps both readings, and its type for a reader
        raise exc.expecting(expected) from None
    except ParseError as exc:
        raise ParseError(f"{exc}; {expected}") from None


def _decimal_ratio(value: float, divisor: float) -> float:
    """``value/divisor`` rounded once from their shortest decimals: 0.5 per ms is exactly 500 per s."""
    return float(Decimal(repr(float(value))) / Decimal(repr(float(divisor))))


# -- arrival rates ---------------------------------------------------------------------------------------
_SECONDS_PER = {
    "s": 1.0,
    "sec": 1.0,
    "second": 1.0,
    "ms": 1e-3,
    "millisecond": 1e-3,
    "us": 1e-6,
    "µs": 1e-6,
    "μs": 1e-6,
    "microsecond": 1e-6,
    "min": 60.0,
    "minute": 60.0,
    "h": 3600.0,
    "hr": 3600.0,
    "hour": 3600.0,
    "d": 86400.0,
    "day": 86400.0,
}
_RATE_WORDS = {"rps": 1.0, "qps": 1.0, "rpm": 60.0, "qpm": 60.0, "rph": 3600.0}
_RATE_RE = re.compile(
    rf"^\s*(?P<num>{_NUMBER})\s*(?:(?:requests?|reqs?|queries|query|calls?|jobs?|runs?)\b\s*)?"
    r"(?:(?:/|\bper\b)\s*(?P<per>[a-zµμ]+?)s?|(?P<word>rps|qps|rpm|qpm|rph))?\s*$",
    re.IGNORECASE,
)
RATE_EXPECTED = 'expected requests per second, like "14", "120/s", "7200/min" or "14 per second"'


def parse_rate(text: str, decimal: DecimalSeparator | None = None) -> float:
    """An arrival rate in requests per second: ``"120/s"``, ``"7200/min"``, ``"14 per second"``, ``"0.5/ms"``."""
    stripped = text.strip()
    match = _RATE_RE.match(stripped)
    if match is None:
        raise ParseError(f'"{stripped}" is not an arrival rate; {RATE_EXPECTED}')
    value = _to_float(match.group("num"), decimal, RATE_EXPECTED)
    per = match.group("per")
    if match.group("word"):
        seconds = _RATE_WORDS[match.group("word").lower()]
    elif per:
        unit = per.lower()
        seconds = _SECONDS_PER.get(unit, _SECONDS_PER.get(unit + "s", math.nan))  # "per ms" meets the plural strip
        if math.isnan(seconds):
            raise ParseError(f'"{stripped}" has an unknown time unit "{per}"; {RATE_EXPECTED}')
    else:
        seconds = 1.0
    return check_rate(_decimal_ratio(value, seconds), stripped)


def check_rate(value: float, shown: str | None = None) -> float:
    """Accept a finite arrival rate greater than 0 (requests per second), or raise :class:`ParseError`."""
    if 0 < value < math.inf:
        return float(value)
    shown = shown if shown is not None else repr(value)
    if value < 0:
        raise ParseError(f'"{shown}" is negative; an arrival rate must be greater than 0')
    if value == 0:
        raise ParseError(f'"{shown}" is no load at all; leave the arrival rate empty, or give a rate above 0')
    raise ParseError(f'"{shown}" is not a valid arrival rate; {RATE_EXPECTED}')


# -- replicas --------------------------------------------------------------------------------------------
_SERVERS_RE = re.compile(
    rf"^\s*(?P<num>{_NUMBER})\s*(?:replicas?|servers?|instances?|workers?|gpus?|copies)?\s*$", re.IGNORECASE
)
SERVERS_EXPECTED = f"expected a whole number of replicas from 1 to {MAX_SERVERS:,}"


def parse_servers(text: str, decimal: DecimalSeparator | None = None) -> int:
    """The number of replicas serving in parallel: ``"24"``, ``"24 replicas"``."""
    stripped = text.strip()
    match = _SERVERS_RE.match(stripped)
    if match is None:
        raise ParseError(f'"{stripped}" is not a number of servers; {SERVERS_EXPECTED}')
    return check_servers(_to_float(match.group("num"), decimal, SERVERS_EXPECTED), stripped)


def check_servers(value: float, shown: str | None = None) -> int:
    """Accept a whole number from 1 to :data:`MAX_SERVERS` (``24.0`` from a spreadsheet is 24)."""
    if math.isfinite(value) and value == int(value) and 1 <= value <= MAX_SERVERS:
        return int(value)
    shown = shown if shown is not None else repr(value)
    raise ParseError(f'"{shown}" is not a valid number of servers; {SERVERS_EXPECTED}')


# -- money -----------------------------------------------------------------------------------------------
_SYMBOLS = ("US$", "A$", "C$", "R$", "$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "₫", "฿", "₴", "₦", "₱")
_CODES = frozenset(
    [
        "USD",
        "EUR",
        "GBP",
        "JPY",
        "CNY",
        "CHF",
        "CAD",
        "AUD",
        "NZD",
        "INR",
        "KRW",
        "SEK",
        "NOK",
        "DKK",
        "PLN",
        "CZK",
        "HUF",
        "BRL",
        "MXN",
        "SGD",
        "HKD",
        "ZAR",
        "TRY",
        "RUB",
        "ILS",
        "TWD",
        "THB",
        "IDR",
        "MYR",
        "PHP",
        "VND",
        "AED",
        "SAR",
        "UAH",
    ]
)
# Any three capitals is a code as typed; lower case only for the codes above, so "2 per" is not a currency.
_CURRENCY = re.compile(
    r"(?:(?!per(?![A-Za-z]))[A-Za-z]{3}(?![A-Za-z])|" + "|".join(re.escape(s) for s in _SYMBOLS) + ")"
).pattern
_MONEY_RE = re.compile(
    rf"^\s*(?P<pre>{_CURRENCY})?\s*(?P<num>{_NUMBER})\s*(?P<post>{_CURRENCY})?\s*(?P<per>(?:/|\bper\b).*)?$",
    re.IGNORECASE,
)
_PER_HOUR_RE = re.compile(r"^(?:/|per\b)\s*(?:gpu\s*[-/·]?\s*|gpu\s+)?(?:h|hr|hour)s?$", re.IGNORECASE)
_PER_ENERGY = {"kwh": 1.0, "mwh": 1000.0, "wh": 1e-3}
_PER_ENERGY_RE = re.compile(r"^(?:/|per\b)\s*(?P<unit>kwh|mwh|wh)$", re.IGNORECASE)


def _like(decimal: DecimalSeparator | None, *examples: str) -> str:
    """``"a", "b" or "c"``: examples quoted, each as a field reading ``decimal`` takes it."""
    quoted = [f'"{example(e, decimal)}"' for e in examples]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def price_expected(decimal: DecimalSeparator | None = None) -> str:
    return f"expected a price per GPU-hour, like {_like(decimal, '2.5', '$2.50', '2.5 EUR', '€3/h')}"


def energy_price_expected(decimal: DecimalSeparator | None = None) -> str:
    return f"expected a price per kWh, like {_like(decimal, '0.12', '$0.12/kWh', '120 EUR/MWh')}"


@dataclass(frozen=True)
class Price:
    """An amount of money per unit, and the currency it was written in ("" when none was written)."""

    amount: float
    currency: str = ""


def _currency(token: str | None) -> str | None:
    if not token:
        return None
    for symbol in _SYMBOLS:
        if token.upper() == symbol.upper():
            return symbol
    if token.upper() in _CODES or token.isupper():
        return token.upper()
    return ""  # three letters that are no currency: the caller refuses the text


def _money(
    text: str, per_re: re.Pattern[str], expected: str, what: str, decimal: DecimalSeparator | None
) -> tuple[float, str, re.Match[str] | None]:
    stripped = text.strip()
    match = _MONEY_RE.match(stripped)
    if match is None:
        raise ParseError(f'"{stripped}" is not {what}; {expected}')
    pre, post = _currency(match.group("pre")), _currency(match.group("post"))
    if pre == "" or post == "" or (pre and post):
        raise ParseError(f'"{stripped}" is not {what}; {expected}')
    per_match = None
    if match.group("per"):
        per_match = per_re.match(match.group("per").strip())
        if per_match is None:
            raise ParseError(f'"{stripped}" is not {what}; {expected}')
    value = _to_float(match.group("num"), decimal, expected)
    if not (math.isfinite(value) and value >= 0):
        raise ParseError(f'"{stripped}" is not {what}: it must be 0 or more; {expected}')
    return value, pre or post or "", per_match


def parse_price(text: str, decimal: DecimalSeparator | None = None) -> Price:
    """A GPU price per hour with its currency kept for display: ``"$2.50"``, ``"2.5 EUR"``, ``"2,50 €"``."""
    value, currency, _ = _money(text, _PER_HOUR_RE, price_expected(decimal), "a price", decimal)
    return Price(value, currency)


def parse_energy_price(text: str, decimal: DecimalSeparator | None = None) -> Price:
    """An energy price per kWh: ``"0.12"``, ``"$0.12/kWh"``, ``"120 EUR/MWh"`` (= 0.12 EUR per kWh)."""
    value, currency, per = _money(text, _PER_ENERGY_RE, energy_price_expected(decimal), "an energy price", decimal)
    if per is not None:
        value = _decimal_ratio(value, _PER_ENERGY[per.group("unit").lower()])
    return Price(value, currency)


def same_currency(first: str, second: str) -> str:
    """The one currency of two prices (either may be unwritten); raises :class:`ParseError` when they differ."""
    if first and second and first != second:
        raise ParseError(f"the prices are in {first} and in {second}; write both in the same currency")
    return first or second


def _is_symbol(currency: str) -> bool:
    return currency in _SYMBOLS


def exact_number(value: float, decimal: DecimalSeparator = ".") -> str:
    """The shortest text that reads back as ``value`` exactly, with ``decimal`` as its decimal separator: ``2.5``,
    ``14``, ``1e-05`` (``2,5`` with ``decimal=","``; no grouping, so the separator is the only one)."""
    number = repr(float(value))
    number = number[:-2] if number.endswith(".0") else number
    return number if decimal == "." else number.replace(".", decimal)


def price_text(amount: float, currency: str = "", decimal: DecimalSeparator = ".") -> str:
    """A price as text that :func:`parse_price` reads back exactly with the same ``decimal``: ``"$2.5"``,
    ``"2.5 EUR"``."""
    number = exact_number(amount, decimal)
    if not currency:
        return number
    return f"{currency}{number}" if _is_symbol(currency) else f"{number} {currency}"


def format_money(amount: float, currency: str = "") -> str:
    """Money for people: ``$2.50``, ``$1,042``, ``$0.00104``, ``2.50 EUR``; ``—`` when not a number."""
    if not math.isfinite(amount):
        return "—"
    magnitude = abs(amount)
    if magnitude >= 1000:
        number = f"{magnitude:,.0f}"
    elif magnitude >= 1 or magnitude == 0:
        number = f"{magnitude:,.2f}" if magnitude else "0"
    else:
        decimals = min(-math.floor(math.log10(magnitude)) + 2, 12)  # three significant digits, cents at least
        number = f"{magnitude:.{decimals}f}"
        number = number[:4] + number[4:].rstrip("0")
    sign = "−" if amount < 0 else ""
    if not currency:
        return sign + number
    return f"{sign}{currency}{number}" if _is_symbol(currency) else f"{sign}{number} {currency}"


# -- power -----------------------------------------------------------------------------------------------
_WATTS = {"w": 1.0, "watt": 1.0, "kw": 1e3, "kilowatt": 1e3, "mw": 1e6, "megawatt": 1e6}
_POWER_RE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*(?P<unit>[a-z]+?)?s?\s*(?:/\s*gpu|per\s+gpu)?\s*$", re.IGNORECASE)


def parse_power(text: str, decimal: DecimalSeparator | None = None) -> float:
    """Power in watts: ``"700 W"``, ``"0.7 kW"``, a bare number is watts."""
    stripped = text.strip()
    expected = f"expected watts per GPU, like {_like(decimal, '700', '700 W', '0.7 kW')}"
    match = _POWER_RE.match(stripped)
    if match is None:
        raise ParseError(f'"{stripped}" is not a power; {expected}')
    factor = 1.0
    if match.group("unit"):
        unit = match.group("unit")
        # "mW" would be a milliwatt: no GPU draws that, so only the megawatt spelling "MW" is read.
        factor = _WATTS.get(unit.lower(), math.nan) if unit != "mW" else math.nan
    value = _to_float(match.group("num"), decimal, expected)
    if math.isnan(factor) or not (math.isfinite(value) and value >= 0):
        raise ParseError(f'"{stripped}" is not a power; {expected}')
    return float(Decimal(repr(value)) * Decimal(repr(factor)))


def watts_text(watts: float, decimal: DecimalSeparator = ".") -> str:
    """Watts as text :func:`parse_power` reads back exactly: ``"700 W"``."""
    return f"{exact_number(watts, decimal)} W"


def rate_text(rate: float, decimal: DecimalSeparator = ".") -> str:
    """An arrival rate as text :func:`parse_rate` reads back exactly: ``"14/s"``."""
    return f"{exact_number(rate, decimal)}/s"
