"""The charts by key — title, what each depends on, its class: one list the results pane, menus, slide and exports read.

A class is named as ``module:Class`` and imported on first use: the registry sits below the
capability rooms that define the charts (they import ``charts/``; ``charts/`` imports none of
them), and a dialog or ``--help`` that lists the charts loads no plotting code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..core.document import Aspect
from .base import Chart

COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION = (
    Aspect.COMPONENTS,
    Aspect.OPTIMIZATIONS,
    Aspect.SETTINGS,
    Aspect.SELECTION,
)
# What a chart draws from: the document's analysis, or a comparison of it with an after profile.
ANALYSIS, COMPARISON = "analysis", "comparison"


@dataclass(frozen=True)
class ChartEntry:
    key: str
    title: str
    depends_on: frozenset[Aspect]  # it redraws only when one of these changed
    location: str  # "package.module:Class", a subclass of charts.base.Chart
    on_screen: bool = True  # shown in the window's results pane (the slide is for export only)
    needs: str = ANALYSIS  # COMPARISON: drawn by ui/compare from a comparison, exported with it

    def load(self) -> type[Chart]:
        module, _, name = self.location.partition(":")
        cls = getattr(importlib.import_module(module), name)
        if not (isinstance(cls, type) and issubclass(cls, Chart)):
            raise TypeError(f"{self.location} is not a chart")
        return cls


ENTRIES: tuple[ChartEntry, ...] = (
    ChartEntry(
        "slide",
        "Slide (key charts and numbers)",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION}),
        "amdahl_desk.ui.charts.slide:SlideWidget",
        on_screen=False,
    ),
    ChartEntry(
        "breakdown",
        "Where the time goes",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS}),  # settings: the target line, the unit
        "amdahl_desk.ui.profile.breakdown_chart:BreakdownChart",
    ),
    ChartEntry(
        "speedup",
        "Speedup against k",
        frozenset({COMPONENTS, OPTIMIZATIONS, SELECTION}),
        "amdahl_desk.ui.profile.speedup_plot:SpeedupPlot",
    ),
    ChartEntry(
        "scaling",
        "GPU scaling",
        frozenset({COMPONENTS, SETTINGS}),  # scaling reads times and scaling classes, never the optimizations
        "amdahl_desk.ui.scaling.scaling_plot:ScalingPlot",
    ),
    ChartEntry(
        "comparison",
        "Before and after per component",
        frozenset({COMPONENTS, OPTIMIZATIONS}),  # the before times and the plan's predicted after-times
        "amdahl_desk.ui.compare.comparison_chart:ComparisonChart",
        on_screen=False,
        needs=COMPARISON,
    ),
    ChartEntry(
        "comparison-slide",
        "Comparison slide (predicted against measured)",
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS}),  # settings: the boundary in the subtitle
        "amdahl_desk.ui.compare.comparison_slide:ComparisonSlide",
        on_screen=False,
        needs=COMPARISON,
    ),
)

# The charts of one profile (export dialog, `export --chart`) and those of a comparison (`export --compare`).
CHARTS = tuple(e.key for e in ENTRIES if e.needs == ANALYSIS)
COMPARISON_CHARTS = tuple(e.key for e in ENTRIES if e.needs == COMPARISON)
CHART_TITLES = {e.key: e.title for e in ENTRIES}
FORMATS = ("png", "svg", "pdf")
PRESETS = {"1920×1080 (Full HD slide)": (1920, 1080), "1280×720 (HD)": (1280, 720), "3840×2160 (4K)": (3840, 2160)}


def chart_entry(key: str) -> ChartEntry:
    for e in ENTRIES:
        if e.key == key:
            return e
    raise ValueError(f'"{key}" is not a chart; expected one of {", ".join(CHARTS)}')
