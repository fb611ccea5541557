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

COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION, MEASUREMENTS = (
    Aspect.COMPONENTS,
    Aspect.OPTIMIZATIONS,
    Aspect.SETTINGS,
    Aspect.SELECTION,
    Aspect.MEASUREMENTS,
)


@dataclass(frozen=True)
class ChartEntry:
    key: str
    title: str
    depends_on: frozenset[Aspect]  # it redraws only when one of these changed
    location: str  # "package.module:Class", a subclass of charts.base.Chart
    on_screen: bool = True  # shown in the window's results pane (the slide is for export only)
    needs_profile: bool = True  # False: it draws measured runs, with or without a profile

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
        frozenset({COMPONENTS, OPTIMIZATIONS, SETTINGS, SELECTION, MEASUREMENTS}),
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
    # Measured runs: shown in the Measurements panel (ui/fit), exported and copied like the others.
    ChartEntry(
        "measured_scaling",
        "Measured scaling (runs against the model)",
        frozenset({MEASUREMENTS, COMPONENTS, SETTINGS}),  # the profile's model curve and its P
        "amdahl_desk.ui.fit.measured_scaling_chart:MeasuredScalingChart",
        on_screen=False,
        needs_profile=False,
    ),
    ChartEntry(
        "throughput",
        "Throughput against N (USL)",
        frozenset({MEASUREMENTS}),
        "amdahl_desk.ui.fit.throughput_chart:ThroughputChart",
        on_screen=False,
        needs_profile=False,
    ),
    ChartEntry(
        "karp_flatt",
        "Karp–Flatt e against N",
        frozenset({MEASUREMENTS}),
        "amdahl_desk.ui.fit.karp_flatt_chart:KarpFlattChart",
        on_screen=False,
        needs_profile=False,
    ),
)

CHARTS = tuple(e.key for e in ENTRIES if e.needs_profile)  # what `amdahl-desk export` writes from a profile
MEASURED_CHARTS = tuple(e.key for e in ENTRIES if not e.needs_profile)  # drawn from the document's measured runs
CHART_TITLES = {e.key: e.title for e in ENTRIES}
FORMATS = ("png", "svg", "pdf")
PRESETS = {"1920×1080 (Full HD slide)": (1920, 1080), "1280×720 (HD)": (1280, 720), "3840×2160 (4K)": (3840, 2160)}


def chart_entry(key: str) -> ChartEntry:
    for e in ENTRIES:
        if e.key == key:
            return e
    raise ValueError(f'"{key}" is not a chart; expected one of {", ".join(CHARTS)}')
