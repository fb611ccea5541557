"""Trace import, Qt-free: events as columns, interval unions, steps, groupings, the GPU split, the result.

The names below load on first use (PEP 562): a what-if, which needs the step graphs but not the import's
grouping, or a module of this package imported alone, does not load the whole import path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .errors import Cancelled, TraceError
    from .events import TraceBuilder, TraceEvents
    from .gpu import GpuSplit
    from .result import GROUPINGS, ImportedComponent, ImportOptions, ImportResult, RankInfo, StepInfo
    from .summary import RankTrace, summarise_pytorch

_HOMES = {
    "Cancelled": ".errors",
    "TraceError": ".errors",
    "TraceBuilder": ".events",
    "TraceEvents": ".events",
    "GpuSplit": ".gpu",
    "GROUPINGS": ".result",
    "ImportedComponent": ".result",
    "ImportOptions": ".result",
    "ImportResult": ".result",
    "RankInfo": ".result",
    "StepInfo": ".result",
    "RankTrace": ".summary",
    "summarise_pytorch": ".summary",
}

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

__getattr__ = lazy_names(__name__, _HOMES)
