"""The comparison chart and slide as PNG, SVG or PDF: the registry's comparison charts through the common export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from ...model.comparison import Comparison
from ...model.profile import Profile, Settings
from ...present.inputs import ChartInputs
from ..charts.export import ChartMaker, chart_widget, export_chart
from ..charts.registry import Source, chart_entry


def _before(before: Profile | None, boundary: str) -> Profile:
    # The comparison charts read the comparison and, of the before profile, only its boundary (the slide's subtitle).
    return before if before is not None else Profile(settings=Settings(boundary=boundary))


def _check(name: str) -> None:
    if chart_entry(name).source is not Source.COMPARISON:
        raise ValueError(f'"{name}" is not a comparison chart')


def comparison_widget(
    make: ChartMaker,
    name: str,
    c: Comparison,
    size: tuple[int, int],
    transparent: bool = False,
    boundary: str = "",
    before: Profile | None = None,
) -> QWidget:
    """The comparison chart (or slide) laid out at ``size`` pixels in the slide style, ready to paint."""
    _check(name)
    return chart_widget(make, name, ChartInputs(_before(before, boundary), None, comparison=c), size, transparent)


def export_comparison(
    make: ChartMaker,
    c: Comparison,
    name: str,
    fmt: str,
    path: str | Path,
    size: tuple[int, int] = (1920, 1080),
    transparent: bool = False,
    boundary: str = "",
    before: Profile | None = None,
) -> Path:
    """Write the comparison chart or slide as PNG, SVG or PDF; returns the path written (OSError when it cannot)."""
    _check(name)
    inputs = ChartInputs(_before(before, boundary), None, comparison=c)
    return export_chart(make, name, inputs, fmt, path, size, transparent)
