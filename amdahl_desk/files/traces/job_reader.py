"""Reading one rank of a job: the Kineto graph reader, keeping also what ``record_param_comms`` says of each
collective (its process group, sequence number and name), and the rank's compact graph made from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...model.job.rank_graph import CommArgs, RankGraph, build_rank_graph, rank_of
from ...model.traces.patterns import Speedup
from .kineto_events import Event
from .kineto_graph import GraphArgs, GraphConsumer, GraphEvent, _GraphReader, lenient_graph_event
from .source import Progress, open_stream

COMMS = "record_param_comms"


class JobArgs(GraphArgs, gc=False):
    """The graph reader's ``args`` and what ``record_param_comms`` writes of its collective."""

    pg_name: str | int | None = msgspec.field(default=None, name="Process Group Name")
    seq: int | str | None = msgspec.field(default=None, name="Seq")
    collective: str | None = msgspec.field(default=None, name="Collective name")


class JobEvent(GraphEvent, gc=False):
    args: JobArgs | None = None


def lenient_job_event(raw: Any, where: str, source: str) -> GraphEvent:
    e = lenient_graph_event(raw, where, source)
    extra = raw.get("args") if isinstance(raw, dict) else None
    if e.args is None or not isinstance(extra, dict):
        return e
    a = e.args
    pg, seq, name = extra.get("Process Group Name"), extra.get("Seq"), extra.get("Collective name")
    args = JobArgs(
        a.correlation, a.device, a.stream, a.wait_on_stream, a.wait_on_cuda_event_record_corr_id,
        pg if isinstance(pg, str | int) and not isinstance(pg, bool) else None,
        seq if isinstance(seq, int | str) and not isinstance(seq, bool) else None,
        name if isinstance(name, str) else None,
    )  # fmt: skip
    return JobEvent(e.ph, e.name, e.cat, e.ts, e.dur, e.pid, e.tid, args)


def _seq(value: int | str | None) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


class JobConsumer(GraphConsumer):
    """The graph consumer, noting the CPU rows of ``record_param_comms`` and their arguments."""

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.comms: dict[int, CommArgs] = {}

    def _cpu(self, group: list[Event], ts: list[float], kind: int) -> None:
        first = len(self.builder.cpu_ts)
        super()._cpu(group, ts, kind)
        for i, e in enumerate(group):
            if e.name != COMMS:
                continue
            a = e.args
            if isinstance(a, JobArgs) and (a.pg_name is not None or a.seq is not None):
                pg = str(a.pg_name) if a.pg_name is not None else None
                self.comms[first + i] = CommArgs(pg, _seq(a.seq), a.collective)


HOST_KEYS = ("host_name", "hostname")


class _JobReader(_GraphReader):
    event_type = JobEvent  # type: ignore[assignment]
    consumer_type = JobConsumer  # type: ignore[assignment]
    lenient = staticmethod(lenient_job_event)

    def _keep(self, info: Any) -> None:
        super()._keep(info)
        if isinstance(info, dict):
            for key in HOST_KEYS:
                if isinstance(info.get(key), str):
                    self.builder.info[key] = info[key]


def read_rank(
    path: str,
    source: str,
    rank: int | None,
    step: str,
    speedups: Sequence[Speedup] = (),
    only_steps: frozenset[int] | None = None,
    progress: Progress | None = None,
) -> RankGraph:
    """The compact graph of the trace at ``path``; its rank is the trace's ``distributedInfo.rank``, else ``rank``.

    Raises :class:`~amdahl_desk.model.traces.TraceError` naming the file for damaged input or no steps.
    """
    from ...model.traces.dependencies import GraphTrace

    with open_stream(path, source, progress) as (stream, tick):
        reader = _JobReader(stream, source, tick)
        events = reader.run()
    consumer = reader.consumer
    assert isinstance(consumer, JobConsumer)
    trace = GraphTrace(events, consumer.deps.finish(events))
    found = rank_of(trace)
    number = found if found is not None else rank if rank is not None else 0
    return build_rank_graph(trace, source, number, step, speedups, consumer.comms, only_steps)
