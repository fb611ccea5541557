"""The Qt-free model: profile, laws, analysis and report."""

from .analysis import Analysis, analyse
from .errors import Problem, ProfileError
from .profile import Component, Optimization, OverheadModel, Profile, Scaling, Settings, default_gpu_counts
from .units import ParseError, TimeUnit

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
