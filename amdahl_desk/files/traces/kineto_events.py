"""Turning decoded Chrome-trace events into the model's columns: the one loop every event goes through."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import msgspec

from ...model.traces.errors import TraceError
from ...model.traces.events import (
    CPU_RUNTIME,
    CPU_STEP,
    GPU_COMMUNICATION,
    GPU_COMPUTE,
    TraceBuilder,
    cpu_kind,
    gpu_kind,
)
from ...model.traces.names import is_communication_kernel

NAN = math.nan


class Args(msgspec.Struct):
    """The few ``args`` the import needs; the rest of each event's arguments are skipped unread."""

    correlation: int | None = None
    device: int | None = None
    stream: int | None = None


class Event(msgspec.Struct):
    """One Chrome-trace event, only the fields the import needs."""

    ph: str = ""
    name: str = ""
    cat: str = ""
    ts: float = NAN
    dur: float = 0.0
    pid: int | str = 0
    tid: int | str = 0
    args: Args | None = None


class Consumer:
    """Feeds events into a :class:`TraceBuilder`, caching what each category and name means."""

    def __init__(self, builder: TraceBuilder, source: str) -> None:
        self.builder = builder
        self.source = source
        self.count = 0  # events seen, for naming the place of a problem
        self.skipped_begin_end = 0
        self._cats: dict[str, tuple[int, int]] = {}  # category → (0 CPU / 1 GPU / 2 ignored, kind)
        self._cpu_names: dict[str, tuple[int, bool]] = {}  # name → (id, is a ProfilerStep)
        self._gpu_names: dict[str, tuple[int, bool]] = {}  # name → (id, is a communication kernel)

    def _category(self, cat: str) -> tuple[int, int]:
        found = self._cats.get(cat)
        if found is None:
            g = gpu_kind(cat)
            c = cpu_kind(cat)
            found = (1, g) if g is not None else (0, c) if c is not None else (2, 0)
            self._cats[cat] = found
        return found

    def consume(self, events: Iterable[Event], offset: int = 0) -> None:
        """Take a batch of decoded events (``offset``: the place of the batch, for messages)."""
        b = self.builder
        cats, cpu_names, gpu_names = self._cats, self._cpu_names, self._gpu_names
        thread_ids = b.thread_ids
        cpu_ts, cpu_dur, cpu_name, cpu_thread, cpu_k = b.cpu_ts, b.cpu_dur, b.cpu_name, b.cpu_thread, b.cpu_kind
        launch_corr, launch_ts = b.launch_corr, b.launch_ts
        gpu_ts, gpu_dur, gpu_device, gpu_stream = b.gpu_ts, b.gpu_dur, b.gpu_device, b.gpu_stream
        gpu_k, gpu_corr, gpu_name = b.gpu_kind, b.gpu_corr, b.gpu_name
        complete = 0
        n = self.count
        for e in events:
            n += 1
            ph = e.ph
            if ph != "X":
                if ph == "B" or ph == "E":
                    self.skipped_begin_end += 1
                continue
            ts = e.ts
            if ts != ts:  # NaN: no timestamp
                raise TraceError(
                    f'complete event "{e.name}" has no "ts" (start time); expected a number of microseconds',
                    self.source,
                    f"event {n:,}",
                )
            complete += 1
            where = cats.get(e.cat) or self._category(e.cat)
            side = where[0]
            if side == 0:
                name = e.name
                known = cpu_names.get(name)
                if known is None:
                    known = cpu_names[name] = (b.name_id(name), name.startswith("ProfilerStep#"))
                key = (e.pid, e.tid)
                thread = thread_ids.get(key)
                if thread is None:
                    thread = b.thread_id(e.pid, e.tid)
                kind = CPU_STEP if known[1] else where[1]
                cpu_ts.append(ts)
                cpu_dur.append(e.dur)
                cpu_name.append(known[0])
                cpu_thread.append(thread)
                cpu_k.append(kind)
                if kind == CPU_RUNTIME:
                    args = e.args
                    if args is not None and args.correlation is not None:
                        launch_corr.append(args.correlation)
                        launch_ts.append(ts)
            elif side == 1:
                name = e.name
                known = gpu_names.get(name)
                if known is None:
                    known = gpu_names[name] = (b.name_id(name), is_communication_kernel(name))
                args = e.args
                device = args.device if args is not None and args.device is not None else e.pid
                stream = args.stream if args is not None and args.stream is not None else e.tid
                kind = where[1]
                if kind == GPU_COMPUTE and known[1]:
                    kind = GPU_COMMUNICATION
                gpu_ts.append(ts)
                gpu_dur.append(e.dur)
                gpu_device.append(device if isinstance(device, int) else -1)
                gpu_stream.append(stream if isinstance(stream, int) else -1)
                gpu_k.append(kind)
                corr = args.correlation if args is not None else None
                gpu_corr.append(corr if corr is not None else -1)
                gpu_name.append(known[0])
        self.count = n
        b.complete_events += complete


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
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
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
        dur=max(_number(raw.get("dur"), "dur", where, source, 0.0), 0.0),
        pid=ident(raw.get("pid", 0)),
        tid=ident(raw.get("tid", 0)),
        args=parsed,
    )
