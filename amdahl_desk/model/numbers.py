"""The one reader of numbers as people and spreadsheets write them: decimal point or comma, grouped thousands.

``1,500.25``, ``1.500,25``, ``1 500,25`` (also with no-break and thin spaces), ``1'500.25`` and
``12,5`` are all read; ``1,500`` (or ``1.500``) alone is refused unless the caller knows the decimal
separator, because it is 1500 with a decimal point and 1.5 with a decimal comma. A column or a file decides
its separator once from the cells that say it (:func:`decide_decimal`), as spreadsheet programs do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Decimal = Literal[".", ","]

# Separators that only ever group thousands: spaces (plain, no-break, thin, narrow no-break) and apostrophes.
_SPACE_GROUPS = " \u00a0\u2009\u202f"
_APOSTROPHES = "'\u2019"
_ALWAYS_GROUPS = _SPACE_GROUPS + _APOSTROPHES
_PLAIN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SHAPE = re.compile(
    r"(?P<sign>[-+\u2212]?)(?P<body>[\d.,'\u2019 \u00a0\u2009\u202f]*[\d.])(?P<exp>[eE][-+]?\d+)?", re.ASCII
)
_ONE_POINT_GROUP = re.compile(r"[-+]?[1-9]\d{0,2}\.\d{3}")  # 1.500: 1.5 or 1500
_GROUPED = re.compile(r"[1-9]\d{0,2}(?:(?P<sep>[.,'\u2019 \u00a0\u2009\u202f])\d{3})(?:(?P=sep)\d{3})*")


class ParseError(ValueError):
    """Text that is not the value it should be; the message says what is expected."""


class NumberFormatError(ParseError):
    """A number whose separators are wrong for its table (or read two ways): the message says why."""


class AmbiguousNumberError(NumberFormatError):
    """Text such as ``1,500`` that reads as two numbers; ``readings`` holds (grouped thousands, decimal)."""

    def __init__(self, message: str, readings: tuple[float, float], text: str = "", separator: str = ",") -> None:
        super().__init__(message)
        self.readings = readings
        self.text, self.separator = text, separator  # the text as written, and the separator read two ways

    def expecting(self, expected: str) -> AmbiguousNumberError:
        """The same refusal with what the value should be said after it: a wrapper's words are added and the
        readings kept, so a reader can still word it as an ambiguous cell."""
        return AmbiguousNumberError(f"{self}; {expected}", self.readings, self.text, self.separator)


def _is_grouping(integer: str) -> bool:
    """Whether ``integer`` is a valid thousands grouping: 1,500 or 12 345 678, never 0,750 or 00,100."""
    return _GROUPED.fullmatch(integer) is not None


def number_evidence(text: str) -> Decimal | None:
    """The decimal separator that ``text`` shows unambiguously, if any.

    ``12,5``, ``0,750``, ``1.500,25`` and ``1.500.000`` show a comma; ``12.5``, ``1,500.25`` and
    ``1,500,000`` a point; ``1,500``, ``1.500``, ``100`` and words show neither.
    """
    match = _PREFIX.match(text.strip())
    body = match.group(1) if match else ""
    commas, points = body.count(","), body.count(".")
    if commas and points:
        return "," if body.rfind(",") > body.rfind(".") else "."
    if not (commas or points):
        return None
    sep, count = (",", commas) if commas else (".", points)
    if count > 1:
        return "." if sep == "," else ","  # a repeated separator groups thousands
    return None if _is_grouping(body) else sep  # type: ignore[return-value]


# The number at the start of "12,5 ms" or "4x": digits and separators, ending in a digit.
_PREFIX = re.compile(r"[-+\u2212]?([\d.,'\u2019 \u00a0\u2009\u202f]*\d)")


def decide_decimal(texts: Iterable[str], hint: Decimal | None = None) -> Decimal | None:
    """One decimal separator for a column or file, from the cells that show it; ``None`` when unknown.

    Cells showing both separators leave it undecided (each cell is then read on its own). ``hint``
    (a ``;``-separated CSV suggests decimal commas, a ``,``-separated one decimal points) decides
    only when some number has that character in it.
    """
    seen: set[str] = set()
    has_hint = False
    for text in texts:
        if hint is not None and hint in text:
            has_hint = True
        if "," not in text and "." not in text:
            continue
        evidence = number_evidence(text)
        if evidence is not None:
            seen.add(evidence)
            if len(seen) > 1:
                return None
    if seen:
        return "," if "," in seen else "."
    return hint if has_hint else None


_SWAPPED = str.maketrans(".,", ",.")


def example(text: str, decimal: Decimal | None) -> str:
    """An example of a value (written with a decimal point and comma grouping) as a field that reads ``decimal``
    takes it: a hint never shows a number its own field refuses ("2.5" where a decimal comma is read)."""
    return text.translate(_SWAPPED) if decimal == "," else text


def _fail(text: str, why: str) -> ParseError:
    return (NumberFormatError if why else ParseError)(f'"{text}" is not a number{why}')


def parse_number(text: str, decimal: Decimal | None = None) -> float:
    """A number as people write it; ``decimal`` is the decimal separator when known, else it is read from the text.

    Raises :class:`AmbiguousNumberError` for ``1,500`` or ``1.500`` when ``decimal`` is ``None``, and
    :class:`ParseError` for anything that is not a number (or a grouping that is not thousands).
    """
    t = text.strip()
    if _PLAIN.fullmatch(t) and (
        "." not in t or decimal == "." or (decimal is None and not _ONE_POINT_GROUP.fullmatch(t))
    ):
        return float(t)
    match = _SHAPE.fullmatch(t)
    if match is None:
        raise _fail(t, "")
    sign = "-" if match.group("sign") in ("-", "\u2212") else ""
    body, exp = match.group("body"), match.group("exp") or ""
    commas, points = body.count(","), body.count(".")
    if commas and points:
        dec: str = "," if body.rfind(",") > body.rfind(".") else "."
        if decimal is not None and dec != decimal:
            other = "comma" if decimal == "," else "point"
            raise _fail(t, f"; this table writes numbers with a decimal {other}")
    elif commas or points:
        sep, count = (",", commas) if commas else (".", points)
        if decimal is not None:
            dec = decimal if sep == decimal else ""
            if not dec and count == 1 and not _is_grouping(body):
                name = "comma" if decimal == "," else "point"
                raise _fail(
                    t, f'; this table writes numbers with a decimal {name}, where "{sep}" only groups thousands'
                )
        elif count > 1:
            dec = ""  # a repeated separator groups thousands: 1,500,000 or 1.500.000
        elif _is_grouping(body):
            grouped = float(sign + body.replace(sep, "") + exp)
            as_decimal = float(sign + body.replace(sep, ".") + exp)
            name = "comma" if sep == "," else "point"
            raise AmbiguousNumberError(
                f'"{t}" could be {_plain(grouped)} ({name} grouping thousands) or {_plain(as_decimal)} '
                f"(decimal {name})",
                (grouped, as_decimal),
                t,
                sep,
            )
        else:
            dec = sep
        if dec and count > 1:
            raise _fail(t, f'; "{dec}" can appear only once')
    else:
        dec = ""
    if dec:
        integer, _, fraction = body.rpartition(dec)
        if not fraction.isdigit() and fraction:
            raise _fail(t, "; digits after the decimal separator cannot be grouped")
    else:
        integer, fraction = body, ""
    if integer and not integer.isdigit():
        if not _is_grouping(integer):
            raise _fail(t, ": its digits are not grouped in thousands (like 1,500 or 1 500,25)")
        integer = re.sub(r"\D", "", integer)
    if not integer and not fraction:
        raise _fail(t, "")
    return float(f"{sign}{integer or '0'}.{fraction or '0'}{exp}")


def _plain(value: float) -> str:
    return f"{value:.15g}"
