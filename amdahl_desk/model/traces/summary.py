"""A PyTorch (Kineto) trace of one or more ranks, summarised into an import result for the chosen options."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..profile import Scaling
from ..units import TimeUnit
from .errors import TraceError
from .events import CPU_ANNOTATION, TraceEvents
from .gpu import GpuSplit, devices, mean_split, split_device
from .grouping import Part, Window, annotation_parts, op_parts, parts_by_window, spread_of, top_parts
from .names import scaling_for
from .result import ImportedComponent, ImportOptions, ImportResult, RankInfo, StepInfo, unique_names
from .steps import FAR_FROM_MEDIAN, Step, find_steps, gpu_step_windows, main_thread

MS_PER_US = 1e-3


@dataclass
class RankTrace:
    """One rank's events and the file they came from."""

    source: str
    events: TraceEvents

    @property
    def rank(self) -> int | None:
        info = self.events.info.get("distributedInfo")
        value = info.get("rank") if isinstance(info, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def world_size(self) -> int | None:
        info = self.events.info.get("distributedInfo")
        value = info.get("world_size") if isinstance(info, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _kept(steps: Sequence[Step], options: ImportOptions) -> list[Step]:
    return [s for s in steps if s.name not in options.exclude_steps and not (options.exclude_flagged and s.flagged)]


def _span(events: TraceEvents) -> Window:
    ends = [a.max() for a in (events.cpu_ts + events.cpu_dur, events.gpu_ts + events.gpu_dur) if len(a)]
    starts = [a.min() for a in (events.cpu_ts, events.gpu_ts) if len(a)]
    if not starts:
        return (0.0, 0.0)
    return (float(min(starts)), float(max(ends)))


def _rank_numbers(traces: Sequence[RankTrace]) -> list[int]:
    numbers = [t.rank for t in traces]
    if None in numbers or len(set(numbers)) != len(numbers):
        return list(range(len(traces)))  # files in the order given when their ranks are unknown or repeated
    return [n for n in numbers if n is not None]


def rank_table(traces: Sequence[RankTrace], options: ImportOptions) -> list[RankInfo]:
    """Each rank's mean step time (µs → ms), the slowest marked: a straggler is serial time for everyone."""
    infos = []
    for number, trace in zip(_rank_numbers(traces), traces, strict=True):
        steps = _kept(find_steps(trace.events), options)
        start, end = _span(trace.events)
        step_time = sum(s.duration for s in steps) / len(steps) * MS_PER_US if steps else None
        infos.append(RankInfo(number, trace.source, step_time, (end - start) * MS_PER_US))
    if len(infos) > 1:
        slowest = max(range(len(infos)), key=lambda i: (infos[i].step_time or 0.0, infos[i].total_time))
        infos[slowest] = RankInfo(**{**infos[slowest].__dict__, "slowest": True})
    return infos


def summarise_pytorch(traces: Sequence[RankTrace], options: ImportOptions) -> ImportResult:
    """The import result of PyTorch traces (one per rank) for ``options``."""
    if not traces:
        raise TraceError("no trace to import")
    ranks = rank_table(traces, options)
    if options.rank is None:
        chosen = next((i for i, r in enumerate(ranks) if r.slowest), 0)
    else:
        numbers = [r.rank for r in ranks]
        if options.rank not in numbers:
            raise TraceError(
                f"rank {options.rank} is not among the traces; their ranks are {', '.join(map(str, numbers))}"
            )
        chosen = numbers.index(options.rank)
    trace, rank = traces[chosen], ranks[chosen]
    events = trace.events
    warnings: list[str] = []
    skipped = events.info.get("skipped_begin_end")
    if skipped:
        warnings.append(f'{skipped:,} begin/end events (ph "B"/"E") were not read; only complete events (ph "X") are')
    all_steps = find_steps(events)
    steps = _kept(all_steps, options)
    total = options.total
    if not total and not all_steps:
        warnings.append("the trace has no ProfilerStep events: the whole trace is imported (as with --total)")
        total = True
    elif not total and not steps:
        raise TraceError("every step is left out; keep at least one step or import the whole trace (--total)")
    for s in all_steps:
        if s.flagged and s in steps:
            warnings.append(f"{s.name} ({s.duration * MS_PER_US:.3g} ms) is far from the median step time")
    windows = [_span(events)] if total else [(s.start, s.end) for s in steps]
    n = len(windows)
    thread = main_thread(events, all_steps)

    group_by = options.group_by or _default_grouping(events, thread)
    if group_by == "function":
        raise TraceError(
            "--group-by function is for speedscope profiles; a PyTorch trace groups by annotation, op or gpu"
        )
    gpu, gpu_steps = _gpu_split(events, all_steps, steps, total, options, rank.rank, warnings)
    if group_by == "gpu":
        if gpu is None:
            raise TraceError("the trace has no GPU events (kernels, memcpy, memset); group by annotation or op instead")
        components = _gpu_components(gpu, gpu_steps)
    else:
        if thread is None:
            raise TraceError("the trace has no CPU events to group")
        grouping = annotation_parts if group_by == "annotation" else op_parts
        parts, by_step = parts_by_window(grouping, events, thread, windows)
        parts = top_parts([Part(p.name, p.time / n * MS_PER_US, p.group, p.source) for p in parts], options.top)
        spread = spread_of(parts, by_step, MS_PER_US)
        names = unique_names(p.name for p in parts)
        components = tuple(
            ImportedComponent(name, p.time, scaling_for(p.name), p.group, p.source, *spread.get(p.name, (None, None)))
            for name, p in zip(names, parts, strict=True)
        )
    step_infos = (
        tuple(StepInfo(s.name, s.duration * MS_PER_US, s.flagged, s not in steps) for s in all_steps)
        if all_steps
        else None
    )
    step_time = None if not steps else sum(s.duration for s in steps) / len(steps) * MS_PER_US
    if group_by == "gpu" and gpu is not None and step_time and not total:
        warnings.extend(_gpu_step_note(gpu.span, step_time))
    world = trace.world_size or len(traces)
    where = f"rank {rank.rank} of {world}" + (" (the slowest)" if rank.slowest else "") if world > 1 else ""
    what = "the whole trace" if total else f"mean of {len(steps)} step{'s' * (len(steps) != 1)}"
    view = f"GPU {gpu.device} timeline" if group_by == "gpu" and gpu else f"grouped by {group_by}"
    boundary = ", ".join(p for p in (f"PyTorch trace {trace.source}", where, what, view) if p)
    return ImportResult(
        format="pytorch",
        unit=TimeUnit.MS,
        source=trace.source,
        group_by=group_by,
        components=components,
        boundary=boundary,
        steps=step_infos,
        step_time=step_time,
        gpu=gpu,
        ranks=tuple(ranks) if len(ranks) > 1 else (),
        rank=rank.rank if len(ranks) > 1 else trace.rank,
        warnings=tuple(warnings),
    )


def _default_grouping(events: TraceEvents, thread: int | None) -> str:
    if thread is not None and np.any((events.cpu_kind == CPU_ANNOTATION) & (events.cpu_thread == thread)):
        return "annotation"
    return "op" if thread is not None else "gpu"


def _gpu_split(
    events: TraceEvents,
    all_steps: list[Step],
    steps: list[Step],
    total: bool,
    options: ImportOptions,
    rank: int,
    warnings: list[str],
) -> tuple[GpuSplit | None, list[GpuSplit]]:
    """The device's mean split over the steps (or of the whole trace), and each step's own (µs → ms)."""
    found = devices(events)
    if not found:
        return None, []
    if options.device is not None:
        if options.device not in found:
            raise TraceError(f"GPU {options.device} has no events; the trace has GPUs {', '.join(map(str, found))}")
        device = options.device
    else:
        device = rank if rank in found and len(found) > 1 else found[0]
    if total:
        return split_device(events, device).scaled(MS_PER_US), []
    windows = gpu_step_windows(events, all_steps, device)
    per_step = [split_device(events, device, windows[all_steps.index(s)]) for s in steps if windows[all_steps.index(s)]]
    if len(per_step) >= 3 and steps[-1] is all_steps[-1] and windows[-1] is not None:
        others = statistics.median(p.span for p in per_step[:-1])
        if per_step[-1].span > (1 + FAR_FROM_MEDIAN) * others:
            warnings.append(
                f"the GPU stretch of the last step, {all_steps[-1].name}, is {per_step[-1].span * MS_PER_US:.4g} ms "
                f"against {others * MS_PER_US:.4g} ms for the others: the GPU was still finishing queued work when "
                f"profiling stopped; --exclude-steps {all_steps[-1].name} leaves it out"
            )
    if not per_step:
        warnings.append(
            "no GPU event could be matched to a step through its launch; the GPU split is of the whole trace"
        )
        return split_device(events, device).scaled(MS_PER_US), []
    return mean_split(per_step).scaled(MS_PER_US), [p.scaled(MS_PER_US) for p in per_step]


GPU_CPU_STEP_GAP = 0.05  # GPU and CPU step times further apart than this are explained


def _gpu_step_note(gpu_step: float, cpu_step: float) -> list[str]:
    """Why the GPU timeline's step (the profile's total) is not the CPU's ProfilerStep time, when they differ."""
    gap = gpu_step / cpu_step - 1
    if abs(gap) <= GPU_CPU_STEP_GAP:
        return []
    why = (
        "the CPU launches kernels ahead of the GPU and its steps end before their GPU work does (the GPU is the "
        "bottleneck: time the CPU steps to see the CPU side)"
        if gap > 0
        else "the GPU's stretches leave out the CPU's time before the first step's first GPU event and after the "
        "last step's GPU work ends; compare the steps, or leave the odd ones out"
    )
    return [
        f"the GPU timeline's step, {gpu_step:.4g} ms (the profile's total: from one step's first GPU event to the "
        f"next's), is {abs(gap):.0%} {'longer' if gap > 0 else 'shorter'} than the CPU's mean ProfilerStep, "
        f"{cpu_step:.4g} ms: {why}"
    ]


def _gpu_components(gpu: GpuSplit, steps: Sequence[GpuSplit] = ()) -> tuple[ImportedComponent, ...]:
    d = gpu.device

    def spread(field: str) -> tuple[float | None, float | None]:
        if len(steps) < 2:
            return None, None
        values = [getattr(s, field) for s in steps]
        return min(values), max(values)

    return (
        ImportedComponent(
            "GPU compute",
            gpu.compute,
            Scaling.PARALLEL,
            f"GPU {d}",
            "union of compute kernels, all streams",
            *spread("compute"),
        ),
        ImportedComponent(
            "Exposed communication",
            gpu.exposed_communication,
            Scaling.COMMUNICATION,
            f"GPU {d}",
            f"NCCL/RCCL kernels while no compute runs; {gpu.overlapped_communication:.6g} ms more is hidden under compute",
            *spread("exposed_communication"),
        ),
        ImportedComponent(
            "Memory", gpu.memory, Scaling.PARALLEL, f"GPU {d}", "memcpy/memset while no kernel runs", *spread("memory")
        ),
        ImportedComponent("GPU idle", gpu.idle, Scaling.SERIAL, f"GPU {d}", "nothing runs on the GPU", *spread("idle")),
    )
