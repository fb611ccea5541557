"""What an imported component stands for in the trace, why the import gives it its class, and what was imported,
as facts: a kind and its values (names as the trace spells them, numbers unformatted). ``present/import_words``
words them once, when ``files/traces`` summarises a trace, for the preview, the profile's Notes and Boundary, the
workbook and the command line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum


class Origin(Enum):
    """What in the trace a component stands for."""

    ANNOTATION = "annotation"  # name: a record_function annotation's time
    NO_ANNOTATION = "no_annotation"  # the time in no annotation
    SELF_TIME = "self_time"  # name: an event's self time on the thread
    NO_EVENT = "no_event"  # the time in no event on the thread
    OTHER = "other"  # count: the rows left out of the top N
    FUNCTION = "function"  # name, where (file and lines, or ""): a function's self time
    NO_STACK = "no_stack"  # samples with an empty stack
    SUMMARY_ROW = "summary_row"  # kind, name: a row of an nsys summary report
    GPU_COMPUTE = "gpu_compute"  # the union of compute kernels
    GPU_COMMUNICATION = "gpu_communication"  # hidden (ms): collective kernels while no compute runs
    GPU_MEMORY = "gpu_memory"  # memcpy/memset while no kernel runs
    GPU_IDLE = "gpu_idle"  # nothing runs on the GPU


@dataclass(frozen=True)
class Source:
    """A component's :class:`Origin` and its values."""

    kind: Origin
    values: Mapping[str, object] = field(default_factory=dict)


class Reason(Enum):
    """Why a component has its scaling class: a name rule (see ``names.RULES``), or the GPU row it is."""

    COLLECTIVE = "collective"  # the name is a collective's
    DISTRIBUTION = "distribution"  # an all-to-all or data-distribution phase
    COPY = "copy"  # a memory copy
    SYNCHRONISATION = "synchronisation"
    DATA_LOADING = "data_loading"
    UNATTRIBUTED = "unattributed"  # time outside every phase
    UNKNOWN_NAME = "unknown_name"  # no rule knows the name: parallel is assumed
    GPU_COMPUTE = "gpu_compute"  # assumed to divide among GPUs
    GPU_COLLECTIVE = "gpu_collective"  # collective kernels: communication is known
    GPU_MEMORY = "gpu_memory"  # each GPU's share of the copies is assumed to divide
    GPU_IDLE = "gpu_idle"  # the wait is assumed not to shrink


class Scope(Enum):
    """What an import covers, for the profile's Boundary."""

    PYTORCH = "pytorch"  # source, rank, world, slowest, straggler, total, steps, device (GPU view; None: grouped by group_by),
    # group_by, world_size_given (the trace states its world size; else it is the number of rank files)
    SPEEDSCOPE = "speedscope"  # source, profiles, sample_counts (weights are sample counts, 1 ms each)
    NSYS = "nsys"  # source, reports


@dataclass(frozen=True)
class Boundary:
    """What an import covers: its :class:`Scope` and values."""

    scope: Scope
    values: Mapping[str, object] = field(default_factory=dict)
