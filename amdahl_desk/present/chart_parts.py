"""What every chart view is made of: curves compared at a tenth of a pixel, reference lines, legend entries."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
RESOLUTION = 1e-4  # of an axis' span: a tenth of a pixel on a 1,000-pixel chart


@dataclass(frozen=True, eq=False)
class Series:
    """A curve's points in plot coordinates, equal to another when no point moves by 1/10,000 of its axes (a
    tenth of a pixel: a time nudged among thousands of components then redraws nothing). Compared with what
    was drawn, not with the last skipped request, so small changes never add up unseen."""

    x: FloatArray
    y: FloatArray
    x_span: tuple[float, float]
    y_span: tuple[float, float]

    def _near(self, a: FloatArray, b: FloatArray, span: tuple[float, float]) -> bool:
        if a.shape != b.shape:
            return False
        width = span[1] - span[0] if span[1] > span[0] else 1.0
        with np.errstate(invalid="ignore"):  # inf - inf: a point at infinity stays there
            same = (a == b) | (np.abs(a - b) <= RESOLUTION * width) | (np.isnan(a) & np.isnan(b))
        return bool(np.all(same))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Series)
            and self.x_span == other.x_span
            and self.y_span == other.y_span
            and self._near(np.asarray(self.x, float), np.asarray(other.x, float), self.x_span)
            and self._near(np.asarray(self.y, float), np.asarray(other.y, float), self.y_span)
        )

    # Nearness is not transitive (a ≈ b and b ≈ c, yet a far from c), so a Series is no dictionary key.
    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self.x)


@dataclass(frozen=True, eq=False)
class Mark:
    """A labelled point or reference line: where it is (plot coordinates) and what its label says. Given the
    spans of its axes, it is equal to another that moved by less than 1/10,000 of them (as a curve is)."""

    x: float
    y: float
    text: str
    spans: tuple[tuple[float, float], tuple[float, float]] | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mark) or self.text != other.text or self.spans != other.spans:
            return False
        if self.spans is None:
            return (self.x, self.y) == (other.x, other.y)
        return all(
            a == b or abs(a - b) <= RESOLUTION * ((hi - lo) if hi > lo else 1.0)
            for a, b, (lo, hi) in ((self.x, other.x, self.spans[0]), (self.y, other.y, self.spans[1]))
        )

    __hash__ = None  # type: ignore[assignment]  # nearness is not transitive: no dictionary key


@dataclass(frozen=True)
class LegendEntry:
    """``kind`` is how the legend draws it: "bar", "line", "dash", "dot", "star" or "point". ``explains``: the
    entry says how to read the chart (outlined bars), not what a colour names: never shortened to make room."""

    colour: str
    kind: str
    name: str
    explains: bool = False
