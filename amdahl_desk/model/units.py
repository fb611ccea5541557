"""Time units and the parsing of times, speedups and sizes as people type them."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from typing import TypeGuard

from .numbers import Decimal as DecimalSeparator
from .numbers import NumberFormatError, ParseError, example, parse_number


class TimeUnit(str, Enum):
    """A unit that a profile keeps its times in."""

    S = "s"
    MS = "ms"
    US = "us"
    NS = "ns"

    @property
    def seconds(self) -> float:
        """How many seconds one of this unit is."""
        return _SECONDS[self]

    @property
    def label(self) -> str:
        """The unit as shown to a person (µs rather than us)."""
        return "µs" if self is TimeUnit.US else self.value


_SECONDS = {TimeUnit.S: 1.0, TimeUnit.MS: 1e-3, TimeUnit.US: 1e-6, TimeUnit.NS: 1e-9}
_EXPONENT = {TimeUnit.S: 0, TimeUnit.MS: -3, TimeUnit.US: -6, TimeUnit.NS: -9}


def convert(value: float, source: TimeUnit, target: TimeUnit) -> float:
    """``value`` in ``source`` expressed in ``target``.

    Goes through the shortest decimal of ``value`` so that 0.7 s is exactly 700 ms and
    7.3 µs exactly 7.3e-6 s, as a person would expect, and conversions round-trip.
    """
    if source is target or not math.isfinite(value):
        return value
    return float(Decimal(repr(float(value))).scaleb(_EXPONENT[source] - _EXPONENT[target]))


_UNIT_WORDS: dict[str, TimeUnit] = {}
for _unit, _words in {
    TimeUnit.S: ("s", "sec", "secs", "second", "seconds"),
    TimeUnit.MS: ("ms", "msec", "msecs", "millisecond", "milliseconds"),
    TimeUnit.US: ("us", "µs", "μs", "usec", "usecs", "microsecond", "microseconds"),
    TimeUnit.NS: ("ns", "nsec", "nsecs", "nanosecond", "nanoseconds"),
}.items():
    for _w in _words:
        _UNIT_WORDS[_w] = _unit


# Minutes and hours: read (in a cell or a header) and kept in seconds, exactly (1.5 min is 90 s).
_SCALED_WORDS = {
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600),
}
UNITS_ACCEPTED = "s, ms, us, ns, min or h"
# A time per something ("ms/step", "s per iteration") is a time in that unit.
_PER = re.compile(r"^(?P<unit>.+?)\s*(?:/|\bper\s+)\s*[^\W\d_]+$")


def to_seconds(value: float, scale: int) -> float:
    """``value`` minutes (``scale`` 60) or hours (3600) in seconds, through its shortest decimal."""
    return float(Decimal(repr(float(value))) * scale) if math.isfinite(value) else value


def parse_header_unit(text: str) -> tuple[TimeUnit, int]:
    """A header's unit (``ms``, ``min``, ``ms/step``) → (the unit its numbers are read in, the factor to it).

    Minutes and hours come back as seconds with a factor of 60 or 3600; raises :class:`ParseError`.
    """
    word = text.strip().lower()
    per = _PER.match(word)
    if per is not None and (per.group("unit") in _UNIT_WORDS or per.group("unit") in _SCALED_WORDS):
        word = per.group("unit")
    if word in _SCALED_WORDS:
        return TimeUnit.S, _SCALED_WORDS[word]
    unit = _UNIT_WORDS.get(word)
    if unit is None:
        raise ParseError(f'"{text}" is not a time unit; expected {UNITS_ACCEPTED}')
    return unit, 1


def parse_unit(text: str) -> TimeUnit:
    """``"ms"``, ``"µs"``, ``"seconds"`` … to a :class:`TimeUnit`."""
    unit = _UNIT_WORDS.get(text.strip().lower())
    if unit is None:
        raise ParseError(f'"{text}" is not a time unit; expected s, ms, us or ns')
    return unit


# A number (digits and separators; the number parser decides what they mean) and an optional unit word.
_NUMBER = r"[-+\u2212]?[\d.,'\u2019 \u00a0\u2009\u202f]*[\d.](?:[eE][-+]?\d+)?"
NUMBER_PATTERN = _NUMBER
"""A number as people write it (separators decided by :func:`~amdahl_desk.model.numbers.parse_number`), for patterns."""
_TIME_RE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*(?P<unit>[a-zA-Zµμ]+)?\s*$")
_SPEEDUP_RE = re.compile(rf"^\s*(?:[x×]\s*)?(?P<num>{_NUMBER})\s*[x×]?\s*$", re.IGNORECASE)

TIME_EXPECTED = 'expected a number or a value like "120 ms"'
# No time or speedup as typed is longer; a longer text is refused before any pattern looks at it.
MAX_VALUE_CHARS = 100
# The largest time a profile holds, in its own unit: 10^15 is 31 years in µs, beyond any measured run, and
# small enough that every figure made from it (times N GPUs, summed over 500,000 rows, in GPU-hours) is finite.
MAX_TIME = 1e15
# The smallest time above 0 a profile holds: below it a time cannot be told from 0, and a denormal one (5e-324)
# divided by k is 0, which made a plan "infinitely" faster. 10^-12 is a picosecond in seconds.
MIN_TIME = 1e-12


def _number(match: re.Match[str] | None, decimal: DecimalSeparator | None) -> float | None:
    """The match's number, or ``None`` when it is none; an ambiguous one (1,500) raises."""
    if match is None:
        return None
    try:
        return parse_number(match.group("num"), decimal)
    except NumberFormatError:
        raise
    except ParseError:
        return None


def parse_time_text(text: str, decimal: DecimalSeparator | None = None) -> tuple[float, TimeUnit | None]:
    """Split ``"1,000 ms"`` into ``(1000.0, TimeUnit.MS)``; a bare number has no unit.

    ``decimal`` is the decimal separator when the caller knows it (a file's or the locale's); without
    it ``1,500`` is refused as ambiguous. Raises :class:`ParseError` for anything that is not a
    finite, non-negative time.
    """
    stripped = text.strip()
    if len(stripped) > MAX_VALUE_CHARS:
        raise ParseError(f'"{stripped[:40]}…" ({len(stripped):,} characters) is not a time; {TIME_EXPECTED}')
    lowered = stripped.lower()
    if lowered in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
        raise ParseError(f'"{stripped}" is not a finite time; {TIME_EXPECTED}')
    match = _TIME_RE.match(stripped)
    value = _number(match, decimal)
    if match is None or value is None:
        raise ParseError(f'"{stripped}" is not a time; {TIME_EXPECTED}')
    unit_text = match.group("unit")
    unit = None
    if unit_text:
        unit = _UNIT_WORDS.get(unit_text.lower())
        scale = _SCALED_WORDS.get(unit_text.lower())
        if scale is not None:
            unit, value = TimeUnit.S, to_seconds(value, scale)
        elif unit is None:
            raise ParseError(f'"{stripped}" has an unknown unit "{unit_text}"; expected {UNITS_ACCEPTED}')
    check_time(value, stripped)
    return value, unit


def time_ok(value: object) -> TypeGuard[float]:
    """Whether ``value`` is a float time :func:`check_time` takes as it is: 0, or from MIN_TIME to MAX_TIME."""
    return type(value) is float and (value == 0.0 or MIN_TIME <= value <= MAX_TIME)


def times_ok(times: list[float]) -> bool:
    """:func:`time_ok` for every one of ``times`` (a big table's column), at C speed."""
    if set(map(type, times)) != {float} or any(map(math.isnan, times)):
        return False
    return min(times) >= 0.0 and max(times) <= MAX_TIME and min(filter(None, times), default=MIN_TIME) >= MIN_TIME


def check_time(value: float, shown: str | None = None) -> float:
    """Accept a time of 0 or from :data:`MIN_TIME` to :data:`MAX_TIME`, or raise :class:`ParseError` saying why not."""
    if value == 0 or MIN_TIME <= value <= MAX_TIME:
        return float(value)
    shown = shown if shown is not None else format_number(value)
    if not math.isfinite(value):
        raise ParseError(f'"{shown}" is not a finite time; {TIME_EXPECTED}')
    if value < 0:
        raise ParseError(f'"{shown}" is negative; a time must be 0 or more')
    if value < MIN_TIME:
        raise ParseError(f'"{shown}" is too small to tell from 0; a time must be 0 or at least 10^-12 (in any unit)')
    raise ParseError(f'"{shown}" is too large for a measured time; a time must be at most 10^15 (in any unit)')


def parse_time(text: str, unit: TimeUnit, decimal: DecimalSeparator | None = None) -> float:
    """Text such as ``"0.9 s"`` or ``"120"`` as a number of ``unit``."""
    value, written = parse_time_text(text, decimal)
    return convert(value, written, unit) if written is not None else value


def check_speedup(value: float | None, shown: str | None = None) -> float:
    """Accept a finite speedup > 0, or raise :class:`ParseError`: "not a valid speedup", or "not a speedup" where
    ``value`` is None (no number was read from a text or a cell: the one refusal of both)."""
    if value is not None and 0 < value < math.inf:
        return float(value)
    shown = shown if shown is not None else format_number(math.nan if value is None else value)
    valid = "" if value is None else "valid "
    raise ParseError(f'"{shown}" is not a {valid}speedup; expected a number greater than 0, like 4 or "4x"')


def speedup_number(text: str, decimal: DecimalSeparator | None = None) -> float | None:
    """The number a speedup is written with (``"4"``, ``"4x"``, ``"4×"``, ``"x4"`` → 4.0), not yet checked to be
    above 0; ``None`` when the text is no number. The one reading of a speedup's syntax: the window's k, a
    workbook's cell and ``whatif --speedup PATTERN=K``'s K."""
    return _number(_SPEEDUP_RE.match(text.strip()), decimal)


def parse_speedup(text: str, decimal: DecimalSeparator | None = None) -> float:
    """``"4"``, ``"4x"``, ``"4×"``, ``"x4"`` → 4.0."""
    stripped = text.strip()
    if len(stripped) > MAX_VALUE_CHARS:
        raise ParseError(
            f'"{stripped[:40]}…" ({len(stripped):,} characters) is not a speedup; expected a number like 4'
        )
    value = speedup_number(stripped, decimal)
    return check_speedup(value, stripped)


_FIXED_SPECS = (tuple(f".{d}f" for d in range(16)), tuple(f",.{d}f" for d in range(16)))
_SCALES = tuple(10.0**d for d in range(16))


def fixed(value: float, decimals: int, grouped: bool = False) -> str:
    """``value`` with ``decimals`` decimals (thousands grouped when ``grouped``), rounded as a spreadsheet shows it:
    its fifteen significant digits, a half away from zero. Python's format rounds the binary value half to even
    (2.625 → "2.62", 0.125 → "12%", 2.675 → "2.67") where the workbook written beside it shows 2.63, 13% and 2.68."""
    if not 0 <= decimals < 16:  # past fifteen significant digits nothing rounds as a spreadsheet does (< 0: refused)
        return format(value, f"{',' if grouped else ''}.{decimals}f")
    spec = _FIXED_SPECS[grouped][decimals]
    scaled = abs(value) * _SCALES[decimals]
    # Near a half (within the float error of ``scaled``), or not at all (NaN, ∞, past 15 digits): as Python rounds.
    if scaled >= 1e15 or not abs(scaled % 1.0 - 0.5) < 1e-6 + scaled * 1e-13:
        return format(value, spec)
    exact = Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return format(exact, spec)


def format_number(value: float, digits: int = 3) -> str:
    """A number for people: thousands separators, up to ``digits`` significant decimals."""
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    magnitude = abs(value)
    if magnitude >= 100 or magnitude == 0:
        decimals = 0 if magnitude == 0 or float(value).is_integer() or magnitude >= 1000 else 1
    elif magnitude >= 10:
        decimals = 1
    elif magnitude >= 1:
        decimals = 2
    else:
        decimals = max(digits, -int(math.floor(math.log10(magnitude))) + digits - 1)
        decimals = min(decimals, 9)
    text = fixed(value, decimals, grouped=True)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text.startswith("-") and not any(c in "123456789" for c in text):
        text = text[1:]  # a saving of -0.0 (or of -1e-13, float noise) reads "0 ms", never "-0 ms"
    return text


def format_time(value: float, unit: TimeUnit) -> str:
    """``550 ms``, ``1,050 ms``, ``0.9 s``."""
    return f"{format_number(value)} {unit.label}"


def format_speedup(value: float | None) -> str:
    """``1.82×``; ``∞`` for an unbounded ceiling."""
    if value is None or math.isinf(value):
        return "∞"
    if value >= 100:
        return f"{fixed(value, 0, grouped=True)}×"
    text = fixed(value, 1 if value >= 10 else 2)
    # A speedup that is not 1 never reads as 1× beside the time it saves ("1.005×", "0.9996×"), as a share below
    # all of it never reads as 100%.
    for decimals in (3, 4):
        if float(text) != 1 or value == 1:
            break
        text = fixed(value, decimals)
    return text.rstrip("0").rstrip(".") + "×"


def format_percent(fraction: float) -> str:
    """``0.6`` → ``60%``; small shares keep a decimal; a share below all of it keeps a tenth and never reads as
    ``100%``: ``0.9957`` → ``99.6%``, as the workbook's percentage shows it, but ``0.99996`` → ``99.9%`` (cut only
    where a tenth rounded would read 100.0%)."""
    pct = fraction * 100
    if pct != 0 and abs(pct) < 10 and not (one := fixed(pct, 1)).endswith(".0"):
        return f"{one}%"
    if pct < 100 and (pct >= 99.5 or fixed(pct, 0) == "100"):
        tenth = fixed(pct, 1)
        if tenth == "100.0":  # cut, but not below what a float's noise shows
            tenth = fixed(math.floor(pct * 10 + 1e-9) / 10, 1)
        return f"{tenth}%"
    return f"{fixed(pct, 0)}%"


_SIZE_UNITS = {
    "b": 1.0,
    "byte": 1.0,
    "bytes": 1.0,
    "kb": 1e3,
    "mb": 1e6,
    "gb": 1e9,
    "tb": 1e12,
    "kib": 2.0**10,
    "mib": 2.0**20,
    "gib": 2.0**30,
    "tib": 2.0**40,
}
_SIZE_RE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*(?P<unit>[a-zA-Z]+)?\s*$")


def parse_bytes(text: str, decimal: DecimalSeparator | None = None) -> float:
    """``"1.4 GB"`` → 1.4e9 bytes; a bare number is bytes."""
    match = _SIZE_RE.match(text.strip())
    value = _number(match, decimal)
    factor = 1.0
    if match and match.group("unit"):
        factor = _SIZE_UNITS.get(match.group("unit").lower(), math.nan)
    if value is None or math.isnan(factor) or not math.isfinite(value) or value < 0:
        raise ParseError(
            f'"{text.strip()}" is not a size; expected bytes or a value like "{example("1.4", decimal)} GB"'
        )
    return scaled(value, factor)


_BANDWIDTH_RE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*(?P<unit>[a-zA-Z]+?)?\s*(?:/\s*s|ps)?\s*$")
_BIT_UNITS = {"bit": 1.0, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9, "tbit": 1e12}


def parse_bandwidth(text: str, decimal: DecimalSeparator | None = None) -> float:
    """``"100 GB/s"`` → 1e11 bytes/s; ``"400 Gbit/s"`` or ``"400 Gb/s"`` → 5e10; bare numbers are bytes/s."""
    stripped = text.strip()
    match = _BANDWIDTH_RE.match(stripped)
    value = _number(match, decimal)
    factor = math.nan
    if match is not None:
        unit = match.group("unit") or "B"
        if len(unit) == 2 and unit[1] == "b" and unit[0].lower() in "kmgt":
            factor = _BIT_UNITS[unit[0].lower() + "bit"] / 8  # networking's Gb/s means bits
        elif unit.lower() in _BIT_UNITS:
            factor = _BIT_UNITS[unit.lower()] / 8
        else:
            factor = _SIZE_UNITS.get(unit.lower(), math.nan)
    if value is None or math.isnan(factor) or not math.isfinite(value) or value <= 0:
        raise ParseError(f'"{stripped}" is not a bandwidth; expected a value like "100 GB/s" or "400 Gbit/s"')
    return scaled(value, factor)


def scaled(value: float, factor: float) -> float:
    """``value·factor`` rounded once from their shortest decimals (1.4 GB is exactly 1.4e9 bytes)."""
    return float(Decimal(repr(float(value))) * Decimal(repr(float(factor))))


def decimal_text(value: float, divisor: float, decimal: DecimalSeparator = ".") -> str:
    """``value/divisor`` as the shortest decimal text, with ``decimal`` as its separator: 1.5e9 / 1e9 → "1.5"."""
    quotient = Decimal(repr(float(value))) / Decimal(repr(float(divisor)))
    text = (
        format(quotient.normalize(), "f")
        if quotient == quotient.to_integral() or abs(quotient) >= 1e-4
        else repr(float(quotient))
    )
    return text if decimal == "." else text.replace(".", decimal)
