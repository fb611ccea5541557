"""A PyTorch (Kineto) trace of one or more ranks, summarised into an import result for the chosen options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..units import TimeUnit
from .dependencies import DependencyColumns, GraphTrace
from .errors import Remedy, TraceError
from .events import CPU_ANNOTATION, MS_PER_US, TraceEvents
from .gpu_steps import chosen_device, gpu_components, gpu_split, gpu_step_note, gpu_step_splits, steps_with_gpu
from .grouping import (
    OTHER,
    UNATTRIBUTED,
    Part,
    Window,
    annotation_parts,
    op_parts,
    parts_by_window,
    spread_of,
    top_parts,
)
from .import_paths import enrich, grouping_text, part_events
from .origins import Boundary, Origin, Scope
from .result import (
    ImportedComponent,
    ImportOptions,
    ImportResult,
    NoteKind,
    Notes,
    RankInfo,
    StepInfo,
    unique_names,
    with_range,
)
from .steps import Step, find_steps, main_thread


@dataclass
class RankTrace:
    """One rank's events and the file they came from (with the dependency columns when read with them)."""

    source: str
    events: TraceEvents
    # (device asked for, rank) → the steps with their GPU stretches, and the device: found once per choice
    steps: dict[tuple[int | None, int | None], tuple[list[Step], int | None]] = field(
        default_factory=dict, repr=False, compare=False
    )
    deps: DependencyColumns | None = None

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
    return [s for s in steps if s.name not in options.exclude_steps and not (options.exclude_flagged and s.off)]


def kept_step_names(events: TraceEvents, options: ImportOptions, rank: int | None) -> list[str]:
    """The steps an import with ``options`` keeps (rank ``rank``'s, the far ones flagged as the import flags them)."""
    return [s.name for s in _kept(_steps(RankTrace("", events), options, rank)[0], options)]


def _steps(trace: RankTrace, options: ImportOptions, rank: int | None) -> tuple[list[Step], int | None]:
    """The rank's steps, each with its GPU stretch and flags, and the GPU they are of (kept once per choice)."""
    key = (options.device, rank)
    found = trace.steps.get(key)
    if found is None:
        device = chosen_device(trace.events, options.device, rank)
        found = trace.steps[key] = (steps_with_gpu(trace.events, find_steps(trace.events), device), device)
    return found


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


def rank_table(traces: Sequence[RankTrace], options: ImportOptions, pace: str | None = None) -> list[RankInfo]:
    """Each rank's mean step time (µs → ms), the slowest marked, and the rank the job waits for (``pace``: its
    file, found by joining the ranks; see model/job/representative)."""
    infos = []
    for number, trace in zip(_rank_numbers(traces), traces, strict=True):
        steps = _kept(_steps(trace, replace(options, device=None), number)[0], options)
        start, end = _span(trace.events)
        step_time = sum(s.duration for s in steps) / len(steps) * MS_PER_US if steps else None
        infos.append(RankInfo(number, trace.source, step_time, (end - start) * MS_PER_US))
    if len(infos) > 1:
        slowest = max(range(len(infos)), key=lambda i: (infos[i].step_time or 0.0, infos[i].total_time))
        infos[slowest] = RankInfo(**{**infos[slowest].__dict__, "slowest": True})
        waited = next((i for i, r in enumerate(infos) if pace is not None and r.source == pace), None)
        if waited is not None:
            infos[waited] = RankInfo(**{**infos[waited].__dict__, "straggler": True})
    return infos


def summarise_pytorch(
    traces: Sequence[RankTrace], options: ImportOptions, pace: str | None = None, unjoined: str = ""
) -> ImportResult:
    """The import result of PyTorch traces (one per rank) for ``options``. Without ``options.rank``: the rank the
    job waits for, ``pace`` (its file: the files layer joins the ranks to find it, model/job/representative), else
    the slowest (``unjoined``: why the ranks could not be joined)."""
    if not traces:
        raise TraceError("no trace to import")
    ranks = rank_table(traces, options, pace)
    if options.rank is None:
        chosen = next((i for i, r in enumerate(ranks) if r.straggler), -1)
        if chosen < 0:
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
    notes = Notes()
    if options.rank is None and len(traces) > 1 and not rank.straggler and unjoined:
        notes.add(NoteKind.NOT_JOINED, problem=unjoined, rank=rank.rank)
    skipped = events.info.get("skipped_begin_end")
    if skipped:
        notes.add(NoteKind.BEGIN_END_SKIPPED, count=skipped)
    all_steps, device = _steps(trace, options, rank.rank)
    steps = _kept(all_steps, options)
    total = options.total
    if not total and not all_steps:
        notes.add(NoteKind.NO_STEPS)
        total = True
    elif not total and not steps:
        raise TraceError("every step is left out", trace.source, remedy=Remedy.KEEP_A_STEP)
    for s in all_steps:
        if s.flagged and s in steps:
            notes.add(NoteKind.FAR_STEP, step=s.name, ms=s.duration * MS_PER_US)
    windows = [_span(events)] if total else [(s.start, s.end) for s in steps]
    n = len(windows)
    thread = main_thread(events, all_steps)

    group_by = options.group_by or _default_grouping(events, thread)
    if group_by == "function":
        raise TraceError(
            "grouping by function is for speedscope profiles; a PyTorch trace groups by annotation, op or gpu",
            trace.source,
        )
    gpu = gpu_split(events, all_steps, steps, total, device, notes)
    if group_by == "gpu":
        if gpu is None:
            raise TraceError(
                "the trace has no GPU events (kernels, memcpy, memset); group by annotation or op instead", trace.source
            )
        components = gpu_components(gpu, [] if total else gpu_step_splits(events, all_steps, steps, device))
    else:
        if thread is None:
            raise TraceError("the trace has no CPU events to group", trace.source)
        step_windows = [(s.start, s.end) for s in all_steps]
        grouping = annotation_parts if group_by == "annotation" else op_parts
        parts, by_step = parts_by_window(grouping, events, thread, windows, step_windows)
        parts = top_parts([Part(p.name, p.time / n * MS_PER_US, p.group, p.source) for p in parts], options.top)
        spread = spread_of(parts, by_step, MS_PER_US)
        names = unique_names(p.name for p in parts)
        components = tuple(
            with_range(
                ImportedComponent.named(name, p.time, p.name, p.group, p.source, events=_events(group_by, p)),
                spread.get(p.name),
            )
            for name, p in zip(names, parts, strict=True)
        )
    kept = {id(s) for s in steps}  # by identity: comparing steps field by field made this quadratic in steps
    step_infos = tuple(_info(s, id(s) not in kept) for s in all_steps) if all_steps else None
    step_time = None if not steps else sum(s.duration for s in steps) / len(steps) * MS_PER_US
    if group_by == "gpu" and gpu is not None and step_time and not total:
        gpu_step_note(gpu, steps, notes)
    world = trace.world_size or len(traces)
    scope = {
        "source": trace.source,
        "rank": rank.rank,
        "world": world,
        "slowest": rank.slowest,
        "straggler": rank.straggler,
        "total": total,
        "steps": len(steps),
        "device": gpu.device if group_by == "gpu" and gpu else None,
        "group_by": group_by,
        "world_size_given": bool(trace.world_size),
        "gpu_events": bool(events.has_gpu),  # a CPU job's ranks are processes, not GPUs
    }
    result = ImportResult(
        format="pytorch",
        unit=TimeUnit.MS,
        source=trace.source,
        group_by=group_by,
        components=components,
        scope=Boundary(Scope.PYTORCH, scope),
        steps=step_infos,
        step_time=step_time,
        gpu=gpu,
        ranks=tuple(ranks) if len(ranks) > 1 else (),
        rank=rank.rank if len(ranks) > 1 else trace.rank,
        notes=tuple(notes.items),
        baseline_gpus=world,
        grouping=grouping_text(group_by, options, rank.rank if len(ranks) > 1 else trace.rank),
    )
    graph = GraphTrace(events, trace.deps) if trace.deps is not None else None
    return enrich(result, events, graph, thread, [] if total else steps, options.critical_path)


def _events(group_by: str, p: Part) -> str:
    """The matcher of a component of the annotation or op grouping: its annotation or op, the rest, or Other."""
    unattributed = p.name == UNATTRIBUTED and p.source.kind in (Origin.NO_ANNOTATION, Origin.NO_EVENT)
    other = p.name == OTHER and p.source.kind is Origin.OTHER
    return part_events(group_by, p.name, unattributed, other)


def _info(s: Step, excluded: bool) -> StepInfo:
    gpu = None if s.gpu_time is None else s.gpu_time * MS_PER_US
    return StepInfo(s.name, s.duration * MS_PER_US, s.flagged, excluded, gpu, s.gpu_flagged)


def _default_grouping(events: TraceEvents, thread: int | None) -> str:
    if thread is not None and np.any((events.cpu_kind == CPU_ANNOTATION) & (events.cpu_thread == thread)):
        return "annotation"
    return "op" if thread is not None else "gpu"
