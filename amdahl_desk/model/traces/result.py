"""What an import makes: the options asked for, and the result (steps, components, GPU split, ranks) as a profile."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from ..names import name_key, one_line
from ..profile import Component, Profile, Scaling, Settings, default_gpu_counts
from ..units import TimeUnit
from .gpu import GpuSplit
from .names import classify
from .origins import Boundary, Reason, Source

if TYPE_CHECKING:
    from .import_paths import ImportPath

GROUPINGS = ("annotation", "op", "gpu", "function")


@dataclass(frozen=True)
class ImportOptions:
    """What the person chose: grouping (None: the format's default), per step or ``total``, top N, rank, steps."""

    group_by: str | None = None
    total: bool = False
    top: int | None = 15
    rank: int | None = None  # None: the rank the job waits for (its straggler; model/job/representative)
    exclude_steps: frozenset[str] = frozenset()  # step names (``ProfilerStep#7``) to leave out
    exclude_flagged: bool = False  # leave out every step far from the median
    device: int | None = None  # GPU for the ``gpu`` grouping; None: the rank's own, else the busiest
    critical_path: bool = False  # also the steps' critical path and each component's time on it (needs the
    # trace read with its dependencies)


@dataclass(frozen=True)
class StepInfo:
    """One step: its CPU time and its stretch of the GPU timeline (in the result's unit; None without GPU events),
    whether each is far from the median, whether the step was left out."""

    name: str
    time: float
    flagged: bool
    excluded: bool
    gpu_time: float | None = None
    gpu_flagged: bool = False

    @property
    def off(self) -> bool:
        """Far from the median on the CPU or on the GPU: what leaving out flagged steps leaves out."""
        return self.flagged or self.gpu_flagged


class NoteKind(Enum):
    """What an import's warning is about; its values are in :attr:`ImportNote.values` (times in ms)."""

    BEGIN_END_SKIPPED = "begin_end_skipped"  # count: begin/end events not read
    NO_STEPS = "no_steps"  # the trace has no ProfilerStep: the whole trace is imported
    FAR_STEP = "far_step"  # step, ms: a kept step far from the median step time
    NO_GPU_STEP_MATCH = "no_gpu_step_match"  # no GPU event matched to a step: the GPU split is of the whole trace
    GPU_LAST_STRETCH = "gpu_last_stretch"  # step, ms, others_ms: the last step's GPU stretch still finishing work
    GPU_FAR_STRETCH = "gpu_far_stretch"  # step, ms, others_ms: a GPU stretch far from the others' median
    # The GPU timeline's step (span, ms) is ``gap`` (a share, signed) off the CPU's mean ProfilerStep (cpu, ms):
    GPU_STEP_ODD_STRETCH = "gpu_step_odd_stretch"  # + steps (names), rest_gpu, rest_cpu: one odd stretch explains it
    GPU_STEP_SHORTER = "gpu_step_shorter"  # the stretches leave out the CPU's time around the GPU work
    GPU_STEP_IDLE = "gpu_step_idle"  # + idle (share): the GPU waits
    GPU_STEP_BUSY = "gpu_step_busy"  # + idle: the GPU is the bottleneck
    GPU_STEP_AHEAD = "gpu_step_ahead"  # + idle: the CPU launches ahead
    NOT_JOINED = "not_joined"  # problem, rank: the ranks cannot be joined as a job; the slowest rank is imported
    SAMPLE_COUNTS = "sample_counts"  # a speedscope profile weighs samples, not times: each is taken as 1 ms
    THREADS_SUMMED = "threads_summed"  # profiles: a speedscope file's profiles (threads), summed as CPU time
    SEVERAL_REPORTS = "several_reports"  # nsys reports listed together: NVTX ranges may contain the kernels


@dataclass(frozen=True)
class ImportNote:
    """One warning of an import: its kind and its values (numbers unformatted, names as in the trace), worded for
    the command line and the window by ``present/import_notes``."""

    kind: NoteKind
    values: Mapping[str, object] = field(default_factory=dict)

    def __hash__(self) -> int:  # a problem that carries it can be kept in a set (its values are numbers and names)
        return hash((self.kind, tuple(self.values.items())))


class Notes:
    """An import's warnings as they are found, in order."""

    def __init__(self) -> None:
        self.items: list[ImportNote] = []

    def add(self, kind: NoteKind, **values: object) -> None:
        self.items.append(ImportNote(kind, values))


@dataclass(frozen=True)
class RankInfo:
    """One rank's file and mean step time (or whole-trace time when it has no steps)."""

    rank: int
    source: str
    step_time: float | None
    total_time: float
    slowest: bool = False
    straggler: bool = False  # the rank the job waits for (model/job/representative): the profile's rank by default


@dataclass(frozen=True)
class ImportedComponent:
    """A component as imported: ``origin`` says what in the trace it stands for (kept in the profile's Notes);
    ``guessed``: its scaling class is the import's guess, and ``reason`` says where the class comes from; ``events``
    which events it groups (a matcher, see :mod:`.component_events`). An annotation's ``gpu_time`` is the GPU time
    of the work launched inside it; ``path_time`` its time on the critical path (when asked). ``source`` and
    ``why`` are ``origin`` and ``reason`` in words, filled in by ``files/traces`` (``present/import_words``)."""

    name: str
    time: float
    scaling: Scaling
    group: str = ""
    origin: Source | None = None
    guessed: bool = False
    reason: Reason | None = None
    events: str = ""
    gpu_time: float | None = None
    path_time: float | None = None
    # The fastest and slowest step's time (None: one step, or the whole trace): the component's Time low and high.
    time_low: float | None = None
    time_high: float | None = None
    source: str = ""
    why: str = ""

    @classmethod
    def named(
        cls, name: str, time: float, trace_name: str, group: str = "", origin: Source | None = None, events: str = ""
    ) -> ImportedComponent:
        """A component whose class the name rules give for ``trace_name`` (the name as the trace spells it)."""
        found = classify(trace_name)
        return cls(name, time, found.scaling, group, origin, found.guessed, found.why, events)


@dataclass(frozen=True)
class ImportResult:
    """Everything one import found, in ``unit``; :meth:`to_profile` makes the editable profile."""

    format: str  # "pytorch", "speedscope" or "nsys"
    unit: TimeUnit
    source: str
    group_by: str
    components: tuple[ImportedComponent, ...]
    scope: Boundary | None = None  # what was imported; ``boundary`` says it in words (filled in by files/traces)
    boundary: str = ""
    steps: tuple[StepInfo, ...] | None = None
    step_time: float | None = None
    gpu: GpuSplit | None = None
    ranks: tuple[RankInfo, ...] = ()
    rank: int | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)  # ``notes`` as the command line words them
    baseline_gpus: int = 1  # the GPUs (ranks) the trace was measured on: the profile's N0
    trace_path: str = ""  # the file (or folder) imported, as given
    grouping: str = ""  # the options that made these components, as the Settings sheet keeps them
    critical_path: ImportPath | None = None
    notes: tuple[ImportNote, ...] = ()  # the typed warnings: files/traces words them into ``warnings``

    @property
    def gpu_events(self) -> bool | None:
        """Whether the trace holds GPU events, as its scope says (None: the scope does not say)."""
        said = self.scope.values.get("gpu_events") if self.scope is not None else None
        return said if isinstance(said, bool) else None

    @property
    def total(self) -> float:
        return sum(c.time for c in self.components)

    def to_profile(self) -> Profile:
        """A normal profile: the components (source in Notes) and a boundary saying what was imported."""
        comps = [
            Component(
                c.name,
                max(c.time, 0.0),
                c.scaling,
                c.group,
                f"{c.source} (from {self.source})".strip(),
                scaling_guessed=c.guessed,
                time_low=_range(max(c.time, 0.0), c.time_low, c.time_high)[0],
                time_high=_range(max(c.time, 0.0), c.time_low, c.time_high)[1],
            )
            for c in self.components
        ]
        n0 = self.baseline_gpus
        counts = default_gpu_counts(max(1024, 8 * n0)) if n0 > 1 else default_gpu_counts()
        events = tuple((name, c.events) for name, c in zip((x.name for x in comps), self.components, strict=True))
        settings = Settings(
            boundary=self.boundary,
            baseline_gpus=n0,
            gpu_counts=counts,
            trace_source=self.trace_path,
            trace_grouping=self.grouping if self.trace_path else "",
            trace_events=tuple(e for e in events if e[1]) if self.trace_path else (),
            trace_gpu_events=False if self.gpu_events is False else None,  # as its workbook keeps it
        )
        return Profile(comps, settings=settings, unit=self.unit)


def unique_names(names: Iterable[str], limit: int = 120) -> list[str]:
    """Names as the profile will hold them, in order: one line of visible text by the profile's own rule (control
    characters shown as U+FFFD), not empty, not too long and unique by the profile's name key — so the
    preview shows exactly what the import makes."""
    seen: set[str] = set()
    out: list[str] = []
    for raw in names:
        name = " ".join(one_line(raw).split()) or "(unnamed)"
        if len(name) > limit:
            name = name[: limit - 1] + "…"
        candidate, k = name, 2
        while name_key(candidate) in seen:
            candidate, k = f"{name} ({k})", k + 1
        seen.add(name_key(candidate))
        out.append(candidate)
    return out


def _range(time: float, low: float | None, high: float | None) -> tuple[float | None, float | None]:
    """A step spread as a time range that holds the mean time (rounding may put the mean a hair outside), or no
    range when every step took the same."""
    if low is None or high is None or not high > low:
        return None, None
    return min(max(low, 0.0), time), max(high, time)


def with_range(component: ImportedComponent, spread: tuple[float, float] | None) -> ImportedComponent:
    """``component`` with the time of its fastest and slowest step (``spread``; None: no steps to tell)."""
    if spread is None:
        return component
    return replace(component, time_low=spread[0], time_high=spread[1])
