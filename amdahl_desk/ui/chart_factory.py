"""Every registered chart's class, by key: the one place that knows the rooms' chart classes.

It sits above the capability rooms (the "Inside the window" contract), so it may import them; the rooms
and ``charts/`` never import it — the window hands :func:`make_chart` to whoever draws or exports a
chart. Each class is imported when first made: a dialog or ``--help`` that lists the charts loads no
plotting code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .charts.base import Chart
from .charts.style import SCREEN, Style


def _classes() -> dict[str, Callable[[], type[Chart[Any]]]]:
    def breakdown() -> type[Chart[Any]]:
        from .profile.breakdown_chart import BreakdownChart

        return BreakdownChart

    def speedup() -> type[Chart[Any]]:
        from .profile.speedup_plot import SpeedupPlot

        return SpeedupPlot

    def critical_path() -> type[Chart[Any]]:
        from .whatif.critical_path_chart import CriticalPathChart

        return CriticalPathChart

    def job_ranks() -> type[Chart[Any]]:
        from .job.job_charts import RankBarsChart

        return RankBarsChart

    def job_steps() -> type[Chart[Any]]:
        from .job.job_charts import StepMapChart

        return StepMapChart

    def job_skew() -> type[Chart[Any]]:
        from .job.job_charts import SkewChart

        return SkewChart

    def distribution() -> type[Chart[Any]]:
        from .profile.distribution_chart import DistributionChart

        return DistributionChart

    def tornado() -> type[Chart[Any]]:
        from .profile.tornado_chart import TornadoChart

        return TornadoChart

    def scaling() -> type[Chart[Any]]:
        from .scaling.scaling_plot import ScalingPlot

        return ScalingPlot

    def load() -> type[Chart[Any]]:
        from .objectives.load_chart import LoadChart

        return LoadChart

    def cost() -> type[Chart[Any]]:
        from .objectives.cost_chart import CostChart

        return CostChart

    def measured_scaling() -> type[Chart[Any]]:
        from .fit.measured_scaling_chart import MeasuredScalingChart

        return MeasuredScalingChart

    def throughput() -> type[Chart[Any]]:
        from .fit.throughput_chart import ThroughputChart

        return ThroughputChart

    def karp_flatt() -> type[Chart[Any]]:
        from .fit.karp_flatt_chart import KarpFlattChart

        return KarpFlattChart

    def comparison() -> type[Chart[Any]]:
        from .compare.comparison_chart import ComparisonChart

        return ComparisonChart

    def comparison_slide() -> type[Chart[Any]]:
        from .compare.comparison_slide import ComparisonSlide

        return ComparisonSlide

    return {
        "breakdown": breakdown,
        "speedup": speedup,
        "critical_path": critical_path,
        "job_ranks": job_ranks,
        "job_steps": job_steps,
        "job_skew": job_skew,
        "scaling": scaling,
        "distribution": distribution,
        "tornado": tornado,
        "load": load,
        "cost": cost,
        "measured_scaling": measured_scaling,
        "throughput": throughput,
        "karp_flatt": karp_flatt,
        "comparison": comparison,
        "comparison-slide": comparison_slide,
    }


CLASSES = _classes()


def make_chart(key: str, style: Style = SCREEN) -> Chart[Any]:
    """A new chart ``key`` (a registry key) drawn in ``style``."""
    if key == "slide":
        from .slide_widget import SlideWidget

        return SlideWidget(style=style, make=make_chart)
    maker = CLASSES.get(key)
    if maker is None:
        raise ValueError(f'"{key}" is not a chart')
    chart: Chart[Any] = maker()(style=style)  # type: ignore[call-arg]
    return chart
