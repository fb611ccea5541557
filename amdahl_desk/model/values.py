"""Every parser of a number or quantity a person types, in one place: numbers, times, units, speedups, bytes,
bandwidths, sizes, shares, GPU counts, targets, efforts, confidences, rates, prices and power.

Each kind has one parser, used by the file readers, the window and the command line alike. Outside the model
they are imported from here (a test holds to it): plain numbers are read in :mod:`.numbers`, times, units,
speedups, bytes and bandwidths in :mod:`.units`, load and cost values in :mod:`.quantities`, all re-exported
here; the rest are defined below. Parsers of a whole record stay beside what they read (measured runs'
counts and throughputs in :mod:`.measurements`, objective names in :mod:`.objective_specs`, what-if patterns
in :mod:`.traces.patterns`).
"""

from __future__ import annotations

import math
import re

from .numbers import AmbiguousNumberError as AmbiguousNumberError
from .numbers import Decimal as DecimalSeparator
from .numbers import NumberFormatError as NumberFormatError
from .numbers import ParseError as ParseError
from .numbers import example
from .numbers import parse_number as parse_number
from .quantities import Price as Price
from .quantities import parse_energy_price as parse_energy_price
from .quantities import parse_power as parse_power
from .quantities import parse_price as parse_price
from .quantities import parse_rate as parse_rate
from .quantities import parse_servers as parse_servers
from .units import TimeUnit
from .units import parse_bandwidth as parse_bandwidth
from .units import parse_bytes as parse_bytes
from .units import parse_header_unit as parse_header_unit
from .units import parse_speedup as parse_speedup
from .units import parse_time as parse_time
from .units import parse_time_text as parse_time_text
from .units import parse_unit as parse_unit


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
    return check_fraction(_share(stripped, decimal, FRACTION_EXPECTED), stripped)


def _share(stripped: str, decimal: DecimalSeparator | None, expected: str) -> float:
    """The number of a share or a percentage (÷ 100), NaN when it is no number. Of two readings of
    ``12.345%`` (12,345% or 12.345%) only one lies from 0 to 1: that one is meant; when neither or both do,
    the text is refused naming both."""
    percent = _PERCENT.match(stripped)
    scale = 100.0 if percent else 1.0
    try:
        return parse_number(percent.group("num") if percent else stripped, decimal) / scale
    except AmbiguousNumberError as exc:
        fitting = [r / scale for r in exc.readings if 0 <= r / scale <= 1]
        if len(fitting) == 1:
            return fitting[0]
        raise exc.expecting(expected) from None
    except NumberFormatError as exc:
        raise ParseError(f"{exc}; {expected}") from None
    except ParseError:
        return math.nan


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


def confidence_expected(decimal: DecimalSeparator | None = None) -> str:
    return f'expected a share from 0 to 1 like {example("0.8", decimal)}, or a percentage like "80%"'


def parse_confidence(text: str, decimal: DecimalSeparator | None = None) -> float:
    """A probability: ``0.8``, ``80%`` or ``80 %`` → 0.8; from 0 to 1. A bare ``80`` is refused: 80% or a typo?"""
    stripped = text.strip()
    return check_confidence(_share(stripped, decimal, confidence_expected(decimal)), stripped, decimal)


def check_confidence(value: float, shown: str | None = None, decimal: DecimalSeparator | None = None) -> float:
    """Accept a finite probability from 0 to 1, or raise :class:`ParseError` (its example written for ``decimal``)."""
    if math.isfinite(value) and 0 <= value <= 1:
        return float(value)
    shown = shown if shown is not None else repr(value)
    raise ParseError(f'"{shown}" is not a confidence; {confidence_expected(decimal)}')


def confidence_text(value: float, decimal: DecimalSeparator = ".") -> str:
    """``0.8`` → ``80%``: text that :func:`parse_confidence` reads back exactly with the same ``decimal`` (a plain
    number when a percentage would not)."""
    text = f"{value * 100:.10g}%"
    text = text if parse_confidence(text) == value else repr(float(value))
    return text if decimal == "." else text.replace(".", decimal)


_DAYS = re.compile(r"^\s*(?P<num>.*?)\s*(?:d|days?|engineer[- ]days?|person[- ]days?)?\s*$", re.IGNORECASE)
EFFORT_EXPECTED = 'expected a number of engineer-days of 0 or more, like 5 or "5 days"'


def parse_effort(text: str, decimal: DecimalSeparator | None = None) -> float:
    """An effort in engineer-days: ``5``, ``2.5 days``, ``3 d`` → 5.0, 2.5, 3.0; 0 or more."""
    stripped = text.strip()
    match = _DAYS.match(stripped)
    try:
        number = parse_number(match.group("num") if match else stripped, decimal)
    except AmbiguousNumberError as exc:
        raise exc.expecting(EFFORT_EXPECTED) from None
    except NumberFormatError as exc:
        raise ParseError(f"{exc}; {EFFORT_EXPECTED}") from None
    except ParseError:
        raise ParseError(f'"{stripped}" is not an effort; {EFFORT_EXPECTED}') from None
    return check_effort(number, stripped)


def check_effort(value: float, shown: str | None = None) -> float:
    """Accept a finite number of engineer-days ≥ 0, or raise :class:`ParseError`."""
    if math.isfinite(value) and value >= 0:
        return float(value)
    shown = shown if shown is not None else repr(value)
    raise ParseError(f'"{shown}" is not a valid effort; {EFFORT_EXPECTED}')
