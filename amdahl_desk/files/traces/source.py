"""Opening a trace file: plain or gzip (told by its content), with progress and cancellation per block read."""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import BinaryIO

from ...model.traces.errors import Cancelled, TraceError

# progress(done, total) — bytes of the file read so far and its size; return False to cancel
Progress = Callable[[int, int], "bool | None"]
GZIP_MAGIC = b"\x1f\x8b"


@contextmanager
def open_stream(
    path: str, source: str, progress: Progress | None = None
) -> Iterator[tuple[BinaryIO, Callable[[], None]]]:
    """A readable stream of the file's (decompressed) bytes and a ``tick()`` that reports progress.

    ``tick`` raises :class:`Cancelled` when the progress callback returns False.
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed below, after the stream built on it
    except OSError as exc:
        raise TraceError(f"cannot open the file ({exc.strerror or exc})", source) from None
    try:
        total = os.fstat(raw.fileno()).st_size
        gz = raw.read(2) == GZIP_MAGIC
        raw.seek(0)
        stream: BinaryIO = _GzipChecked(raw, source) if gz else raw  # type: ignore[assignment]

        def tick() -> None:
            if progress is not None and progress(raw.tell(), total) is False:
                raise Cancelled()

        tick()
        yield stream, tick
    finally:
        raw.close()


class _GzipChecked:
    """A gzip reader whose errors name the file instead of escaping as zlib or EOF errors."""

    def __init__(self, raw: BinaryIO, source: str) -> None:
        self._gz = gzip.GzipFile(fileobj=raw, mode="rb")
        self._source = source
        self._truncated = False

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all with -1). A stream that ends early gives what it holds first: the reader parses
        the events up to the cut, and the next read refuses the file there."""
        if self._truncated:
            raise TraceError("the gzip stream ends early: the file is truncated", self._source)
        parts: list[bytes] = []
        got = 0
        try:
            while size < 0 or got < size:
                chunk = self._gz.read1(size - got if size >= 0 else -1)
                if not chunk:
                    break
                parts.append(chunk)
                got += len(chunk)
        except EOFError:
            self._truncated = True
            if not parts:
                raise TraceError("the gzip stream ends early: the file is truncated", self._source) from None
        except (gzip.BadGzipFile, zlib.error, OSError) as exc:
            raise TraceError(f"this is not a valid gzip file ({exc})", self._source) from None
        return b"".join(parts)
