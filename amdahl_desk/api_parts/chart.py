"""A chart of the Python API drawn as ``amdahl-desk export`` draws it: the one module of the API that loads Qt
(offscreen), and only when a picture is asked for."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model.analysis import Analysis
    from ..model.profile import Profile


def render_chart(
    key: str,
    profile: Profile,
    analysis: Analysis,
    source: str,
    fmt: str,
    size: tuple[int, int],
    transparent: bool = False,
) -> bytes:
    """Chart ``key`` of ``profile`` as PNG, SVG or PDF bytes; a trace chart (``critical_path``, and the trace on
    the slide) reads the trace the profile names, next to ``source``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed
    from ..ui.app import make_app
    from ..ui.chart_factory import make_chart
    from ..ui.charts.export import ChartInputs, export_chart

    make_app()
    from ..cli.export import traced_odds

    trace = _trace(key, profile, source)
    figures, plan = traced_odds(Path(source), profile, analysis, trace, (key,))
    inputs = ChartInputs(profile, analysis, trace=trace, uncertainty=figures, plan=plan)
    with tempfile.TemporaryDirectory(prefix="amdahl-desk-chart-") as folder:
        path = export_chart(make_chart, key, inputs, fmt, Path(folder) / f"chart.{fmt}", size, transparent)
        return path.read_bytes()


def _trace(key: str, profile: Profile, source: str) -> Any:
    """The figures of the profile's trace when the chart draws them, as ``export`` reads them."""
    from ..cli.export import TRACE_CHART_KEYS, TRACED_KEYS

    if not profile.settings.trace_source or key not in TRACED_KEYS:
        return None
    from ..files.traces.linked import linked_figures
    from ..model.errors import BadInputError

    figures = linked_figures(profile, Path(source).parent)
    if figures.problem and key in TRACE_CHART_KEYS:
        raise BadInputError(f"--chart {key}: the critical path of the profile's trace is left out: {figures.problem}")
    return figures
