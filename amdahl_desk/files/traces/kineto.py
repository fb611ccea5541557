"""Streaming reader of Chrome/PyTorch (Kineto) traces, .json or .json.gz, in bounded memory.

The ``traceEvents`` array is cut into blocks of whole events at ``}, {`` boundaries and each block
is decoded by msgspec into small structs of the few fields the import needs (unknown fields are
skipped without being built). A block that does not decode — a cut inside an event's nested
arguments, a string-typed number, broken JSON — is re-read event by event with the standard
library, which either tolerates it or names the event and byte where it is broken.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, BinaryIO

import msgspec

from ...model.errors import Place, Problem, Refusal
from ...model.traces.errors import TraceError
from ...model.traces.events import TraceBuilder, TraceEvents
from .json_depth import too_deep
from .kineto_events import Consumer, Event, lenient_event
from .source import Progress, open_stream

BLOCK = 4 << 20  # bytes read at a time: large enough to amortise decoding, small next to a trace
_WS = b" \t\r\n"
_EVENTS_KEY = re.compile(rb'"traceEvents"\s*:\s*\[')
_HEADER_LIMIT = 256 << 20
_CUT_SLACK = 1 << 20  # a JSON error this close to a block's end may be a cut inside an event, not a mistake
_KEEP_INFO = ("distributedInfo", "schemaVersion", "displayTimeUnit", "traceName", "deviceProperties")


def _last_boundary(buf: bytearray, floor: int) -> tuple[int, int] | None:
    """(end of the last event, start of the next) for the last ``}`` , ``{`` in ``buf`` after ``floor``."""
    end = len(buf)
    while True:
        comma = buf.rfind(b",", floor, end)
        if comma < 0:
            return None
        i = comma - 1
        while i >= floor and buf[i] in _WS:
            i -= 1
        j = comma + 1
        while j < len(buf) and buf[j] in _WS:
            j += 1
        if i >= floor and buf[i] == 0x7D and j < len(buf) and buf[j] == 0x7B:
            return i + 1, j
        end = comma


class _Reader:
    """The block reader; a subclass that needs more of each event swaps the three hooks below."""

    event_type: type[Event] = Event  # what msgspec decodes each event into
    consumer_type: type[Consumer] = Consumer  # what takes the decoded events
    lenient = staticmethod(lenient_event)  # an event from a dict, when a block is read event by event

    def __init__(self, stream: BinaryIO, source: str, tick: Callable[[], None]) -> None:
        self.stream = stream
        self.source = source
        self.tick = tick
        self.builder = TraceBuilder()
        self.consumer = self.consumer_type(self.builder, source)
        self.decoder = msgspec.json.Decoder(list[self.event_type])  # type: ignore[name-defined]
        self.offset = 0  # byte offset (in the JSON text) of the start of ``buf``
        self.read_bytes = 0  # bytes of the JSON text read so far

    def read(self) -> bytes:
        """The next block of the JSON text; a file that ends early (a truncated gzip stream) is refused at the byte of
        the JSON text where it ends."""
        reached = Place.at("byte", self.read_bytes + 1)
        try:
            data = self.stream.read(BLOCK)
        except (OSError, EOFError) as exc:
            raise TraceError(
                f"the file cannot be read to its end ({exc}); it may be truncated", self.source, reached
            ) from None
        except TraceError as exc:
            if exc.problems[0].where:
                raise
            raise TraceError(exc.problems[0], self.source, reached) from None
        self.read_bytes += len(data)
        return data

    def run(self) -> TraceEvents:
        buf = bytearray(self.read())
        if not buf.strip():
            raise TraceError("the file is empty; expected a PyTorch/Chrome trace (JSON)", self.source)
        first = next(i for i, c in enumerate(buf) if c not in _WS)
        if buf[first] == 0x5B:  # a bare JSON array of events (Chrome's "JSON Array Format")
            bare = True
            start = first + 1
        elif buf[first] == 0x7B:
            bare = False
            while (m := _EVENTS_KEY.search(buf)) is None:
                more = self.read()
                if not more or len(buf) > _HEADER_LIMIT:
                    self._not_a_trace(buf, more)
                buf += more
            self._header(bytes(buf[first + 1 : m.start()]), first + 1)
            start = m.end()
        else:
            raise TraceError(
                "this is not JSON (it does not start with { or [); expected a PyTorch/Chrome trace", self.source
            )
        self.offset = start
        del buf[:start]
        at_end = False
        while not at_end:
            more = self.read()
            at_end = not more
            buf += more
            self.tick()  # after the read, before decoding: progress shows from the first block
            cut = _last_boundary(buf, 0)
            if cut is not None:
                state, at = self._block(buf, cut[0])
                if state == "closed":  # the events ended inside this block: the rest is the header's tail
                    self.offset += at
                    del buf[:at]
                    while more := self.read():
                        buf += more
                    break
                at = cut[1] if state == "done" else at  # "partial": a cut inside an event; keep its start
                self.offset += at
                del buf[:at]
            if not at_end and len(buf) > 4 * BLOCK and cut is None:
                raise TraceError("an event is larger than 16 MB; this does not look like a trace", self.source)
        self._finish(buf, bare)
        if self.builder.complete_events == 0:
            raise TraceError(Problem.typed(Refusal.NO_COMPLETE_EVENTS, self.consumer.count), self.source)
        events = self.consumer.finish()
        if self.consumer.skipped_begin_end:
            events.info["skipped_begin_end"] = self.consumer.skipped_begin_end
        return events

    def _not_a_trace(self, buf: bytearray, more: bytes) -> None:
        if len(buf) > _HEADER_LIMIT:
            raise TraceError('no "traceEvents" in the first 256 MB; this is not a PyTorch/Chrome trace', self.source)
        try:
            json.loads(bytes(buf))
        except (ValueError, UnicodeDecodeError) as exc:
            raise TraceError(f"this is not valid JSON ({exc}); expected a PyTorch/Chrome trace", self.source) from None
        except RecursionError:
            raise too_deep(bytes(buf), self.source) from None
        raise TraceError(
            'this JSON has no "traceEvents" list; expected a PyTorch/Chrome trace (or a speedscope profile)',
            self.source,
        )

    def _header(self, text: bytes, offset: int) -> None:
        offset += len(text) - len(text.lstrip())
        text = text.strip().rstrip(b",")
        if not text:
            return
        try:
            header = msgspec.json.decode(b"{" + text + b"}")
        except msgspec.DecodeError:
            raise TraceError(
                "the trace's header (before traceEvents) is not valid JSON", self.source, "byte 1"
            ) from None
        except RecursionError:
            raise too_deep(text, self.source, offset, "the trace's header (before traceEvents)") from None
        self._keep(header)

    def _keep(self, info: Any) -> None:
        if isinstance(info, dict):
            for key in _KEEP_INFO:
                if key in info:
                    self.builder.info[key] = info[key]

    def _block(self, buf: bytearray, end: int) -> tuple[str, int]:
        """Decode the events in ``buf[:end]``: ("done", 0), ("closed", byte of the events' ``]``) or
        ("partial", byte where an event cut in two starts)."""
        text = b"[" + buf[:end] + b"]"
        try:
            events = self.decoder.decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return self._lenient(bytes(buf[:end]), self.offset)
        except RecursionError:
            raise too_deep(bytes(buf[:end]), self.source, self.offset, "an event") from None
        self.consumer.consume(events)
        return "done", 0

    def _lenient(self, data: bytes, offset: int) -> tuple[str, int]:
        """Events one by one with the standard library: tolerant of odd types, exact about broken JSON."""
        text = _text(data, self.source, offset)
        decoder = json.JSONDecoder()
        pos, n = 0, len(text)
        batch: list[Event] = []
        while True:
            while pos < n and text[pos] in " \t\r\n":
                pos += 1
            if pos >= n:
                break
            if text[pos] == "]":
                self.consumer.consume(batch)
                return "closed", len(text[:pos].encode("utf-8"))
            where = Place("event {} (byte {})", (self.consumer.count + len(batch) + 1, offset + pos))
            try:
                raw, end = decoder.raw_decode(text, pos)
            except RecursionError:
                raise too_deep(data, self.source, offset, "an event") from None
            except json.JSONDecodeError as exc:
                if n - exc.pos < _CUT_SLACK:  # an event cut at a "}, {" inside it: read on
                    self.consumer.consume(batch)
                    return "partial", len(text[:pos].encode("utf-8"))
                raise TraceError(
                    f"broken JSON: {exc.msg}", self.source, where.then(", near byte {}", offset + exc.pos)
                ) from None
            pos = end
            batch.append(self.lenient(raw, where, self.source))
            while pos < n and text[pos] in " \t\r\n":
                pos += 1
            if pos < n and text[pos] == "]":
                self.consumer.consume(batch)
                return "closed", len(text[:pos].encode("utf-8"))
            if pos < n:
                if text[pos] != ",":
                    raise TraceError('expected "," between events', self.source, Place.at("byte", offset + pos))
                pos += 1
        self.consumer.consume(batch)
        return "done", 0

    def _finish(self, buf: bytearray, bare: bool) -> None:
        """The last event(s), the closing ``]`` and whatever follows the events (more header keys)."""
        text = _text(bytes(buf), self.source, self.offset)
        decoder = json.JSONDecoder()
        pos, n = 0, len(text)
        batch: list[Event] = []

        def skip(p: int) -> int:
            while p < n and text[p] in " \t\r\n":
                p += 1
            return p

        pos = skip(pos)
        truncated = Problem.typed(Refusal.TRACE_TRUNCATED, self.consumer.count)
        while pos < n and text[pos] != "]":
            where = Place("event {} (byte {})", (self.consumer.count + len(batch) + 1, self.offset + pos))
            try:
                raw, pos = decoder.raw_decode(text, pos)
            except RecursionError:
                raise too_deep(bytes(buf), self.source, self.offset, "an event") from None
            except json.JSONDecodeError as exc:
                if exc.pos >= n - 1 or "Unterminated" in exc.msg:
                    raise TraceError(truncated, self.source, where) from None
                raise TraceError(
                    f"broken JSON: {exc.msg}", self.source, where.then(", near byte {}", self.offset + exc.pos)
                ) from None
            batch.append(self.lenient(raw, where, self.source))
            pos = skip(pos)
            if pos < n and text[pos] == ",":
                pos = skip(pos + 1)
        self.consumer.consume(batch)
        if pos >= n:
            if bare:
                return  # Chrome's array format may omit the closing bracket
            raise TraceError(truncated, self.source, Place.at("byte", self.offset + pos))
        rest = text[pos + 1 :].strip()
        if bare:
            if rest:
                raise TraceError(
                    "unexpected text after the events' closing ]", self.source, Place.at("byte", self.offset + pos + 1)
                )
            return
        if not rest.endswith("}"):
            raise TraceError("the file ends before the trace's closing }: it is truncated", self.source)
        rest = rest[:-1].strip().lstrip(",")
        if rest.strip():
            try:
                self._keep(json.loads("{" + rest + "}"))
            except ValueError:
                raise TraceError("the keys after traceEvents are not valid JSON", self.source) from None
            except RecursionError:
                raise too_deep(bytes(buf), self.source, self.offset, "the keys after traceEvents") from None


def _text(data: bytes, source: str, offset: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError("the text is not UTF-8", source, Place.at("byte", offset + exc.start)) from None


def read_kineto(path: str, source: str, progress: Progress | None = None) -> TraceEvents:
    """Read the trace at ``path`` (plain or gzipped JSON); ``source`` names it in messages."""
    with open_stream(path, source, progress) as (stream, tick):
        return _Reader(stream, source, tick).run()
