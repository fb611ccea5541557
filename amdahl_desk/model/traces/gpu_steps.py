"""One GPU's timeline step by step: the device, each step's stretch (flagged when far from the others), the split
over the steps kept, and what a GPU step that differs from the CPU step means — judged from the steps kept."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ..profile import Scaling
from .errors import TraceError
from .events import MS_PER_US, TraceEvents
from .gpu import GpuSplit, devices, mean_split, split_device
from .origins import Origin, Reason, Source
from .result import ImportedComponent, NoteKind, Notes, with_range
from .steps import Step, gpu_step_windows, with_gpu_stretches

GPU_CPU_STEP_GAP = 0.05  # GPU and CPU step times further apart than this are explained
MOSTLY_IDLE = 0.5  # a GPU idle more than half its stretch is never the bottleneck
BUSY = 0.9  # a GPU busy at least this share of its stretch, behind a CPU that runs ahead, is the bottleneck


def chosen_device(events: TraceEvents, wanted: int | None, rank: int | None) -> int | None:
    """The GPU asked for, else the rank's own (when the trace has several), else the busiest; None: no GPU events."""
    found = devices(events)
    if not found:
        return None
    if wanted is not None:
        if wanted not in found:
            raise TraceError(f"GPU {wanted} has no events; the trace has GPUs {', '.join(map(str, found))}")
        return wanted
    return rank if rank in found and len(found) > 1 else found[0]


def steps_with_gpu(events: TraceEvents, steps: list[Step], device: int | None) -> list[Step]:
    """``steps`` with their stretches of ``device``'s timeline, the ones far from the median flagged."""
    if device is None or not steps:
        return steps
    return with_gpu_stretches(steps, gpu_step_windows(events, steps, device))


def gpu_split(
    events: TraceEvents, all_steps: list[Step], kept: list[Step], total: bool, device: int | None, notes: Notes
) -> GpuSplit | None:
    """The device's split: of the whole trace, or the mean over the kept steps' stretches (ms)."""
    if device is None:
        return None
    if total:
        return split_device(events, device).scaled(MS_PER_US)
    per_step = _per_step(events, all_steps, kept, device)
    _warn_far_stretches(all_steps, kept, notes)
    if not per_step:
        notes.add(NoteKind.NO_GPU_STEP_MATCH)
        return split_device(events, device).scaled(MS_PER_US)
    return mean_split(per_step).scaled(MS_PER_US)


def _per_step(events: TraceEvents, all_steps: list[Step], kept: list[Step], device: int) -> list[GpuSplit]:
    windows = gpu_step_windows(events, all_steps, device)
    return [split_device(events, device, w) for s, w in zip(all_steps, windows, strict=True) if s in kept and w]


def gpu_step_splits(events: TraceEvents, all_steps: list[Step], kept: list[Step], device: int | None) -> list[GpuSplit]:
    """Each kept step's own split of its stretch (ms), for the rows' fastest and slowest step; [] without a device."""
    if device is None:
        return []
    return [p.scaled(MS_PER_US) for p in _per_step(events, all_steps, kept, device)]


def _warn_far_stretches(all_steps: list[Step], kept: list[Step], notes: Notes) -> None:
    stretches = [s for s in all_steps if s.gpu_time is not None]
    for s in kept:
        if not s.gpu_flagged or s.gpu_time is None:
            continue
        others = statistics.median(o.gpu_time for o in stretches if o is not s and o.gpu_time is not None)
        last = s is all_steps[-1] and s.gpu_time > others
        kind = NoteKind.GPU_LAST_STRETCH if last else NoteKind.GPU_FAR_STRETCH
        notes.add(kind, step=s.name, ms=s.gpu_time * MS_PER_US, others_ms=others * MS_PER_US)


def gpu_step_note(gpu: GpuSplit, kept: Sequence[Step], notes: Notes) -> None:
    """Why the GPU timeline's step (the profile's total) is not the CPU's ProfilerStep time, from the steps kept.

    A difference that one odd stretch makes is said to be that stretch's; a GPU idle most of its stretch is never
    called the bottleneck.
    """
    cpu = sum(s.duration for s in kept) / len(kept) * MS_PER_US
    gap = gpu.span / cpu - 1
    if abs(gap) <= GPU_CPU_STEP_GAP:
        return
    head = {"span": gpu.span, "gap": gap, "cpu": cpu}
    odd = [s for s in kept if s.gpu_flagged]
    rest = [s for s in kept if s.gpu_time is not None and not s.gpu_flagged]
    if odd and rest:
        rest_gpu = sum(s.gpu_time or 0.0 for s in rest) / len(rest) * MS_PER_US
        rest_cpu = sum(s.duration for s in rest) / len(rest) * MS_PER_US
        if abs(rest_gpu / rest_cpu - 1) <= GPU_CPU_STEP_GAP:
            steps = tuple(s.name for s in odd)
            notes.add(NoteKind.GPU_STEP_ODD_STRETCH, **head, steps=steps, rest_gpu=rest_gpu, rest_cpu=rest_cpu)
            return
    idle = gpu.idle / gpu.span if gpu.span > 0 else 0.0
    if gap < 0:
        notes.add(NoteKind.GPU_STEP_SHORTER, **head)
    elif idle > MOSTLY_IDLE:
        notes.add(NoteKind.GPU_STEP_IDLE, **head, idle=idle)
    elif 1 - idle >= BUSY:
        notes.add(NoteKind.GPU_STEP_BUSY, **head, idle=idle)
    else:
        notes.add(NoteKind.GPU_STEP_AHEAD, **head, idle=idle)


def gpu_components(gpu: GpuSplit, steps: Sequence[GpuSplit] = ()) -> tuple[ImportedComponent, ...]:
    """The four rows of a GPU's timeline. Communication is known (the kernels are NCCL/RCCL); the other classes
    are guesses: whether compute divides among more GPUs, and what idle time waits for, the trace cannot say.
    ``steps``: each step's own split, for each row's fastest and slowest step (two or more)."""
    rows = _gpu_rows(gpu)
    if len(steps) < 2:
        return rows
    fields = ("compute", "exposed_communication", "memory", "idle")
    return tuple(
        with_range(row, (min(getattr(s, f) for s in steps), max(getattr(s, f) for s in steps)))
        for row, f in zip(rows, fields, strict=True)
    )


def _gpu_rows(gpu: GpuSplit) -> tuple[ImportedComponent, ...]:
    d = gpu.device
    return (
        ImportedComponent(
            "GPU compute",
            gpu.compute,
            Scaling.PARALLEL,
            f"GPU {d}",
            Source(Origin.GPU_COMPUTE),
            guessed=True,
            reason=Reason.GPU_COMPUTE,
            events="gpu:compute",
        ),
        ImportedComponent(
            "Exposed communication",
            gpu.exposed_communication,
            Scaling.COMMUNICATION,
            f"GPU {d}",
            Source(Origin.GPU_COMMUNICATION, {"hidden": gpu.overlapped_communication}),
            reason=Reason.GPU_COLLECTIVE,
            events="gpu:communication",
        ),
        ImportedComponent(
            "Memory",
            gpu.memory,
            Scaling.PARALLEL,
            f"GPU {d}",
            Source(Origin.GPU_MEMORY),
            guessed=True,
            reason=Reason.GPU_MEMORY,
            events="gpu:memory",
        ),
        ImportedComponent(
            "GPU idle",
            gpu.idle,
            Scaling.SERIAL,
            f"GPU {d}",
            Source(Origin.GPU_IDLE),
            guessed=True,
            reason=Reason.GPU_IDLE,
            events="gpu:idle",
        ),
    )
