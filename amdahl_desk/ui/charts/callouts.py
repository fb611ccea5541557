"""Callouts that collide with nothing: a label placed beside its point where it covers no curve, line or label."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSizeF

from .chart_items import set_curve

# Where a callout may sit around its point, tried in order: the label's top-left at
# point + (fx·width + gx·gap, fy·height + gy·gap); first close beside the point, then farther off
# (with a leader line back to the point).
_NEAR: list[tuple[float, float, float, float]] = [  # (fx, fy, gx, gy)
    (0, 0, 1, 1),
    (0, -1, 1, -1),
    (-1, -1, -1, -1),
    (-1, 0, -1, 1),
    (-0.5, 0, 0, 1.5),
    (-0.5, -1, 0, -1.5),
]
_FAR: list[tuple[float, float, float, float]] = [
    (0, 0, 2, 4),
    (0, -1, 2, -4),
    (-1, 0, -2, 4),
    (-1, -1, -2, -4),
    (0, -0.5, 6, 0),
    (-1, -0.5, -6, 0),
    (0, 0, 2, 8),
    (0, -1, 2, -8),
    (-1, 0, -2, 8),
    (-1, -1, -2, -8),
    (-0.5, 0, 0, 12),
    (-0.5, -1, 0, -12),
]

# Farther still, when the curves crowd the point on every side (a star in a corner where three curves meet): rings
# of 12 directions at 16 to 64 gaps, the label's edge facing the point, taken only where clear of everything (a
# crowded plot keeps the least crowded place near its point).
_AROUND: list[tuple[float, float, float, float]] = [
    ((c - 1) / 2, (s - 1) / 2, r * c, r * s)
    for r in (16, 24, 32, 48, 64)
    for c, s in ((round(math.cos(a), 6), round(math.sin(a), 6)) for a in (math.pi * i / 6 for i in range(12)))
]


def line_band(vb: pg.ViewBox, line: pg.InfiniteLine, half: float = 2.0, view: QRectF | None = None) -> QRectF:
    """A reference line as the thin band it draws across the plot (``view``: the view box's own, in scene pixels),
    ``half`` pixels each side: what a label must keep clear of."""
    view = vb.sceneBoundingRect() if view is None else view
    at = vb.mapViewToScene(QPointF(line.value(), line.value()))
    if line.angle % 180 == 90:
        return QRectF(at.x() - half, view.top(), 2 * half, view.height())
    return QRectF(view.left(), at.y() - half, view.width(), 2 * half)


def view_to_scene(vb: pg.ViewBox, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Data coordinates of a view box to scene pixels, for whole arrays at once."""
    t = vb.childGroup.sceneTransform()
    return t.m11() * x + t.m21() * y + t.dx(), t.m12() * x + t.m22() * y + t.dy()


def curve_points(vb: pg.ViewBox, item: pg.PlotDataItem, step_px: float = 3.0) -> np.ndarray:
    """A drawn curve as scene points no more than ``step_px`` apart (so a label cannot slip between two)."""
    if not item.isVisible():
        return np.empty((0, 2))
    x, y = item.getData()
    if x is None or len(x) == 0:
        return np.empty((0, 2))
    ok = np.isfinite(x) & np.isfinite(y)
    sx, sy = view_to_scene(vb, np.asarray(x, float)[ok], np.asarray(y, float)[ok])
    if len(sx) < 2:
        return np.column_stack([sx, sy])
    seg = np.hypot(np.diff(sx), np.diff(sy))
    dist = np.concatenate([[0.0], np.cumsum(seg)])
    # At most 20,000 samples: a view not laid out yet (or a range far off the data) maps a curve to a length of
    # astronomic pixels, and sampling it every few pixels would ask for more memory than there is.
    count = max(2, min(int(dist[-1] / step_px) + 2, 20_000)) if np.isfinite(dist[-1]) else 2
    samples = np.linspace(0.0, dist[-1] if np.isfinite(dist[-1]) else 0.0, count)
    return np.column_stack([np.interp(samples, dist, sx), np.interp(samples, dist, sy)])


def label_size(item: pg.TextItem) -> QSizeF:
    """A label's size in scene pixels (text items ignore the view's scaling)."""
    size: QSizeF = item.textItem.boundingRect().size()
    return size


def collisions(rect: QRectF, obstacles: list[QRectF], points: np.ndarray, margin: float = 0.0) -> int:
    """How many of ``obstacles`` and ``points`` ``rect`` covers; a point within ``margin`` of it counts (a curve's
    points are the middle of its pen: a thick one reaches a label laid just beside them)."""
    hits = sum(1 for o in obstacles if o.isValid() and rect.intersects(o))
    if len(points):
        inside = (
            (points[:, 0] >= rect.left() - margin)
            & (points[:, 0] <= rect.right() + margin)
            & (points[:, 1] >= rect.top() - margin)
            & (points[:, 1] <= rect.bottom() + margin)
        )
        hits += int(inside.sum())
    return hits


def place_callout(
    vb: pg.ViewBox,
    label: pg.TextItem,
    leader: pg.PlotDataItem,
    at: tuple[float, float],
    obstacles: list[QRectF],
    points: np.ndarray,
    gap: float,
    labels: list[QRectF] | None = None,
    margin: float = 0.0,
    said_elsewhere: bool = False,
) -> QRectF:
    """Put ``label`` beside the data point ``at`` where it covers no curve point (within ``margin``: half the
    thickest pen), obstacle or edge of the plot.

    Near places come first; when all are taken the label moves farther off with a leader line to its
    point; when every place is taken the one with the fewest collisions wins, a place over one of ``labels``
    (other labels' rects) only where every place is. Where the chart's title or legend also says the label's
    figure (``said_elsewhere``), the label and its leader show only where they cover no curve, obstacle or other
    label (a plot half a slide wide has no clear place beside every point): ``label.isVisible()`` says which.
    Returns the label's scene rect.
    """
    view = vb.sceneBoundingRect().adjusted(2, 2, -2, -2)
    size = label_size(label)
    w, h = size.width(), size.height()
    px, py = (float(v[0]) for v in view_to_scene(vb, np.array([at[0]]), np.array([at[1]])))
    marker = QRectF(px - gap, py - gap, 2 * gap, 2 * gap)
    best: tuple[int, int, QRectF, bool] | None = None
    for order, (fx, fy, gx, gy) in enumerate(_NEAR + _FAR + _AROUND):
        far = order >= len(_NEAR)
        rect = QRectF(px + fx * w + gx * gap, py + fy * h + gy * gap, w, h)
        if not view.contains(rect):
            continue
        score = collisions(rect, [*obstacles, marker], points, margin) + 1000 * collisions(
            rect, labels or [], points[:0]
        )
        if far and labels:  # its leader must not cross another label either ("1,052 ms" drawn through "1,712 ms")
            score += 1000 * sum(1 for other in labels if _leader_crosses(px, py, rect, other))
        if order >= len(_NEAR) + len(_FAR) and score:  # the rings far out are for a clear place only
            continue
        if best is None or (score, order) < (best[0], best[1]):
            best = (score, order, rect, far)
        if score == 0:
            break
    if best is None:  # no place inside the plot at all (a tiny plot): keep the label in, over whatever is there
        left = min(max(px + gap, view.left()), view.right() - w)
        rect = QRectF(left, min(max(py + gap, view.top()), view.bottom() - h), w, h)
        best = (0, 0, rect, False)
    _, _, rect, far = best
    label.setAnchor((0, 0))
    top_left = vb.mapSceneToView(rect.topLeft())
    label.setPos(top_left.x(), top_left.y())
    if far:
        # From the point to the nearest spot on the label's edge.
        ex = min(max(px, rect.left()), rect.right())
        ey = min(max(py, rect.top()), rect.bottom())
        end = QPointF(ex, ey)
        tip = vb.mapSceneToView(end)
        set_curve(leader, np.array([at[0], tip.x()]), np.array([at[1], tip.y()]))
        leader.setVisible(True)
    else:
        set_curve(leader, None, None)
        leader.setVisible(False)
    if said_elsewhere:
        clear = collisions(rect, [*obstacles, *(labels or [])], points, margin) == 0
        label.setVisible(clear)
        leader.setVisible(clear and leader.isVisible())
    return rect


def _leader_crosses(px: float, py: float, rect: QRectF, other: QRectF) -> bool:
    """Whether the leader from the point (px, py) to the nearest spot of ``rect`` passes through ``other``."""
    ex, ey = min(max(px, rect.left()), rect.right()), min(max(py, rect.top()), rect.bottom())
    steps = max(2, int(abs(ex - px) + abs(ey - py)) // 2)
    inner = other.adjusted(1, 1, -1, -1)
    return any(
        inner.contains(QPointF(px + (ex - px) * t / steps, py + (ey - py) * t / steps)) for t in range(steps + 1)
    )


# Where a horizontal reference line's label may sit, tried in order: (position along the line, anchor); first above
# the line by the left edge, then by the right edge, the middle, and below it.
_ALONG = (0.03, 0.97, 0.5, 0.25, 0.75, 0.12, 0.88)


def clear_line_labels(
    vb: pg.ViewBox,
    lines: list[pg.InfiniteLine],
    points: np.ndarray,
    crossing: tuple[pg.InfiniteLine, ...] = (),
    taken: list[QRectF] | None = None,
    margin: float = 0.0,
    said_elsewhere: bool = False,
) -> list[QRectF]:
    """Put each horizontal reference line's label along its line where it covers no curve point (``points``, in scene
    pixels, within ``margin``: half the thickest pen), no other reference line (of ``lines`` and ``crossing``, either
    angle) and no label placed before it (``taken``, to which each placed label is added); the fewest collisions win
    when none is clear, or, where the chart's title says the figure (``said_elsewhere``), the label is left out."""
    view = vb.sceneBoundingRect().adjusted(1, 1, -1, -1)
    shown = [
        line
        for line in lines
        if line.isVisible() and (said_elsewhere or line.label.isVisible()) and line.label.toPlainText()
    ]
    taken = [] if taken is None else taken
    for line in shown:
        label = line.label
        label.setVisible(True)
        # the label's white ground stops short of the line's pen: above or below it, never over half its width
        lift = (line.pen.widthF() / 2 + 1) / max(label.boundingRect().height(), 1.0)
        others = []
        for other in (*lines, *crossing):
            if other is line or not other.isVisible():
                continue
            others.append(line_band(vb, other, 1.0, view))
        best: tuple[int, int, float, tuple[float, float]] | None = None
        order = 0
        for below in (False, True):
            for along in _ALONG:
                anchor = (0.0 if along < 0.5 else 1.0 if along > 0.5 else 0.5, -lift if below else 1.0 + lift)
                label.anchors = [anchor, anchor]
                label.setPosition(along)
                rect = label.sceneBoundingRect()
                score = collisions(rect, [*others, *taken], points, margin) + (0 if view.contains(rect) else 1000)
                if best is None or (score, order) < (best[0], best[1]):
                    best = (score, order, along, anchor)
                order += 1
                if score == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        score, _, along, anchor = best
        label.anchors = [anchor, anchor]
        label.setPosition(along)
        if said_elsewhere and score > 0:
            label.setVisible(False)
            continue
        taken.append(label.sceneBoundingRect())
    return taken
