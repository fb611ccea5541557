"""Where the time goes: the baseline and the optimized run as two stacked bars, component by component."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from ...model.analysis import Analysis
from ...model.profile import Profile
from ...model.units import format_speedup, format_time
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
    phrases,
    set_item_text,
    set_line_text,
)

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
            for t in self.totals:
                set_item_text(t, "")
            self.target.setVisible(False)
            self.set_title("Where the time goes — no data")
            self.set_legend([])
            return
        unit = profile.unit
        times, new = analysis.times, analysis.new_times
        order = np.argsort(-times, kind="stable")
        shown = order[:TOP]
        rest = order[TOP:]
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
        if len(rest):
            segments.append(
                (
                    f"{len(rest):,} other components",
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
        y: list[float] = []
        width: list[float] = []
        brushes, pens = [], []
        self._placed = []
        for bar_y, column in ((1.0, 1), (0.0, 2)):
            start = 0.0
            for seg in segments:
                value = seg[1] if column == 1 else seg[2]
                color = QColor(seg[3])
                x0.append(start)
                y.append(bar_y)
                width.append(value)
                brushes.append(pg.mkBrush(color))
                touched = seg[4] and column == 2
                pens.append(
                    pg.mkPen(INK, width=self.chart_style.size(2.5))
                    if touched
                    else pg.mkPen("w", width=self.chart_style.size(1))
                )
                self._placed.append((start, value, bar_y, seg[0], format_time(value, unit)))
                start += value
        self.bars.setOpts(x0=x0, y=y, width=width, brushes=brushes, pens=pens, height=0.62)
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

    def _place_labels(self) -> None:
        """Label a segment with its name and time where both fit, its time where only that fits, else nothing.

        Labels keep their text where it stays (each change of a text lays it out and repaints it)."""
        px = self.plot.vb.viewPixelSize()[0]
        placed: list[tuple[str, float, float]] = []
        metrics = QFontMetrics(self.chart_style.font())
        for start, value, bar_y, name, time in self._placed if px else []:
            room = value / px - 8
            short = name if len(name) <= 22 else name[:20] + "…"
            if room >= max(metrics.horizontalAdvance(short), metrics.horizontalAdvance(time)):
                placed.append((f"{short}\n{time}", start + value / 2, bar_y))
            elif room >= metrics.horizontalAdvance(time):
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
