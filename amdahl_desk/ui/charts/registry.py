"""The charts a person can export or see, by key: one list the menus, the dialog and the command line read."""

from __future__ import annotations

CHARTS = ("slide", "breakdown", "speedup", "scaling")
FORMATS = ("png", "svg", "pdf")
PRESETS = {"1920×1080 (Full HD slide)": (1920, 1080), "1280×720 (HD)": (1280, 720), "3840×2160 (4K)": (3840, 2160)}
CHART_TITLES = {
    "slide": "Slide (key charts and numbers)",
    "breakdown": "Where the time goes",
    "speedup": "Speedup against k",
    "scaling": "GPU scaling",
}
