"""One figure of a summary: its label, its value in a unit, how a person reads it, and what it means."""

from __future__ import annotations

from dataclasses import dataclass

PERCENT = "%"  # the value is a fraction (0.87), shown as a percentage (87%)
SPEEDUP = "×"  # the value is a ratio, shown with ×


@dataclass(frozen=True)
class Figure:
    """``label``: what it is; ``value``: the number in ``unit`` (a fraction for ``%``; ``None`` where there is
    none, such as an unbounded ceiling or a load the service cannot take); ``text``: the value as a person reads
    it, unit and all ("1,050 ms", "87% ± 1.6%"); ``note``: what it means, or the verdict."""

    label: str
    value: float | None
    unit: str
    text: str
    note: str = ""


@dataclass(frozen=True)
class Section:
    """A titled group of figures and the sentences that say what they mean."""

    title: str
    figures: tuple[Figure, ...]
    sentences: tuple[str, ...] = ()
