"""CPU-side groupings of a trace: outermost annotations per window, and operators by self time."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .events import CPU_ANNOTATION, CPU_STEP, TraceEvents
from .origins import Origin, Source

UNATTRIBUTED = "Unattributed"
OTHER = "Other"


@dataclass(frozen=True)
class Part:
    """A named share of the time: the sum over the windows (µs); ``source`` says where it came from."""

    name: str
    time: float
    group: str
    source: Source


Window = tuple[float, float]


def _rows_in(events: TraceEvents, thread: int, window: Window, kind_mask: np.ndarray) -> np.ndarray:
    start, end = window
    ts = events.cpu_ts
    mask = kind_mask & (events.cpu_thread == thread) & (ts < end) & (ts + events.cpu_dur > start)
    rows = np.flatnonzero(mask)
    # parents first: earlier start, then the longer event
    return rows[np.lexsort((-events.cpu_dur[rows], ts[rows]))]


def context_annotations(events: TraceEvents, steps: Sequence[Window]) -> np.ndarray:
    """A mask of the annotations that contain a whole step (``record_function("epoch_0")`` around the loop):
    they say where the steps ran, not what a step does, so no grouping counts them as a phase."""
    found = events.cpu_kind == CPU_ANNOTATION
    if not steps or not found.any():
        return np.zeros(len(events.cpu_kind), dtype=bool)
    order = sorted(steps)
    starts = np.array([s for s, _ in order])
    ends = np.array([e for _, e in order])
    rows = np.flatnonzero(found)
    ts = events.cpu_ts[rows]
    stop = ts + events.cpu_dur[rows]
    # Steps do not overlap: the first step that starts at or after an annotation's start ends first among them.
    first = np.searchsorted(starts, ts, side="left")
    inside = first < len(starts)
    contains = np.zeros(len(rows), dtype=bool)
    contains[inside] = ends[first[inside]] <= stop[inside]
    mask = np.zeros(len(events.cpu_kind), dtype=bool)
    mask[rows[contains]] = True
    return mask


def annotation_parts(
    events: TraceEvents,
    thread: int,
    windows: Sequence[Window],
    steps: Sequence[Window] = (),
    each: list[dict[str, float]] | None = None,
) -> list[Part]:
    """Outermost ``record_function`` annotations on ``thread`` inside each window (nested ones belong to their
    parent), clipped to the window and summed over the windows; plus ``Unattributed`` for the rest.

    Each instant of a window goes to the outermost annotation running then, so the rows add up to the window
    even when annotations overlap without nesting. Annotations that contain a whole step of ``steps`` are
    context, not phases: the phases inside them are counted. ``each``, when given, gets each window's own times
    by name (Unattributed included), in the windows' order.
    """
    kind_mask = (events.cpu_kind == CPU_ANNOTATION) & ~context_annotations(events, steps)
    totals: dict[str, float] = defaultdict(float)
    covered = 0.0
    for start, end in windows:
        outer_end = start
        own: dict[str, float] = defaultdict(float)
        rows = _rows_in(events, thread, (start, end), kind_mask)
        begins = events.cpu_ts[rows]
        stops = np.minimum(begins + events.cpu_dur[rows], end).tolist()
        for began, stop, name in zip(begins.tolist(), stops, events.cpu_name[rows].tolist(), strict=True):
            if stop <= outer_end:
                continue  # nested in the outermost annotation running at its start
            t = stop - max(began, outer_end)
            outer_end = stop
            own[events.names[name]] += t
        for name, t in own.items():
            totals[name] += t
            covered += t
        if each is not None:
            each.append({**own, UNATTRIBUTED: max(end - start - sum(own.values()), 0.0)})
    length = sum(end - start for start, end in windows)
    parts = [Part(name, t, "annotation", Source(Origin.ANNOTATION, {"name": name})) for name, t in totals.items()]
    parts.append(Part(UNATTRIBUTED, max(length - covered, 0.0), "annotation", Source(Origin.NO_ANNOTATION)))
    return parts


def owned_times(ts: Sequence[float], stop: Sequence[float], end: float) -> list[float]:
    """Each event's self time up to ``end``: the instants at which it is the innermost event running.

    Events come in start order (of two that start together, the longer first). The innermost event at an
    instant is the running one that started last, so an event contains another only when its interval holds
    the other's whole: an annotation that starts inside a short ``__enter__`` event and outlives it takes over
    from it, and its time is never counted twice. The self times add up to the time any event covers.
    """
    own = [0.0] * len(ts)
    stack: list[int] = []
    now = ts[0] if len(ts) else end

    def run_until(t: float) -> float:
        clock = now
        while stack:
            top = stack[-1]
            finish = stop[top]
            if finish <= clock:
                stack.pop()  # it ended while an event that started after it was running
            elif finish <= t:
                own[top] += finish - clock
                clock = finish
                stack.pop()
            else:
                own[top] += t - clock
                return t
        return max(clock, t)

    for i, t in enumerate(ts):
        now = run_until(t)
        stack.append(i)
    run_until(end)
    return own


def op_parts(
    events: TraceEvents,
    thread: int,
    windows: Sequence[Window],
    steps: Sequence[Window] = (),
    each: list[dict[str, float]] | None = None,
) -> list[Part]:
    """Every CPU event on ``thread`` by self time (the instants at which it is the innermost event running),
    summed by name over the windows; the time in no event is ``Unattributed``, so the rows add up to the windows.
    Annotations that contain a whole step of ``steps`` are context: their time in no op is ``Unattributed``.
    ``each``, when given, gets each window's own times by name (Unattributed included), in the windows' order."""
    kind_mask = (events.cpu_kind != CPU_STEP) & ~context_annotations(events, steps)
    self_time: dict[int, float] = defaultdict(float)
    kinds: dict[int, int] = {}
    covered = 0.0
    for start, end in windows:
        rows = _rows_in(events, thread, (start, end), kind_mask)
        ts = np.maximum(events.cpu_ts[rows], start).tolist()
        stop = np.minimum(events.cpu_ts[rows] + events.cpu_dur[rows], end).tolist()
        names = events.cpu_name[rows].tolist()
        for r, n in zip(rows.tolist(), names, strict=True):
            kinds.setdefault(n, int(events.cpu_kind[r]))
        own = owned_times(ts, stop, end)
        window: dict[str, float] = defaultdict(float)
        for n, t in zip(names, own, strict=True):
            self_time[n] += t
            window[events.names[n]] += t
        covered += sum(own)
        if each is not None:
            each.append({**window, UNATTRIBUTED: max(end - start - sum(own), 0.0)})
    length = sum(end - start for start, end in windows)
    kind_names = {0: "op", 1: "annotation", 3: "runtime"}
    parts = [
        Part(
            events.names[n],
            max(t, 0.0),
            kind_names.get(kinds[n], "op"),
            Source(Origin.SELF_TIME, {"name": events.names[n]}),
        )
        for n, t in self_time.items()
    ]
    parts.append(Part(UNATTRIBUTED, max(length - covered, 0.0), "op", Source(Origin.NO_EVENT)))
    return parts


def top_parts(parts: Sequence[Part], top: int | None, keep: Sequence[str] = (UNATTRIBUTED,)) -> list[Part]:
    """The ``top`` largest parts (those named in ``keep`` always kept, at the end) and ``Other`` for the rest."""
    kept = [p for p in parts if p.name in keep]
    ranked = sorted((p for p in parts if p.name not in keep), key=lambda p: -p.time)
    if top is None or len(ranked) <= top:
        return ranked + kept
    rest = ranked[top:]
    other = Part(OTHER, sum(p.time for p in rest), rest[0].group, Source(Origin.OTHER, {"count": len(rest)}))
    return ranked[:top] + [other] + kept


Grouping = Callable[[TraceEvents, int, Sequence[Window], Sequence[Window], list[dict[str, float]] | None], list[Part]]
Spread = dict[str, tuple[float, float]]  # name → (fastest, slowest) over the windows, in the parts' unit


def parts_by_window(
    grouping: Grouping,
    events: TraceEvents,
    thread: int,
    windows: Sequence[Window],
    steps: Sequence[Window] = (),
) -> tuple[list[Part], list[dict[str, float]]]:
    """The parts of ``grouping`` summed over ``windows``, and each window's own times by name, so that each part's
    fastest and slowest window can be told (see :func:`spread_of`). One pass: the grouping notes each window's
    times as it adds them up."""
    each: list[dict[str, float]] = []
    parts = grouping(events, thread, windows, steps, each)
    return parts, each if len(windows) >= 2 else []


def spread_of(kept: Sequence[Part], times: Sequence[dict[str, float]], scale: float) -> Spread:
    """Each kept part's fastest and slowest window (× ``scale``): a part absent from a window took 0 there, and
    ``Other`` is, window by window, the sum of every part not kept."""
    if not times:
        return {}
    names = {p.name for p in kept}
    spread: Spread = {}
    for p in kept:
        if p.name == OTHER and OTHER not in times[0]:
            values = [sum(t for n, t in window.items() if n not in names) for window in times]
        else:
            values = [window.get(p.name, 0.0) for window in times]
        spread[p.name] = (min(values) * scale, max(values) * scale)
    return spread
