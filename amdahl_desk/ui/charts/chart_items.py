"""Chart items updated in place at every change: a curve given points only when they move, a marker that moves.

pyqtgraph draws an item again whole whenever it is given data, even the same data; at a k step of a
drag most of a chart stays where it is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem

from ...present.chart_parts import Series


class PointMarker(pg.ScatterPlotItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """One marker that moves with a value (k as the slider drags): its spot stays at the item's origin and
    the item moves, so a step repaints the marker's old and new places. (Given new data, a scatter dirties
    a rectangle far larger than the plot: the whole plot was drawn again at every step.) Drawn from a pixmap
    where it moves to: the same pixels, without pyqtgraph mapping its points at every paint (0.3 ms).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def move_to(self, x: float | None, y: float | None) -> None:
        """Show the marker at (x, y) in view coordinates; None hides it."""
        if x is None or y is None:
            if len(self.data):
                self.setData([], [])
            return
        if not len(self.data):
            self.setData([0.0], [0.0])
        self.setPos(x, y)

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 - pyqtgraph's name
        """Where the marker is, in view coordinates."""
        x, y = super().getData()
        return x + self.pos().x(), y + self.pos().y()


def set_curve(
    item: pg.PlotDataItem, x: np.ndarray | None, y: np.ndarray | None, within: tuple[float, float] = (0.0, 0.0)
) -> None:
    """Give a curve its points only when they move (each change draws the whole curve again): by more than
    ``within`` (x, y) in view units from the points it shows (so small moves never add up unseen). None
    empties it."""
    shown = getattr(item, "_shown_data", None)
    if x is None or y is None:
        if shown is None or len(shown[0]):
            item._shown_data = (np.empty(0), np.empty(0))
            item.setData([], [])
        return
    x, y = np.asarray(x, float), np.asarray(y, float)
    if shown is not None and shown[0].shape == x.shape and shown[1].shape == y.shape:
        with np.errstate(invalid="ignore"):  # inf - inf: a point at infinity stays there
            still = all(
                bool(np.all((a == b) | (np.abs(a - b) <= tol)))
                for a, b, tol in ((shown[0], x, within[0]), (shown[1], y, within[1]))
            )
        if still:
            return
    item._shown_data = (x.copy(), y.copy())
    item.setData(x, y)


def set_series(item: pg.PlotDataItem, series: Series | None) -> None:
    """Give a curve a view's series, only when it moved by 1/10,000 of its axes since it was given one (a
    series equal to the one shown is not given again: pyqtgraph would draw the whole curve again)."""
    if getattr(item, "_shown_series", None) == series and series is not None:
        return
    item._shown_series = series
    if series is None:
        set_curve(item, None, None)
        return
    item._shown_data = (np.asarray(series.x, float).copy(), np.asarray(series.y, float).copy())
    item.setData(series.x, series.y)
