"""Turning decoded Chrome-trace events into the model's columns: the one loop every event goes through."""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from typing import Annotated, Any

import msgspec
import numpy as np

from ...model.errors import Place, Problem, Refusal
from ...model.names import STEP_PREFIX
from ...model.traces.errors import TraceError
from ...model.traces.events import (
    CPU_RUNTIME,
    CPU_STEP,
    GPU_COMMUNICATION,
    GPU_COMPUTE,
    TraceBuilder,
    TraceEvents,
    cpu_kind,
    gpu_kind,
)
from ...model.traces.names import is_communication_kernel

NAN = math.nan


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1  # ids are kept in 64-bit columns
# An id past 64 bits fails this check, and the block is read again by lenient_event, where it is no id.
Id = Annotated[int, msgspec.Meta(ge=_I64_MIN, le=_I64_MAX)]


class Args(msgspec.Struct, gc=False):
    """The few ``args`` the import needs; the rest of each event's arguments are skipped unread."""

    correlation: Id | None = None
    device: Id | None = None
    stream: Id | None = None


class Event(msgspec.Struct, gc=False):
    """One Chrome-trace event, only the fields the import needs."""

    ph: str = ""
    name: str = ""
    cat: str = ""
    ts: float = NAN
    dur: float = NAN  # none written: refused (a complete event without its duration would count as 0)
    pid: int | str = 0
    tid: int | str = 0
    args: Args | None = None


class _Ids(dict[Any, int]):
    """Interning: a new key gets the next number (looked up in C, the fallback only on first sight)."""

    def __missing__(self, key: Any) -> int:
        value = self[key] = len(self)
        return value


class Consumer:
    """Feeds events into a :class:`TraceBuilder`, a category at a time, in list comprehensions.

    A batch is split by category once; each column is then filled by one comprehension, which costs
    a fraction of a per-event loop with its appends and branches.
    """

    def __init__(self, builder: TraceBuilder, source: str) -> None:
        self.builder = builder
        self.source = source
        self.count = 0  # events seen, for naming the place of a problem
        self.skipped_begin_end = 0
        self._cats: dict[str, tuple[int, int]] = {}  # category → (0 CPU / 1 GPU / 2 ignored, kind)
        self._names = _Ids()
        self._threads = _Ids()

    def _category(self, cat: str) -> tuple[int, int]:
        found = self._cats.get(cat)
        if found is None:
            g = gpu_kind(cat)
            c = cpu_kind(cat)
            found = (1, g) if g is not None else (0, c) if c is not None else (2, 0)
            self._cats[cat] = found
        return found

    def consume(self, events: list[Event]) -> None:
        """Take a batch of decoded events."""
        by_cat: dict[str, list[Event]] = {}
        skipped = 0
        for e in events:
            ph = e.ph
            if ph == "X":
                group = by_cat.get(e.cat)
                if group is None:
                    group = by_cat[e.cat] = []
                group.append(e)
            elif ph == "B" or ph == "E":
                skipped += 1
        self.skipped_begin_end += skipped
        for cat, group in by_cat.items():
            side, kind = self._category(cat)
            if side == 2:
                continue
            ts = [e.ts for e in group]
            if any(map(math.isnan, ts)):
                self._no_timestamp(events)
            if not durations_ok(group):
                self._bad_duration(events)
            if side == 0:
                self._cpu(group, ts, kind)
            else:
                self._gpu(group, ts, kind)
            self.builder.complete_events += len(group)
        self.count += len(events)

    def _no_timestamp(self, events: list[Event]) -> None:
        for i, e in enumerate(events):
            if e.ph == "X" and math.isnan(e.ts):
                raise TraceError(
                    f'complete event "{e.name}" has no "ts" (start time); expected a number of microseconds',
                    self.source,
                    Place.at("event", self.count + i + 1),
                )

    def _bad_duration(self, events: list[Event]) -> None:
        for i, e in enumerate(events):
            if e.ph == "X" and not e.dur >= 0:  # NaN (none written) or below 0
                raise TraceError(
                    f'complete event "{e.name}" has no "dur" (duration); expected a number of microseconds'
                    if math.isnan(e.dur)
                    else Problem.typed(Refusal.NEGATIVE_DURATION, e.name, e.dur),
                    self.source,
                    Place.at("event", self.count + i + 1),
                )

    def _cpu(self, group: list[Event], ts: list[float], kind: int) -> None:
        b, names, threads = self.builder, self._names, self._threads
        b.cpu_ts.extend(ts)
        b.cpu_dur.extend([e.dur for e in group])
        b.cpu_name.extend([names[e.name] for e in group])
        b.cpu_thread.extend([threads[(e.pid, e.tid)] for e in group])
        b.cpu_kind.extend(array("q", [kind]) * len(group))
        if kind == CPU_RUNTIME:
            pairs = [(a.correlation, e.ts) for e in group if (a := e.args) is not None and a.correlation is not None]
            b.launch_corr.extend([c for c, _ in pairs])
            b.launch_ts.extend([t for _, t in pairs])

    def _gpu(self, group: list[Event], ts: list[float], kind: int) -> None:
        b = self.builder
        b.gpu_ts.extend(ts)
        b.gpu_dur.extend([e.dur for e in group])
        b.gpu_name.extend([self._names[e.name] for e in group])
        devices = [a.device if (a := e.args) is not None and a.device is not None else e.pid for e in group]
        streams = [a.stream if (a := e.args) is not None and a.stream is not None else e.tid for e in group]
        b.gpu_device.extend([d if isinstance(d, int) and _I64_MIN <= d <= _I64_MAX else -1 for d in devices])
        b.gpu_stream.extend([s if isinstance(s, int) and _I64_MIN <= s <= _I64_MAX else -1 for s in streams])
        b.gpu_kind.extend(array("q", [kind]) * len(group))
        b.gpu_corr.extend([c if (a := e.args) is not None and (c := a.correlation) is not None else -1 for e in group])

    def finish(self) -> TraceEvents:
        """Hand the names and threads to the builder, mark steps and communication kernels, freeze."""
        b = self.builder
        if b.complete_events and not any(self._cats):  # Kineto gives every event its category
            raise TraceError(
                'no event has a category ("cat": cpu_op, user_annotation, kernel …), as every event of a PyTorch '
                "(Kineto) trace has: a JAX or TensorFlow profiler trace, whose work XLA spreads over its threads, is "
                "not one Amdahl Desk reads; it reads PyTorch traces, speedscope profiles (py-spy) and nsys stats",
                self.source,
            )
        b.name_ids = dict(self._names)
        b.thread_ids = dict(self._threads)
        events = b.finish()
        step_ids = [i for n, i in b.name_ids.items() if n.startswith(STEP_PREFIX)]
        steps = np.isin(events.cpu_name, step_ids) & (events.cpu_kind != CPU_RUNTIME)
        events.cpu_kind[steps] = CPU_STEP
        comm_ids = [i for n, i in b.name_ids.items() if is_communication_kernel(n)]
        comm = np.isin(events.gpu_name, comm_ids) & (events.gpu_kind == GPU_COMPUTE)
        events.gpu_kind[comm] = GPU_COMMUNICATION
        return events


def durations_ok(events: Sequence[Any]) -> bool:
    """Whether every complete event of ``events`` has a duration of 0 or more (a missing one is NaN)."""
    return all(e.dur >= 0 for e in events)  # NaN compares False


def _number(value: Any, field: str, where: str, source: str, default: float | None = None) -> float:
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TraceError(f'"{field}" is {value!r}; expected a number of microseconds', source, where)
    try:
        number = float(value)
    except ValueError:
        raise TraceError(f'"{field}" is "{value}"; expected a number of microseconds', source, where) from None
    if not math.isfinite(number):
        raise TraceError(f'"{field}" is {value!r}; expected a finite number', source, where)
    return number


def _whole(value: Any) -> int | None:
    """A whole number that fits the columns (64 bits); anything else is no id."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and len(value) < 40 and (digits := value.strip().lstrip("-")).isascii():
        if not digits.isdigit():
            return None
        value = int(value)
    if isinstance(value, int) and _I64_MIN <= value <= _I64_MAX:
        return value
    return None


def lenient_event(raw: Any, where: str, source: str) -> Event:
    """An event from a plain decoded dict, tolerating what real traces do (string numbers, odd ids)."""
    if not isinstance(raw, dict):
        raise TraceError(f"an event is {type(raw).__name__}, not an object", source, where)
    ph = raw.get("ph")
    ph = ph if isinstance(ph, str) else ""
    if ph != "X":
        return Event(ph=ph)
    args = raw.get("args")
    parsed = None
    if isinstance(args, dict):
        parsed = Args(_whole(args.get("correlation")), _whole(args.get("device")), _whole(args.get("stream")))

    def ident(value: Any) -> int | str:
        return value if isinstance(value, (int, str)) and not isinstance(value, bool) else str(value)

    name = raw.get("name", "")
    cat = raw.get("cat", "")
    return Event(
        ph="X",
        name=name if isinstance(name, str) else str(name),
        cat=cat if isinstance(cat, str) else str(cat),
        ts=_number(raw.get("ts"), "ts", where, source),
        dur=_number(raw.get("dur"), "dur", where, source, NAN),  # none, or below 0: refused with the events
        pid=ident(raw.get("pid", 0)),
        tid=ident(raw.get("tid", 0)),
        args=parsed,
    )
