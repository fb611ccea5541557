"""The charts' look: colours, pens and fonts for the screen and for a slide of any size.

Plain Qt: the window names a style before its first frame, and pyqtgraph (half a second to import) loads with the
first chart, after that frame (``frame.py`` sets its options).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPen

from ...present import colours

BLUE = QColor(colours.BLUE)
RED = QColor(colours.RED)
GREEN = QColor(colours.GREEN)
GREY = QColor(colours.GREY)
ORANGE = QColor(colours.ORANGE)
INK = QColor(colours.INK)
LABEL_FILL = QBrush(QColor(255, 255, 255, 255))  # a line or curve passes behind a label, never through its text


@dataclass(frozen=True)
class Style:
    """Sizes for one output: the screen (point sizes) or a slide (pixels scaled to its width).

    ``text_px`` None means the screen: 9-point text. Slides set it so that axis labels and
    ticks stay readable from the back of a room (24 px on a 1920-wide image), with lines
    and markers scaled alike; ``background`` None is transparent.
    """

    text_px: float | None = None
    scale: float = 1.0
    title_rel: float = 1.17
    background: str | None = "white"
    brief: bool = False  # short chart titles: on a slide the slide's own title states the result

    def font(self, rel: float = 1.0, bold: bool = False) -> QFont:
        f = QFont()
        if self.text_px is None:
            f.setPointSizeF(9 * rel)
        else:
            f.setPixelSize(max(1, round(self.text_px * rel)))
        f.setBold(bold)
        return f

    def css_size(self, rel: float = 1.0) -> str:
        return f"{9 * rel:.1f}pt" if self.text_px is None else f"{round(self.text_px * rel)}px"

    def pen(self, color: QColor | str, width: float = 2.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
        p = QPen(QColor(color))
        p.setWidthF(width * self.scale)
        p.setStyle(style)
        p.setCosmetic(True)
        return p

    def size(self, pixels: float) -> float:
        return pixels * self.scale


SCREEN = Style(brief=True)  # the summary panel beside the charts says the rest


def slide_style(width: int, transparent: bool = False) -> Style:
    """The slide look at ``width`` pixels: 24 px text at 1920 wide, lines 2.2× the screen's."""
    k = width / 1920
    return Style(text_px=24 * k, scale=2.2 * k, title_rel=1.25, background=None if transparent else "white")


def pen(color: QColor | str, width: float = 2.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    return SCREEN.pen(color, width, style)


def font(point_size: float, bold: bool = False) -> QFont:
    return SCREEN.font(point_size / 9, bold)
