"""Axis labels that read: tick labels in the desktop's numbers, plain and never touching, and names elided so that
rows stay told apart."""

from __future__ import annotations

from collections import Counter

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from ...present.axes import plotted_ticks
from ..core.locale_text import locale_numbers


def distinct_elided(metrics: QFontMetrics, names: list[str], width: int) -> list[str]:
    """Each name elided to ``width`` pixels at its end, or in its middle where that would make it read like another's
    ("forward: layer 1 …" and "forward: layer 2 …" both "forward: la…"): rows stay told apart by what ends them."""
    right = [metrics.elidedText(name, Qt.TextElideMode.ElideRight, width) for name in names]
    taken = Counter(right)
    return [
        metrics.elidedText(name, Qt.TextElideMode.ElideMiddle, width) if taken[short] > 1 and short != name else short
        for name, short in zip(names, right, strict=True)
    ]


def thinned(axis: pg.AxisItem, ticks: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """Every k-th of a horizontal axis's ticks (k the least that keeps each label clear of the next), the first
    kept: "512" ran into "1,024" at half a slide. All of them where they fit or the axis is not laid out yet."""
    low, high = axis.range
    width = axis.width()
    if len(ticks) < 2 or high <= low or width <= 0:
        return ticks
    metrics, gap = _measure(axis)
    at = [((v - low) / (high - low) * width, metrics.horizontalAdvance(t)) for v, t in ticks]

    def clear(k: int) -> bool:
        kept = at[::k]
        return all(a[0] + a[1] / 2 + gap <= b[0] - b[1] / 2 for a, b in zip(kept, kept[1:], strict=False))

    k = next((k for k in range(1, len(ticks)) if clear(k)), len(ticks))
    return ticks if k == 1 else ticks[::k]


def localize_ticks(axis: pg.AxisItem) -> None:
    """The ticks pyqtgraph places itself (0.5, 1,000) in the machine's locale (0,5 and 1.000 on a German desktop);
    ticks a view gives are formatted already. No axis is in pyqtgraph's log mode: a log scale is drawn at log
    positions with the ticks its view gives (``present/axes.log2_ticks``, ``log10_ticks``)."""

    def tick_strings(values: list[float], scale: float, spacing: float) -> list[str]:
        n = locale_numbers()
        texts = plotted_ticks(values, scale, spacing, n)
        if axis.orientation in ("bottom", "top"):
            texts = _spaced(axis, values, spacing, texts)
        return texts

    axis.tickStrings = tick_strings


def _spaced(axis: pg.AxisItem, values: list[float], spacing: float, texts: list[str]) -> list[str]:
    """Along a horizontal axis, every 2nd, 5th or 10th label of a row too wide for its ticks ("2,000,000" beside
    "4,000,000" at half a slide), the others left blank, so no label runs into the next; ticks stay."""
    low, high = axis.range
    if not texts or spacing <= 0 or high <= low or axis.width() <= 0:
        return texts
    step_px = spacing * axis.width() / (high - low)
    metrics, gap = _measure(axis)
    widest = max(metrics.horizontalAdvance(t) for t in texts) + gap
    stride = next((k for k in (1, 2, 5, 10, 20, 50) if k * step_px >= widest), 100)
    if stride == 1:
        return texts
    levels = axis.tickSpacing(low, high, axis.width())
    if levels and spacing < levels[0][0] * (1 - 1e-9):  # a minor level between labels that need room: none
        return [""] * len(texts)
    return [t if round(v / spacing) % stride == 0 else "" for v, t in zip(values, texts, strict=True)]


def _measure(axis: pg.AxisItem) -> tuple[QFontMetrics, int]:
    """The metrics of an axis's tick font, and the room two spaces take: the least gap between two labels."""
    metrics = QFontMetrics(axis.style["tickFont"] or axis.font())
    return metrics, metrics.horizontalAdvance("  ")
