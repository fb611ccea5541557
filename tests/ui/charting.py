"""Charts as the tests make and export them: the window's chart factory, inputs built from plain arguments."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from amdahl_desk.model.analysis import Analysis
from amdahl_desk.model.comparison import Comparison
from amdahl_desk.model.fit import FitResult
from amdahl_desk.model.profile import Profile
from amdahl_desk.present.inputs import ChartInputs
from amdahl_desk.ui.chart_factory import make_chart
from amdahl_desk.ui.charts import export
from amdahl_desk.ui.charts.style import SCREEN, Style
from amdahl_desk.ui.compare import export as compare_export


def new_chart(key: str, style: Style = SCREEN):
    return make_chart(key, style)


def inputs(profile, analysis=None, row=-1, fit=None, comparison=None) -> ChartInputs:
    return ChartInputs(profile, analysis, row, fit, comparison)


def chart_widget(
    name: str,
    profile: Profile,
    analysis: Analysis | None,
    size: tuple[int, int],
    transparent: bool = False,
    row: int = -1,
    fit: FitResult | None = None,
    comparison: Comparison | None = None,
):
    return export.chart_widget(
        make_chart, name, ChartInputs(profile, analysis, row, fit, comparison), size, transparent
    )


def export_chart(
    profile: Profile,
    analysis: Analysis | None,
    name: str,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
    row: int = -1,
    fit: FitResult | None = None,
    comparison: Comparison | None = None,
) -> Path:
    made = ChartInputs(profile, analysis, row, fit, comparison)
    return export.export_chart(make_chart, name, made, fmt, path, size, transparent)


def comparison_widget(name, c, size, transparent=False, boundary="", before=None):
    return compare_export.comparison_widget(make_chart, name, c, size, transparent, boundary, before)


def export_comparison(c, name, fmt, path, size=(1920, 1080), transparent=False, boundary="", before=None):
    return compare_export.export_comparison(make_chart, c, name, fmt, path, size, transparent, boundary, before)


SIZE = (1280, 720)


def not_blank(image: QImage) -> float:
    """Share of sampled pixels that are not white: a blank export is a bug."""
    ink = total = 0
    for y in range(0, image.height(), 8):
        for x in range(0, image.width(), 8):
            c = image.pixelColor(x, y)
            total += 1
            ink += c.alpha() > 0 and min(c.red(), c.green(), c.blue()) < 200
    return ink / total


def export_of(inputs, chart, fmt, path, size=SIZE):
    return export.export_chart(make_chart, chart, inputs, fmt, path, size, False)
