"""An import in words, once: what each component stands for in the trace (the profile's Notes), why it has its
scaling class (the preview's tooltip), and what was imported (the profile's Boundary).

The model finds them as facts (``model/traces/origins``); ``files/traces`` words them here when a trace is
summarised, so the preview, the profile, the workbook and the command line say the same thing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ..model.traces.origins import Boundary, Origin, Reason, Scope, Source
from ..model.traces.result import ImportedComponent, ImportResult
from .counted import RANKS, counted_for

_REASONS = {
    Reason.COLLECTIVE: "a collective by its name",
    Reason.DISTRIBUTION: "an all-to-all or data-distribution phase by its name",
    Reason.COPY: "a memory copy by its name",
    Reason.SYNCHRONISATION: "a synchronisation by its name",
    Reason.DATA_LOADING: "data loading by its name",
    Reason.UNATTRIBUTED: "time outside every phase (gaps, Python, waits)",
    Reason.UNKNOWN_NAME: "no rule knows the name: work that divides among GPUs is assumed",
    Reason.GPU_COMPUTE: "GPU work is assumed to divide among GPUs",
    Reason.GPU_COLLECTIVE: "collective kernels (NCCL/RCCL)",
    Reason.GPU_MEMORY: "copies of each GPU's share of the data are assumed to divide among GPUs",
    Reason.GPU_IDLE: "the GPU waits (for the CPU, data or other ranks); the wait is assumed not to shrink",
}


def reason_text(reason: Reason) -> str:
    """Why the import gives a component its class."""
    return _REASONS[reason]


def origin_text(origin: Source) -> str:
    """What in the trace a component stands for."""
    v = cast("dict[str, Any]", origin.values)
    kind = origin.kind
    if kind is Origin.ANNOTATION:
        return f'record_function "{v["name"]}"'
    if kind is Origin.NO_ANNOTATION:
        return "time in no annotation"
    if kind is Origin.SELF_TIME:
        return f'self time of "{v["name"]}"'
    if kind is Origin.NO_EVENT:
        return "time in no event on the thread"
    if kind is Origin.OTHER:
        return f"{v['count']} more, each smaller than the rows above"
    if kind is Origin.FUNCTION:
        return f"self time of {v['name']} in {v['where']}".strip()
    if kind is Origin.NO_STACK:
        return "samples with an empty stack"
    if kind is Origin.SUMMARY_ROW:
        return f"{v['kind']} row {v['name']!r}"
    if kind is Origin.GPU_COMPUTE:
        return "union of compute kernels, all streams"
    if kind is Origin.GPU_COMMUNICATION:
        return f"NCCL/RCCL kernels while no compute runs; {v['hidden']:.6g} ms more is hidden under compute"
    if kind is Origin.GPU_MEMORY:
        return "memcpy/memset while no kernel runs"
    return "nothing runs on the GPU"


def boundary_text(boundary: Boundary) -> str:
    """What was imported, as the profile's Boundary says it."""
    v = cast("dict[str, Any]", boundary.values)
    if boundary.scope is Scope.SPEEDSCOPE:
        threads = f"{v['profiles']} profiles (threads) summed" if v["profiles"] > 1 else "one profile"
        counts = " (weights are sample counts: one counted as 1 ms)" if v["sample_counts"] else ""
        return f"speedscope profile {v['source']}, {threads}, the whole recording, self time by function{counts}"
    if boundary.scope is Scope.NSYS:
        return f"Nsight Systems summary {v['source']} ({', '.join(v['reports'])}), total time over the whole run"
    world, steps = v["world"], v["steps"]
    where = (
        f"rank {v['rank']} of {world}"
        + (" (the straggler)" if v.get("straggler") else " (the slowest)" if v["slowest"] else "")
        if world > 1
        else ""
    )
    what = "the whole trace" if v["total"] else f"mean of {steps} step{'s' * (steps != 1)}"
    view = f"GPU {v['device']} timeline" if v["device"] is not None else f"grouped by {v['group_by']}"
    text = ", ".join(p for p in (f"PyTorch trace {v['source']}", where, what, view) if p)
    # N counts GPUs, or the ranks of a trace with no GPU events (an import that did not say: GPUs, as it said then)
    c = counted_for(v.get("gpu_events"))
    if world > 1:
        told = "the trace's distributedInfo.world_size" if v["world_size_given"] else "the number of rank files"
        text += f"; measured on N0 = {c.count(world)} ({told}" + (
            "; the trace holds no GPU events)" if c is RANKS else ")"
        )
    elif c is RANKS:  # one CPU process: its scaling is over ranks too, and this says why
        text += f"; measured on N0 = {c.count(world)} (the trace holds no GPU events)"
    return text


def _worded(c: ImportedComponent) -> ImportedComponent:
    source = origin_text(c.origin) if c.origin is not None else c.source
    why = reason_text(c.reason) if c.reason is not None else c.why
    return replace(c, source=source, why=why)


def worded(result: ImportResult) -> ImportResult:
    """``result`` with its components' sources and reasons and its boundary in words."""
    boundary = boundary_text(result.scope) if result.scope is not None else result.boundary
    return replace(result, components=tuple(_worded(c) for c in result.components), boundary=boundary)
