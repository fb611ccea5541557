"""The GPU split of an import preview: compute, exposed communication, memory, idle as a bar and as figures."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ...model.traces import GpuSplit
from ...model.units import TimeUnit
from ...present.colours import IDLE, MID_GREY
from ..core.locale_text import locale_numbers

# (label, field, colour, what it means); overlapped communication is beside the sum, not part of it
PARTS = (
    ("GPU compute", "compute", "#3b6fb6", "the union of compute kernels over all streams, never counted twice"),
    (
        "Exposed communication",
        "exposed_communication",
        "#d1495b",
        "NCCL/RCCL kernels while no compute kernel runs: what overlapping communication could still save",
    ),
    ("Memory", "memory", "#edae49", "memcpy/memset while neither compute nor communication runs"),
    ("GPU idle", "idle", IDLE, "nothing runs on the GPU: feeding it better is what pays"),
)
OVERLAPPED = (
    "Overlapped communication",
    "overlapped_communication",
    "communication hidden under compute: what overlapping has already won (not a row of the table)",
)


class SplitBar(QWidget):
    """One horizontal bar: the span cut into compute, exposed communication, memory and idle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.split: GpuSplit | None = None
        self.setMinimumHeight(16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(300, 18)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.setPen(Qt.PenStyle.NoPen)
        split = self.split
        if split is None or split.span <= 0:
            painter.fillRect(rect, QColor("#eeeeee"))
            return
        x = rect.left()
        for _label, field, colour, _tip in PARTS:
            width = rect.width() * max(getattr(split, field), 0.0) / split.span
            painter.fillRect(QRectF(x, rect.top(), width, rect.height()), QColor(colour))
            x += width
        painter.setPen(QColor(MID_GREY))
        painter.drawRect(rect)


class GpuSplitView(QWidget):
    """The split's bar and a row per part: time and share of the span, with what it means as a tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.bar = SplitBar()
        layout.addWidget(self.title)
        layout.addWidget(self.bar)
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(1)
        self.values: dict[str, tuple[QLabel, QLabel]] = {}
        rows = [(label, field, colour, tip) for label, field, colour, tip in PARTS]
        rows.append((OVERLAPPED[0], OVERLAPPED[1], "", OVERLAPPED[2]))
        rows.append(("Span", "span", "", "the stretch of the GPU timeline the split covers"))
        for row, (label, field, colour, tip) in enumerate(rows):
            swatch = QLabel("■" if colour else "")
            swatch.setStyleSheet(f"color: {colour}" if colour else "")
            name = QLabel(label)
            value, share = QLabel(), QLabel()
            for w in (name, value, share):
                w.setToolTip(f"{label}: {tip}")
            value.setAlignment(Qt.AlignmentFlag.AlignRight)
            share.setAlignment(Qt.AlignmentFlag.AlignRight)
            grid.addWidget(swatch, row, 0)
            grid.addWidget(name, row, 1)
            grid.addWidget(value, row, 2)
            grid.addWidget(share, row, 3)
            self.values[field] = (value, share)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)

    def set_split(self, split: GpuSplit | None, unit: TimeUnit, per_step: bool) -> None:
        self.bar.split = split
        self.bar.update()
        if split is None:
            return
        self.title.setText(f"GPU {split.device} timeline, {'mean per step' if per_step else 'the whole trace'}")
        n = locale_numbers()
        for field, (value, share) in self.values.items():
            t = float(getattr(split, field))
            value.setText(n.time(t, unit))
            share.setText(n.percent(t / split.span) if split.span > 0 else "—")

    def figures(self) -> dict[str, str]:
        """The figures as shown (for tests and screen readers)."""
        return {field: value.text() for field, (value, _share) in self.values.items()}
