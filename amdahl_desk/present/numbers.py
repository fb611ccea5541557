"""Numbers as a person reads them, in a locale's separators: the one place the views format a figure."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model.numbers import Decimal
from ..model.quantities import format_money
from ..model.units import TimeUnit, fixed, format_number, format_percent, format_speedup

# A format of fixed decimals (``".2f"``, ``",.0f"``, ``".1%"``): rounded as a spreadsheet rounds.
_FIXED_SPEC = re.compile(r"(,?)\.(\d+)([f%])")
# An exact number as an editor starts from it in the files' format: no grouping, a decimal point ("1234.5").
_EDITABLE = re.compile(r"[+-]?\d+\.\d+(?:[eE][+-]?\d+)?")


@dataclass(frozen=True)
class Numbers:
    """How to write numbers: the decimal and grouping separators (``POINT`` writes 1,234.5, as files and the
    command line do; a German desktop's is ``Numbers(",", ".")``)."""

    decimal: str = "."
    group: str = ","

    @property
    def parser_decimal(self) -> Decimal:
        """The decimal separator the model's parsers read where these numbers are shown: "," or "." (a desktop
        whose separator is neither, "٫", types and reads "."), as the window's fields parse (``qt_util.locale_decimal``)."""
        return "," if self.decimal == "," else "."

    def _local(self, text: str) -> str:
        if (self.decimal, self.group) == (".", ","):
            return text
        swap = {",": self.group, ".": self.decimal}
        return "".join(swap.get(ch, ch) for ch in text)

    def number(self, value: float, digits: int = 3) -> str:
        """``1,234``, ``0.125``, ``∞``."""
        return self._local(format_number(value, digits))

    def time(self, value: float, unit: TimeUnit) -> str:
        """``550 ms``, ``1,050 ms``."""
        return f"{self.number(value)} {unit.label}"

    def speedup(self, value: float | None) -> str:
        """``1.82×``; ``∞`` for an unbounded ceiling."""
        return self._local(format_speedup(value))

    def speedup_range(self, low: float, high: float) -> str:
        """``1.67–2.00×``: both ends to the same decimals (those of the larger), more where they would read alike
        (``1.018–1.020×``, never "1.02–1.02×"), up to four; one value when they are equal, or equal to four."""
        if low == high or not (math.isfinite(low) and math.isfinite(high)):
            return self.speedup(low) if low == high else f"{self.speedup(low).rstrip('×')}–{self.speedup(high)}"
        top = max(abs(low), abs(high))
        base = 2 if top < 10 else 1 if top < 100 else 0
        tries = ([fixed(low, d, grouped=True), fixed(high, d, grouped=True)] for d in range(base, max(base, 4) + 1))
        ends = _first_apart([low, high], tries)
        if ends is None or ends[0] == ends[1]:
            return self.speedup((low + high) / 2)
        return self._local(f"{ends[0]}–{ends[1]}×")

    def number_range(self, low: float, high: float) -> str:
        """``3–6``, ``0.5–1.2``."""
        return f"{self.number(low)}–{self.number(high)}"

    def speedups_apart(self, values: Sequence[float]) -> list[str]:
        """Each value as :meth:`speedup` writes it, unless two that differ would read alike ("1.03×" for 1.027 and
        1.031): then all with the fewest decimals, up to six, at which they read apart (``1.027×``, ``1.031×``)."""
        plain = [self.speedup(v) for v in values]
        more = (  # the speedup's own 2 decimals, then 3 to 6; past six, digits that tell nothing
            [self._local(f"{fixed(v, d, grouped=True)}×") if math.isfinite(v) else self.speedup(v) for v in values]
            for d in range(3, 7)
        )
        return _first_apart(values, itertools.chain([plain], more)) or plain

    def close_speedup(self, value: float | None) -> str:
        """A speedup near 1 with the digit that tells 1.009× from 1.037× (``1.009×``); others as :meth:`speedup`."""
        if value is not None and 0 < value < 2 and not math.isinf(value):
            return self._local(f"{fixed(value, 3)}×")
        return self.speedup(value)

    def percent(self, fraction: float) -> str:
        """``60%``, ``3.6%``."""
        return self._local(format_percent(fraction))

    def coefficient(self, fraction: float) -> str:
        """A fitted coefficient as a percentage with two significant digits: ``2.8%``, ``0.01%``."""
        from .fit_text import percent

        return self._local(percent(fraction))

    def plain(self, value: float, spec: str) -> str:
        """A number as Python's format ``spec`` writes it (``".3g"``: ``0.0277``), in these separators; fixed
        decimals (``",.1f"``, ``".0%"``) round a half away from zero, as a spreadsheet shows it (``units.fixed``)."""
        fixed_spec = _FIXED_SPEC.fullmatch(spec)
        if fixed_spec is None:
            return self._local(format(value, spec))
        grouped, decimals, kind = fixed_spec.groups()
        if kind == "%":
            return self._local(fixed(value * 100, int(decimals), bool(grouped)) + "%")
        return self._local(fixed(value, int(decimals), bool(grouped)))

    def for_editor(self, text: str) -> str:
        """The exact number a cell's editor starts from, given in the files' format ("1234.5", as the cell's copy
        writes it), in these separators ("1234,5": what the desktop's parsers read back); other text as it is."""
        if self.decimal == "." or not _EDITABLE.fullmatch(text):
            return text
        return text.replace(".", self.decimal)

    def count(self, value: int) -> str:
        """A whole number with its thousands grouped: ``1,024``."""
        return self._local(f"{value:,}")

    def money(self, amount: float, currency: str = "") -> str:
        """``$2.50``, ``$1,042``, ``2.50 EUR``."""
        return self._local(format_money(amount, currency))


def _first_apart(values: Sequence[float], tries: Iterable[list[str]]) -> list[str] | None:
    """The first of ``tries`` (each the values written one way, fewest decimals first) in which values that differ
    read apart; None when none does."""
    distinct = len({round(v, 9) for v in values if math.isfinite(v)})
    for texts in tries:
        if len({t for v, t in zip(values, texts, strict=True) if math.isfinite(v)}) >= distinct:
            return texts
    return None


POINT = Numbers()  # the model's and the files' format
