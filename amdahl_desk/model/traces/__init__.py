"""Trace import, Qt-free: events as columns, interval unions, steps, groupings, the GPU split, the result."""

from .errors import Cancelled, TraceError
from .events import TraceBuilder, TraceEvents
from .gpu import GpuSplit
from .result import GROUPINGS, ImportedComponent, ImportOptions, ImportResult, RankInfo, StepInfo
from .summary import RankTrace, summarise_pytorch

__all__ = [
    "GROUPINGS",
    "Cancelled",
    "GpuSplit",
    "ImportOptions",
    "ImportResult",
    "ImportedComponent",
    "RankInfo",
    "RankTrace",
    "StepInfo",
    "TraceBuilder",
    "TraceError",
    "TraceEvents",
    "summarise_pytorch",
]
