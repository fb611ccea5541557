"""Reading a Kineto trace with its dependencies: the import's columns and, in the same pass, what the
critical path needs besides them (each CPU row's correlation and class, ``cuda_sync`` events, GPU annotations).

The block reader of :mod:`.kineto` does the reading; this module only decodes a few more fields of each
event and gives the extra ones to a :class:`~amdahl_desk.model.traces.dependencies.DependencyBuilder`.
The :class:`TraceEvents` it makes are the same as :func:`.kineto.read_kineto`'s.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

from ...model.traces.dependencies import (
    CONTEXT_SYNC,
    EVENT_SYNC,
    GPU_ANNOTATION_CATEGORY,
    STREAM_SYNC,
    STREAM_WAIT_EVENT,
    SYNC_CATEGORY,
    SYNC_RECORD,
    DependencyBuilder,
    GraphTrace,
    cpu_class,
)
from ...model.traces.events import TraceBuilder
from .kineto import _Reader
from .kineto_events import Args, Consumer, Event, _whole, lenient_event
from .source import Progress, open_stream

# cuda_sync events by the name Kineto gives them
SYNC_KINDS = {
    "Context Sync": CONTEXT_SYNC,
    "Stream Sync": STREAM_SYNC,
    "Event Sync": EVENT_SYNC,
    "Stream Wait Event": STREAM_WAIT_EVENT,
}


class GraphArgs(Args, gc=False):
    """The import's ``args`` and the two a ``cuda_sync`` event adds: the stream and the event record waited on."""

    wait_on_stream: int | None = None
    wait_on_cuda_event_record_corr_id: int | None = None


class GraphEvent(Event, gc=False):
    """An event with :class:`GraphArgs`."""

    args: GraphArgs | None = None


def lenient_graph_event(raw: Any, where: str, source: str) -> GraphEvent:
    """:func:`lenient_event`, keeping the sync fields of ``args`` too."""
    e = lenient_event(raw, where, source)
    args = None
    if e.args is not None:
        extra = raw.get("args")
        extra = extra if isinstance(extra, dict) else {}
        args = GraphArgs(
            e.args.correlation,
            e.args.device,
            e.args.stream,
            _whole(extra.get("wait_on_stream")),
            _whole(extra.get("wait_on_cuda_event_record_corr_id")),
        )
    return GraphEvent(e.ph, e.name, e.cat, e.ts, e.dur, e.pid, e.tid, args)


def _int(value: int | None) -> int:
    return -1 if value is None else value


class GraphConsumer(Consumer):
    """The import's consumer, filling a :class:`DependencyBuilder` beside its builder."""

    def __init__(self, builder: TraceBuilder, source: str) -> None:
        super().__init__(builder, source)
        self.deps = DependencyBuilder()

    def consume(self, events: list[Event]) -> None:
        annotations = [e for e in events if e.cat == GPU_ANNOTATION_CATEGORY and e.ph == "X"]
        if annotations:
            self._gpu_annotations(annotations)
        super().consume(events)

    def _cpu(self, group: list[Event], ts: list[float], kind: int) -> None:
        super()._cpu(group, ts, kind)
        d = self.deps
        cls = cpu_class(group[0].cat)
        d.cpu_class.extend(array("q", [cls]) * len(group))
        d.cpu_corr.extend([_int(a.correlation) if (a := e.args) is not None else -1 for e in group])
        if cls == SYNC_RECORD and group[0].cat.lower() == SYNC_CATEGORY:
            self._syncs(group, ts)

    def _syncs(self, group: list[Event], ts: list[float]) -> None:
        d = self.deps
        for e, t in zip(group, ts, strict=True):
            kind = SYNC_KINDS.get(e.name)
            a = e.args
            if kind is None or a is None or a.correlation is None:
                continue  # a sync of a kind the critical path does not know, or one naming no call
            d.sync_kind.append(kind)
            d.sync_ts.append(t)
            d.sync_corr.append(a.correlation)
            d.sync_device.append(_int(a.device))
            d.sync_stream.append(_int(a.stream))
            d.sync_wait_stream.append(_int(getattr(a, "wait_on_stream", None)))
            d.sync_record_corr.append(_int(getattr(a, "wait_on_cuda_event_record_corr_id", None)))

    def _gpu_annotations(self, group: list[Event]) -> None:
        d, names = self.deps, self._names
        for e in group:
            if math.isnan(e.ts) or not e.dur >= 0:
                continue  # a span with no start, or no duration, is no time on the GPU
            a = e.args
            d.gpu_ann_ts.append(e.ts)
            d.gpu_ann_dur.append(e.dur)
            d.gpu_ann_name.append(names[e.name])
            device = a.device if a is not None and a.device is not None else e.pid
            stream = a.stream if a is not None and a.stream is not None else e.tid
            d.gpu_ann_device.append(device if isinstance(device, int) else -1)
            d.gpu_ann_stream.append(stream if isinstance(stream, int) else -1)


class _GraphReader(_Reader):
    event_type = GraphEvent
    consumer_type = GraphConsumer
    lenient = staticmethod(lenient_graph_event)


def read_kineto_graph(path: str, source: str, progress: Progress | None = None) -> GraphTrace:
    """Read the trace at ``path`` (plain or gzipped JSON) with its dependencies; ``source`` names it in messages.

    Damaged input raises :class:`~amdahl_desk.model.traces.TraceError` naming the event and byte, as the
    import's reader does.
    """
    with open_stream(path, source, progress) as (stream, tick):
        reader = _GraphReader(stream, source, tick)
        events = reader.run()
    consumer = reader.consumer
    assert isinstance(consumer, GraphConsumer)
    return GraphTrace(events, consumer.deps.finish(events))
