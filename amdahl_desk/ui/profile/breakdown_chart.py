"""Where the time goes: the baseline and the optimized run as two stacked bars, component by component."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.profile import Profile
from ...model.units import format_speedup, format_time
from ...present.text import phrases
from ..charts.chart_style import (
    INK,
    OTHER,
    PALETTE,
    RED,
    SCREEN,
    ChartFrame,
    Picture,
    Style,
    nice_ceiling,
    set_item_text,
    set_line_text,
)
from ..core.text_widths import TextWidths

TOP = 8  # components shown by name; the rest are one "other" segment


class BreakdownChart(ChartFrame):
    """Two bars (baseline, after) stacked by component, labelled with totals, savings and the target."""

    def __init__(self, parent: QWidget | None = None, style: Style = SCREEN) -> None:
        super().__init__(parent, style)
        item = self.plot
        item.showGrid(x=True, y=False, alpha=0.15)
        self.axis_label("bottom", "Time")
        # (pyqtgraph 0.14 fails on an empty pens list: bars are created and emptied without one.)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.6)
        item.addItem(self.bars)
        item.vb.sigResized.connect(lambda _vb: self._place_labels())
        self.labels: list[pg.TextItem] = []
        # A white ground keeps a total readable where the target line crosses it.
        self.totals = [
            pg.TextItem(color=INK, anchor=(-0.03, 0.5), fill=pg.mkBrush(255, 255, 255, 230)) for _ in range(2)
        ]
        for t in self.totals:
            t.setFont(style.font(1.1, bold=True))
            t.setZValue(20)  # above the target line
            item.addItem(t)
        self.target = self.marker_line(90, RED, Qt.PenStyle.DashLine, 0.97, (0.5, 0))
        left = item.getAxis("left")
        left.setTicks([[(1.0, "Baseline"), (0.0, "After")]])
        left.setTickFont(style.font(1.1, bold=True))
        self._placed: list[tuple[float, float, float, str, str]] = []
        self._drawn: Picture | None = None
        self._bars: tuple[np.ndarray, np.ndarray, list[str], list[bool]] | None = None  # x0, widths, colours, outlines
        self._brushes: dict[str, QBrush] = {}
        self._pens = (pg.mkPen("w", width=style.size(1)), pg.mkPen(INK, width=style.size(2.5)))  # plain, outlined
        self._metrics = QFontMetrics(style.font())
        self._widths = TextWidths()

    def _label(self, i: int) -> pg.TextItem:
        while len(self.labels) <= i:
            t = pg.TextItem(color="w", anchor=(0.5, 0.5))
            t.setFont(self.chart_style.font())
            self.plot.addItem(t)
            self.labels.append(t)
        return self.labels[i]

    def show_analysis(self, profile: Profile, analysis: Analysis | None, selected: int = -1) -> None:
        if analysis is None:
            self._drawn = None
            for t in self.labels:
                set_item_text(t, "")
            self.bars.setOpts(x0=[], y=[], width=[])
            self._bars = None
            for t in self.totals:
                set_item_text(t, "")
            self.target.setVisible(False)
            self.set_title("Where the time goes — no data")
            self.set_legend([])
            return
        unit = profile.unit
        times, new = analysis.times, analysis.new_times
        shown, rest = largest(times, TOP)
        segments = [
            (
                profile.components[i].name,
                float(times[i]),
                float(new[i]),
                PALETTE[k % len(PALETTE)],
                bool(analysis.component_speedup[i] != 1),
            )
            for k, i in enumerate(shown)
        ]
        if rest.any():
            segments.append(
                (
                    f"{int(rest.sum()):,} other components",
                    float(times[rest].sum()),
                    float(new[rest].sum()),
                    OTHER,
                    bool(np.any(analysis.component_speedup[rest] != 1)),
                )
            )
        total = analysis.baseline_total
        c = analysis.combined
        t = analysis.target.time if analysis.target is not None else None  # an objective's own, when one is chosen
        xmax = nice_ceiling(total / 0.7)  # room for the totals' labels at the bars' ends
        if t is not None:
            xmax = max(xmax, t * 1.1)
        # A time nudged among thousands moves no bar by a tenth of a pixel: then nothing is redrawn.
        picture = Picture(
            0,
            xmax,
            [np.array([seg[1] for seg in segments]), np.array([seg[2] for seg in segments]), total, c.new_total],
            (
                xmax,
                unit,
                c.enabled,
                [
                    (
                        seg[0],
                        seg[3],
                        seg[4],
                        seg[1] > 0 or seg[2] > 0,
                        format_time(seg[1], unit),
                        format_time(seg[2], unit),
                    )
                    for seg in segments
                ],
                [format_time(v, unit) for v in (total, c.new_total, c.time_saved, (1 - c.fraction) * total)],
                format_speedup(c.overall_speedup),
                None if t is None else (t, format_time(t, unit)),
            ),
        )
        if picture.same_as(self._drawn):
            return
        self._drawn = picture
        x0: list[float] = []
        width: list[float] = []
        colors: list[str] = []
        outlined: list[bool] = []
        self._placed = []
        for bar_y, column in ((1.0, 1), (0.0, 2)):
            start = 0.0
            for seg in segments:
                value = seg[1] if column == 1 else seg[2]
                x0.append(start)
                width.append(value)
                colors.append(seg[3])
                outlined.append(seg[4] and column == 2)
                self._placed.append((start, value, bar_y, seg[0], format_time(value, unit)))
                start += value
        self._set_bars(np.array(x0), np.array(width), colors, outlined, xmax)
        set_item_text(self.totals[0], format_time(total, unit))
        self.totals[0].setPos(total, 1.0)
        set_item_text(self.totals[1], format_time(c.new_total, unit))
        self.totals[1].setPos(c.new_total, 0.0)
        if t is not None:
            self.target.setVisible(True)
            self.target.setPos(t)
            set_line_text(self.target, f"target {format_time(t, unit)}")
        else:
            self.target.setVisible(False)
        self.set_ranges((0, xmax), (-0.55, 1.75))
        self.axis_label("bottom", f"Time ({unit.label})")
        self._update_legend(segments)
        self._place_labels()
        remains = (1 - c.fraction) * total
        if self.chart_style.brief:
            self.set_title(
                phrases("Where the time goes:", f"{format_time(total, unit)} → {format_time(c.new_total, unit)}")
            )
            return
        self.set_title(
            phrases(
                "Where the time goes:",
                f"{format_time(total, unit)} → {format_time(c.new_total, unit)}",
                *(
                    (
                        f"({format_speedup(c.overall_speedup)}, saves {format_time(c.time_saved, unit)});",
                        f"{format_time(remains, unit)} untouched by the plan",
                    )
                    if c.enabled
                    else ()
                ),
            )
        )

    def _set_bars(
        self, x0: np.ndarray, width: np.ndarray, colors: list[str], outlined: list[bool], xmax: float
    ) -> None:
        """Baseline bars then after bars, given again only when one moves by 1/10,000 of the axis (Picture's
        rule, against what was drawn): a time edited among thousands changes the totals' texts, not the bars,
        and bars given again are all drawn again."""
        drawn = self._bars
        if (
            drawn is not None
            and drawn[2] == colors
            and drawn[3] == outlined
            and drawn[0].shape == x0.shape
            and bool(np.all(np.abs(drawn[0] - x0) <= xmax * 1e-4))
            and bool(np.all(np.abs(drawn[1] - width) <= xmax * 1e-4))
        ):
            return
        self._bars = (x0, width, colors, outlined)
        half = len(x0) // 2
        self.bars.setOpts(
            x0=x0,
            y=[1.0] * half + [0.0] * (len(x0) - half),
            width=width,
            brushes=[self._brush(c) for c in colors],
            pens=[self._pens[o] for o in outlined],
            height=0.62,
        )

    def _brush(self, color: str) -> QBrush:
        brush = self._brushes.get(color)
        if brush is None:
            brush = self._brushes[color] = pg.mkBrush(QColor(color))
        return brush

    def _place_labels(self) -> None:
        """Label a segment with its name and time where both fit, its time where only that fits, else nothing.

        Labels keep their text where it stays (each change of a text lays it out and repaints it)."""
        px = self.plot.vb.viewPixelSize()[0]
        placed: list[tuple[str, float, float]] = []
        metrics, widths = self._metrics, self._widths
        for start, value, bar_y, name, time in self._placed if px else []:
            room = value / px - 8
            short = name if len(name) <= 22 else name[:20] + "…"
            if room >= max(widths(metrics, short), widths(metrics, time)):
                placed.append((f"{short}\n{time}", start + value / 2, bar_y))
            elif room >= widths(metrics, time):
                placed.append((time, start + value / 2, bar_y))
        for i, (text, x, bar_y) in enumerate(placed):
            label = self._label(i)
            set_item_text(label, text)
            label.setPos(x, bar_y)
        for label in self.labels[len(placed) :]:
            set_item_text(label, "")

    def _update_legend(self, segments: list[tuple[str, float, float, str, bool]]) -> None:
        # A component with no time draws no bar: under an objective (TTFT) the others are 0 and would crowd the key.
        entries = [(color, "bar", name) for name, b, a, color, _t in segments if b > 0 or a > 0]
        if any(t for *_rest, t in segments):
            entries.append((INK.name(), "bar", "outlined: sped up by the plan"))
        self.set_legend(entries)


def largest(times: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the ``count`` longest times, longest first (equal times in row order, as a stable sort
    would put them), and a mask of the other rows. O(rows): a sort of 10,000 times took 0.7 ms an edit."""
    if len(times) <= count:
        return np.argsort(-times, kind="stable"), np.zeros(len(times), dtype=bool)
    cut = times[np.argpartition(-times, count - 1)[:count]].min()  # the count-th longest time
    above = np.flatnonzero(times > cut)
    chosen = np.concatenate([above, np.flatnonzero(times == cut)[: count - len(above)]])
    rest = np.ones(len(times), dtype=bool)
    rest[chosen] = False
    return chosen[np.argsort(-times[chosen], kind="stable")], rest
