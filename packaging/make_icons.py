"""Renders resources/icons/amdahl-desk.svg to the PNG sizes desktops ask for (16 to 512 px).

Run from the repository root: QT_QPA_PLATFORM=offscreen python packaging/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> None:
    app = QGuiApplication([])
    renderer = QSvgRenderer(str(ICONS / "amdahl-desk.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"amdahl-desk-{size}.png"))
    print(f"wrote {len(SIZES)} PNGs to {ICONS}")
    del app


if __name__ == "__main__":
    main()
