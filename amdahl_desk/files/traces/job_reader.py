"""Reading one rank of a job: the Kineto graph reader, keeping also what ``record_param_comms`` says of each
collective (its process group, sequence number and name), and the rank's compact graph made from it.

A job reads hundreds of ranks, so a rank file is read whole when it is not too large (up to
:data:`WHOLE_LIMIT` bytes of JSON): decompressed in one call and decoded by msgspec in one pass into the few
fields the job needs, then handed to the consumer in one batch. That costs about a third of the block
reader's copying and decoding. Anything the one pass does not take as it is (a string-typed number, broken
JSON, a truncated or multi-member gzip file, a larger file) is read again by the block reader, which tolerates
what real traces do and names the event and byte where a file is broken.
"""

from __future__ import annotations

import math
import zlib
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union, cast

import msgspec

from ...model.job.rank_graph import CommArgs, RankGraph, build_rank_graph, rank_of
from ...model.traces.dependencies import GPU_ANNOTATION_CATEGORY, SYNC_CATEGORY, SYNC_RECORD, GraphTrace, cpu_class
from ...model.traces.events import CPU_RUNTIME, TraceEvents
from ...model.traces.patterns import Speedup
from .kineto import _KEEP_INFO
from .kineto_events import Event, durations_ok
from .kineto_graph import GraphArgs, GraphConsumer, GraphEvent, _GraphReader, lenient_graph_event
from .source import GZIP_MAGIC, Progress, open_stream

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

    def consume_complete(self, events: list[Event], seen: int) -> None:
        """Take the complete events of a batch of ``seen`` events (no ``ph`` to look at: all are ``X``, and
        none lacks its start): what :meth:`consume` does with a batch, in one pass over them."""
        by_cat: dict[str, list[Event]] = {}
        for e in events:
            group = by_cat.get(e.cat)
            if group is None:
                group = by_cat[e.cat] = []
            group.append(e)
        annotations = by_cat.get(GPU_ANNOTATION_CATEGORY)
        if annotations:
            self._gpu_annotations(annotations)
        for cat, group in by_cat.items():
            side, kind = self._category(cat)
            if side == 2:
                continue
            ts = [e.ts for e in group]
            if side == 0:
                self._cpu(group, ts, kind)
            else:
                self._gpu(group, ts, kind)
            self.builder.complete_events += len(group)
        self.count += seen

    def _cpu(self, group: list[Event], ts: list[float], kind: int) -> None:
        """The import's and the graph consumer's columns of a CPU group in one pass over its ``args`` (what
        :meth:`Consumer._cpu` and :meth:`GraphConsumer._cpu` fill, the same values: a test holds them equal),
        and the ``record_param_comms`` rows found by their name's number rather than by comparing names."""
        b, d, names = self.builder, self.deps, self._names
        first, n = len(b.cpu_ts), len(group)
        ids = [names[e.name] for e in group]
        b.cpu_ts.extend(ts)
        b.cpu_dur.extend([e.dur for e in group])
        b.cpu_name.extend(ids)
        threads = self._threads
        b.cpu_thread.extend([threads[(e.pid, e.tid)] for e in group])
        b.cpu_kind.extend(array("q", [kind]) * n)
        args = [e.args for e in group]
        corr = [-1 if a is None or (c := a.correlation) is None else c for a in args]
        if kind == CPU_RUNTIME:
            has = [i for i, a in enumerate(args) if a is not None and a.correlation is not None]
            b.launch_corr.extend([corr[i] for i in has])
            b.launch_ts.extend([ts[i] for i in has])
        cls = cpu_class(group[0].cat)
        d.cpu_class.extend(array("q", [cls]) * n)
        d.cpu_corr.extend(corr)
        if cls == SYNC_RECORD and group[0].cat.lower() == SYNC_CATEGORY:
            self._syncs(group, ts)
        comms = dict.get(names, COMMS)
        if comms is None:
            return
        for i in [i for i, x in enumerate(ids) if x == comms]:
            a = args[i]
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


WHOLE_LIMIT = 1 << 30  # bytes of JSON a rank file may have to be read whole; a larger one is read in blocks
_UNSET: Any = msgspec.UNSET


class _Complete(msgspec.Struct, tag_field="ph", tag="X", gc=False):
    """A complete event (``"ph": "X"``) as the one pass decodes it: :class:`JobEvent`'s fields but ``ph``, which
    is its tag."""

    name: str = ""
    cat: str = ""
    ts: float = math.nan
    dur: float = math.nan  # none written: the block reader refuses it, naming the event
    pid: int | str = 0
    tid: int | str = 0
    args: JobArgs | None = None


# Every other phase of the Chrome trace format is decoded into an empty struct, its fields skipped unread (a
# trace's flow events are a third of its events); a phase not named here makes the one pass refuse the file,
# and the block reader reads it.
_PHASES = ("B", "E", "i", "I", "C", "b", "n", "e", "s", "t", "f", "S", "T", "p", "F", "P", "N", "O", "D", "M",
           "V", "v", "R", "c", "(", ")")  # fmt: skip
_BEGIN_END = ("B", "E")
_OTHER: dict[str, type[msgspec.Struct]] = {
    ph: msgspec.defstruct(f"_Phase{i}", [], tag_field="ph", tag=ph, gc=False) for i, ph in enumerate(_PHASES)
}
_SKIPPED = frozenset(t for ph, t in _OTHER.items() if ph in _BEGIN_END)
if TYPE_CHECKING:
    _AnyEvent = Any
else:
    _AnyEvent = Union.__getitem__((_Complete, *_OTHER.values()))


class _Document(msgspec.Struct, gc=False):
    """A whole trace: its events and the header keys a job keeps; every other key is skipped unread."""

    traceEvents: list[_AnyEvent]  # noqa: N815 - the trace's own key
    distributedInfo: Any = _UNSET  # noqa: N815
    schemaVersion: Any = _UNSET  # noqa: N815
    displayTimeUnit: Any = _UNSET  # noqa: N815
    traceName: Any = _UNSET  # noqa: N815
    deviceProperties: Any = _UNSET  # noqa: N815
    host_name: Any = _UNSET
    hostname: Any = _UNSET


_WHOLE = msgspec.json.Decoder(_Document)
_BARE = msgspec.json.Decoder(list[_AnyEvent])
_HEADER_KEYS = (*_KEEP_INFO, *HOST_KEYS)


def _whole_text(path: str) -> bytes | None:
    """The file's JSON text in one piece (gzip or plain), or None where the block reader should read it."""
    try:
        with open(path, "rb") as f:
            data = f.read(WHOLE_LIMIT + 1)
    except OSError:
        return None  # the block reader names the problem
    if len(data) > WHOLE_LIMIT:
        return None
    if not data.startswith(GZIP_MAGIC):
        return data
    d = zlib.decompressobj(wbits=31)
    try:
        text = d.decompress(data, WHOLE_LIMIT)
    except zlib.error:
        return None
    if not d.eof or d.unconsumed_tail or d.unused_data:
        return None  # truncated, too large, or several gzip members: the block reader's case
    return text


class _WholeReader(_JobReader):
    """The job reader over a text already in memory: one decode, one batch for the consumer."""

    def __init__(self, text: bytes, source: str) -> None:
        super().__init__(None, source, lambda: None)  # type: ignore[arg-type]
        self.text = text

    def whole(self) -> TraceEvents | None:
        """The events as :func:`_JobReader.run` gives them, or None where the text needs the block reader."""
        text = self.text
        first = text[:64].lstrip()[:1]
        events: list[Any]
        try:
            if first == b"{":
                doc = _WHOLE.decode(text)
                events = doc.traceEvents
                self._keep({k: v for k in _HEADER_KEYS if (v := getattr(doc, k)) is not _UNSET})
            elif first == b"[":
                events = _BARE.decode(text)
            else:
                return None
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return None
        self.text = b""
        complete = [e for e in events if type(e) is _Complete]
        if any(map(math.isnan, [e.ts for e in complete])) or not durations_ok(complete):
            return None  # the block reader names the event with no start, or no duration of 0 or more
        consumer = self.consumer
        assert isinstance(consumer, JobConsumer)
        consumer.consume_complete(cast("list[Event]", complete), len(events))
        consumer.skipped_begin_end += (
            sum(1 for e in events if type(e) in _SKIPPED) if len(complete) < len(events) else 0
        )
        if self.builder.complete_events == 0:
            return None  # the block reader says what the trace lacks
        out = self.consumer.finish()
        if self.consumer.skipped_begin_end:
            out.info["skipped_begin_end"] = self.consumer.skipped_begin_end
        return out


def read_rank_trace(path: str, source: str, progress: Progress | None = None) -> tuple[GraphTrace, dict[int, CommArgs]]:
    """The trace at ``path`` with its dependencies, and what ``record_param_comms`` says of its collectives
    (by CPU row). Read whole when it fits, else (or when the one pass refuses it) by the block reader."""
    events: TraceEvents | None = None
    text = _whole_text(path)
    reader: _JobReader
    if text is not None:
        whole = reader = _WholeReader(text, source)
        del text
        events = whole.whole()
        if events is not None and progress is not None:
            progress(1, 1)
    if events is None:
        with open_stream(path, source, progress) as (stream, tick):
            reader = _JobReader(stream, source, tick)
            events = reader.run()
    consumer = reader.consumer
    assert isinstance(consumer, JobConsumer)
    return GraphTrace(events, consumer.deps.finish(events)), consumer.comms


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
    trace, comms = read_rank_trace(path, source, progress)
    found = rank_of(trace)
    number = found if found is not None else rank if rank is not None else 0
    return build_rank_graph(trace, source, number, step, speedups, comms, only_steps)
