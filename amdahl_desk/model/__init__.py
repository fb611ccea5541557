"""The Qt-free model: profile, laws, analysis and report.

The names below are loaded on first use (PEP 562), so what needs only the errors or the units (a
file's container check, the command line's parser) starts without numpy and the analysis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_names

if TYPE_CHECKING:
    from .analysis import Analysis, analyse
    from .errors import Problem, ProfileError
    from .profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings, default_gpu_counts
    from .units import ParseError, TimeUnit

_HOMES = {
    "Analysis": ".analysis",
    "analyse": ".analysis",
    "Problem": ".errors",
    "ProfileError": ".errors",
    "Component": ".profile",
    "Optimization": ".profile",
    "OverheadModel": ".profile",
    "Profile": ".profile",
    "Scaling": ".profile",
    "Settings": ".profile",
    "default_gpu_counts": ".profile",
    "ParseError": ".units",
    "TimeUnit": ".units",
}

__all__ = [
    "Analysis",
    "Component",
    "Optimization",
    "OverheadModel",
    "ParseError",
    "Problem",
    "Profile",
    "ProfileError",
    "Scaling",
    "Settings",
    "TimeUnit",
    "analyse",
    "default_gpu_counts",
]


__getattr__ = lazy_names(__name__, _HOMES)
