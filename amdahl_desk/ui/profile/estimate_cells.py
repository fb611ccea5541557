"""The checklist's estimate cells: k low, k high, effort (days) and confidence — shown, typed and read back.

Each is read by the model's parser for it (the one the workbook reader uses) with the desktop's decimal
separator; an emptied cell is the workbook's empty cell (no range on that side, no effort, 100%). The model's
rules refuse the rest (a low k above the likely one…) at the cell, as they refuse a bad k.
"""

from __future__ import annotations

from dataclasses import replace

from ...model.numbers import Decimal
from ...model.profile import Optimization
from ...model.values import parse_confidence, parse_effort, parse_speedup
from ...present.cells import estimate_cells, estimate_edit_texts
from ...present.numbers import POINT, Numbers
from ...present.setting_rows import confidence_examples

ESTIMATE_HEADERS = ("k low", "k high", "Effort (days)", "Confidence")
ESTIMATE_SHORT = ("low", "high", "Days", "Conf.")  # where the checklist is narrow: "low | k | high"


def estimate_tips(n: Numbers) -> tuple[str, str, str, str]:
    """The estimate columns' header tips, their examples in ``n``'s separators."""
    return (
        "The lowest k you expect (a three-point estimate: k low, k, k high); empty: no range below k",
        "The highest k you expect; empty: no range above k. With a range the summary gives the odds of the target",
        f'Engineer-days to build it ("5", "{n.number(2.5)} days"); with a target, the summary finds the cheapest '
        "plan. With a range, a cell's tip gives its rank by expected time saved per engineer-day",
        f"The probability that it works at all ({confidence_examples(n)}; when it does not, k = 1); empty: 100%",
    )


_WORDS = ("k low", "k high", "effort", "confidence")


def estimate_value(opt: Optimization, which: int, editing: bool, n: Numbers = POINT) -> str:
    """What estimate cell ``which`` (0 k low … 3 confidence) shows in ``n``'s separators, or starts an editor with."""
    return (estimate_edit_texts(opt) if editing else estimate_cells(opt, n))[which]


def parse_estimate(opt: Optimization, which: int, value: object, decimal: Decimal | None) -> tuple[Optimization, str]:
    """``opt`` with estimate ``which`` read from ``value`` (typed text or a number), and the undo step's text;
    raises :class:`~amdahl_desk.model.numbers.ParseError` for text that is no such value."""
    text = "" if value is None else str(value).strip()
    number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    step = f"Set {_WORDS[which]} of {opt.name}" if text else f"Clear {_WORDS[which]} of {opt.name}"
    if which in (0, 1):
        k = None if not text else number if number is not None else parse_speedup(text, decimal)
        return (replace(opt, speedup_low=k) if which == 0 else replace(opt, speedup_high=k)), step
    if which == 2:
        effort = None if not text else number if number is not None else parse_effort(text, decimal)
        return replace(opt, effort=effort), step
    confidence = 1.0 if not text else number if number is not None else parse_confidence(text, decimal)
    return replace(opt, confidence=confidence), step
